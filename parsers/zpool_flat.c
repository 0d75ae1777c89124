/* zpool_flat.c - the rows of a zpool iostat table in a post flattened
 * onto one line (the tool's table_breaks, ingest/shapes.h), where a
 * Markdown editor also cut its rule. The rows of a table whose rule kept
 * its width are cut by ingest's rule grids. */
#include <stdint.h>
#include <string.h>

#include "../base/re.h"
#include "../ingest/unflatten.h"
#include "zpool_iostat.h"

/* A rule that a markdown editor cut to "---" (it took the dashes for a
 * rule of its own) has no width left to cut the rows by:
 *   "    pool        alloc   free   read  write   read  write     ---     tank
 *    5.12T  2.13T  **1.60K**    311   **199M**  38.1M       mirror-0  2.56T ..."
 * so the rows are counted by their cells instead: a name, then as many
 * values ("5.12T", "-", "0", "**199M**") as the header has columns after
 * "pool". A note after a row ("  <-- the new disk"), words without
 * digits, stays on its line. The "---" line holds the rows' indentation. */
static struct bl_re cut_rule_re =
	BL_RE("pool +alloc +free +read +write +read +write( {1,64})---(?= )", 0);

/* "5.12T", "-", "812", "**1.60K**", "12.0K" */
static bool zpool_value(const char *s, const struct bl_token *t)
{
	size_t a = t->a, e = t->e;
	while (a < e && s[a] == '*')
		a++;
	while (e > a && s[e - 1] == '*')
		e--;
	if (e - a == 1 && s[a] == '-')
		return true;
	if (e > a && memchr("KMGTPE", s[e - 1], 6))
		e--;
	if (a == e || s[a] < '0' || s[a] > '9')
		return false;
	for (size_t i = a; i < e; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
			return false;
	return true;
}

/* Whether a row of `ncol` values after its name starts at the token t;
 * *end is set past it. */
static bool zpool_cut_row(const char *s, size_t len, const struct bl_token *t, size_t ncol,
			  size_t *end)
{
	struct bl_token v;
	size_t p = t->e;
	if (zpool_value(s, t))
		return false;
	for (size_t i = 0; i < ncol; i++) {
		if (!bl_next_token(s, len, p, &v) || !zpool_value(s, &v))
			return false;
		p = v.e;
	}
	*end = p;
	return true;
}

#define ZPOOL_NOTE_WORDS 8

static bool has_digit_or_dash(const char *s, const struct bl_token *t)
{
	for (size_t i = t->a; i < t->e; i++)
		if ((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] == '-' && i + 1 < t->e && s[i + 1] == '-' && i > t->a && s[i - 1] == '-'))
			return true;
	return false;
}

static void cut_rule_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0, at;
	while (pos < len && bl_re_match(&cut_rule_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1], he = m.ov[2];
		pos = e;
		size_t indent = m.ov[3] - m.ov[2] - 1;
		if (indent >= a || !bl_blank(s[a - indent - 1]))
			continue;
		size_t hs = a - indent;
		bool ok = true;
		for (size_t i = hs; ok && i < a; i++)
			ok = bl_blank(s[i]);
		if (!ok)
			continue;
		/* the columns after "pool" */
		struct bl_token t;
		size_t p = a, ncol = 0;
		while (bl_next_token(s, he, p, &t)) {
			ncol++;
			p = t.e;
		}
		ncol--;
		bl_breaks_add(b, base + hs - 1);
		bl_breaks_add(b, base + he);
		p = e;
		size_t rows = 0, end;
		while (bl_next_token(s, len, p, &t)) {
			if (zpool_cut_row(s, len, &t, ncol, &end)) {
				if (bl_break_before(s, t.a, &at))
					bl_breaks_add(b, base + at);
				p = end;
				rows++;
				continue;
			}
			if (!rows)
				break;
			/* a note after the row: its words, then the next row */
			size_t n = 0;
			struct bl_token u = t;
			while (n < ZPOOL_NOTE_WORDS && !has_digit_or_dash(s, &u) &&
			       !zpool_cut_row(s, len, &u, ncol, &end) &&
			       bl_next_token(s, len, u.e, &u))
				n++;
			if (n == 0 || n >= ZPOOL_NOTE_WORDS ||
			    !zpool_cut_row(s, len, &u, ncol, &end))
				break;
			p = u.a;
		}
		if (rows && bl_break_after(s, len, p, &at)) {
			bl_breaks_add(b, base + at);
			/* and the rule under the rows, cut too: "    ---     ..." */
			if (bl_next_token(s, len, p, &t) && t.e - t.a == 3 &&
			    memcmp(s + t.a, "---", 3) == 0 && bl_break_after(s, len, t.e, &at)) {
				bl_breaks_add(b, base + at);
				p = t.e;
			}
		}
		pos = p > pos ? p : pos;
	}
}

/* -H rows after their command, in a flattened line: a name, then as many
 * values as the first row has, again and again:
 *   "# zpool iostat tank -pH 2 3 tank    2199023255552   1099511627776
 *    210     35      8912896 1048576 tank    2199023255552 ..."
 * (the blanks between the values were TABs, or blanks to tab stops).
 * A break before each row's name and after the last row. */
static struct bl_re scripted_cmd_re =
	BL_RE("zpool iostat\\b(?:[ \\t]+[^\\s]{1,64}){0,12}?[ \\t]+-[A-Za-z]{0,10}H\\S*", 0);

/* How many zpool values follow the token t, up to the next other word. */
static size_t values_after(const char *s, size_t len, const struct bl_token *t,
			   struct bl_token *next)
{
	size_t n = 0, p = t->e;
	double v;
	bool dash, approx;
	while (bl_next_token(s, len, p, next)) {
		if (!bl_zpool_number(s + next->a, next->e - next->a, false, &v, &dash, &approx))
			return n;
		n++;
		p = next->e;
	}
	next->a = next->e = len;
	return n;
}

static void scripted_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0, at;
	while (pos < len && bl_re_match(&scripted_cmd_re, s, len, pos, &m)) {
		pos = m.ov[1];
		/* the command's interval and count, then the first row's name */
		struct bl_token t, next;
		size_t p = m.ov[1], k = 0;
		while (bl_next_token(s, len, p, &t) && (k = values_after(s, len, &t, &next)) < 6) {
			if (t.e - t.a > 20)
				break;
			p = t.e;
		}
		if (k < 6)
			continue;
		size_t rows = 0;
		for (;;) {
			if (bl_break_before(s, t.a, &at))
				bl_breaks_add(b, base + at);
			rows++;
			struct bl_token row = next, after;
			if (row.a >= len || values_after(s, len, &row, &after) != k)
				break;
			t = row;
			next = after;
		}
		if (next.a < len && bl_break_before(s, next.a, &at))
			bl_breaks_add(b, base + at);
		pos = next.a > pos ? next.a : pos;
	}
}

void bl_zpool_table_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	cut_rule_breaks(s, len, base, b);
	scripted_breaks(s, len, base, b);
}
