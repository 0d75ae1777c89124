/* cuts.c - where the pieces of a large mbox end, found in the file
 * mapped into memory: the framing reads the bytes in place (a read()
 * copied every byte of the archive into the parent process, two thirds
 * of its time), and gives back the pages it has passed, so that the
 * mapping never holds more than a few megabytes.
 *
 * A file cut short while it is mapped makes the pages past its new end
 * fault (SIGBUS): the search is then made again with read(). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "cuts.h"

/* Pages the framing has passed are given back this many bytes at a
 * time. */
#define RELEASE_STEP ((size_t)4 << 20)

struct mapped {
	char *map; /* map[0] is input byte `off` */
	size_t off, released, page;
};

static void release(void *vm, size_t upto)
{
	struct mapped *m = vm;
	size_t to = (upto - m->off) / m->page * m->page;
	if (to >= m->released + RELEASE_STEP) {
		madvise(m->map + m->released, to - m->released, MADV_DONTNEED);
		m->released = to;
	}
}

static sigjmp_buf fault_jmp;

static void on_fault(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

/* The search in the mapped file: as bl_mbox_cuts, or 1 when the mapping
 * could not be made or faulted. */
static int mapped_cut(int fd, const struct bl_mbox_cut *at, size_t target, size_t size,
		      struct bl_mbox_cut *cut)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || at->offset >= size)
		return 1;
	size_t off = at->offset / (size_t)page * (size_t)page, len = size - off;
	char *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, (off_t)off);
	if (map == MAP_FAILED)
		return 1;
	madvise(map, len, MADV_SEQUENTIAL);
	struct mapped m = {map, off, 0, (size_t)page};
	struct sigaction sa = {.sa_handler = on_fault}, old;
	sigemptyset(&sa.sa_mask);
	int r = 1;
	if (sigaction(SIGBUS, &sa, &old) == 0) {
		/* the framing allocates nothing in memory mode: a jump out of
		 * it leaves nothing behind */
		if (sigsetjmp(fault_jmp, 1) == 0)
			r = bl_mbox_cuts_in(map + (at->offset - off), size - at->offset, at,
					    &target, 1, cut, release, &m);
		sigaction(SIGBUS, &old, NULL);
	}
	munmap(map, len);
	return r;
}

int cli_find_cut(const char *file, const struct bl_mbox_cut *at, size_t target, size_t size,
		 struct bl_mbox_cut *cut)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -2;
	int r = mapped_cut(fd, at, target, size, cut);
	if (r == 1) {
		r = lseek(fd, (off_t)at->offset, SEEK_SET) >= 0
			    ? bl_mbox_cuts(cli_read_chunk, &fd, at, &target, 1, cut)
			    : -2;
	}
	int e = errno;
	close(fd);
	errno = e;
	return r;
}
