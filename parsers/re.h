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

struct bl_re {
	const char *pattern;
	uint32_t options;       /* PCRE2_MULTILINE, PCRE2_CASELESS, ... */
	pcre2_code *code;       /* compiled lazily */
	bool failed;            /* a compile error: never matches */
	struct bl_re *next;     /* list of compiled patterns, for cleanup */
};

#define BL_RE(pat, opts) {(pat), (opts) | PCRE2_UTF | PCRE2_NO_UTF_CHECK, NULL, false, NULL}

/* Result of one match: capture group i is [ov[2i], ov[2i+1]) or unset
 * (PCRE2_UNSET). */
#define BL_RE_MAX_GROUPS 16
struct bl_re_match {
	size_t ov[2 * BL_RE_MAX_GROUPS];
	int ngroups;
};

/* Matches `re` in subject[0..len) from `start`. Returns true on a match. */
bool bl_re_match(struct bl_re *re, const char *subject, size_t len,
		 size_t start, struct bl_re_match *m);

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

/* Frees every compiled pattern (at exit, for leak checkers). */
void bl_re_free_all(void);

/* A compiled pattern from a dynamic string (not cached); caller frees with
 * pcre2_code_free. NULL on error. */
pcre2_code *bl_re_compile_dynamic(const char *pattern, uint32_t options);

#endif
