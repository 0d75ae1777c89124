/* window.c - where to cut an input too large to decode whole (window.h). */
#include "window.h"

#include <stdbool.h>
#include <string.h>

/* The blank of "...the second run. Then the mirror", which unflatten.c's
 * sentence rule "(?<=[a-z)][.!?]) (?=[A-Z])" turns into a line break. */
static bool sentence_blank(const char *s, size_t i, size_t lo, size_t hi)
{
	return i >= lo + 2 && i + 1 < hi && s[i] == ' ' &&
	       (s[i - 1] == '.' || s[i - 1] == '!' || s[i - 1] == '?') &&
	       ((s[i - 2] >= 'a' && s[i - 2] <= 'z') || s[i - 2] == ')') && s[i + 1] >= 'A' &&
	       s[i + 1] <= 'Z';
}

size_t bl_window_cut(const char *s, size_t lo, size_t hi, enum bl_cut *kind)
{
	const char *nl = memrchr(s + lo, '\n', hi - lo);
	if (nl) {
		*kind = BL_CUT_LINE;
		return (size_t)(nl - s) + 1;
	}
	/* one line: the latest sentence break, else the latest pair of NUL
	 * bytes, else the latest blank */
	size_t blank = 0, nul = 0;
	for (size_t i = hi; i-- > lo;) {
		char c = s[i];
		if (c == ' ' && sentence_blank(s, i, lo, hi)) {
			*kind = BL_CUT_SENTENCE;
			return i + 1;
		}
		if (c == '\0' && !nul && i > lo && s[i - 1] == '\0')
			nul = i;
		if ((c == ' ' || c == '\t') && !blank)
			blank = i + 1;
	}
	if (nul) {
		*kind = BL_CUT_NUL;
		return nul;
	}
	if (blank) {
		*kind = BL_CUT_BLANK;
		return blank;
	}
	/* not inside a UTF-8 sequence */
	size_t p = hi;
	while (p > lo + 1 && ((unsigned char)s[p] & 0xC0) == 0x80)
		p--;
	*kind = BL_CUT_ANY;
	return p;
}
