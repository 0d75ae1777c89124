/* cmdwords.c - blank-separated words of a command line, up to the first
 * shell operator. See cmdwords.h. */
#include "cmdwords.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

const char *bl_cmd_args(const char *cmd)
{
	while (*cmd && blank(*cmd))
		cmd++;
	while (*cmd && !blank(*cmd))
		cmd++;
	return cmd;
}

static bool operator_char(char c)
{
	return c == '|' || c == ';' || c == '&' || c == '>' || c == '<';
}

/* A word ends at a blank or at an operator written against it ("5;",
 * "x|tee"); a word that starts with one ("|", "&&", ">out") or a
 * descriptor redirection ("2>/dev/null", "2>&1") ends the tool's words. */
bool bl_cmd_word(const char **p, const char **w, size_t *wl)
{
	const char *s = *p;
	while (*s && blank(*s))
		s++;
	const char *start = s;
	while (*s >= '0' && *s <= '9')
		s++;
	if (s > start && *s == '>') {
		*p = *w = start;
		*wl = 0;
		return false;
	}
	while (*s && !blank(*s) && !operator_char(*s))
		s++;
	*p = s;
	*w = start;
	*wl = (size_t)(s - start);
	return *wl > 0;
}
