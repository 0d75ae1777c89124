/* spill.c - bytes kept to be written later (see spill.h). */
#include "spill.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void part_free(struct bl_spill_part *p)
{
	free(p->mem);
	if (p->f)
		fclose(p->f);
	memset(p, 0, sizeof *p);
}

static bool part_empty(const struct bl_spill_part *p)
{
	return !p->f && !p->n;
}

/* An unlinked temporary file in $TMPDIR, as the other temporary files
 * (tmpfile() takes /tmp whatever TMPDIR says); NULL with errno set. */
static FILE *temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/benchlog-spill.XXXXXX", dir) >= sizeof path) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	unlink(path);
	FILE *f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}

/* Moves the part's bytes from memory to a temporary file. */
static int to_file(struct bl_spill_part *p)
{
	p->f = temp_file();
	if (!p->f || fwrite(p->mem, 1, p->n, p->f) != p->n)
		return -1;
	free(p->mem);
	p->mem = NULL;
	p->n = p->cap = 0;
	return 0;
}

int bl_spill_write(const char *buf, size_t n, void *ctx)
{
	struct bl_spill_part *p = &((struct bl_spill *)ctx)->cur;
	if (!p->f && p->n + n > BL_SPILL_MEM && to_file(p) < 0)
		return -1;
	if (p->f)
		return fwrite(buf, 1, n, p->f) == n ? 0 : -1;
	if (p->n + n > p->cap) {
		size_t cap = p->cap ? p->cap : 1 << 16;
		while (cap < p->n + n)
			cap *= 2;
		char *m = realloc(p->mem, cap);
		if (!m)
			return -1;
		p->mem = m;
		p->cap = cap;
	}
	memcpy(p->mem + p->n, buf, n);
	p->n += n;
	return 0;
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
		return p->n ? write(p->mem, p->n, ctx) : 0;
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
