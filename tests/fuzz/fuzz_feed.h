/* fuzz_feed.h - a fuzz input handed to bl_ingest_stream in uneven reads
 * (each read's size follows from the one before), so that chunk and
 * window ends fall anywhere in the text. */
#ifndef BL_FUZZ_FEED_H
#define BL_FUZZ_FEED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct feed {
	const uint8_t *data;
	size_t size, pos, step;
};

static long feed_read(void *ctx, char *buf, size_t cap)
{
	struct feed *f = ctx;
	size_t n = f->size - f->pos;
	if (n > f->step)
		n = f->step;
	if (n > cap)
		n = cap;
	memcpy(buf, f->data + f->pos, n);
	f->pos += n;
	f->step = f->step * 7 % 4093 + 1;
	return (long)n;
}

#endif
