/* unflatten_tables.c - the rows of tables in a post flattened onto one line.
 *
 * Flattening put one blank where each newline was, and kept the blanks of
 * each line, so a table's columns are still there: zpool iostat's rows
 * are as wide as its rule, iozone's line up under "kB" and "reclen",
 * bonnie's and bonnie++'s are as wide as their header, and zpool
 * iostat -H and bonnie++'s CSV lines hold no blank at all. The breaks go
 * into the same list as unflatten.c's. */
#include <stdint.h>
#include <string.h>

#include "../base/re.h"
#include "unflatten.h"

/* A word of a table, [a, e). */
struct token {
	size_t a, e;
};

static bool next_token(const char *s, size_t len, size_t from, struct token *t)
{
	while (from < len && bl_blank(s[from]))
		from++;
	if (from >= len)
		return false;
	t->a = from;
	while (from < len && !bl_blank(s[from]))
		from++;
	t->e = from;
	return true;
}

/* ------------------------------------------------------ tables by rule
 *
 * zpool iostat pads every row of a table to the width of its rule:
 *   pool        alloc   free   read  write   read  write
 *   ----------  -----  -----  -----  -----  -----  -----
 *   tank         900G  1.12T    100    300    12M    40M
 * Flattened, the rows follow each other with one blank between them, so
 * the rows before and after a rule are cut at its width, as long as each
 * piece has its cells where the rule has its columns. */

/* "----------  -----  -----  -----" (three columns or more) */
static struct bl_re rule_re = BL_RE("(?<!-)-{2,}(?: {1,3}-{2,}){2,}", 0);

#define GRID_MAX 64

struct grid {
	const char *rule;     /* the rule itself, w bytes */
	size_t w;
	size_t end[GRID_MAX]; /* end column of each dash group */
	size_t n;
};

static void grid_of(const char *r, size_t w, struct grid *g)
{
	g->rule = r;
	g->w = w;
	g->n = 0;
	for (size_t i = 0; i < w && g->n < GRID_MAX; i++)
		if (r[i] == '-' && (i + 1 == w || r[i + 1] != '-'))
			g->end[g->n++] = i + 1;
}

/* Whether [from, from + w) of s is a row of the grid: blanks where the
 * rule has them, and a cell ending at the end of each column (but the
 * first, the pool or vdev name, which is left-aligned). */
static bool grid_row(const char *s, size_t from, const struct grid *g)
{
	for (size_t c = 0; c < g->w; c++)
		if (g->rule[c] == ' ' && !bl_blank(s[from + c]))
			return false;
	for (size_t i = 1; i < g->n; i++)
		if (bl_blank(s[from + g->end[i] - 1]))
			return false;
	return true;
}

/* zpool iostat -T u and -T d stamp each sample, rows between: "1796018648",
 * "Mon Nov 30 06:04:09 UTC 2026" */
static struct bl_re stamp_re = BL_RE(
	"\\d{9,11}(?= )|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
	"[ \\d]\\d \\d\\d:\\d\\d:\\d\\d (?:[A-Z]{2,5} )?\\d{4}(?= )",
	0);

/* The length of the timestamp at s[r], or 0. */
static size_t stamp_at(const char *s, size_t len, size_t r)
{
	struct bl_re_match m;
	size_t lim = len - r > 64 ? r + 64 : len;
	if (bl_re_match(&stamp_re, s, lim, r, &m) && m.ov[0] == r)
		return m.ov[1] - r;
	return 0;
}

static void rule_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0;
	while (pos < len && bl_re_match(&rule_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		pos = e;
		struct grid g;
		grid_of(s + a, e - a, &g);
		if (g.n < 5)
			continue; /* a pool and its capacity, operations and bandwidth */
		size_t at;
		if (bl_break_before(s, a, &at))
			bl_breaks_add(b, base + at);
		/* rows after the rule */
		size_t p = e;
		for (;;) {
			if (p >= len || !bl_blank(s[p]))
				break;
			size_t ts = p > e ? stamp_at(s, len, p + 1) : 0;
			if (ts && p + 1 + ts < len && bl_blank(s[p + 1 + ts]) &&
			    p + 2 + ts + g.w <= len && grid_row(s, p + 2 + ts, &g)) {
				bl_breaks_add(b, base + p);
				p += 1 + ts;
				continue;
			}
			if (!(p + 1 + g.w <= len && grid_row(s, p + 1, &g) &&
			      (p + 1 + g.w == len || bl_blank(s[p + 1 + g.w]))))
				break;
			bl_breaks_add(b, base + p);
			p += 1 + g.w;
		}
		if (p > e && p < len)
			bl_breaks_add(b, base + p);
		else if (p == e && bl_break_after(s, len, e, &at)) {
			bl_breaks_add(b, base + at);
			/* zpool iostat -v leaves an empty line between samples:
			 * "-----  -----\n\n              capacity" */
			size_t k = e;
			while (k < len && bl_blank(s[k]))
				k++;
			if (k - e >= 2 && len - k >= 8 && memcmp(s + k, "capacity", 8) == 0)
				bl_breaks_add(b, base + e + 1);
		}
		/* rows before it: the header, the rows above a closing rule */
		size_t q = a;
		while (q > g.w && bl_blank(s[q - 1]) && grid_row(s, q - 1 - g.w, &g) &&
		       (q - 1 - g.w == 0 || bl_blank(s[q - 2 - g.w]))) {
			bl_breaks_add(b, base + q - 1);
			q -= 1 + g.w;
		}
		if (q < a && bl_break_before(s, q, &at))
			bl_breaks_add(b, base + at);
	}
}

/* A rule that a markdown editor cut to "---" (it took the dashes for a
 * rule of its own) has no width left to cut the rows by:
 *   "    pool        alloc   free   read  write   read  write     ---     tank
 *    5.12T  2.13T  **1.60K**    311   **199M**  38.1M       mirror-0  2.56T ..."
 * so the rows are counted by their cells instead: a name, then as many
 * values ("5.12T", "-", "0", "**199M**") as the header has columns after
 * "pool". A note after a row ("  <-- the new disk"), words without
 * digits, stays on its line. The "---" line holds the rows' indentation. */
static struct bl_re cut_rule_re = BL_RE("pool +alloc +free +read +write +read +write( {1,64})---(?= )", 0);

/* "5.12T", "-", "812", "**1.60K**", "12.0K" */
static bool zpool_value(const char *s, const struct token *t)
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
static bool zpool_cut_row(const char *s, size_t len, const struct token *t, size_t ncol, size_t *end)
{
	struct token v;
	size_t p = t->e;
	if (zpool_value(s, t))
		return false;
	for (size_t i = 0; i < ncol; i++) {
		if (!next_token(s, len, p, &v) || !zpool_value(s, &v))
			return false;
		p = v.e;
	}
	*end = p;
	return true;
}

#define ZPOOL_NOTE_WORDS 8

static bool has_digit_or_dash(const char *s, const struct token *t)
{
	for (size_t i = t->a; i < t->e; i++)
		if ((s[i] >= '0' && s[i] <= '9') || (s[i] == '-' && i + 1 < t->e && s[i + 1] == '-' &&
						      i > t->a && s[i - 1] == '-'))
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
		struct token t;
		size_t p = a, ncol = 0;
		while (next_token(s, he, p, &t)) {
			ncol++;
			p = t.e;
		}
		ncol--;
		bl_breaks_add(b, base + hs - 1);
		bl_breaks_add(b, base + he);
		p = e;
		size_t rows = 0, end;
		while (next_token(s, len, p, &t)) {
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
			struct token u = t;
			while (n < ZPOOL_NOTE_WORDS && !has_digit_or_dash(s, &u) &&
			       !zpool_cut_row(s, len, &u, ncol, &end) && next_token(s, len, u.e, &u))
				n++;
			if (n == 0 || n >= ZPOOL_NOTE_WORDS || !zpool_cut_row(s, len, &u, ncol, &end))
				break;
			p = u.a;
		}
		if (rows && bl_break_after(s, len, p, &at)) {
			bl_breaks_add(b, base + at);
			/* and the rule under the rows, cut too: "    ---     ..." */
			if (next_token(s, len, p, &t) && t.e - t.a == 3 && memcmp(s + t.a, "---", 3) == 0 &&
			    bl_break_after(s, len, t.e, &at)) {
				bl_breaks_add(b, base + at);
				p = t.e;
			}
		}
		pos = p > pos ? p : pos;
	}
}

/* zpool iostat -H: fields between tabs, rows between blanks once flattened:
 *   "-Hpl 60:  backup\t6597193223445\t...\t-\t- backup\t6597293223445\t..."
 * and bonnie++'s CSV lines, fields between commas.
 * Each blank next to a word of three tab-separated fields or more is a
 * line break (a run of them held empty lines). Each word is read twice at
 * most, up to WORD_MAX bytes. */
#define WORD_MAX 1024

/* Tabs between two fields in [from, to): "a\tb\tc" has two, diskinfo's
 * "overhead\t\t\t=" none. */
static size_t tabs_in(const char *s, size_t from, size_t to)
{
	size_t n = 0;
	for (size_t i = from + 1; i + 1 < to; i++)
		n += s[i] == '\t' && s[i - 1] != '\t' && s[i + 1] != '\t';
	return n;
}

/* bonnie++'s CSV lines: "1.97,1.97,srv,1,1389000000,8G,,..." */
#define CSV_MIN 8

static size_t commas_in(const char *s, size_t from, size_t to)
{
	size_t n = 0;
	for (size_t i = from; i < to; i++)
		n += s[i] == ',';
	return n;
}

static void tab_rows(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	size_t i = 0, word = 0; /* start of the word before the blanks at i */
	while (i < len) {
		const char *sp = memchr(s + i, ' ', len - i);
		if (!sp)
			return;
		size_t r0 = (size_t)(sp - s), r1 = r0;
		while (r1 < len && s[r1] == ' ')
			r1++;
		const char *nx = r1 < len ? memchr(s + r1, ' ', len - r1) : NULL;
		size_t wend = nx ? (size_t)(nx - s) : len;
		size_t bfrom = r0 - word > WORD_MAX ? r0 - WORD_MAX : word;
		size_t ato = wend - r1 > WORD_MAX ? r1 + WORD_MAX : wend;
		if (r0 > 0 && r1 < len && (tabs_in(s, bfrom, r0) >= 2 || tabs_in(s, r1, ato) >= 2 ||
					   commas_in(s, bfrom, r0) >= CSV_MIN || commas_in(s, r1, ato) >= CSV_MIN))
			for (size_t k = r0; k < r1; k++)
				bl_breaks_add(b, base + k);
		word = r1;
		i = r1;
	}
}

/* ------------------------------------------------------ iozone's table
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

/* "              kB  reclen    write  rewrite ..." */
static struct bl_re iozhead_re = BL_RE("\\b[kK][bB] +reclen +write", 0);

#define IOZONE_KB_COLUMN 16
/* How far after the header its first row may start. */
#define IOZONE_HEAD_MAX 400

static bool numeric(const char *s, const struct token *t)
{
	for (size_t i = t->a; i < t->e; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
			return false;
	return true;
}

/* A record length: 4, 64, 16384 (kB) */
static bool power_of_two(const char *s, const struct token *t)
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
	for (size_t q = a, n = 0; q > floor && n < IOZONE_INDENT_MAX && bl_blank(s[q - 1]); q--, n++) {
		size_t c = xcol(s, q, e);
		if (c == col)
			return q;
		if (c > col)
			return 0;
	}
	return 0;
}

/* The value of a power of two at t, or 0. */
static unsigned long long pow2_value(const char *s, const struct token *t)
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
static size_t iozone_collapsed(const char *s, size_t len, size_t base, size_t p, struct bl_breaks *b)
{
	struct token t, u;
	unsigned long long pk = 0, pr = 0;
	size_t cells = 0, row_len = 0, last = p, at;
	bool rows = false;
	while (next_token(s, len, p, &t)) {
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
		if (k && next_token(s, len, t.e, &u) && u.a - t.e == 1)
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
	struct token t, u;
	size_t p = a;
	while (next_token(s, len, p, &t) && !numeric(s, &t) && t.a - a <= IOZONE_HEAD_MAX) {
		if (!next_token(s, len, t.e, &u) || numeric(s, &u))
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

static void iozone_rows(const char *s, size_t len, size_t base, struct bl_breaks *b)
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
		struct token t, u, last = {a, kb};
		size_t p = a, wrap_at = 0, wrap = iozone_head_wrap(s, len, hs, a, &wrap_at);
		if (wrap)
			bl_breaks_add(b, base + wrap_at);
		/* the row being read: where it started, the column of last.e */
		size_t rcol = 0;
		bool rows = false, wrapped = true;
		while (next_token(s, len, p, &t)) {
			bool num = numeric(s, &t);
			/* a row starts where a number and the next line up with
			 * "kB" and "reclen" */
			if (num && t.e >= col + 1 && next_token(s, len, t.e, &u) && numeric(s, &u) &&
			    u.e - t.e == dist && power_of_two(s, &u)) {
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
				if (!wrapped && rcol <= wrap + WRAP_SLACK && c > wrap + WRAP_SLACK) {
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

/* ------------------------------------------------------ bonnie's tables
 *
 * bonnie and bonnie++ right-align their rows to the end of the header:
 *   Machine    GB M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU  /sec %CPU
 *   vol-ssd     8  48.2 77.0 410.5 70.1 160.3 20.2  55.1 76.4 1210.7 60.3  5120 50.2
 *                 files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
 *                    16 12345  56 +++++ +++ 23456  78 +++++ +++ +++++ +++ 34567  89
 * so the rows after a header are cut at its width (a cell that overflows
 * its column moves the end by a column or two). */

/* "Machine    GB M/sec", "Machine        Size K/sec", "Machine   Size:chnk K/sec",
 * "Name:Size etc        /sec",
 * "files  /sec %CP", "files:max:min        /sec %CP",
 * a disk's model written over "Machine": "ST318451LW MB K/sec %CPU",
 * and a header whose machine column was cut away: " Size K/sec %CP K/sec" */
static struct bl_re bonhead_re = BL_RE(
	"(?:Machine|Kernel) +(?:Size(?::chnk)?|[MG]B) +[KM]/sec|Name:Size etc +/sec|"
	"files(?::max(?::min)?)? +/sec +%CP|(?<!\\S)[A-Za-z]\\S{0,15} +[MG]B +[KM]/sec +%CPU|"
	"(?<!\\S)Size +K/sec +%CP +K/sec",
	0);

#define BONNIE_SLACK 3
#define BONNIE_OVERFLOW 12

/* A machine's name or a word, not a cell ("16.8m", "+++++", "**88826**") */
static bool name_like(char c)
{
	return !((c >= '0' && c <= '9') || c == '+' || c == '*' || c == '.');
}

static bool has_digit(const char *s, const struct token *t)
{
	for (size_t i = t->a; i < t->e; i++)
		if ((s[i] >= '0' && s[i] <= '9') || s[i] == '+')
			return true;
	return false;
}

static bool header_word(const char *s, const struct token *t)
{
	static const char *const words[] = {"K/sec", "M/sec", "/sec", "%CP", "%CPU", NULL};
	for (const char *const *w = words; *w; w++)
		if (strlen(*w) == t->e - t->a && memcmp(*w, s + t->a, t->e - t->a) == 0)
			return true;
	return false;
}

/* How many cells [from, to) holds when it is a row of numbers: "8  48.2 77.0",
 * "16 +++++ +++", "64G:4k::65536           16.8m  21"; SIZE_MAX when it is
 * not (prose; "Latency   702ms     488ms" is read apart). The words that
 * end by `name_end`, in the machine column, are one cell, the name:
 *   "Machine    Size K/sec %CP ..."
 *   "can (v2)   300M  4054  57 ..." */
static size_t bonnie_row(const char *s, size_t from, size_t to, size_t name_end)
{
	struct token t;
	size_t n = 0, p = from;
	bool named = false;
	while (p < to && next_token(s, to, p, &t)) {
		bool name = n == 0 || (named && t.e <= name_end);
		/* the machine's name first, then numbers only ("node7" of a
		 * label line below the row is a word) */
		if (!name && (!has_digit(s, &t) || name_like(s[t.a])))
			return SIZE_MAX;
		if (n == 0)
			named = t.e <= name_end;
		if (!(name && n > 0))
			n++;
		p = t.e;
	}
	return n >= 3 ? n : SIZE_MAX;
}

/* "12043us", "301ms", "1.2s" */
static bool latency(const char *s, const struct token *t)
{
	size_t i = t->a;
	while (i < t->e && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
		i++;
	if (i == t->a)
		return false;
	size_t n = t->e - i;
	return (n == 2 && (memcmp(s + i, "us", 2) == 0 || memcmp(s + i, "ms", 2) == 0 ||
			   memcmp(s + i, "ns", 2) == 0)) ||
	       (n == 1 && s[i] == 's');
}

/* The byte at which a line starting at `r` reaches display column `col`,
 * TABs counted to the next multiple of 8: a row indented by a TAB
 *   "<TAB> 1000 14361 100. 17089 10.4 ..."
 * is as wide as the header on screen but 7 bytes shorter. Past the text,
 * the columns left are counted as bytes. */
static size_t col_byte(const char *s, size_t len, size_t r, size_t col)
{
	size_t i = r, c = 0;
	while (i < len && c < col) {
		c = s[i] == '\t' ? (c / 8 + 1) * 8 : c + 1;
		i++;
	}
	return c < col ? len + (col - c) : i;
}

/* The end of the row that starts at r, under a header w columns wide
 * whose machine column ends name_w columns in and has nh words; 0 when no
 * row of numbers fits there. */
static size_t row_end(const char *s, size_t len, size_t r, size_t w, size_t name_w, size_t nh)
{
	struct token t;
	size_t end = 0;
	/* a row whose numbers overflow their columns ends where the next
	 * line's first word (a name, "Latency") starts */
	for (size_t d = 0; d <= BONNIE_OVERFLOW + BONNIE_SLACK && !end; d++) {
		size_t c = col_byte(s, len, r, w + BONNIE_OVERFLOW - d);
		if (c > r && c <= len && !bl_blank(s[c - 1]) && (c == len || bl_blank(s[c])) &&
		    bonnie_row(s, r, c, r + name_w) <= nh &&
		    (!next_token(s, len, c, &t) || name_like(s[t.a])))
			end = c;
	}
	/* else the longest row that has no more cells than the header has
	 * words: cells that overflow push the end right */
	for (size_t d = 0; d <= 2 * BONNIE_SLACK && !end; d++) {
		size_t c = col_byte(s, len, r, w + BONNIE_SLACK - d);
		if (c > r && c <= len && !bl_blank(s[c - 1]) && (c == len || bl_blank(s[c])) &&
		    bonnie_row(s, r, c, r + name_w) <= nh)
			end = c;
	}
	return end;
}

/* A line that labels the rows below it, whose machine cells are blank:
 *   "pblade 1 (ext2)          1000 14373 99.9 ..."   (flattened)
 * a few words at r, then a blank that was the newline and a row that
 * starts with blanks and a number (the size). Returns the end of the
 * label and sets *end to the end of the row; 0 when there is none. */
static size_t label_end(const char *s, size_t len, size_t r, size_t w, size_t name_w,
			size_t nh, size_t *end)
{
	struct token t, u;
	size_t p = r;
	for (int words = 0; words < 8 && next_token(s, len, p, &t) && t.e - r <= 64; words++) {
		p = t.e;
		if (t.e + 2 >= len || !bl_blank(s[t.e + 1]) || !next_token(s, len, t.e + 1, &u) ||
		    name_like(s[u.a]))
			continue;
		*end = row_end(s, len, t.e + 1, w, name_w, nh);
		if (*end)
			return t.e;
	}
	return 0;
}

static void bonnie_rows(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0, at;
	while (pos < len && bl_re_match(&bonhead_re, s, len, pos, &m)) {
		size_t a = m.ov[0];
		pos = m.ov[1];
		size_t hs = bl_break_before(s, a, &at) ? at + 1 : 0;
		if (hs)
			bl_breaks_add(b, base + hs - 1);
		struct token t;
		size_t he = m.ov[1], p = a, nh = 0, name_w = 0;
		while (next_token(s, len, p, &t) && (t.e <= m.ov[1] || header_word(s, &t))) {
			/* the machine column: up to the header's second word
			 * ("Machine    Size"), or its first ("     files");
			 * none in " Size K/sec" */
			if (s[a] != 'S' && nh == (s[a] == 'f' ? 0u : 1u) && t.a > hs)
				name_w = t.a - hs;
			he = t.e;
			p = t.e;
			nh++;
		}
		/* bon_csv2txt puts the machine's name before the file count
		 * too: "raid5            16  5011  18 +++++ +++" under "files:max:min" */
		if (s[a] == 'f')
			nh++;
		size_t w = he - hs;
		p = he;
		/* each row: the blank at p ended the line above */
		while (p < len && bl_blank(s[p])) {
			size_t r = p + 1, end = 0;
			/* bonnie++ 1.96+: each row's latencies on the line below it,
			 * "Latency             12043us     301ms     512ms" */
			if (next_token(s, len, r, &t) && t.e - t.a == 7 &&
			    memcmp(s + t.a, "Latency", 7) == 0 && t.a == r) {
				end = t.e;
				while (next_token(s, len, end, &t) && latency(s, &t))
					end = t.e;
				bl_breaks_add(b, base + p);
				p = end;
				continue;
			}
			end = row_end(s, len, r, w, name_w, nh);
			if (!end) {
				size_t le = label_end(s, len, r, w, name_w, nh, &end);
				if (!le)
					break;
				bl_breaks_add(b, base + p);
				p = le;
			}
			bl_breaks_add(b, base + p);
			p = end;
		}
		if (p > he && p < len && bl_break_after(s, len, p, &at))
			bl_breaks_add(b, base + at);
		else if (p == he && bl_break_after(s, len, he, &at))
			bl_breaks_add(b, base + at);
		pos = p > pos ? p : pos;
	}
}

void bl_unflatten_tables(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	rule_breaks(s, len, base, b);
	cut_rule_breaks(s, len, base, b);
	tab_rows(s, len, base, b);
	iozone_rows(s, len, base, b);
	bonnie_rows(s, len, base, b);
}
