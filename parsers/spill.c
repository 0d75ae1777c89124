/* spill.c - bytes kept to be written later (see spill.h). */
#include "spill.h"

#include <string.h>
#include <unistd.h>

#include "../base/tmp.h"

static void part_free(struct bl_spill_part *p)
{
	bl_buf_free(&p->mem);
	if (p->f)
		fclose(p->f);
	p->f = NULL;
}

static bool part_empty(const struct bl_spill_part *p)
{
	return !p->f && !p->mem.n;
}

/* Moves the part's bytes from memory to a temporary file. */
static int to_file(struct bl_spill_part *p)
{
	int fd = bl_temp_fd("spill");
	if (fd < 0)
		return -1;
	if (!(p->f = fdopen(fd, "w+"))) {
		close(fd);
		return -1;
	}
	if (fwrite(p->mem.p, 1, p->mem.n, p->f) != p->mem.n)
		return -1;
	bl_buf_free(&p->mem);
	return 0;
}

int bl_spill_write(const char *buf, size_t n, void *ctx)
{
	struct bl_spill_part *p = &((struct bl_spill *)ctx)->cur;
	if (!p->f && p->mem.n + n > BL_SPILL_MEM && to_file(p) < 0)
		return -1;
	if (p->f)
		return fwrite(buf, 1, n, p->f) == n ? 0 : -1;
	return bl_buf_put(&p->mem, buf, n) ? 0 : -1;
}

bool bl_spill_in_file(const struct bl_spill *sp)
{
	if (sp->cur.f)
		return true;
	for (size_t i = 0; i < sp->ndone; i++)
		if (sp->done[i].f)
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

static int part_copy(struct bl_spill_part *p, int (*write)(const char *, size_t, void *), void *ctx)
{
	if (!p->f)
		return p->mem.n ? write(p->mem.p, p->mem.n, ctx) : 0;
	if (fflush(p->f) != 0 || fseek(p->f, 0, SEEK_SET) != 0)
		return -1;
	char buf[1 << 16];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, p->f)) > 0)
		if (write(buf, got, ctx) != 0)
			return -1;
	return ferror(p->f) ? -1 : 0;
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
