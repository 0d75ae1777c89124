/* iozone_flat.c - the rows of iozone's auto-mode table in a post
 * flattened onto one line (the tool's table_breaks, ingest/shapes.h).
 *
 * iozone prints its table with printf widths, the file size right-aligned
 * at column 16 under "kB" and the record length under "reclen":
 *               kB  reclen    write  rewrite    read    reread
 *             4096      64   805326  1390734  3296335  3604224
 * Flattened, a row starts where its first two numbers line up with "kB"
 * and "reclen"; the line start goes 16 columns before the end of "kB"
 * (or at the blank before the header) and each row keeps that offset.
 * The record length, a power of two, tells a row's start from two cells
 * that happen to line up. */
#include <stdint.h>
#include <string.h>

#include "../base/re.h"
#include "../ingest/unflatten.h"
#include "iozone.h"

/* "              kB  reclen    write  rewrite ..." */
static struct bl_re iozhead_re = BL_RE("\\b[kK][bB] +reclen +write", 0);

#define IOZONE_KB_COLUMN 16
/* How far after the header its first row may start. */
#define IOZONE_HEAD_MAX 400

static bool numeric(const char *s, const struct bl_token *t)
{
	for (size_t i = t->a; i < t->e; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
			return false;
	return true;
}

/* A record length: 4, 64, 16384 (kB) */
static bool power_of_two(const char *s, const struct bl_token *t)
{
	unsigned long long v = 0;
	for (size_t i = t->a; i < t->e; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (1ULL << 40))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	return v && !(v & (v - 1));
}

/* The column s[to] stands at in a line that starts at s[from], tabs
 * expanded to stops of 8. */
static size_t xcol(const char *s, size_t from, size_t to)
{
	size_t c = 0;
	for (size_t i = from; i < to; i++)
		c = s[i] == '\t' ? (c / 8 + 1) * 8 : c + 1;
	return c;
}

/* How many blanks before a cell are tried as the line's start. */
#define IOZONE_INDENT_MAX 48

/* The start of the line whose cell ends at s[e], a blank at s[a - 1] when
 * the cell starts at s[a], given the column `col` the cell ends at: the
 * blank before it ended the line above, and the blanks after that indent
 * the line. Tabs count to their stops, so that a table whose indentation
 * a page turned into tabs still lines up:
 *   "...2888368\t\t\t      \t   65536    1024" (the row starts at "\t   65536")
 * 0 when no blank before the cell gives that column. */
static size_t line_start_at(const char *s, size_t a, size_t e, size_t col, size_t floor)
{
	for (size_t q = a, n = 0; q > floor && n < IOZONE_INDENT_MAX && bl_blank(s[q - 1]);
	     q--, n++) {
		size_t c = xcol(s, q, e);
		if (c == col)
			return q;
		if (c > col)
			return 0;
	}
	return 0;
}

/* The value of a power of two at t, or 0. */
static unsigned long long pow2_value(const char *s, const struct bl_token *t)
{
	if (!power_of_two(s, t))
		return 0;
	unsigned long long v = 0;
	for (size_t i = t->a; i < t->e; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	return v;
}

/* iozone's table retyped with single blanks, which leaves no columns to
 * cut by:
 *   "kB reclen write rewrite read reread ... freread 16384 4 573741 645072
 *    677116 765470 16384 64 2414771 2825231 815261 1797650  A second box"
 * A row starts with its file size and record length, powers of two, the
 * record no longer than the file; iozone goes up the record lengths, then
 * the file sizes, so each row's pair comes after the one above; and every
 * row of a table has as many cells as its first. Two blanks (an empty
 * line) or a word end the table. From p, after the header's "kB reclen";
 * returns where it stopped. */
static size_t iozone_collapsed(const char *s, size_t len, size_t base, size_t p,
			       struct bl_breaks *b)
{
	struct bl_token t, u;
	unsigned long long pk = 0, pr = 0;
	size_t cells = 0, row_len = 0, last = p, at;
	bool rows = false;
	while (bl_next_token(s, len, p, &t)) {
		if (!numeric(s, &t)) {
			/* the words of the header */
			if (rows || t.a - p > 1)
				break;
			p = t.e;
			continue;
		}
		if (t.a - p > 1)
			break;
		unsigned long long k = pow2_value(s, &t), r = 0;
		if (k && bl_next_token(s, len, t.e, &u) && u.a - t.e == 1)
			r = pow2_value(s, &u);
		if (r && r <= k && (k > pk || (k == pk && r > pr)) &&
		    (!rows || (cells >= 3 && (!row_len || cells == row_len)))) {
			if (rows && !row_len)
				row_len = cells;
			bl_breaks_add(b, base + t.a - 1);
			pk = k;
			pr = r;
			cells = 2;
			rows = true;
			last = p = u.e;
			continue;
		}
		if (!rows)
			break;
		cells++;
		last = p = t.e;
	}
	if (rows && bl_break_after(s, len, last, &at))
		bl_breaks_add(b, base + at);
	return p;
}

/* The column after s[from, to), in a line where s[from] is at column c. */
static size_t xcol_from(const char *s, size_t from, size_t to, size_t c)
{
	for (size_t i = from; i < to; i++)
		c = s[i] == '\t' ? (c / 8 + 1) * 8 : c + 1;
	return c;
}

/* A header that a mail client wrapped near 72 columns: its line ends with
 * a word at column 60 to 80, and the rest follows after the one blank that
 * replaced the line break, where iozone puts two blanks or more:
 *   "              kB  reclen    write  rewrite    read    reread    read write     read   rewrite ..."
 * (iozone's own single blank, "fwrite frewrite", stands past column 100).
 * Returns the column the header's first line ends at, 0 when it was not
 * wrapped; *at is the blank after it. */
#define WRAP_COL_MIN 60
#define WRAP_COL_MAX 80

static size_t iozone_head_wrap(const char *s, size_t len, size_t hs, size_t a, size_t *at)
{
	struct bl_token t, u;
	size_t p = a;
	while (bl_next_token(s, len, p, &t) && !numeric(s, &t) && t.a - a <= IOZONE_HEAD_MAX) {
		if (!bl_next_token(s, len, t.e, &u) || numeric(s, &u))
			return 0;
		size_t c = xcol(s, hs, t.e);
		if (c > WRAP_COL_MAX)
			return 0;
		if (u.a - t.e == 1 && c >= WRAP_COL_MIN) {
			*at = t.e;
			return c;
		}
		p = t.e;
	}
	return 0;
}

/* A row wrapped with its header ends its first line with the last cell
 * within a few columns of the header's first line (cells line up with the
 * header's words, a column or two either way; the next column is 8 or
 * more further). */
#define WRAP_SLACK 4

void bl_iz_table_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0;
	while (pos < len && bl_re_match(&iozhead_re, s, len, pos, &m)) {
		size_t a = m.ov[0], kb = a + 2, at;
		pos = m.ov[1];
		size_t r = kb;
		while (r < len && bl_blank(s[r]))
			r++;
		size_t dist = r + 6 - kb; /* from the end of "kB" to that of "reclen" */
		if (dist == 7) {
			/* "kB reclen": iozone puts two blanks there, so the
			 * table was retyped */
			if (bl_break_before(s, a, &at))
				bl_breaks_add(b, base + at);
			size_t q = iozone_collapsed(s, len, base, r + 6, b);
			pos = q > pos ? q : pos;
			continue;
		}
		size_t hs = line_start_at(s, a, kb, IOZONE_KB_COLUMN, 0);
		if (hs)
			;
		else if (bl_break_before(s, a, &at))
			hs = at + 1;
		else
			continue;
		if (hs > 0)
			bl_breaks_add(b, base + hs - 1);
		size_t col = xcol(s, hs, kb);
		struct bl_token t, u, last = {a, kb};
		size_t p = a, wrap_at = 0, wrap = iozone_head_wrap(s, len, hs, a, &wrap_at);
		if (wrap)
			bl_breaks_add(b, base + wrap_at);
		/* the row being read: where it started, the column of last.e */
		size_t rcol = 0;
		bool rows = false, wrapped = true;
		while (bl_next_token(s, len, p, &t)) {
			bool num = numeric(s, &t);
			/* a row starts where a number and the next line up with
			 * "kB" and "reclen" */
			if (num && t.e >= col + 1 && bl_next_token(s, len, t.e, &u) &&
			    numeric(s, &u) && u.e - t.e == dist && power_of_two(s, &u)) {
				size_t start = line_start_at(s, t.a, t.e, col, last.e);
				if (start) {
					bl_breaks_add(b, base + start - 1);
					rows = true;
					rcol = xcol(s, start, u.e);
					wrapped = !wrap;
					last = u;
					p = u.e;
					continue;
				}
			}
			/* a cell past the header's width: a row that a mail client
			 * wrapped, its end at the start of the next line */
			if (rows && num) {
				size_t c = xcol_from(s, last.e, t.e, rcol);
				if (!wrapped && rcol <= wrap + WRAP_SLACK &&
				    c > wrap + WRAP_SLACK) {
					/* the end of the row's first line, if the
					 * mail client left one blank there */
					if (t.a - last.e == 1)
						bl_breaks_add(b, base + last.e);
					wrapped = true;
				}
				rcol = c;
				last = t;
				p = t.e;
				continue;
			}
			/* the words of the header */
			if (!rows && !num && t.a - a <= IOZONE_HEAD_MAX) {
				last = t;
				p = t.e;
				continue;
			}
			break;
		}
		if (rows && bl_break_after(s, len, last.e, &at))
			bl_breaks_add(b, base + at);
		pos = p > pos ? p : pos;
	}
}
