/* quote.c - mail quoting stripped for parsing, its depth kept.
 *
 *   > 2000+0 records in            depth 1
 *   >> 2000+0 records out          depth 2
 *   > > 2097152000 bytes ...       depth 2
 *   | 0.029u 6.422s 1:07.25 9.5%   depth 1 (some clients quote with "| ")
 *   >Thanks, could you ...         depth 1
 *   ZC> 2611 90.7  3924 86.2       depth 1 (Supercite: the author's initials)
 *   > JB> 64+0 records in          depth 2
 *
 * A line starting "| " that has another " |" later is a table row, not a
 * quote. Initials before a '>' ("ZC> ", one to four letters, the first a
 * capital) quote only where the line above or below starts with the same
 * marks: a prompt such as "Server> " stands on one line, the lines of a
 * Supercite quote come in blocks. The depth of each line is stored in the message by its original
 * offset, so later steps that move text do not disturb it. */
#include <stdlib.h>
#include <string.h>

#include "decode.h"

/* The length of Supercite initials and their '>' at s ("ZC>", "Jb>"),
 * followed by a blank or the line's end; 0 when there are none. */
static size_t initials(const char *s, size_t len)
{
	if (!len || s[0] < 'A' || s[0] > 'Z')
		return 0;
	size_t k = 1;
	while (k < len && k < 4 && ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z')))
		k++;
	if (k >= len || s[k] != '>')
		return 0;
	k++;
	return k == len || s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r' ? k : 0;
}

/* The quote prefix of the line s[0, len) and its depth. `tag`: where
 * initials count as a level (they end at s[tag]), else 0. */
static size_t prefix(const char *s, size_t len, int *depth, size_t tag)
{
	size_t i = 0;
	int d = 0;
	if (len >= 2 && s[0] == ' ' && (s[1] == '>' || (tag && initials(s + 1, len - 1))))
		i = 1;
	while (i < len && d < 64) {
		size_t k = i < tag ? initials(s + i, len - i) : 0;
		if (k && i + k == tag) {
			d++;
			i += k;
			if (i < len && (s[i] == ' ' || s[i] == '\t'))
				i++;
			continue;
		}
		if (s[i] == '>') {
			d++;
			i++;
			if (i < len && (s[i] == ' ' || s[i] == '\t'))
				i++;
			continue;
		}
		if (s[i] == '|' && i + 1 < len && s[i + 1] == ' ') {
			/* "| a | b |" is a table */
			if (memmem(s + i + 2, len - i - 2, " |", 2))
				break;
			d++;
			i += 2;
			continue;
		}
		break;
	}
	*depth = d;
	return d ? i : 0;
}

static void depth_push(struct bl_message *m, size_t origin, int depth)
{
	if (m->nquotes && m->quotes[m->nquotes - 1].depth == depth)
		return;
	if (!m->nquotes && depth == 0)
		return;
	if (m->nquotes == m->quotecap) {
		size_t cap = m->quotecap ? m->quotecap * 2 : 16;
		struct bl_quote_seg *v = realloc(m->quotes, cap * sizeof *v);
		if (!v)
			return;
		m->quotes = v;
		m->quotecap = cap;
	}
	m->quotes[m->nquotes].raw_off = origin;
	m->quotes[m->nquotes].depth = depth;
	m->nquotes++;
}

/* Copies the rest [from, end) of a line quoted `depth` deep. A lone '\r'
 * (GNU dd's status=progress updates) ends a line for some quoting
 * clients, which quote what follows it again:
 *   > \r> 933232640 bytes (933 MB, 890 MiB) copied, 1 s, 933 MB/s\r> 25...
 * the prefix after such a '\r' goes too, when it has the same depth. */
static void copy_quoted(struct bl_src *in, struct bl_tbuf *out, size_t from, size_t end, int depth)
{
	const char *s = in->s;
	size_t i = from;
	while (i < end) {
		const char *cr = memchr(s + i, '\r', end - i);
		size_t stop = cr ? (size_t)(cr - s) + 1 : end;
		bl_tbuf_copy(out, in, i, stop - i);
		i = stop;
		if (!cr || i >= end || s[i] == '\n')
			continue;
		int d;
		size_t p = prefix(s + i, end - i, &d, 0);
		if (d == depth)
			i += p;
	}
}

/* The next '>' or '|' at or after i (n when none), from the last found
 * of each. */
static size_t next_mark(const char *s, size_t n, size_t i, size_t *gt, size_t *bar)
{
	if (*gt < i) {
		const char *p = memchr(s + i, '>', n - i);
		*gt = p ? (size_t)(p - s) : n;
	}
	if (*bar < i) {
		const char *p = memchr(s + i, '|', n - i);
		*bar = p ? (size_t)(p - s) : n;
	}
	return *gt < *bar ? *gt : *bar;
}

/* Where the Supercite initials of the line [i, end) end, counted from
 * i ("ZC> ...", "> JB> ..."), when the line above or below starts with
 * the same marks; else 0. */
static size_t supercite(const char *s, size_t n, size_t i, size_t end)
{
	size_t j = i;
	if (j < end && s[j] == ' ')
		j++;
	while (j < end && (s[j] == '>' || s[j] == ' ' || s[j] == '\t'))
		j++;
	size_t k = initials(s + j, end - j);
	if (!k)
		return 0;
	size_t tag = j + k - i; /* the marks: s[i, i + tag) */
	bool same = false;
	if (i > 0) {
		const char *pl = i > 1 ? memrchr(s, '\n', i - 1) : NULL;
		size_t ps = pl ? (size_t)(pl - s) + 1 : 0;
		same = i - ps > tag && memcmp(s + ps, s + i, tag) == 0;
	}
	if (!same && end < n)
		same = n - end > tag && memcmp(s + end, s + i, tag) == 0;
	return same ? tag : 0;
}

bool bl_quote_strip(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	const char *s = in->s;
	size_t n = in->len, i = 0;
	/* in[0, done) is written (or, until the first quoted line, needs no
	 * copy: a text without quoting costs no second copy of itself) */
	size_t done = 0;
	bool any = false;
	const char *g = memchr(s, '>', n), *b = memchr(s, '|', n);
	size_t gt = g ? (size_t)(g - s) : n, bar = b ? (size_t)(b - s) : n;
	while (i < n) {
		if (!m->nquotes || m->quotes[m->nquotes - 1].depth == 0) {
			/* at depth 0 only a line that starts with a mark (" >"
			 * too) changes anything: the lines before the next mark
			 * are passed without a look, prose in a few memchr */
			size_t c = next_mark(s, n, i, &gt, &bar);
			if (c >= n)
				break;
			const char *bol = c > i ? memrchr(s + i, '\n', c - i) : NULL;
			if (bol)
				i = (size_t)(bol - s) + 1;
		}
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) + 1 : n;
		int d;
		size_t p = prefix(s + i, end - i, &d, supercite(s, n, i, end));
		depth_push(m, bl_src_origin(in, i), d);
		if (d) {
			if (!any && !bl_tbuf_reserve(out, n))
				return false;
			any = true;
			bl_tbuf_copy(out, in, done, i - done);
			copy_quoted(in, out, i + p, end, d);
			done = end;
		}
		i = end;
	}
	if (any)
		bl_tbuf_copy(out, in, done, n - done);
	return any;
}
