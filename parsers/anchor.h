/* anchor.h - finds the lines worth offering to a parser, fast.
 *
 * Every parser has an anchor pattern. Running the alternation of all of
 * them over a whole archive costs a regex step per byte, and archives are
 * mostly prose. So the anchors are the patterns of the parsers' site plan
 * (base/sites.h): the site pass finds their needles, with the
 * unflattener's literals and the system reader's marks, in one pass over
 * a message, and the scan runs the JIT-compiled alternation only on the
 * lines that hold a needle. A parser whose anchor yields no needle is
 * still found, by the plain regex over the whole text: correct, only
 * slower.
 *
 * Contract for anchors (parser.h): a match lies within one line and within
 * about 1 KB of its needle. */
#ifndef BL_ANCHOR_H
#define BL_ANCHOR_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/message.h"
#include "../base/sites.h"

/* A hit: anchor of parser `parser` matched text[start, end). */
struct bl_anchor_hit {
	size_t start, end;
	size_t parser;
};

/* bl_sites_of_message() and bl_marks_of_message() with the parsers' site
 * plan (bl_parser_sites(), parser.h). */
const struct bl_sites *bl_message_sites(struct bl_message *msg);
const struct bl_sites *bl_message_marks(struct bl_message *msg);

/* The per-message state of a scan; the compiled patterns are shared. */
struct bl_anchor_scan;

struct bl_anchor_scan *bl_anchor_scan_new(struct bl_message *msg);
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

#endif
