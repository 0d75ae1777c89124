/* tbuf.h - decoded text under construction, with its offset map.
 *
 * Every decoder reads a `struct bl_src` (bytes plus a map from each byte to
 * its offset in the message's original bytes) and appends to a
 * `struct bl_tbuf`, giving each output byte the origin of the input byte
 * it came from. The map of the output is therefore already composed with
 * the map of the input: chaining decoders never loses the way back to the
 * original file.
 *
 * A map is a sorted list of segments (see struct bl_offset_seg in
 * message.h): from text offset t0 on, text byte t came from original byte
 * r0 + (step + 1) (t - t0), its step 0 to 3, until the next segment.
 * Copies of contiguous input cost one segment; a decoder that maps
 * several input bytes to one ("=3D" to "=") costs a segment where the
 * mapping jumps. */
#ifndef BL_TBUF_H
#define BL_TBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "message.h"

/* Decoded text of one message may not grow past this (bytes): a hostile
 * base64 part cannot exhaust memory. */
#define BL_TBUF_MAX ((size_t)1 << 31)

struct bl_tbuf {
	char *s; /* NUL-terminated when finished */
	size_t len, cap;
	struct bl_offset_seg *segs;
	size_t nsegs, segcap;
	bool failed; /* out of memory, or too long (below) */
	bool too_long; /* past BL_TBUF_MAX, or a map past 1 GB (BL_SEG_RAW_MAX) */
};

/* Input of a decoder: a view of bytes and their map (both borrowed). */
struct bl_src {
	const char *s;
	size_t len;
	const struct bl_offset_seg *segs; /* NULL: byte i came from offset base + i */
	size_t nsegs;
	size_t base;
	size_t shift; /* map coordinate of s[0] (sub-views) */
	size_t cursor; /* segment hint for monotone lookups */
};

/* For tests: a smaller limit than BL_TBUF_MAX (0: BL_TBUF_MAX again). */
void bl_tbuf_set_max(size_t max);

void bl_tbuf_init(struct bl_tbuf *b);
void bl_tbuf_free(struct bl_tbuf *b);
/* Reserves room for n more bytes; false when memory ran out. */
bool bl_tbuf_reserve(struct bl_tbuf *b, size_t n);

/* Appends one byte that came from original offset `origin` (a byte that
 * takes the one before it the same number of bytes on as that one took
 * the byte before it, 2 to 4, goes on the same segment: escapes of
 * quoted-printable one after another cost one). */
void bl_tbuf_putc(struct bl_tbuf *b, char c, size_t origin);
/* Appends n bytes whose origins are origin, origin+1, ... */
void bl_tbuf_put(struct bl_tbuf *b, const char *s, size_t n, size_t origin);
/* Appends n bytes whose origins are origin, origin + unit, ... (ASCII
 * from UTF-16, unit 2, or UTF-32, unit 4: a wide segment). */
void bl_tbuf_put_wide(struct bl_tbuf *b, const char *s, size_t n, size_t origin, size_t unit);
/* Appends n bytes (a replacement such as U+FFFD) that stand for the bytes
 * from `origin` on: one map segment; lookups inside it never go past the
 * origin of what follows. */
void bl_tbuf_put_at(struct bl_tbuf *b, const char *s, size_t n, size_t origin);
/* Appends src bytes [off, off+n), each with its own origin. */
void bl_tbuf_copy(struct bl_tbuf *b, struct bl_src *src, size_t off, size_t n);

/* A source over the buffer's current contents (borrowed: do not append to
 * b while the view is in use). */
void bl_src_from_tbuf(struct bl_src *src, const struct bl_tbuf *b);
/* A source over plain bytes: byte i came from offset base + i. */
void bl_src_plain(struct bl_src *src, const char *s, size_t len, size_t base);
/* A sub-view [off, off+len) of src, keeping its map. */
void bl_src_sub(struct bl_src *out, const struct bl_src *src, size_t off, size_t len);
/* Original offset of src byte `off` (off == len gives the end). */
size_t bl_src_origin(struct bl_src *src, size_t off);

/* Moves the finished buffer into the message (text, len, segs), freeing
 * what the message held; b is left empty. */
void bl_tbuf_to_message(struct bl_tbuf *b, struct bl_message *m);

#endif
