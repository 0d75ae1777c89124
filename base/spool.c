/* spool.c - see spool.h. */
#include "spool.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "buf.h"
#include "tmp.h"

/* The most address space to reserve: all of BL_SPOOL_RESERVE, or an
 * eighth of a limit on it, which the reservation counts against. */
static size_t reserve_at_most(void)
{
	struct rlimit rl;
	size_t most = BL_SPOOL_RESERVE;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 8 < most)
		most = (size_t)(rl.rlim_cur / 8);
	return most / BL_SPOOL_CHUNK * BL_SPOOL_CHUNK;
}

int bl_spool_init(struct bl_spool *s)
{
	return bl_spool_init_within(s, reserve_at_most());
}

int bl_spool_init_within(struct bl_spool *s, size_t most)
{
	*s = (struct bl_spool){.fd = -1, .slot = -1};
	void *p = MAP_FAILED;
	size_t n = most / BL_SPOOL_CHUNK * BL_SPOOL_CHUNK;
	for (; n >= 16 * BL_SPOOL_CHUNK; n /= 2)
		if ((p = mmap(NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			      0)) != MAP_FAILED)
			break;
	if (p == MAP_FAILED) {
		errno = ENOMEM;
		return -1;
	}
	s->base = p;
	s->reserved = n;
	s->slot = bl_mapped_register(p);
	s->fd = s->slot >= 0 ? bl_temp_fd("stash") : -1;
	return 0;
}

/* The chunk at `from`, back from the file into buf: the chunks are
 * written in order, each whole, so its bytes are there. */
static void read_back(int fd, char *buf, size_t from)
{
	for (size_t n = BL_SPOOL_CHUNK; n;) {
		ssize_t r = pread(fd, buf, n, (off_t)from);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		buf += r;
		n -= (size_t)r;
		from += (size_t)r;
	}
}

/* No more chunks to the file: they stay in memory from here on. */
static void stop_filing(struct bl_spool *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* The chunk just filled, written to the file and mapped from there over
 * its pages in memory, which go. It stays in memory when it cannot be
 * written (a full disk), and so does every chunk after it: what is read
 * from the file is the reservation's start. */
static void seal(struct bl_spool *s)
{
	size_t from = s->end - BL_SPOOL_CHUNK;
	char *p = s->base + from;
	if (s->fd < 0 || s->sealed != from)
		return;
	/* the file takes the chunks in order: it ends at `from` */
	if (bl_write_fd(s->fd, p, BL_SPOOL_CHUNK) != BL_SPOOL_CHUNK) {
		stop_filing(s);
		return;
	}
	if (mmap(p, BL_SPOOL_CHUNK, PROT_READ, MAP_PRIVATE | MAP_FIXED, s->fd, (off_t)from) ==
	    MAP_FAILED) {
		/* a failed MAP_FIXED may have taken the chunk's pages with it:
		 * its bytes back from the file, in memory */
		if (mmap(p, BL_SPOOL_CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
			read_back(s->fd, p, from);
		stop_filing(s);
		return;
	}
	s->sealed = s->end;
	bl_mapped_resize(s->slot, s->sealed);
}

/* The chunk being filled closed (sealed, no room left in it) and the
 * next one opened; -1 when the reservation is used up or memory ran
 * out. */
static int next_chunk(struct bl_spool *s)
{
	if (s->open) {
		seal(s);
		s->open = false;
		s->at = s->end;
	}
	if (s->reserved - s->end < BL_SPOOL_CHUNK) {
		errno = ENOMEM;
		return -1;
	}
	if (mprotect(s->base + s->end, BL_SPOOL_CHUNK, PROT_READ | PROT_WRITE) != 0)
		return -1;
	s->open = true;
	s->at = s->end;
	s->end += BL_SPOOL_CHUNK;
	return 0;
}

void *bl_spool_alloc(struct bl_spool *s, size_t n)
{
	if (n > BL_SPOOL_CHUNK || !s->base) {
		errno = ENOMEM;
		return NULL;
	}
	if (s->end - s->at < n && next_chunk(s) < 0)
		return NULL;
	void *p = s->base + s->at;
	s->at += n;
	return p;
}

void bl_spool_free(struct bl_spool *s)
{
	if (s->slot >= 0)
		bl_mapped_unregister(s->slot);
	if (s->base)
		munmap(s->base, s->reserved);
	if (s->fd >= 0)
		close(s->fd);
	*s = (struct bl_spool){.fd = -1, .slot = -1};
}
