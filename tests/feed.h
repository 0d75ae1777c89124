/* feed.h - an input handed to a bl_read_fn reader in uneven reads (each
 * read's size follows from the one before, up to `limit`), so that chunk,
 * message and window ends fall anywhere in the text. Shared by the unit
 * tests and the fuzz targets. */
#ifndef BL_TEST_FEED_H
#define BL_TEST_FEED_H

#include <stddef.h>
#include <string.h>

struct feed {
	const char *s;
	size_t len, pos;
	size_t step; /* the first read's size */
	size_t limit; /* reads stay under it (0: 4093) */
};

static long feed_read(void *ctx, char *buf, size_t cap)
{
	struct feed *f = ctx;
	size_t n = f->len - f->pos;
	if (n > f->step)
		n = f->step;
	if (n > cap)
		n = cap;
	memcpy(buf, f->s + f->pos, n);
	f->pos += n;
	f->step = f->step * 7 % (f->limit ? f->limit : 4093) + 1;
	return (long)n;
}

#endif
