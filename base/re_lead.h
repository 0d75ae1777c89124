/* re_lead.h - the bytes a line pattern's match can begin with.
 *
 * Parsers try many anchored patterns on every line they read
 * ("^[ \t]*Excel output is below:", "^[ \t]*(Children see|Parent sees)
 * throughput for"), and most lines fail at their first byte. For a
 * pattern "^X..." or "^[ \t]*X...", X's possible first bytes are read off
 * the pattern once; a subject whose first byte (after its blanks, for the
 * second form) is none of them cannot match, and PCRE2 is not asked. */
#ifndef BL_RE_LEAD_H
#define BL_RE_LEAD_H

#include <stdbool.h>
#include <stddef.h>

struct bl_re_lead {
	unsigned char set[32]; /* bit c: a match may begin with byte c */
	bool blanks; /* after "[ \t]*" */
};

/* The lead of pattern (PCRE2 syntax, not multiline or extended; caseless
 * when `caseless`): true and *lead filled when every match starts at
 * the subject's first byte, after its blanks when lead->blanks, with a
 * byte of lead->set; false when the pattern is not so read (anything but
 * the plain forms above). */
bool bl_re_lead(const char *pattern, bool caseless, struct bl_re_lead *lead);

/* Whether subject[0, len) may match a pattern of that lead. */
static inline bool bl_re_lead_may(const struct bl_re_lead *lead, const char *subject, size_t len)
{
	size_t i = 0;
	if (lead->blanks)
		while (i < len && (subject[i] == ' ' || subject[i] == '\t'))
			i++;
	unsigned char c = i < len ? (unsigned char)subject[i] : 0;
	return i < len && (lead->set[c / 8] >> (c % 8) & 1);
}

#endif
