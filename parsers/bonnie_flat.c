/* bonnie_flat.c - the rows of bonnie's and bonnie++'s tables in a post
 * flattened onto one line (the tools' table_breaks, ingest/shapes.h).
 *
 * bonnie and bonnie++ right-align their rows to the end of the header:
 *   Machine    GB M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU  /sec %CPU
 *   vol-ssd     8  48.2 77.0 410.5 70.1 160.3 20.2  55.1 76.4 1210.7 60.3  5120 50.2
 *                 files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
 *                    16 12345  56 +++++ +++ 23456  78 +++++ +++ +++++ +++ 34567  89
 * so the rows after a header are cut at its width (a cell that overflows
 * its column moves the end by a column or two). */
#include <stdint.h>
#include <string.h>

#include "../base/re.h"
#include "../ingest/unflatten.h"
#include "bonnie_table.h"

/* "Machine    GB M/sec", "Machine        Size K/sec", "Machine   Size:chnk K/sec",
 * "Name:Size etc        /sec",
 * "files  /sec %CP", "files:max:min        /sec %CP",
 * a disk's model written over "Machine": "ST318451LW MB K/sec %CPU",
 * and a header whose machine column was cut away: " Size K/sec %CP K/sec" */
static struct bl_re bonhead_re =
	BL_RE("(?:Machine|Kernel) +(?:Size(?::chnk)?|[MG]B) +[KM]/sec|Name:Size etc +/sec|"
	      "files(?::max(?::min)?)? +/sec +%CP|(?<!\\S)[A-Za-z]\\S{0,15} +[MG]B +[KM]/sec +%CPU|"
	      "(?<!\\S)Size +K/sec +%CP +K/sec|(?<!\\S)[MG]B +[KM]/sec +%CPU +[KM]/sec",
	      0);

#define BONNIE_SLACK 3
#define BONNIE_OVERFLOW 12

/* A machine's name or a word, not a cell ("16.8m", "+++++", "**88826**") */
static bool name_like(char c)
{
	return !((c >= '0' && c <= '9') || c == '+' || c == '*' || c == '.');
}

static bool has_digit(const char *s, const struct bl_token *t)
{
	for (size_t i = t->a; i < t->e; i++)
		if ((s[i] >= '0' && s[i] <= '9') || s[i] == '+')
			return true;
	return false;
}

static bool header_word(const char *s, const struct bl_token *t)
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
	struct bl_token t;
	size_t n = 0, p = from;
	bool named = false;
	while (p < to && bl_next_token(s, to, p, &t)) {
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
static bool latency(const char *s, const struct bl_token *t)
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
	struct bl_token t;
	size_t end = 0;
	/* a row whose numbers overflow their columns ends where the next
	 * line's first word (a name, "Latency") starts */
	for (size_t d = 0; d <= BONNIE_OVERFLOW + BONNIE_SLACK && !end; d++) {
		size_t c = col_byte(s, len, r, w + BONNIE_OVERFLOW - d);
		if (c > r && c <= len && !bl_blank(s[c - 1]) && (c == len || bl_blank(s[c])) &&
		    bonnie_row(s, r, c, r + name_w) <= nh &&
		    (!bl_next_token(s, len, c, &t) || name_like(s[t.a])))
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
static size_t label_end(const char *s, size_t len, size_t r, size_t w, size_t name_w, size_t nh,
			size_t *end)
{
	struct bl_token t, u;
	size_t p = r;
	for (int words = 0; words < 8 && bl_next_token(s, len, p, &t) && t.e - r <= 64; words++) {
		p = t.e;
		if (t.e + 2 >= len || !bl_blank(s[t.e + 1]) ||
		    !bl_next_token(s, len, t.e + 1, &u) || name_like(s[u.a]))
			continue;
		*end = row_end(s, len, t.e + 1, w, name_w, nh);
		if (*end)
			return t.e;
	}
	return 0;
}

/* Whether s[a, len) starts with the word w, a blank or ':' after it
 * ("Size:chnk"): a header's first word, "MB" but not "MB0500EBNCR". */
static bool word_is(const char *s, size_t len, size_t a, const char *w)
{
	size_t n = strlen(w);
	return len - a > n && memcmp(s + a, w, n) == 0 && (bl_blank(s[a + n]) || s[a + n] == ':');
}

void bl_btab_table_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0, at;
	while (pos < len && bl_re_match(&bonhead_re, s, len, pos, &m)) {
		size_t a = m.ov[0];
		pos = m.ov[1];
		size_t hs = bl_break_before(s, a, &at) ? at + 1 : 0;
		if (hs)
			bl_breaks_add(b, base + hs - 1);
		struct bl_token t;
		size_t he = m.ov[1], p = a, nh = 0, name_w = 0;
		/* the machine column: up to the header's second word
		 * ("Machine    Size"), or its first ("     files"); none in
		 * " Size K/sec" nor " MB K/sec" */
		bool no_name = word_is(s, len, a, "Size") || word_is(s, len, a, "MB") ||
			       word_is(s, len, a, "GB");
		while (bl_next_token(s, len, p, &t) && (t.e <= m.ov[1] || header_word(s, &t))) {
			if (!no_name && nh == (s[a] == 'f' ? 0u : 1u) && t.a > hs)
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
			if (bl_next_token(s, len, r, &t) && t.e - t.a == 7 &&
			    memcmp(s + t.a, "Latency", 7) == 0 && t.a == r) {
				end = t.e;
				while (bl_next_token(s, len, end, &t) && latency(s, &t))
					end = t.e;
				bl_breaks_add(b, base + p);
				p = end;
				continue;
			}
			/* a row below blanks that are not its indentation (the
			 * header's line ended in blanks, an empty line or a
			 * mail's quote markers came between): its name is
			 * indented as the header's first word */
			if (name_w && bl_next_token(s, len, r, &t) && name_like(s[t.a]) &&
			    t.a - r > a - hs)
				r = t.a - (a - hs);
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
