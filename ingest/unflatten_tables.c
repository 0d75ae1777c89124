/* unflatten_tables.c - the rows of tables in a post flattened onto one line.
 *
 * Flattening put one blank where each newline was, and kept the blanks of
 * each line, so a table's columns are still there: rows under a dashed
 * rule are as wide as the rule, and rows of TAB- or comma-separated cells
 * (zpool iostat -H, bonnie++'s CSV) hold no blank at all. Tables of other
 * shapes are the tools' own (their table_breaks, shapes.h: iozone's rows
 * line up under "kB" and "reclen", bonnie's are as wide as their
 * header). The breaks go into the same list as unflatten.c's. */
#include <stdint.h>
#include <string.h>

#include "../base/re.h"
#include "unflatten.h"

bool bl_next_token(const char *s, size_t len, size_t from, struct bl_token *t)
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
	const char *rule; /* the rule itself, w bytes */
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
		if (r0 > 0 && r1 < len &&
		    (tabs_in(s, bfrom, r0) >= 2 || tabs_in(s, r1, ato) >= 2 ||
		     commas_in(s, bfrom, r0) >= CSV_MIN || commas_in(s, r1, ato) >= CSV_MIN))
			for (size_t k = r0; k < r1; k++)
				bl_breaks_add(b, base + k);
		word = r1;
		i = r1;
	}
}

void bl_unflatten_tables(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	rule_breaks(s, len, base, b);
	tab_rows(s, len, base, b);
	bl_unflatten_tool_tables(s, len, base, b);
}
