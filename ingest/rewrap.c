/* rewrap.c - lines a mail client broke, joined again.
 *
 * format=flowed (RFC 3676): a line ending in a space continues on the
 * next line of the same quote depth; a leading space was stuffed.
 *
 * Clients that wrap at 72-76 columns break long tool lines in two:
 *   2097152000 bytes transferred in 35.290738 secs (59417943
 *   bytes/sec)
 *   srebrny# time dd if=/dev/zero of=/data01/a/very/long/path/test01
 *   bs=1m count=2000
 * A short line is joined to the one above when the joined line is a tool
 * line (or a command with its operands) and the upper line alone is not. */
#include <stdint.h>
#include <string.h>

#include "../base/find.h"
#include "../base/re.h"
#include "decode.h"

/* A whole tool line of a shape a mail client may wrap (shapes.h):
 *   "2097152000 bytes transferred in 35.290738 secs (59417943 bytes/sec)"
 *   "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 9.2 s, 117 MB/s" */
static struct bl_re tool_re = BL_RE(NULL, 0);
static char tool_pat[4096];

/* a command line of key=value operands, then a line of nothing but
 * operands: "bs=1m count=2000" (the tools' wrapped_command and
 * wrapped_operands) */
static struct bl_re cmd_re = BL_RE(NULL, 0), operands_re = BL_RE(NULL, 0);
static char cmd_pat[1024], operands_pat[1024];

/* The alternation of the tools' wrapped commands (or operands). */
static bool join_wrapped(const struct bl_ingest_plan *p, bool operands, char *buf, size_t cap)
{
	size_t n = 0, k = 0;
	bool ok = true;
	buf[0] = '\0';
	for (size_t t = 0; p && t < p->ntools; t++) {
		const struct bl_tool_shapes *ts = p->tools[t];
		const char *f = !ts ? NULL : operands ? ts->wrapped_operands : ts->wrapped_command;
		if (f)
			ok = ok && bl_shapes_cat(buf, cap, &n, k++ ? "|(?:" : "(?:") &&
			     bl_shapes_cat(buf, cap, &n, f) && bl_shapes_cat(buf, cap, &n, ")");
	}
	return ok && (k || bl_shapes_cat(buf, cap, &n, "(?!)"));
}

bool bl_rewrap_compose(const struct bl_ingest_plan *p)
{
	size_t n = 0, k = 0;
	bool ok = bl_shapes_cat(tool_pat, sizeof tool_pat, &n, "^[ \\t]*(?:");
	for (size_t t = 0; p && t < p->ntools; t++)
		for (size_t i = 0; p->tools[t] && i < p->tools[t]->nlines; i++)
			if (p->tools[t]->lines[i].rewrapped)
				ok = ok &&
				     bl_shapes_cat(tool_pat, sizeof tool_pat, &n, k++ ? "|" : "") &&
				     bl_shapes_cat(tool_pat, sizeof tool_pat, &n,
						   p->tools[t]->lines[i].pattern);
	ok = ok && bl_shapes_cat(tool_pat, sizeof tool_pat, &n, k ? ")[ \\t]*$" : "(?!))");
	bl_re_reset(&tool_re, tool_pat);
	ok = ok && join_wrapped(p, false, cmd_pat, sizeof cmd_pat) &&
	     join_wrapped(p, true, operands_pat, sizeof operands_pat);
	bl_re_reset(&cmd_re, cmd_pat);
	bl_re_reset(&operands_re, operands_pat);
	return ok;
}

static bool tool_line(const char *s, size_t n)
{
	return bl_re_match(&tool_re, s, n, 0, NULL);
}

#define JOIN_MAX 200

/* The first line start at or after the line start i whose first byte is
 * a digit, a blank or a tab; n when none. */
static size_t next_digit_line(const char *s, size_t n, size_t i)
{
	/* bl_byteset_init(&set, "0123456789 \t"), spelled out: bit 3 of
	 * the digits' low nibbles, bit 2 of ' ''s (0x20), bit 0 of '\t''s */
	static const struct bl_byteset set = {
		{0x0C, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x09, 0, 0, 0, 0, 0, 0}};
	if (i >= n)
		return n;
	char c = s[i];
	if ((c >= '0' && c <= '9') || c == ' ' || c == '\t')
		return i;
	return i + bl_find_line_start(s + i, n - i, &set);
}

/* The lengths should_join() takes: tested in the loop, without a call,
 * since nearly every line of prose has a long one after it. */
static inline bool join_lengths(size_t ll, size_t nl)
{
	return ll >= 30 && ll <= 100 && nl != 0 && nl <= 40 && ll + nl + 1 <= JOIN_MAX;
}

static bool should_join(const char *l, size_t ll, const char *nx, size_t nl)
{
	if (!join_lengths(ll, nl))
		return false;
	if (nx[0] == ' ' || nx[0] == '\t')
		return false;
	size_t k = ll;
	while (k && (l[k - 1] == ' ' || l[k - 1] == '\t'))
		k--;
	/* every tool line above starts with a number after its indentation,
	 * and operands hold a '=': the last line of most paragraphs of prose
	 * is passed without a pattern */
	size_t b = 0;
	while (b < k && (l[b] == ' ' || l[b] == '\t'))
		b++;
	if (b < k && l[b] >= '0' && l[b] <= '9') {
		/* zeroed, with room past the end: PCRE2's JIT may read a few
		 * bytes past its subject */
		char buf[JOIN_MAX + 1 + 64] = {0};
		memcpy(buf, l, k);
		buf[k] = ' ';
		memcpy(buf + k + 1, nx, nl);
		size_t bl = k + 1 + nl;
		if (tool_line(buf, bl) && !tool_line(l, ll))
			return true;
	}
	return memchr(nx, '=', nl) && bl_re_match(&cmd_re, l, k, 0, NULL) &&
	       bl_re_match(&operands_re, nx, nl, 0, NULL);
}

bool bl_rewrap(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, bool flowed,
	       bool delsp)
{
	(void)m;
	const char *s = in->s;
	size_t n = in->len, i = 0;
	/* in[0, done) is written (or, until the first join, needs no copy) */
	size_t done = 0;
	bool any = false;
	/* the end of the line at i when the step before found it */
	const char *known_nl = NULL;
	size_t known_at = SIZE_MAX;
	/* not flowed, only a line that starts with a digit (after blanks) or
	 * holds a '=' (a dd command's operands) is ever joined to the next:
	 * the lines in between are passed without a look. The next line
	 * start of the first kind and the next '=' at or after i: */
	size_t digit_line = flowed ? 0 : next_digit_line(s, n, 0);
	const char *e = flowed ? NULL : memchr(s, '=', n);
	size_t eq = e ? (size_t)(e - s) : n;
	while (i < n) {
		if (!flowed) {
			if (digit_line < i)
				digit_line = next_digit_line(s, n, i);
			if (eq < i) {
				e = memchr(s + i, '=', n - i);
				eq = e ? (size_t)(e - s) : n;
			}
			size_t c = digit_line;
			if (eq < c) {
				/* the start of the line of the '=' */
				const char *b = eq > i ? memrchr(s + i, '\n', eq - i) : NULL;
				c = b ? (size_t)(b - s) + 1 : i;
			}
			if (c >= n)
				break;
			i = c;
		}
		const char *nl = known_at == i ? known_nl : memchr(s + i, '\n', n - i);
		if (!nl)
			break;
		size_t end = (size_t)(nl - s);
		size_t ll = end - i;
		size_t cr = ll && s[end - 1] == '\r';
		ll -= cr;
		size_t next = end + 1;
		const char *nx = s + next;
		const char *nnl = next < n ? memchr(nx, '\n', n - next) : NULL;
		known_nl = nnl;
		known_at = next;
		size_t nlen = next < n ? (nnl ? (size_t)(nnl - nx) : n - next) : 0;
		if (nlen && nx[nlen - 1] == '\r')
			nlen--;
		bool join = false, drop_space = false;
		if (flowed && ll && s[end - 1 - cr] == ' ' &&
		    !(ll == 3 && memcmp(s + i, "-- ", 3) == 0) && nlen) {
			join = true;
			drop_space = delsp;
		} else if (!flowed && join_lengths(ll, nlen) && should_join(s + i, ll, nx, nlen)) {
			join = true;
		}
		if (!join) {
			i = next;
			continue;
		}
		if (!any && !bl_tbuf_reserve(out, n))
			return false;
		any = true;
		size_t keep = ll;
		bool trailing_blank = keep && (s[i + keep - 1] == ' ' || s[i + keep - 1] == '\t');
		if (drop_space && trailing_blank)
			keep--;
		bl_tbuf_copy(out, in, done, i + keep - done);
		if (!flowed && !trailing_blank)
			bl_tbuf_putc(out, ' ', bl_src_origin(in, end)); /* the newline's place */
		i = next;
		done = next;
	}
	if (any)
		bl_tbuf_copy(out, in, done, n - done);
	return any;
}

/* RFC 3676 quote depth and stuffing: ">> text" has depth 2; " text" was
 * stuffed. Joins flowed lines of equal depth; keeps the first line's
 * quote marks so that quote.c still sees them. */
bool bl_flowed_decode(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, bool delsp)
{
	(void)m;
	const char *s = in->s;
	size_t n = in->len, i = 0;
	bool any = false, joining = false;
	int jdepth = 0;
	if (!bl_tbuf_reserve(out, n))
		return false;
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n;
		size_t next = nl ? end + 1 : n;
		size_t ll = end - i;
		if (ll && s[end - 1] == '\r')
			ll--;
		int d = 0;
		size_t p = 0;
		while (p < ll && s[i + p] == '>') {
			d++;
			p++;
		}
		size_t text = p;
		if (text < ll && s[i + text] == ' ')
			text++; /* stuffing (or the space after '>') */
		bool sig = ll - text == 3 && memcmp(s + i + text, "-- ", 3) == 0;
		bool soft = ll > text && s[i + ll - 1] == ' ' && !sig;
		if (joining && d != jdepth)
			bl_tbuf_putc(out, '\n', bl_src_origin(in, i));
		size_t from = (joining && d == jdepth) ? i + text : i;
		size_t to = i + ll;
		if (soft && nl) {
			if (delsp)
				to--;
			bl_tbuf_copy(out, in, from, to - from);
			joining = true;
			jdepth = d;
			any = true;
		} else {
			bl_tbuf_copy(out, in, from, next - from);
			joining = false;
		}
		i = next;
	}
	return any;
}
