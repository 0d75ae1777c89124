/* zrows.h - a zlib stream of PNG rows (render/zrows.c): begin, put the
 * bytes of the filtered rows (each row's filter byte first) in pieces,
 * end. Output goes into a struct bl_buf;
 * on out of memory the buffer's failed flag is set and end returns -1. */
#ifndef BL_RENDER_ZROWS_H
#define BL_RENDER_ZROWS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct bl_zrows {
	struct bl_buf *out;
	uint64_t bits; /* pending output bits, first bit lowest */
	unsigned nbits;
	uint32_t a, b; /* Adler-32 of the bytes so far */
	size_t total; /* bytes so far */
	unsigned char hist[3]; /* the last three of them */
	unsigned char *win; /* hist, then the current row */
	size_t cap;
	uint32_t lit[256]; /* fixed codes, bit-reversed, and lengths */
	uint8_t litlen[256];
	uint32_t match[259]; /* length code + extra bits + distance 3 */
	uint8_t matchlen[259];
	unsigned char stage[16384];
	size_t nstage;
};

void bl_zrows_begin(struct bl_zrows *z, struct bl_buf *out);
void bl_zrows_put(struct bl_zrows *z, const unsigned char *row, size_t len);
/* len zero bytes (a run of pixels like the ones above them). */
void bl_zrows_zeros(struct bl_zrows *z, size_t len);
/* Finishes the stream: 0, or -1 when a write failed. */
int bl_zrows_end(struct bl_zrows *z);

#endif
