/* re_lead.c - the bytes a line pattern's match can begin with (re_lead.h).
 *
 * The pattern text is read as far as it needs to be: the atoms that can
 * come first, each a literal, an escaped punctuation mark, \d, \t, a class
 * of listed bytes or a group of such alternatives, and the quantifiers
 * that make one optional. Anything else (a dot, \s, a negated class, a
 * lookaround, an inline option, a byte past ASCII) ends the reading: the
 * pattern then has no lead, and is always given to PCRE2. */
#include "re_lead.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void add(unsigned char *set, unsigned char c, bool caseless)
{
	set[c / 8] |= (unsigned char)(1u << (c % 8));
	if (caseless && isalpha(c)) {
		unsigned char o = (unsigned char)(islower(c) ? toupper(c) : tolower(c));
		set[o / 8] |= (unsigned char)(1u << (o % 8));
	}
}

static void add_range(unsigned char *set, unsigned char lo, unsigned char hi, bool caseless)
{
	for (unsigned c = lo; c <= hi; c++)
		add(set, (unsigned char)c, caseless);
}

/* An escape at p (after its backslash) as a set: \d, \t, \n or a
 * punctuation mark itself. False for any other. */
static bool escape_set(char e, unsigned char *set)
{
	if (e == 'd')
		add_range(set, '0', '9', false);
	else if (e == 't')
		add(set, '\t', false);
	else if (e == 'n')
		add(set, '\n', false);
	else if (ispunct((unsigned char)e))
		add(set, (unsigned char)e, false);
	else
		return false;
	return true;
}

/* A class "[...]" at p: its bytes into set; the text after it, or NULL
 * when it is negated or holds what is not read here ("[[:digit:]]",
 * "\s", a byte past ASCII). */
static const char *class_set(const char *p, bool caseless, unsigned char *set)
{
	p++;
	if (*p == '^')
		return NULL;
	for (bool first = true; *p && (*p != ']' || first); first = false) {
		unsigned char lo;
		if (*p == '\\') {
			if (!p[1] || !escape_set(p[1], set))
				return NULL;
			p += 2;
			continue;
		}
		if (*p == '[' || (unsigned char)*p >= 0x80)
			return NULL;
		lo = (unsigned char)*p++;
		if (p[0] == '-' && p[1] && p[1] != ']' && p[1] != '\\' &&
		    (unsigned char)p[1] < 0x80 && (unsigned char)p[1] >= lo) {
			add_range(set, lo, (unsigned char)p[1], caseless);
			p += 2;
		} else {
			add(set, lo, caseless);
		}
	}
	return *p == ']' ? p + 1 : NULL;
}

/* The text after the class "[...]" at p, whatever it holds ("[^)\n]",
 * "[[:digit:]]"); NULL when it does not close. */
static const char *class_end(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++; /* a ']' first is one of the class's bytes */
	while (*p && *p != ']') {
		if (*p == '\\' && p[1])
			p += 2;
		else if (p[0] == '[' && p[1] == ':' && strstr(p + 2, ":]"))
			p = strstr(p + 2, ":]") + 2;
		else
			p++;
	}
	return *p == ']' ? p + 1 : NULL;
}

/* The end of the group that starts at p ('('): the text after its ')',
 * or NULL when it does not close. */
static const char *group_end(const char *p)
{
	int depth = 0;
	while (*p) {
		if (*p == '\\') {
			if (!p[1])
				return NULL;
			p += 2;
		} else if (*p == '[') {
			p = class_end(p); /* its '(' and ')' are bytes */
			if (!p)
				return NULL;
		} else if (*p == '(') {
			depth++;
			p++;
		} else if (*p == ')') {
			p++;
			if (--depth == 0)
				return p;
		} else {
			p++;
		}
	}
	return NULL;
}

/* The quantifier at p, if any: the text after it, and whether it allows
 * no repetition (*optional). */
static const char *quantifier(const char *p, bool *optional)
{
	*optional = false;
	if (*p == '?' || *p == '*') {
		*optional = true;
		p++;
	} else if (*p == '+') {
		p++;
	} else if (*p == '{') {
		char *end;
		long lo = strtol(p + 1, &end, 10);
		if (end == p + 1 || !isdigit((unsigned char)p[1]))
			return p; /* "{" not a count: a literal, left to the caller */
		if (*end == ',')
			strtol(end + 1, &end, 10);
		if (*end != '}')
			return p;
		*optional = lo == 0;
		p = end + 1;
	} else {
		return p;
	}
	if (*p == '?' || *p == '+') /* lazy or possessive */
		p++;
	return p;
}

static bool alternatives(const char *p, const char *e, bool caseless, unsigned char *set,
			 bool *nullable);

/* One atom at p into set: the text after it, or NULL when it is not one
 * this reading knows; *nullable when it can match nothing itself. */
static const char *atom(const char *p, bool caseless, unsigned char *set, bool *nullable)
{
	*nullable = false;
	if (*p == '(') {
		const char *in = p[1] == '?' ? (p[2] == ':' ? p + 3 : NULL) : p + 1;
		const char *end = in ? group_end(p) : NULL;
		if (!end || !alternatives(in, end - 1, caseless, set, nullable))
			return NULL;
		return end;
	}
	if (*p == '[')
		return class_set(p, caseless, set);
	if (*p == '\\')
		return p[1] && escape_set(p[1], set) ? p + 2 : NULL;
	if (!*p || strchr(".^$|)*+?{", *p) || (unsigned char)*p >= 0x80)
		return NULL;
	add(set, (unsigned char)*p, caseless);
	return p + 1;
}

/* The bytes a match of the sequence [p, e) (no '|' at its top) can
 * begin with, into set; *nullable when it can match the empty string. */
static bool sequence(const char *p, const char *e, bool caseless, unsigned char *set,
		     bool *nullable)
{
	while (p < e) {
		bool empty, optional;
		const char *q = atom(p, caseless, set, &empty);
		if (!q || q > e)
			return false;
		p = quantifier(q, &optional);
		if (p > e)
			return false;
		if (!empty && !optional) {
			*nullable = false;
			return true;
		}
	}
	*nullable = true;
	return true;
}

/* The end of the branch that starts at p: the next '|' outside groups
 * and classes, or e; NULL when a group or a class does not close. */
static const char *branch_end(const char *p, const char *e)
{
	while (p && p < e && *p != '|') {
		if (*p == '(')
			p = group_end(p);
		else if (*p == '[')
			p = class_end(p);
		else
			p += *p == '\\' && p + 1 < e ? 2 : 1;
	}
	return p && p <= e ? p : NULL;
}

/* The same for [p, e) with '|' at its top: the union of the branches. */
static bool alternatives(const char *p, const char *e, bool caseless, unsigned char *set,
			 bool *nullable)
{
	*nullable = false;
	for (const char *b = p; b <= e;) {
		const char *q = branch_end(b, e);
		bool empty;
		if (!q || !sequence(b, q, caseless, set, &empty))
			return false;
		*nullable |= empty;
		b = q + 1;
	}
	return true;
}

static bool has(const unsigned char *set, unsigned char c)
{
	return set[c / 8] >> (c % 8) & 1;
}

bool bl_re_lead(const char *pattern, bool caseless, struct bl_re_lead *lead)
{
	memset(lead, 0, sizeof *lead);
	if (!pattern || pattern[0] != '^')
		return false;
	const char *p = pattern + 1;
	static const char blanks[] = "[ \\t]*";
	if (strncmp(p, blanks, sizeof blanks - 1) == 0) {
		lead->blanks = true;
		p += sizeof blanks - 1;
	}
	/* "^A|B": B is not anchored */
	const char *end = p + strlen(p);
	if (branch_end(p, end) != end)
		return false;
	bool nullable;
	if (!sequence(p, end, caseless, lead->set, &nullable) || nullable)
		return false;
	/* a blank the pattern starts with would be taken by the blanks */
	if (lead->blanks && (has(lead->set, ' ') || has(lead->set, '\t')))
		return false;
	/* caseless, a letter matches what Unicode folds to it: "k" the
	 * Kelvin sign, "s" the long s; any byte past ASCII may begin one */
	if (caseless)
		memset(lead->set + 16, 0xff, 16);
	return true;
}
