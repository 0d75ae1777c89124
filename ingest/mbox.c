/* mbox.c - mbox framing: the "From " line that starts each message, and
 * the ">From " quoting of body lines (mboxrd: one '>' removed).
 *   From owner-freebsd-stable@FreeBSD.ORG Sun Feb 14 17:42:38 2010
 * A body line "From here on ..." is not a separator: a separator names a
 * sender and carries a time of day. */
#include <string.h>

#include "../base/find.h"
#include "decode.h"

/* A separator line is told by its first bytes: a longer line is decided
 * on these, as soon as they are read. */
#define SEPARATOR_LOOK 1000

bool bl_mbox_is_separator(const char *s, size_t len)
{
	if (len < 7 || memcmp(s, "From ", 5) != 0 || s[5] == ' ')
		return false;
	if (len > SEPARATOR_LOOK)
		len = SEPARATOR_LOOK;
	/* a time of day: "17:42:38" or "17:42" */
	for (size_t i = 5; i + 4 < len; i++)
		if (s[i] >= '0' && s[i] <= '9' && s[i + 1] >= '0' && s[i + 1] <= '9' &&
		    s[i + 2] == ':' && s[i + 3] >= '0' && s[i + 3] <= '9' && s[i + 4] >= '0' &&
		    s[i + 4] <= '9')
			return true;
	return false;
}

bool bl_mbox_detect(const char *s, size_t len)
{
	const char *nl = memchr(s, '\n', len);
	if (!nl)
		return false;
	size_t l1 = (size_t)(nl - s);
	if (l1 && s[l1 - 1] == '\r')
		l1--;
	if (!bl_mbox_is_separator(s, l1))
		return false;
	size_t rest = (size_t)(nl - s) + 1;
	return bl_headers_detect(s + rest, len - rest);
}

size_t bl_mbox_separator_len(const char *s, size_t n)
{
	const char *nl = memchr(s, '\n', n);
	return nl && bl_mbox_is_separator(s, (size_t)(nl - s)) ? (size_t)(nl - s) + 1 : 0;
}

size_t bl_mbox_next_quoted(const char *s, size_t n, size_t i)
{
	/* only a line that starts with '>' is looked at: each is found by
	 * memchr, not each line (i is 0 or follows a newline) */
	while (i < n) {
		const char *g = memchr(s + i, '>', n - i);
		if (!g)
			break;
		size_t a = (size_t)(g - s), k = a;
		while (k < n && s[k] == '>')
			k++;
		if ((a == 0 || s[a - 1] == '\n') && n - k >= 5 && memcmp(s + k, "From ", 5) == 0)
			return a;
		i = k;
	}
	return n;
}

void bl_mbox_unquote(struct bl_src *in, struct bl_tbuf *out)
{
	/* the separator line is framing, not message */
	size_t skip = bl_mbox_separator_len(in->s, in->len);
	bl_mbox_unquote_from(in, out, skip, skip);
}

void bl_mbox_unquote_from(struct bl_src *in, struct bl_tbuf *out, size_t skip, size_t i)
{
	const char *s = in->s;
	size_t n = in->len;
	if (!bl_tbuf_reserve(out, n - skip))
		return;
	size_t from = skip;
	while ((i = bl_mbox_next_quoted(s, n, i)) < n) {
		bl_tbuf_copy(out, in, from, i - from);
		from = i + 1; /* drop one '>' */
		while (i < n && s[i] == '>')
			i++;
	}
	bl_tbuf_copy(out, in, from, n - from);
}

size_t bl_mbox_next_separator(const char *s, size_t len, size_t from, bool at_eof, bool *incomplete)
{
	*incomplete = false;
	size_t i = from;
	while (i < len) {
		/* found by the "\nF" of a line that starts with F (by both
		 * bytes at once, 32 a step): glibc's memmem was a tenth of the
		 * time spent on an archive of plain messages, and a memchr of
		 * the 'F' stopped at every capital F of prose */
		const char *p = bl_find_lit(s + i, len - i, "\nF", 2);
		if (!p)
			return len;
		if ((size_t)(s + len - p) < 6 || memcmp(p, "\nFrom ", 6) != 0) {
			i = (size_t)(p - s) + 1;
			continue;
		}
		size_t at = (size_t)(p - s) + 1;
		const char *nl = memchr(s + at, '\n', len - at);
		/* a candidate is decided once its first bytes are read, not when
		 * its newline is: a framing that drops what it has read (a
		 * window of a long mail) might have dropped the line's start by
		 * then */
		if (!nl && !at_eof && len - at <= SEPARATOR_LOOK) {
			*incomplete = true;
			return at;
		}
		size_t ll = nl ? (size_t)(nl - s) - at : len - at;
		if (ll && s[at + ll - 1] == '\r')
			ll--;
		if (bl_mbox_is_separator(s + at, ll))
			return at;
		i = at;
	}
	return len;
}
