/* anchor.h - finds the lines worth offering to a parser, fast.
 *
 * Every parser has an anchor pattern. Running the alternation of all of
 * them over a whole archive costs a regex step per byte, and archives are
 * mostly prose. So each anchor is first reduced to needles: for every
 * top-level branch, the most selective run of bytes that any match must
 * contain ("bytes transferred in ", "\d+\d" for "64+0 records in", ", \d"
 * for GNU dd's summary). The scan looks for the needles' four-token
 * windows 64 positions a step (AVX2 nibble tables of 16 buckets, or a
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
#include <stdint.h>

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
	/* where in the branch its first token starts, or SIZE_MAX when that
	 * token is the last copy of one that repeats */
	size_t before_at;
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

/* The places of a text that the anchor scan, the system reader and the
 * unflattener look at, found in one pass over it (the vector pass above,
 * with the unflattener's literals among its needles and the system
 * reader's marks looked up from the same loads):
 *   - each needle found, as the scan takes them: in the order of the
 *     positions tested, then of the needles;
 *   - the starts of each of the unflattener's literals (bl_tool_literal()
 *     in unflatten.h: "bytes/sec)", "real", ", " before a digit ...);
 *   - the system reader's marks (bl_system_marks in system.h), a bit each;
 *   - whether a line is BL_UNFLATTEN_MIN bytes long or longer.
 * Prose passes the pass with a few finds a kilobyte; the readers then look
 * only there. */
#define BL_TOOL_MAX 16

struct bl_site_list {
	size_t *v;
	size_t n, cap;
};

struct bl_sites {
	size_t *q;             /* where the vector pass found needle needle[k] */
	unsigned char *needle; /* (q is the start of its tested window) */
	size_t n, cap;
	struct bl_site_list tool[BL_TOOL_MAX]; /* each literal's starts, ascending */
	uint64_t *sys;         /* bit k of word w: a mark at text offset 64w + k */
	size_t nsys;           /* words */
	size_t syscap;         /* words allocated */
	size_t len;            /* the length of the text they are of */
	bool long_line;        /* a line of BL_UNFLATTEN_MIN bytes or more */
	bool failed;           /* memory ran out: nothing above can be trusted */
	unsigned gen;          /* the needle tables it was found with */
};

/* The sites of text[0, len), which BL_TEXT_PAD zero bytes follow (the
 * vector loads read past the end). NULL when memory ran out. */
struct bl_sites *bl_sites_find(const char *text, size_t len);
void bl_sites_free(struct bl_sites *st);
/* The sites st of a text, made those of text[0, len) (followed by
 * BL_TEXT_PAD zero bytes), which is that text with the blanks at
 * at[0, n) (ascending) turned into newlines, as the unflattener does:
 * only the finds and marks that read those bytes are looked at again.
 * The same as bl_sites_find(text, len). False when memory ran out (st is
 * then to be freed). */
bool bl_sites_update(struct bl_sites *st, const char *text, size_t len, const size_t *at, size_t n);
/* The sites of a message's text: the ones ingest found on the same text,
 * else found now and kept with the message. NULL when memory ran out. */
const struct bl_sites *bl_message_sites(struct bl_message *msg);
/* Sites whose marks (sys) hold for msg->text[0, msg->len): those kept with
 * the message when they are of that text or of a longer one that starts
 * with it (a window's own part is read with msg->len cut short: a mark
 * depends on its byte and the one before alone), else bl_message_sites().
 * Marks at msg->len and past it are not the message's. */
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
/* For tests: the portable needle pass even where the AVX2 one runs (for
 * the sites found after the call). */
void bl_anchor_set_portable(bool on);

#endif
