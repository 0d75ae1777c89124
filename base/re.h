/* re.h - PCRE2 patterns compiled once, with JIT, on first use.
 *
 * A `struct bl_re` is a static pattern plus its compiled code, compiled
 * by the first match: the library is single-threaded per process (`parse
 * --jobs` runs processes). */
#ifndef BL_RE_H
#define BL_RE_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "re_lead.h"

struct bl_re {
	const char *pattern;
	uint32_t options; /* PCRE2_MULTILINE, PCRE2_CASELESS, ... */
	pcre2_code *code; /* compiled lazily */
	bool failed; /* a compile error: never matches */
	struct bl_re *next; /* list of compiled patterns, for cleanup */
	bool has_lead; /* the first bytes of a match are known (re_lead.h) */
	struct bl_re_lead lead;
};

#define BL_RE(pat, opts)                                                                           \
	{                                                                                          \
		.pattern = (pat), .options = (opts) | PCRE2_UTF | PCRE2_NO_UTF_CHECK               \
	}

/* Result of one match: capture group i is [ov[2i], ov[2i+1]) or unset
 * (PCRE2_UNSET). */
#define BL_RE_MAX_GROUPS 16
struct bl_re_match {
	size_t ov[2 * BL_RE_MAX_GROUPS];
	int ngroups;
};

/* Matches `re` in subject[0..len) from `start`. Returns true on a match.
 *
 * PCRE2's JIT reads up to 16 bytes past the end of its subject (it
 * compares a vector at a time), so a subject must be followed by BL_RE_PAD
 * readable, initialised bytes: a message's text and the decoders' buffers
 * are (BL_TEXT_PAD, message.h), and so is a line of them. A line
 * joined in a buffer of the caller's gets them from bl_re_pad; a string
 * that has none (a copy, a name) goes through bl_re_match_copy. */
bool bl_re_match(struct bl_re *re, const char *subject, size_t len, size_t start,
		 struct bl_re_match *m);

#define BL_RE_PAD 64
/* Zeroes the BL_RE_PAD bytes after buf[0, len): buf holds len + BL_RE_PAD. */
static inline void bl_re_pad(char *buf, size_t len)
{
	memset(buf + len, 0, BL_RE_PAD);
}
/* bl_re_match on a copy of subject[0, len) followed by BL_RE_PAD zero
 * bytes; the offsets in m are the subject's. */
bool bl_re_match_copy(struct bl_re *re, const char *subject, size_t len, size_t start,
		      struct bl_re_match *m);

/* Length of group g, 0 if unset. */
static inline size_t bl_re_glen(const struct bl_re_match *m, int g)
{
	if (g >= m->ngroups || m->ov[2 * g] == PCRE2_UNSET)
		return 0;
	return m->ov[2 * g + 1] - m->ov[2 * g];
}
static inline bool bl_re_gset(const struct bl_re_match *m, int g)
{
	return g < m->ngroups && m->ov[2 * g] != PCRE2_UNSET;
}

/* Gives re a new pattern (compiled on its next use); the old one's code
 * is freed. */
void bl_re_reset(struct bl_re *re, const char *pattern);

/* For tests: whether a pattern's lead (re_lead.h) may turn a subject
 * down before PCRE2 sees it (on by default). */
void bl_re_set_lead_check(bool on);

/* For tests: calls fn on every pattern compiled so far. */
void bl_re_each_compiled(void (*fn)(struct bl_re *re, void *ctx), void *ctx);

/* Frees every compiled pattern (at exit, for leak checkers). */
void bl_re_free_all(void);

/* A compiled pattern from a dynamic string (not cached); caller frees with
 * pcre2_code_free. NULL on error. */
pcre2_code *bl_re_compile_dynamic(const char *pattern, uint32_t options);

#endif
