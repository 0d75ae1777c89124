/* anchor.h - finds the lines worth offering to a parser, fast.
 *
 * Every parser has an anchor pattern. Running the alternation of all of
 * them over a whole archive costs a regex step per byte, and archives are
 * mostly prose. So each anchor is first reduced to needles: for every
 * top-level branch, the most selective run of bytes that any match must
 * contain ("bytes transferred in ", "\d+\d" for "64+0 records in", ", \d"
 * for GNU dd's summary). The scan looks for the needles' three-byte
 * windows 32 positions at a time (AVX2 nibble tables of 16 buckets, or a
 * portable vector pass), verifies a find against its needle, and runs the
 * JIT-compiled alternation only on the lines that hold one.
 * A parser whose anchor yields no needle (an inline option, an escape the
 * reduction does not know) is still found, by the plain regex over the
 * whole text: correct, only slower.
 *
 * Contract for anchors (parser.h): a match lies within one line and within
 * about 1 KB of its needle. */
#ifndef BL_ANCHOR_H
#define BL_ANCHOR_H

#include <stdbool.h>
#include <stddef.h>

#include "../ingest/message.h"

#define BL_NEEDLE_MAX 48 /* tokens in one needle */
#define BL_NEEDLE_DIGIT 0x100 /* token: any ASCII digit */

struct bl_needle {
	unsigned short tok[BL_NEEDLE_MAX]; /* byte, or BL_NEEDLE_DIGIT */
	size_t ntok;
	size_t key_at, key_len; /* the longest run of literal bytes, searched */
	char key[BL_NEEDLE_MAX];
	size_t parser;          /* index in bl_parsers */
	size_t branch_off, branch_len; /* the branch of the anchor it stands for */
	/* where the branch goes on after the needle's last token (an offset
	 * in the branch), or SIZE_MAX when that token repeats */
	size_t after_at;
};

/* Reduces an anchor pattern to one needle per top-level branch. Returns
 * the number of needles written (at most max), or -1 when some branch has
 * no usable needle or the pattern uses syntax the reduction does not know
 * (then the anchor runs as a plain regex). */
int bl_anchor_needles(const char *anchor, struct bl_needle *out, size_t max);

/* A hit: anchor of parser `parser` matched text[start, end). */
struct bl_anchor_hit {
	size_t start, end;
	size_t parser;
};

/* The per-message state of a scan; the compiled patterns are shared. */
struct bl_anchor_scan;

struct bl_anchor_scan *bl_anchor_scan_new(const struct bl_message *msg);
/* The first hit starting at or after `pos`; false when there is none (or
 * a pattern could not be compiled). `pos` must not decrease between calls
 * and must be on a character boundary. */
bool bl_anchor_next(struct bl_anchor_scan *s, size_t pos, struct bl_anchor_hit *h);
/* True when a search gave up (PCRE2's match or depth limit on hostile
 * text) instead of saying "no match"; *where is the offset it started at. */
bool bl_anchor_incomplete(const struct bl_anchor_scan *s, size_t *where);
void bl_anchor_scan_free(struct bl_anchor_scan *s);

/* For tests: with the prefilter off, every anchor runs as a plain regex
 * over the whole text (the reference the prefilter must agree with). */
void bl_anchor_set_prefilter(bool on);
/* For tests: the portable needle pass even where the AVX2 one runs. */
void bl_anchor_set_portable(bool on);

#endif
