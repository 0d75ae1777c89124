/* find.h - fast searches for the prefilters: a literal by its rarest
 * byte, the next digit.
 *
 * glibc's memmem costs several instructions a byte and a few hundred a
 * call; prose mail runs through these searches line after line. Here the
 * needle's rarest byte (the caller knows it: 'z' of "zpool create ") is
 * found with memchr, which is vectorised, and the rest compared where it
 * sits. */
#ifndef BL_FIND_H
#define BL_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The first occurrence of needle[0, nlen) in s[0, n), found by its byte at
 * `rare` (< nlen); NULL when there is none. */
static inline const char *bl_find_by(const char *s, size_t n, const char *needle, size_t nlen,
				     size_t rare)
{
	if (nlen == 0 || n < nlen || rare >= nlen)
		return NULL;
	const char *p = s + rare, *last = s + (n - nlen) + rare;
	while (p <= last && (p = memchr(p, (unsigned char)needle[rare], (size_t)(last - p) + 1))) {
		/* most finds fail at once: compared here, not by a call */
		const char *at = p - rare;
		size_t k = 0;
		while (k < nlen && at[k] == needle[k])
			k++;
		if (k == nlen)
			return at;
		p++;
	}
	return NULL;
}

/* The first occurrence of needle[0, nlen) in s[0, n), or NULL: for a
 * needle of common letters ("real", "geli "), which memchr would stop at
 * every few bytes. Positions are tested 32 at a time by the needle's first
 * and last bytes together, then compared. */
const char *bl_find_lit(const char *s, size_t n, const char *needle, size_t nlen);
/* The first occurrence in the line at s (s[0, n) up to its first '\n') of
 * either of two needles of one length nlen >= 1 ("mpty" or "MPTY"), or
 * NULL with *line the length of that line: both needles and the newline
 * looked for in one pass. */
const char *bl_find_lit2_line(const char *s, size_t n, const char *a, const char *b, size_t nlen,
			      size_t *line);
/* The same for an occurrence followed by an ASCII digit (", 9"). */
const char *bl_find_lit_digit(const char *s, size_t n, const char *needle, size_t nlen);

/* A set of ASCII bytes, as the line search below takes it. */
struct bl_byteset {
	unsigned char lo[16]; /* bit h of lo[x & 15]: byte (h << 4) | (x & 15) */
};

/* The set of the bytes of `members` (ASCII; a string). */
void bl_byteset_init(struct bl_byteset *set, const char *members);

/* The first line of s[0, n) after its first one whose first byte is in
 * `set`: the offset of that byte (just after a '\n'), or n when there is
 * none. */
size_t bl_find_line_start(const char *s, size_t n, const struct bl_byteset *set);

/* The bytes bl_find_mark() stops at, in up to 8 groups. A group counts
 * anywhere, only at a line start (right after a '\n'), or only right
 * after an ASCII digit ("8.0-RELEASE"'s '-', not the dashes of a rule or
 * of a word); it stands for every byte whose high half (byte >> 4) is one
 * of its bytes' and whose low half is one of its bytes': "#$%/" (all
 * 0x2_) is exactly itself, " \t" (0x20, 0x09) also takes 0x00 and ')'
 * (0x29). */
struct bl_marks {
	unsigned char lo[16]; /* bit g of lo[x & 15]: group g takes low half x & 15 */
	unsigned char hi[16]; /* bit g of hi[x >> 4]: group g takes high half x >> 4 */
	unsigned char line; /* bit g: group g counts only at a line start */
	unsigned char groups; /* how many groups are in use */
	unsigned char digit; /* bit g: group g counts only after a digit */
};

/* Where a group of marks counts. */
enum bl_mark_where { BL_MARK_ANYWHERE, BL_MARK_LINE_START, BL_MARK_AFTER_DIGIT };

/* An empty set of marks. */
void bl_marks_init(struct bl_marks *mk);
/* Adds a group of the bytes of `members` (a string), counting `where`;
 * false when all 8 groups are in use. */
bool bl_marks_add(struct bl_marks *mk, const char *members, enum bl_mark_where where);
/* Whether byte c is a mark right after byte `before` (0 at offset 0):
 * the rule every search of marks applies, one byte at a time. */
static inline bool bl_is_mark(const struct bl_marks *mk, unsigned char c, unsigned char before)
{
	unsigned g = mk->lo[c & 15] & mk->hi[c >> 4];
	unsigned ok = ~(unsigned)(mk->line | mk->digit);
	if (before == '\n')
		ok |= mk->line;
	else if (before >= '0' && before <= '9')
		ok |= mk->digit;
	return (g & ok) != 0;
}

/* The first offset i in [from, n) where s[i] is a mark that counts
 * anywhere, one that counts at a line start and s[i - 1] is '\n', or one
 * that counts after a digit and s[i - 1] is one (offset 0 has no byte
 * before it); n when there is none. 32 bytes a step:
 * most text is passed without a stop. */
size_t bl_find_mark(const char *s, size_t from, size_t n, const struct bl_marks *mk);
/* The same, a window at a time: the first window of offsets [i, *next)
 * (up to 64 of them, from `from` on) that holds marks, as i and *bits
 * (bit k: offset i + k is a mark); n, *bits 0 when there is none. The
 * caller done with a window goes on from *next: marks a few bytes apart
 * cost one search. */
size_t bl_find_marks(const char *s, size_t from, size_t n, const struct bl_marks *mk,
		     uint64_t *bits, size_t *next);

/* How many bytes of s[0, n) are c; 64 a step. */
size_t bl_count_byte(const char *s, size_t n, char c);

/* How many bytes at s (at most n) are ASCII other than NUL; 16 a step. */
size_t bl_ascii_span(const char *s, size_t n);

/* The first ASCII digit in s[0, n), or NULL; 16 bytes a step. */
const char *bl_find_digit(const char *s, size_t n);

/* Appends s[0, n), up to a NUL in it, to the string of length `at` in
 * dst (capacity cap), cut to fit as snprintf cuts: dst stays
 * NUL-terminated. Returns dst's new length. Where "%s%s" formatting of
 * names cost more than reading the row they name. */
static inline size_t bl_str_append(char *dst, size_t cap, size_t at, const char *s, size_t n)
{
	if (!cap)
		return at;
	if (at > cap - 1)
		at = cap - 1;
	size_t room = cap - 1 - at;
	n = strnlen(s, n < room ? n : room);
	memcpy(dst + at, s, n);
	dst[at + n] = '\0';
	return at + n;
}

/* dst = a, b and c one after the other, cut to fit as snprintf's "%s%s%s"
 * cuts. Returns dst's length. */
static inline size_t bl_str_join3(char *dst, size_t cap, const char *a, const char *b,
				  const char *c)
{
	if (cap)
		dst[0] = '\0';
	size_t n = bl_str_append(dst, cap, 0, a, strlen(a));
	n = bl_str_append(dst, cap, n, b, strlen(b));
	return bl_str_append(dst, cap, n, c, strlen(c));
}

#endif
