/* words.c - a command line from a post split into words, without a shell.
 *
 * The command comes from untrusted text. Only what a shell would treat as
 * literal words is accepted: plain characters, '...' and "..." quotes.
 * Anything that would make a shell do more than run one program is refused
 * rather than interpreted:
 *   dd if=/dev/zero of=x; rm -rf ~          ';'
 *   dd if=/dev/zero bs=1m | tail -1         '|'
 *   dd of=$(mktemp)  dd of=`x`  dd of=$HOME '$' and '`'
 *   dd if=x > /dev/sda  dd of=*.img  (cd /; dd ...)
 * A trailing "2>&1" (common in posts) only merges stderr into stdout, which
 * replay does anyway: it is dropped. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void bl_words_free(struct bl_words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	memset(w, 0, sizeof *w);
}

/* Refuses with a message that may show the offending character. */
static int fail(struct bl_words *w, char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(struct bl_words *w, char *why, size_t n, const char *fmt, ...)
{
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	bl_words_free(w);
	return -1;
}

static int fail_msg(struct bl_words *w, char *why, size_t n, const char *msg)
{
	if (why && n)
		snprintf(why, n, "%s", msg);
	bl_words_free(w);
	return -1;
}

/* Characters a shell gives meaning to outside quotes. */
static bool meta(char c)
{
	return strchr(";|&$`<>(){}*?[]~!#\\", c) != NULL;
}

int bl_words_split(const char *cmd, struct bl_words *w, char *why, size_t n)
{
	memset(w, 0, sizeof *w);
	size_t len = strlen(cmd);
	/* "dd if=a of=b 2>&1": the one redirection that is harmless */
	size_t end = len;
	while (end && (cmd[end - 1] == ' ' || cmd[end - 1] == '\t'))
		end--;
	if (end >= 5 && memcmp(cmd + end - 4, "2>&1", 4) == 0 &&
	    (cmd[end - 5] == ' ' || cmd[end - 5] == '\t'))
		end -= 4;
	char buf[BL_MAX_WORD];
	size_t i = 0;
	while (i < end) {
		while (i < end && (cmd[i] == ' ' || cmd[i] == '\t'))
			i++;
		if (i >= end)
			break;
		size_t bl = 0;
		while (i < end && cmd[i] != ' ' && cmd[i] != '\t') {
			char c = cmd[i];
			if ((unsigned char)c < 0x20 || c == 0x7f)
				return fail(w, why, n,
					    "a control character (0x%02x) in the command",
					    (unsigned)(unsigned char)c);
			if (c == '\'' || c == '"') {
				const char *close = memchr(cmd + i + 1, c, end - i - 1);
				if (!close)
					return fail(w, why, n, "an unbalanced quote (%c)", c);
				for (const char *q = cmd + i + 1; q < close; q++) {
					if ((unsigned char)*q < 0x20 || *q == 0x7f)
						return fail(
							w, why, n,
							"a control character (0x%02x) in quotes",
							(unsigned)(unsigned char)*q);
					if (c == '"' && (*q == '$' || *q == '`' || *q == '\\'))
						return fail(
							w, why, n,
							"shell expansion (%c) inside double quotes",
							*q);
					if (bl >= sizeof buf - 1)
						return fail_msg(w, why, n,
								"a word longer than 4 KiB");
					buf[bl++] = *q;
				}
				i = (size_t)(close - cmd) + 1;
				continue;
			}
			if (meta(c))
				return fail(w, why, n, "shell syntax ('%c') that replay never runs",
					    c);
			if (bl >= sizeof buf - 1)
				return fail_msg(w, why, n, "a word longer than 4 KiB");
			buf[bl++] = c;
			i++;
		}
		if (w->n >= BL_MAX_WORDS)
			return fail_msg(w, why, n, "more than 64 words");
		buf[bl] = '\0';
		w->v[w->n] = strdup(buf);
		if (!w->v[w->n])
			return fail_msg(w, why, n, "out of memory");
		w->n++;
	}
	if (!w->n)
		return fail_msg(w, why, n, "an empty command");
	w->v[w->n] = NULL;
	return 0;
}
