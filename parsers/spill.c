/* spill.c - bytes kept to be written later (see spill.h).
 *
 * A file part is a descriptor written and read without stdio: the
 * writer hands over 64 KB at a time already, and stdio's 4 KB buffer
 * split each into two calls. */
#include "spill.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/tmp.h"

/* bytes read back from a file part at a time */
#define READ_BACK ((size_t)1 << 20)

static void part_free(struct bl_spill_part *p)
{
	bl_buf_free(&p->mem);
	if (p->in_file)
		close(p->fd);
	p->in_file = false;
}

static bool part_empty(const struct bl_spill_part *p)
{
	return !p->in_file && !p->mem.n;
}

/* Moves the part's bytes from memory to a temporary file. */
static int to_file(struct bl_spill_part *p)
{
	int fd = bl_temp_fd("spill");
	if (fd < 0)
		return -1;
	p->fd = fd;
	p->in_file = true;
	if (bl_write_fd(fd, p->mem.p, p->mem.n) != p->mem.n)
		return -1;
	bl_buf_free(&p->mem);
	return 0;
}

int bl_spill_write(const char *buf, size_t n, void *ctx)
{
	struct bl_spill_part *p = &((struct bl_spill *)ctx)->cur;
	if (!p->in_file && p->mem.n + n > BL_SPILL_MEM && to_file(p) < 0)
		return -1;
	if (p->in_file)
		return bl_write_fd(p->fd, buf, n) == n ? 0 : -1;
	return bl_buf_put(&p->mem, buf, n) ? 0 : -1;
}

bool bl_spill_in_file(const struct bl_spill *sp)
{
	if (sp->cur.in_file)
		return true;
	for (size_t i = 0; i < sp->ndone; i++)
		if (sp->done[i].in_file)
			return true;
	return false;
}

bool bl_spill_adopt(struct bl_spill *to, struct bl_spill *from)
{
	size_t need = !part_empty(&to->cur) + from->ndone;
	if (to->ndone + need > BL_SPILL_PARTS)
		return false;
	if (!part_empty(&to->cur))
		to->done[to->ndone++] = to->cur;
	else
		part_free(&to->cur);
	for (size_t i = 0; i < from->ndone; i++)
		to->done[to->ndone++] = from->done[i];
	/* written on where from ends: a file stands at its end */
	to->cur = from->cur;
	memset(from, 0, sizeof *from);
	return true;
}

/* A file part's bytes, read back in large pieces: a writer takes a piece
 * larger than its own buffer as it is, without copying it. */
static int file_copy(int fd, int (*write)(const char *, size_t, void *), void *ctx)
{
	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	char *buf = malloc(READ_BACK);
	if (!buf)
		return -1;
	int rc = 0;
	for (;;) {
		ssize_t got = read(fd, buf, READ_BACK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got < 0 ? -1 : 0;
			break;
		}
		if (write(buf, (size_t)got, ctx) != 0) {
			rc = -1;
			break;
		}
	}
	free(buf);
	return rc;
}

static int part_copy(struct bl_spill_part *p, int (*write)(const char *, size_t, void *), void *ctx)
{
	if (p->in_file)
		return file_copy(p->fd, write, ctx);
	return p->mem.n ? write(p->mem.p, p->mem.n, ctx) : 0;
}

int bl_spill_copy(struct bl_spill *sp, int (*write)(const char *, size_t, void *), void *ctx)
{
	for (size_t i = 0; i < sp->ndone; i++)
		if (part_copy(&sp->done[i], write, ctx) != 0)
			return -1;
	return part_copy(&sp->cur, write, ctx);
}

void bl_spill_free(struct bl_spill *sp)
{
	for (size_t i = 0; i < sp->ndone; i++)
		part_free(&sp->done[i]);
	part_free(&sp->cur);
	sp->ndone = 0;
}
