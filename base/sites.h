/* sites.h - the places of a text some reader wants to look at, found in
 * one pass over it.
 *
 * Archives are mostly prose, and several readers each look for a few
 * kinds of places in them: the parsers for their anchor patterns, the
 * unflattener for the literals its rules start with ("bytes/sec)",
 * "real", ", " before a digit), the system reader for its marks (':' and
 * '=' at a line start). A site plan is what they look for, given as data
 * (patterns, literals, marks); the pass finds all of it at once: each
 * pattern reduced to needles (the most selective run of bytes any match
 * must contain: "bytes transferred in ", "\d+\d" for "64+0 records in"),
 * their four-token windows tested 64 positions a step (AVX2 nibble tables
 * of 16 buckets, or a portable vector pass), each find verified against
 * its needle. A pattern that yields no needle (an inline option, an
 * escape the reduction does not know) is not found by the pass; its
 * reader runs the pattern itself.
 *
 * The plan is built by whoever knows the readers (the parser registry)
 * and handed down to ingest, which finds the sites of each message once;
 * the parsers read them from the message afterwards. */
#ifndef BL_SITES_H
#define BL_SITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "find.h"
#include "message.h"

#define BL_NEEDLE_MAX 48 /* tokens in one needle */
#define BL_NEEDLE_DIGIT 0x100 /* token: any ASCII digit */
#define BL_SITE_NEEDLES_MAX 128
#define BL_SITE_LITERALS_MAX 16

struct bl_needle {
	unsigned short tok[BL_NEEDLE_MAX]; /* byte, or BL_NEEDLE_DIGIT */
	size_t ntok;
	size_t key_at, key_len; /* the longest run of literal bytes, searched */
	char key[BL_NEEDLE_MAX];
	/* the index of the pattern it stands for, or SIZE_MAX for a literal */
	size_t pattern;
	size_t branch_off, branch_len; /* the branch of the pattern it stands for */
	/* where the branch goes on after the needle's last token (an offset
	 * in the branch), or SIZE_MAX when that token repeats */
	size_t after_at;
	/* where in the branch its first token starts, or SIZE_MAX when that
	 * token is the last copy of one that repeats */
	size_t before_at;
};

/* Reduces a PCRE2 pattern (multiline; a match lies within one line and
 * within about 1 KB of its needle) to one needle per top-level branch.
 * Returns the number of needles written (at most max), or -1 when some
 * branch has no usable needle or the pattern uses syntax the reduction
 * does not know. */
int bl_pattern_needles(const char *pattern, struct bl_needle *out, size_t max);

/* A literal to find: its bytes, then a digit when `digit`; `next` (or
 * NULL) is a pattern of what must follow ("[ \\t]+\\d"), read as far as
 * the then-check knows it (see site_plan.c). */
struct bl_site_literal {
	const char *bytes;
	bool digit;
	const char *next;
};

/* What a plan looks for. */
struct bl_site_source {
	const char *const *patterns; /* found by their needles where they have some */
	size_t npatterns;
	bool reduce; /* false: no pattern is reduced (the reference) */
	const struct bl_site_literal *literals; /* at most BL_SITE_LITERALS_MAX */
	size_t nliterals;
	const struct bl_marks *marks; /* a bit per byte that is one */
	size_t long_line; /* a line this long or longer is told */
};

struct bl_site_plan;

/* The plan of src, whose strings must outlive it; NULL when memory ran
 * out, a pattern does not compile or there are too many needles. */
struct bl_site_plan *bl_site_plan_new(const struct bl_site_source *src);
void bl_site_plan_free(struct bl_site_plan *p);
/* Whether pattern i is found by its needles (else its reader runs it). */
bool bl_site_plan_reduced(const struct bl_site_plan *p, size_t i);
/* The needles, patterns' and literals' together. */
size_t bl_site_plan_needles(const struct bl_site_plan *p);
const struct bl_needle *bl_site_plan_needle(const struct bl_site_plan *p, size_t i);
/* Where in needle i the window the pass tests starts: a find recorded at
 * q is a needle starting at q minus this. */
size_t bl_site_plan_trigger(const struct bl_site_plan *p, size_t i);
/* Whether the window [ws, we) around a find of needle i may hold a match
 * of its branch, as far as the line's first byte tells. */
bool bl_site_lead_ok(const struct bl_site_plan *p, size_t i, const struct bl_message *m, size_t ws,
		     size_t we);

struct bl_site_list {
	size_t *v;
	size_t n, cap;
};

/* The sites of a text:
 *   - each pattern needle found, as the pass takes them: in the order of
 *     the positions tested, then of the needles;
 *   - the starts of each literal;
 *   - the marks, a bit each;
 *   - whether a line is the source's long_line bytes long or longer. */
struct bl_sites {
	size_t *q; /* where the vector pass found needle needle[k] */
	unsigned char *needle; /* (q is the start of its tested window) */
	size_t n, cap;
	struct bl_site_list literal[BL_SITE_LITERALS_MAX]; /* each one's starts, ascending */
	uint64_t *sys; /* bit k of word w: a mark at text offset 64w + k */
	size_t nsys; /* words */
	size_t syscap; /* words allocated */
	size_t len; /* the length of the text they are of */
	bool long_line; /* a line of long_line bytes or more */
	bool failed; /* memory ran out: nothing above can be trusted */
	unsigned gen; /* the plan they were found with */
};

/* The sites of text[0, len), which BL_TEXT_PAD zero bytes follow (the
 * vector loads read past the end). NULL when memory ran out. */
struct bl_sites *bl_sites_find(const struct bl_site_plan *p, const char *text, size_t len);
/* Frees st, or keeps its arrays for the next bl_sites_find (the next
 * read window), until bl_sites_drop_spare. */
void bl_sites_free(struct bl_sites *st);
/* Frees the arrays kept for the next bl_sites_find: reading is over (a
 * window of dense tool output keeps megabytes). */
void bl_sites_drop_spare(void);
/* The sites st of a text, made those of text[0, len) (followed by
 * BL_TEXT_PAD zero bytes), which is that text with the blanks at
 * at[0, n) (ascending) turned into newlines, as the unflattener does:
 * only the finds and marks that read those bytes are looked at again.
 * The same as bl_sites_find(p, text, len). False when st was not found
 * with p on a text of that length, or memory ran out (st is then to be
 * freed). */
bool bl_sites_update(const struct bl_site_plan *p, struct bl_sites *st, const char *text,
		     size_t len, const size_t *at, size_t n);
/* The sites of a message's text: the ones ingest found on the same text
 * with the same plan, else found now and kept with the message. NULL when
 * memory ran out. */
const struct bl_sites *bl_sites_of_message(const struct bl_site_plan *p, struct bl_message *msg);
/* Sites whose marks (sys) hold for msg->text[0, msg->len): those kept with
 * the message when they are of that text or of a longer one that starts
 * with it (a window's own part is read with msg->len cut short: a mark
 * depends on its byte and the one before alone), else
 * bl_sites_of_message(). Marks at msg->len and past it are not the
 * message's. */
const struct bl_sites *bl_marks_of_message(const struct bl_site_plan *p, struct bl_message *msg);

/* For tests: the portable pass even where the AVX2 one runs (for the
 * sites found after the call). */
void bl_sites_set_portable(bool on);

#endif
