/* unflatten.c - a post flattened onto one line, given its lines back.
 *
 * Web scrapes and some archives join a whole mail into one line:
 *   ...partition): # dd if=/dev/zero of=/root/z bs=1M count=200 200+0
 *   records in 200+0 records out 209715200 bytes transferred in 6.158355
 *   secs (34053769 bytes/sec) # dd if=...
 * In a long line, the blank before a prompt, a command, or a tool line
 * becomes a line break, and so does the blank after a complete tool line.
 * Each break replaces one blank, so the text keeps its length and its
 * offsets. To teach it a new tool, add the tool's line shapes below;
 * tables whose rows only their columns tell apart are in
 * unflatten_tables.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/find.h"
#include "../base/re.h"
#include "decode.h"
#include "unflatten.h"

#include "../base/sites.h"

/* Lines shorter than this are left alone (unflatten.h). */
#define UNFLATTEN_MIN BL_UNFLATTEN_MIN
/* A line this long is worth telling the user about; and what remains of
 * it after the breaks above is wrapped at blanks to at most WRAP_MAX bytes,
 * so that the parsers, which read a whole line around each match, stay
 * linear in the input. A dd progress display ('\r'-separated updates,
 * one a second, on one line of a log) is left whole below HUGE_LINE, and
 * wrapped at its '\r's above: no update is cut (dd.c reads the lines of
 * a display as one). */
#define LONG_LINE ((size_t)1 << 16)
#define HUGE_LINE ((size_t)1 << 20)
#define WRAP_MAX 4096

/* (each pattern starts where a number does, so that a long run of digits
 * is tried once, not from each of its digits) */
#define NOT_IN_NUMBER "(?<![\\d.])"

/* A line break before and after the tools' lines (shapes.h). */
static struct bl_re whole_re = BL_RE(NULL, 0);

/* The same patterns, one by one, for the detection: an alternation of
 * them stops PCRE2 at every digit and at every r, u and s of the text (a
 * fifth of the time on a mail archive). Each comes with a literal that
 * every match of it holds on its first line, found with memchr by its
 * rarest byte (`rare`); the pattern then runs on that line alone. */
#define NO_RARE_BYTE SIZE_MAX
struct detect {
	struct bl_re re;
	const char *lit; /* in every match, on its first line */
	size_t rare; /* the index of its rarest byte; NO_RARE_BYTE: the
			    * literal is found by its two ends (bl_find_lits,
			    * and the digit after it when digit_after) */
	bool digit_after; /* the literal is followed by a digit */
	const char *then; /* a literal every match holds after it on its line:
			    * a line without it is passed without the pattern */
	const char *next; /* what every match has right after the literal,
			    * as the sites pass checks it (anchor.c's
			    * then_steps()), or NULL */
};

/* some tool is known (bl_unflatten_compose): without one nothing is
 * unflattened */
static bool known;
#define NDETECT BL_SITE_LITERALS_MAX
static struct detect detect_re[NDETECT];
/* how many patterns detect_re holds; the one of zsh's report (end_re's) */
static size_t ndetect;
static size_t zsh_pattern = SIZE_MAX;

/* The searches for the literals of detect_re, one pass over the text
 * each: the patterns found by the same rare byte share a memchr pass
 * (three by ')', two by '+', two by '%'); one found by its two ends has
 * a bl_find_lit pass of its own (one pass for several took longer than
 * their passes one by one). */
struct search {
	int byte; /* memchr'd, or -1: by the ends of pat[0] */
	size_t pat[NDETECT], npat; /* the patterns, in the order of detect_re */
};
static struct search searches[NDETECT];
static size_t nsearches;

static void searches_init(void)
{
	if (nsearches)
		return;
	for (size_t g = 0; g < ndetect; g++) {
		const struct detect *d = &detect_re[g];
		int byte = d->rare == NO_RARE_BYTE ? -1 : (unsigned char)d->lit[d->rare];
		struct search *sr = NULL;
		for (size_t k = 0; byte >= 0 && k < nsearches && !sr; k++)
			if (searches[k].byte == byte)
				sr = &searches[k];
		if (!sr) {
			sr = &searches[nsearches++];
			sr->byte = byte;
			sr->npat = 0;
		}
		sr->pat[sr->npat++] = g;
	}
}

/* A search under way: where each of its patterns goes on (a pattern
 * passes the rest of a line its regex did not match on, and the position
 * after a literal without the digit it needs). */
struct cursor {
	size_t p[NDETECT];
};

/* Whether pattern g has its literal at `at`, and a match on that line
 * (from its cursor on): the match's start in *start. */
static bool try_at(size_t g, const char *s, size_t len, size_t at, struct cursor *cu, size_t *start)
{
	struct detect *d = &detect_re[g];
	size_t ll = strlen(d->lit), p = cu->p[g];
	if (at < p || at + ll > len || memcmp(s + at, d->lit, ll) != 0)
		return false;
	if (d->digit_after && !(at + ll < len && s[at + ll] >= '0' && s[at + ll] <= '9')) {
		cu->p[g] = at + 1;
		return false;
	}
	const char *nl = memrchr(s + p, '\n', at - p);
	size_t bol = nl ? (size_t)(nl - s) + 1 : p;
	nl = memchr(s + at, '\n', len - at);
	size_t eol = nl ? (size_t)(nl - s) : len;
	cu->p[g] = eol + 1;
	struct bl_re_match m;
	if (d->then && !memmem(s + at + ll, eol - at - ll, d->then, strlen(d->then)))
		return false;
	if (!bl_re_match(&d->re, s, eol, bol, &m))
		return false;
	*start = m.ov[0];
	return true;
}

/* The literals' starts from the sites pass, read in order: pattern g's
 * next one not yet passed is st->literal[g].v[at[g]]. */
struct site_cursor {
	const struct bl_sites *st;
	size_t at[NDETECT];
};

/* The first position at or after c where sr's search stops (the byte it
 * is found by, or the start of the literal found by its ends): the least
 * of its patterns' next starts (each moved to its byte). */
static size_t sites_next(const struct search *sr, struct site_cursor *sc, size_t c)
{
	size_t best = SIZE_MAX;
	for (size_t k = 0; k < sr->npat; k++) {
		size_t g = sr->pat[k], r = sr->byte >= 0 ? detect_re[g].rare : 0;
		const struct bl_site_list *l = &sc->st->literal[g];
		while (sc->at[g] < l->n && l->v[sc->at[g]] + r < c)
			sc->at[g]++;
		if (sc->at[g] < l->n && l->v[sc->at[g]] + r < best)
			best = l->v[sc->at[g]] + r;
	}
	return best;
}

/* Where a match of one of sr's patterns starts, at or after `from`, on
 * the first line that holds one; SIZE_MAX if none. The stops are where
 * the sites pass found a literal (sc), else those memchr or bl_find_lit
 * finds: where a byte of sr's is but none of its literals, nothing is
 * tried. */
static size_t search_next(const struct search *sr, struct site_cursor *sc, const char *s,
			  size_t len, size_t from)
{
	struct cursor cu;
	for (size_t k = 0; k < sr->npat; k++)
		cu.p[sr->pat[k]] = from;
	size_t c = from, start;
	while (c < len) {
		if (sc) {
			c = sites_next(sr, sc, c);
			if (c >= len)
				break;
			if (sr->byte < 0) {
				if (try_at(sr->pat[0], s, len, c, &cu, &start))
					return start;
			} else {
				for (size_t k = 0; k < sr->npat; k++) {
					size_t g = sr->pat[k], r = detect_re[g].rare;
					if (c >= r && try_at(g, s, len, c - r, &cu, &start))
						return start;
				}
			}
		} else if (sr->byte >= 0) {
			const char *h = memchr(s + c, sr->byte, len - c);
			if (!h)
				break;
			c = (size_t)(h - s);
			for (size_t k = 0; k < sr->npat; k++) {
				size_t g = sr->pat[k], r = detect_re[g].rare;
				if (c >= r && try_at(g, s, len, c - r, &cu, &start))
					return start;
			}
		} else {
			const struct detect *d = &detect_re[sr->pat[0]];
			size_t ll = strlen(d->lit);
			const char *h = d->digit_after
						? bl_find_lit_digit(s + c, len - c, d->lit, ll)
						: bl_find_lit(s + c, len - c, d->lit, ll);
			if (!h)
				break;
			c = (size_t)(h - s);
			if (try_at(sr->pat[0], s, len, c, &cu, &start))
				return start;
		}
		c++;
	}
	return SIZE_MAX;
}

/* Where the next match of each search starts: the lines that hold a tool
 * line, in order, without an alternation over the text. */
struct tool_lines {
	size_t next[NDETECT];
	struct site_cursor sc; /* with sc.st NULL, the literals are searched */
};

static void tool_lines_init(struct tool_lines *t, const char *s, size_t len,
			    const struct bl_sites *sites)
{
	searches_init();
	memset(&t->sc, 0, sizeof t->sc);
	t->sc.st = sites;
	for (size_t k = 0; k < nsearches; k++)
		t->next[k] = search_next(&searches[k], sites ? &t->sc : NULL, s, len, 0);
}

/* The start of the first match not yet passed; SIZE_MAX when none. */
static size_t tool_lines_first(const struct tool_lines *t)
{
	size_t a = SIZE_MAX;
	for (size_t k = 0; k < nsearches; k++)
		if (t->next[k] < a)
			a = t->next[k];
	return a;
}

/* Moves past the line that ends at eol. */
static void tool_lines_past(struct tool_lines *t, const char *s, size_t len, size_t eol)
{
	for (size_t k = 0; k < nsearches; k++)
		if (t->next[k] <= eol)
			t->next[k] = eol < len ? search_next(&searches[k], t->sc.st ? &t->sc : NULL,
							     s, len, eol + 1)
					       : SIZE_MAX;
}

/* A line break after the tools' ends (shapes.h): zsh prints the
 * command before its times.
 *   "dd if=/dev/zero of=x bs=1m count=100  0.00s user 0.21s system 95% cpu 0.220 total" */
static struct bl_re end_re = BL_RE(NULL, 0);

/* A line break before a prompt and a command: "# dd", "srebrny# time dd",
 * "[root@h:~]$ dd", "[root@viejo ~]# dd", "root@fbsd:~ # zpool"; before
 * the tools' starts (shapes.h); before a heading: "*** (mirror hdd, eli) zfs:" */
#define PROMPT                                                                                     \
	"(?:[#$%>]|\\[[^\\]\\n]{1,60}\\][#$%>]|[\\w.@:~/-]{1,60}[#$%>]|[\\w.-]{1,40}@[\\w.:~/-]{1,60} [#$%>]) "
#define PROMPT_WRAPPERS "(?:time |sudo |nice |/usr/bin/time )?(?:-[lpv] )?"
/* the commands of a post that are not a tool's, after a prompt */
#define OTHER_COMMANDS                                                                             \
	"zfs|gmirror|geli|newfs|gpart|mount|umount|df|sysctl|uname|fio|tar|rm|"                    \
	"time|make|sleep|/usr/bin/time"
#define HEADING "\\*{2,}(?= |$)"
static struct bl_re start_re = BL_RE(NULL, 0);

/* A line break before / after the tools' weak starts and ends, in a line
 * that is already known to be flattened (they do not make one so). */
static struct bl_re weak_re = BL_RE(NULL, 0);
static struct bl_re weak_end_re = BL_RE(NULL, 0);

/* A line break at the blank between two sentences, so that the one before
 * a block can serve as its caption:
 *   "...than the non-zfs test. With a 2GB test file: # dd if=..." */
static struct bl_re sentence_re = BL_RE("(?<=[a-z)][.!?]) (?=[A-Z])", 0);

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

void bl_breaks_add(struct bl_breaks *b, size_t at)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		size_t *v = realloc(b->v, cap * sizeof *v);
		if (!v)
			return;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = at;
}

/* How far back a run of blanks is followed to its first blank. */
#define BLANK_RUN_MAX 256

/* The word that ends at s[e - 1], after a blank or at the start of the
 * line: its start, or SIZE_MAX (none, or longer than PREFIX_WORD_MAX). */
#define PREFIX_WORD_MAX 64
static size_t word_before(const char *s, size_t e)
{
	size_t w = e;
	while (w > 0 && !bl_blank(s[w - 1]) && e - w < PREFIX_WORD_MAX)
		w--;
	return w == e || (w > 0 && !bl_blank(s[w - 1])) ? SIZE_MAX : w;
}

/* pdsh's "host:" before a line: a host name or address (letters, digits,
 * '.', '-', '_', a digit among them), a colon, and a TAB or more than one
 * blank after it:
 *   "... kB/sec node2: <TAB>Parent sees throughput ..."
 *   "... kB/sec 10.0.0.12:      Children see throughput ..." */
static bool host_word(const char *s, size_t w, size_t e)
{
	size_t j = e;
	while (bl_blank(s[j]) && j - e < BLANK_RUN_MAX)
		j++; /* the match may start at the TAB: "node2: <TAB>Parent" */
	if (e - w < 2 || s[e - 1] != ':' || !(memchr(s + e, '\t', j - e) || j - e >= 2))
		return false;
	bool digit = false;
	for (size_t i = w; i + 1 < e; i++) {
		char c = s[i];
		digit |= c >= '0' && c <= '9';
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '.' || c == '-' || c == '_'))
			return false;
	}
	return digit;
}

/* Whether s[w, e) is a mail's quote marker: '>' alone or doubled. */
static bool quote_word(const char *s, size_t w, size_t e)
{
	if (e - w > 4)
		return false;
	for (size_t i = w; i < e; i++)
		if (s[i] != '>')
			return false;
	return e > w;
}

/* The start of the quote markers that end at s[e - 1] ("> >", ">>"), or
 * e when there are none. One blank parts the markers of one line; two,
 * an empty quoted line from the next ("> ", then "> TEST5"). */
static size_t quote_before(const char *s, size_t e)
{
	size_t start = e;
	for (int n = 0; n < 4; n++) {
		size_t w = word_before(s, e);
		if (w == SIZE_MAX || !quote_word(s, w, e))
			break;
		start = w;
		e = w > 0 && bl_blank(s[w - 1]) ? w - 1 : w;
	}
	return start;
}

/* A prefix that stood before a tool line on its own line, between the
 * blanks before s[k] (s[a] the tool line's first byte) and the end of
 * the line above: a comment marker, with an ellipsis, or pdsh's host:
 *   "... 31+1 records in     # ... 31+1 records out"
 * Returns where it starts, or k when there is none. */
static size_t prefix_before(const char *s, size_t k)
{
	size_t h = word_before(s, k);
	if (h != SIZE_MAX && host_word(s, h, k))
		return h;
	size_t e = k, w = word_before(s, e);
	if (w != SIZE_MAX && e - w == 3 && memcmp(s + w, "...", 3) == 0) {
		while (w > 0 && e - w < BLANK_RUN_MAX && bl_blank(s[w - 1]))
			w--;
		e = w;
		w = word_before(s, e);
	}
	if (w == SIZE_MAX)
		return k;
	static const char *const marks[] = {"#", "//", "(*", "/*", "--", ";", NULL};
	for (size_t i = 0; marks[i]; i++)
		if (e - w == strlen(marks[i]) && memcmp(s + w, marks[i], e - w) == 0)
			return w;
	return k;
}

/* The blank that ended the line before s[a]: the first of the blanks just
 * before it, since flattening put one blank where the newline was and the
 * blanks after it are the next line's indentation (a table row keeps its
 * columns). None when s[a] is not after a blank, or the blanks indent the
 * line. A prefix of the line (prefix_before) goes with it, and a mail's
 * quote markers start it: "... %CPU   > > TEST5" breaks at the blank
 * just before the first '>'. */
bool bl_break_before(const char *s, size_t a, size_t *at)
{
	if (a == 0 || !bl_blank(s[a - 1]))
		return false;
	size_t k = a - 1, lim = a > BLANK_RUN_MAX ? a - BLANK_RUN_MAX : 0;
	while (k > lim && bl_blank(s[k - 1]))
		k--;
	if (k == 0)
		return false;
	/* a progress update after its '\r', quoted or not: "\r> 2571108352 bytes" */
	size_t q = k;
	while (q > 0 && k - q < 16 && (s[q - 1] == '>' || s[q - 1] == '|' || bl_blank(s[q - 1])))
		q--;
	if (q > 0 && s[q - 1] == '\r')
		return false;
	/* a mail's quote markers start their line: the blank just before
	 * them was its line break, those before it the line above's */
	size_t marks = quote_before(s, k);
	if (marks < k) {
		if (marks < 2 || !bl_blank(s[marks - 1]))
			return false;
		*at = marks - 1;
		return true;
	}
	size_t p = prefix_before(s, k);
	if (p < k) {
		/* the line's break goes before its prefix (none when the
		 * prefix starts the line) */
		k = p;
		while (k > lim && bl_blank(s[k - 1]))
			k--;
		if (k == 0 || k == p)
			return false;
	}
	*at = k;
	return true;
}

/* The blank after s[e - 1] that ends its line, unless only blanks and the
 * line end (or a '\r' of dd's progress updates) follow. */
bool bl_break_after(const char *s, size_t len, size_t e, size_t *at)
{
	if (e >= len || !bl_blank(s[e]))
		return false;
	size_t k = e, lim = len - e > BLANK_RUN_MAX ? e + BLANK_RUN_MAX : len;
	while (k < lim && bl_blank(s[k]))
		k++;
	if (k >= len || s[k] == '\r' || s[k] == '\n')
		return false;
	*at = e;
	return true;
}

/* Whether one of the strings in `lits` (NULL-terminated) occurs in
 * [s, s+len). */
static bool prefilter_off; /* for tests: bl_unflatten_set_prefilter() */

void bl_unflatten_set_prefilter(bool on)
{
	prefilter_off = !on;
}

static bool holds_any(const char *s, size_t len, const char *const *lits)
{
	if (prefilter_off)
		return true;
	for (; *lits; lits++)
		if (bl_find_lit(s, len, *lits, strlen(*lits)))
			return true;
	return false;
}

/* What every match of weak_re holds, or the rest of its line holds after
 * it (a lookahead), and the same of weak_end_re and start_re: the union
 * of the tools' needs (shapes.h), and a prompt's "# " ("$ ", "% ", "> ")
 * and a heading's "**". A long line without any (a bonnie++ CSV row) is
 * not searched: weak_re stops PCRE2 at nearly every byte, with a dozen
 * branches to try at each. */
#define NEEDS_MAX 64
static const char *weak_needs[NEEDS_MAX], *weak_end_needs[NEEDS_MAX], *start_needs[NEEDS_MAX];

/* Breaks at the weak tool lines and the table rows of the line [s, s+len)
 * at `base`, of any length: a post flattened onto one line of megabytes
 * has its tables' rows broken out as a short one does (a hostile line of
 * 24 MB of digits, dashes or table rules costs 2 to 5 s). */
static void weak_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = holds_any(s, len, weak_needs) ? 0 : len, at;
	while (pos < len && bl_re_match(&weak_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (bl_break_before(s, a, &at))
			bl_breaks_add(b, base + at);
		pos = e > a ? e : a + 1;
	}
	pos = holds_any(s, len, weak_end_needs) ? 0 : len;
	while (pos < len && bl_re_match(&weak_end_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (bl_break_after(s, len, e, &at))
			bl_breaks_add(b, base + at);
		pos = e > a ? e : a + 1;
	}
	if (len >= UNFLATTEN_MIN)
		bl_unflatten_tables(s, len, base, b);
}

/* Breaks after the sentences of the line [s, s+len) at `base`. */
static void sentence_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0;
	while (pos < len && bl_re_match(&sentence_re, s, len, pos, &m)) {
		bl_breaks_add(b, base + m.ov[0]);
		pos = m.ov[1] > m.ov[0] ? m.ov[1] : m.ov[0] + 1;
	}
}

/* What line_breaks() found: tool lines and prompts that share their line
 * with other text, and whether the line begins with a prompt or command. */
struct found {
	size_t tool, start, gap;
	size_t first_tool; /* where the first tool line that shares it starts */
	bool lead;
};

/* Collects blanks to turn into breaks in the line [s, s+len) at `base`. */
static struct found line_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b,
				bool tools_only)
{
	struct bl_re_match m;
	struct found f = {0, 0, 0, SIZE_MAX, false};
	size_t pos = 0, at;
	while (pos < len && bl_re_match(&whole_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		bool any = false;
		if (bl_break_before(s, a, &at)) {
			bl_breaks_add(b, base + at);
			any = true;
		}
		if (bl_break_after(s, len, e, &at)) {
			bl_breaks_add(b, base + at);
			any = true;
		}
		f.tool += any;
		if (any && a < f.first_tool)
			f.first_tool = a;
		pos = e > a ? e : a + 1;
	}
	pos = 0;
	while (pos < len && bl_re_match(&end_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (bl_break_after(s, len, e, &at)) {
			bl_breaks_add(b, base + at);
			f.tool++;
			/* zsh's report ends its line, and two blanks after it
			 * are that line's end and an empty line:
			 * "BothHttp     0.48s user  0.07s system  0% cpu  1:00.25 total  Half a second" */
			f.gap += at + 1 < len && s[at + 1] == ' ';
		}
		pos = e > a ? e : a + 1;
	}
	pos = holds_any(s, len, start_needs) ? 0 : len;
	while (pos < len && bl_re_match(&start_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (bl_break_before(s, a, &at)) {
			bl_breaks_add(b, base + at);
			f.start++;
		} else {
			/* a command at the line's start, and the tool line after
			 * it not in the command's comment ("... count=1000  #
			 * should end with 1048576000 bytes (1.0 GB) copied, ...") */
			size_t i = 0;
			while (i < a && bl_blank(s[i]))
				i++;
			f.lead |= i == a && f.first_tool > e && f.first_tool != SIZE_MAX &&
				  !memmem(s + e, f.first_tool - e, " #", 2);
		}
		pos = e > a ? e : a + 1;
	}
	/* what follows never decides whether a short line is a flattened post
	 * (keep_short), only where else it breaks */
	if (tools_only)
		return f;
	weak_breaks(s, len, base, b);
	sentence_breaks(s, len, base, b);
	return f;
}

/* A line shorter than UNFLATTEN_MIN is a flattened post too when it holds
 * two tool lines or a prompt and a tool line, which a line of a post never
 * does: "$ dd bs=1 count=1 if=/dev/zero of=/tmp/x/g 1+0 records in 1+0 ..."
 * but not "Counting 10+0 records in the table above was a mistake."; a
 * command and the first line of its output count too, the command at the
 * line's start ("root@:~# dd if=/dev/mtdblock3 ... count=10240 2048+0
 * records in", where a page lost the break between them);
 * or a zsh report and an empty line after it (see f.gap):
 * "... BothHttp     0.48s user  0.07s system  0% cpu  1:00.25 total  Half a second ..."
 * Breaks [n0, b->n) were found in it; they are kept or dropped. */
static void keep_short(struct bl_breaks *b, size_t n0, struct found f)
{
	if (f.tool < 2 && !(f.tool && (f.start || f.lead)) && !f.gap)
		b->n = n0;
}

/* Whether keep_short() can keep breaks of the short line [from, to),
 * as the literals the sites pass found there tell: each match of
 * whole_re holds one (try_at()'s patterns cover whole_re's, and a match's
 * own literal is one the pass keeps), so two tool lines hold two; a tool
 * line and a prompt hold one and two bytes start_re needs (a prompt's
 * "# ", a tool's start, "**"); a zsh report (end_re) holds "% cpu".
 * Nearly every tool line is alone on its line: "2+0 records in". */
/* Whether [from, to) holds the first two bytes of a need of start_re
 * (start_needs: a prompt's "# ", "$ ", "% ", "> ", a tool's start such as
 * dd's "dd", a heading's "**"). 16 bytes a step (a loop over the bytes of
 * the line cost more than the rest of short_candidate()); the text is
 * followed by BL_TEXT_PAD zero bytes, which the last step may read. */
static unsigned char start_pair[NEEDS_MAX][2]; /* a need's first two bytes */
static size_t nstart_pairs;

static bool start_bytes(const char *s, size_t from, size_t to)
{
	typedef unsigned char v16 __attribute__((vector_size(16)));
	for (size_t i = from; i < to; i += 16) {
		v16 x, y, hit = {0};
		memcpy(&x, s + i, 16);
		memcpy(&y, s + i + 1, 16);
		size_t left = to - i;
		/* in the last step, a pair's second byte past the line is none,
		 * and nor is a byte past it */
		for (size_t k = left - 1; k < 16; k++)
			y[k] = 0;
		for (size_t k = 0; k < nstart_pairs; k++)
			hit |= (x == start_pair[k][0]) & (y == start_pair[k][1]);
		for (size_t k = left; k < 16; k++)
			hit[k] = 0;
		uint64_t w[2];
		memcpy(w, &hit, sizeof w);
		if (w[0] | w[1])
			return true;
	}
	return false;
}

/* The literals' starts read in order, for the lines asked about in
 * order: literal g's next start not before the line is
 * st->literal[g].v[at[g]]. */
struct line_sites {
	const struct bl_sites *st;
	size_t at[NDETECT];
	size_t next; /* the least of those starts (SIZE_MAX: none is left) */
	/* the literals found at all (most texts have two or three of the
	 * fifteen), in the order of detect_re; nlit is SIZE_MAX until they
	 * are listed */
	unsigned char lit[NDETECT];
	size_t nlit;
};

static bool short_candidate(struct line_sites *ls, const char *s, size_t from, size_t to, bool *zsh)
{
	size_t n = 0;
	*zsh = false;
	if (ls->nlit == SIZE_MAX) {
		ls->nlit = 0;
		for (size_t g = 0; g < ndetect; g++)
			if (ls->st->literal[g].n)
				ls->lit[ls->nlit++] = (unsigned char)g;
	}
	if (ls->next < from) {
		ls->next = SIZE_MAX;
		for (size_t j = 0; j < ls->nlit; j++) {
			size_t g = ls->lit[j];
			const struct bl_site_list *l = &ls->st->literal[g];
			while (ls->at[g] < l->n && l->v[ls->at[g]] < from)
				ls->at[g]++;
			if (ls->at[g] < l->n && l->v[ls->at[g]] < ls->next)
				ls->next = l->v[ls->at[g]];
		}
	}
	if (ls->next >= to)
		return false; /* most lines: no literal */
	for (size_t j = 0; j < ls->nlit; j++) {
		size_t g = ls->lit[j];
		const struct bl_site_list *l = &ls->st->literal[g];
		size_t lo = ls->at[g];
		for (; lo < l->n && l->v[lo] < to; lo++)
			if (++n >= 2 || g == zsh_pattern)
				return (*zsh = g == zsh_pattern), true;
	}
	return n && start_bytes(s, from, to);
}

/* whole_re tried at one position only */
static struct bl_re whole_at_re = BL_RE(NULL, PCRE2_ANCHORED);

/* Whether the short line [s, s+len) is one tool line alone, blanks
 * around it, and holds no zsh report (`zsh`: it holds its literal):
 *   "536870912 bytes (537 MB, 512 MiB) copied, 3.81952 s, 141 MB/s"
 * Then keep_short() drops whatever line_breaks() finds there: the
 * match of whole_re that starts the line has no break before or after
 * it (the blanks around it, fewer than BLANK_RUN_MAX in a short line,
 * indent the line and end it), none can start in the blanks after it,
 * and end_re, which every zsh report matches, has no match. Most short
 * lines the sites pass leads to in tool output are such (a dd summary
 * holds ", " three times), and the three regexes of line_breaks() cost
 * a hundred instructions a byte on them. */
static bool lone_tool_line(const char *s, size_t len, bool zsh)
{
	if (zsh || prefilter_off)
		return false;
	size_t a = 0;
	while (a < len && bl_blank(s[a]))
		a++;
	struct bl_re_match m;
	if (a >= len || !bl_re_match(&whole_at_re, s, len, a, &m))
		return false;
	size_t e = m.ov[1];
	while (e < len && bl_blank(s[e]))
		e++;
	return e == len || (e + 1 == len && s[e] == '\r');
}

/* Whether s[k] is where a piece of a line ends: a '\r' in a line of
 * '\r'-separated updates (`cr`), which leaves every update whole, else
 * a blank. */
static bool wrap_at(const char *s, size_t k, bool cr)
{
	return cr ? s[k] == '\r' : bl_blank(s[k]);
}

/* Breaks so that no piece of [from, to) exceeds WRAP_MAX: at blanks, or
 * at the '\r's of a progress display (`cr`) where it has some. */
static void wrap_piece(const char *s, size_t from, size_t to, bool cr, struct bl_breaks *b)
{
	while (to - from > WRAP_MAX) {
		const char *sp = NULL;
		for (int pass = cr ? 0 : 1; pass < 2 && !sp; pass++)
			for (size_t k = from + WRAP_MAX; k > from; k--)
				if (wrap_at(s, k, pass == 0)) {
					sp = s + k;
					break;
				}
		if (!sp) {
			/* one long word: wrap at the first blank after it */
			size_t k = from + WRAP_MAX;
			while (k < to && !bl_blank(s[k]))
				k++;
			if (k >= to)
				return;
			sp = s + k;
		}
		bl_breaks_add(b, (size_t)(sp - s));
		from = (size_t)(sp - s) + 1;
	}
}

/* Adds wrap breaks to the long lines; b is sorted on entry and on exit. */
static void hard_wrap(const char *s, size_t n, struct bl_breaks *b)
{
	size_t nb = b->n, k = 0, i = 0;
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n;
		size_t len = end - i;
		bool cr = len >= LONG_LINE && memchr(s + i, '\r', len > 1 ? len - 1 : 0);
		bool wrap = len >= HUGE_LINE || (len >= LONG_LINE && !cr);
		size_t from = i;
		while (k < nb && b->v[k] < end) {
			if (wrap && b->v[k] >= from)
				wrap_piece(s, from, b->v[k], cr, b);
			if (b->v[k] >= from)
				from = b->v[k] + 1;
			k++;
		}
		if (wrap)
			wrap_piece(s, from, end, cr, b);
		i = end + 1;
	}
	if (b->n > nb && b->v)
		qsort(b->v, b->n, sizeof *b->v, cmp_size);
}

bool bl_unflatten_detect(const char *s, size_t len, const struct bl_sites *sites)
{
	if (!known)
		return false;
	if (sites && sites->long_line)
		return true;
	/* a line of UNFLATTEN_MIN bytes or more: the next so many bytes from
	 * a line start hold no newline; else every line that starts before
	 * the last newline among them is shorter (one memrchr passes several
	 * lines of prose) */
	size_t i = 0;
	while (!sites && len - i >= UNFLATTEN_MIN) {
		const char *nl = memrchr(s + i, '\n', UNFLATTEN_MIN);
		if (!nl)
			return true;
		i = (size_t)(nl - s) + 1;
	}
	/* a short line keeps breaks only when the sites pass found two
	 * literals in it, or a zsh report's, and it is not one tool line
	 * alone: most texts have no such line, and the search of their tool
	 * lines, a regex on the line of each literal, is not begun */
	if (sites && !prefilter_off) {
		struct line_sites ls = {.st = sites, .nlit = SIZE_MAX};
		size_t at = 0;
		bool zsh, any = false;
		while (!any && at < len) {
			short_candidate(&ls, s, at, at, &zsh); /* the next literal's start */
			if (ls.next >= len)
				break;
			const char *bol = memrchr(s + at, '\n', ls.next - at);
			size_t from = bol ? (size_t)(bol - s) + 1 : at;
			const char *nl = memchr(s + ls.next, '\n', len - ls.next);
			size_t to = nl ? (size_t)(nl - s) : len;
			any = short_candidate(&ls, s, from, to, &zsh) &&
			      !lone_tool_line(s + from, to - from, zsh);
			at = to + 1;
		}
		if (!any)
			return false;
	}
	/* short lines: each line with a tool line or a zsh report, tried once */
	struct bl_breaks b = {NULL, 0, 0};
	struct tool_lines tl;
	tool_lines_init(&tl, s, len, sites);
	struct line_sites ls = {.st = sites, .nlit = SIZE_MAX};
	bool found = false;
	size_t a;
	while (!found && (a = tool_lines_first(&tl)) < len) {
		const char *nl = memchr(s + a, '\n', len - a);
		size_t to = nl ? (size_t)(nl - s) : len;
		const char *bol = memrchr(s, '\n', a);
		size_t from = bol ? (size_t)(bol - s) + 1 : 0;
		tool_lines_past(&tl, s, len, to);
		bool zsh;
		if (sites && (!short_candidate(&ls, s, from, to, &zsh) ||
			      lone_tool_line(s + from, to - from, zsh)))
			continue;
		b.n = 0;
		keep_short(&b, 0, line_breaks(s + from, to - from, from, &b, true));
		found = b.n > 0;
	}
	free(b.v);
	return found;
}

/* bl_unflatten(), handing the breaks it made (ascending, each once) to
 * *made when the text changed; with `in_place` (in->s, writable), the
 * breaks are written there and `out` is not used. */
static bool unflatten(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, char *in_place,
		      const struct bl_sites *sites, struct bl_breaks *made)
{
	const char *s = in->s;
	size_t n = in->len, i = 0, nlong = 0, first_long = 0, longest = 0;
	struct bl_breaks b = {NULL, 0, 0};
	/* a short line keeps its breaks only when it holds a tool line
	 * (keep_short): the others are not looked at */
	struct tool_lines tl;
	tool_lines_init(&tl, s, n, sites);
	struct line_sites ls = {.st = sites, .nlit = SIZE_MAX};
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n;
		if (end - i < UNFLATTEN_MIN) {
			/* with the sites, the literals there are looked at first:
			 * most lines are passed before a tool line's regex runs
			 * on them (the search of tool lines then goes on from
			 * the line, past those it was not asked about) */
			bool zsh;
			if (sites && (!short_candidate(&ls, s, i, end, &zsh) ||
				      lone_tool_line(s + i, end - i, zsh))) {
				i = end + 1;
				continue;
			}
			if (i)
				tool_lines_past(&tl, s, n, i - 1);
			bool tool = tool_lines_first(&tl) <= end;
			tool_lines_past(&tl, s, n, end);
			if (!tool) {
				i = end + 1;
				continue;
			}
		}
		if (end - i >= LONG_LINE) {
			if (!nlong++)
				first_long = i;
			if (end - i > longest)
				longest = end - i;
		}
		/* GNU dd's progress updates are separated by '\r', not by
		 * blanks: bl_break_after() leaves them together */
		size_t n0 = b.n;
		if (end - i < UNFLATTEN_MIN) {
			/* the rest of a short line's breaks only when it keeps
			 * its tool lines' (most tool lines are alone on theirs) */
			keep_short(&b, n0, line_breaks(s + i, end - i, i, &b, true));
			if (b.n > n0) {
				weak_breaks(s + i, end - i, i, &b);
				sentence_breaks(s + i, end - i, i, &b);
			}
		} else {
			line_breaks(s + i, end - i, i, &b, false);
		}
		i = end + 1;
	}
	if (nlong)
		bl_message_diag(
			m, BL_INFO, "ingest.long-line", bl_src_origin(in, first_long),
			"%zu line%s of %zu bytes or more (the longest %zu bytes, the first at byte %zu): "
			"read as a flattened post, split before prompts and tool output",
			nlong, nlong == 1 ? "" : "s", LONG_LINE, longest,
			m->raw_offset + bl_src_origin(in, first_long));
	if (b.n)
		qsort(b.v, b.n, sizeof *b.v, cmp_size);
	if (nlong)
		hard_wrap(s, n, &b);
	if (!b.n) {
		free(b.v);
		return false;
	}
	if (!in_place && !bl_tbuf_reserve(out, n)) {
		free(b.v);
		return false;
	}
	size_t from = 0, kept = 0;
	for (size_t k = 0; k < b.n; k++) {
		size_t at = b.v[k];
		if (at < from)
			continue; /* the same blank twice */
		if (in_place) {
			in_place[at] = '\n';
		} else {
			bl_tbuf_copy(out, in, from, at - from);
			bl_tbuf_putc(out, '\n', bl_src_origin(in, at));
		}
		from = at + 1;
		b.v[kept++] = at;
	}
	if (!in_place)
		bl_tbuf_copy(out, in, from, n - from);
	b.n = kept;
	if (made)
		*made = b;
	else
		free(b.v);
	return true;
}

bool bl_unflatten(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
		  const struct bl_sites *sites)
{
	return unflatten(m, in, out, NULL, sites, NULL);
}

bool bl_unflatten_breaks(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
			 const struct bl_sites *sites, size_t **at, size_t *n)
{
	struct bl_breaks made = {NULL, 0, 0};
	bool changed = unflatten(m, in, out, NULL, sites, &made);
	*at = made.v;
	*n = made.n;
	return changed;
}

bool bl_unflatten_breaks_in_place(struct bl_message *m, struct bl_src *in, char *text,
				  const struct bl_sites *sites, size_t **at, size_t *n)
{
	struct bl_breaks made = {NULL, 0, 0};
	bool changed = unflatten(m, in, NULL, text, sites, &made);
	*at = made.v;
	*n = made.n;
	return changed;
}

/* ------------------------------------------------- headers of a flat mail */

/* The next header name in a flattened header block: " X-Mailer: ",
 * " Content-Type: ", " Subject: ". */
static struct bl_re next_field_re = BL_RE(" (?:[A-Z][A-Za-z0-9]*-)*[A-Z][A-Za-z0-9]*: ", 0);

#define FLAT_HEAD_MAX 16384
#define FLAT_VALUE_MAX 300

/* Copies the value of field `name` ("Subject") from a flattened header
 * block: the text after " Subject: " up to the next field name. */
static char *flat_field(const char *s, size_t n, const char *name)
{
	char pat[32];
	int pl = snprintf(pat, sizeof pat, "%s: ", name);
	if (pl <= 0 || (size_t)pl >= sizeof pat)
		return NULL;
	for (size_t i = 0; i + (size_t)pl <= n;) {
		const char *p = memmem(s + i, n - i, pat, (size_t)pl);
		if (!p)
			return NULL;
		size_t at = (size_t)(p - s);
		i = at + 1;
		if (at > 0 && s[at - 1] != ' ')
			continue; /* "X-List-Received-Date: " is not "Date: " */
		size_t v = at + (size_t)pl, lim = n - v < FLAT_VALUE_MAX ? n - v : FLAT_VALUE_MAX;
		struct bl_re_match m;
		/* from the blank before the value, so that an empty value
		 * ("Message-Id: To: ...", the <id> scrubbed away) is seen */
		size_t end = bl_re_match(&next_field_re, s + v - 1, lim + 1, 0, &m) ? m.ov[0] : lim;
		while (end && s[v + end - 1] == ' ')
			end--;
		if (!end)
			return NULL;
		return bl_charset_string(s + v, end, NULL);
	}
	return NULL;
}

void bl_unflatten_headers(struct bl_message *m, const char *s, size_t n)
{
	if (m->subject || n < UNFLATTEN_MIN)
		return;
	const char *nl = memchr(s, '\n', n);
	size_t first = nl ? (size_t)(nl - s) : n;
	if (first < UNFLATTEN_MIN)
		return;
	if (first > FLAT_HEAD_MAX)
		first = FLAT_HEAD_MAX;
	/* a mail: it starts with an mbox separator or a header field */
	bool mail = (first > 5 && memcmp(s, "From ", 5) == 0) ||
		    (first > 12 && memcmp(s, "Return-Path:", 12) == 0) ||
		    (first > 9 && memcmp(s, "Received:", 9) == 0);
	if (!mail || !memmem(s, first, " Subject: ", 10))
		return;
	m->subject = flat_field(s, first, "Subject");
	m->from = flat_field(s, first, "From");
	m->date = flat_field(s, first, "Date");
	m->message_id = flat_field(s, first, "Message-ID");
	if (!m->message_id)
		m->message_id = flat_field(s, first, "Message-Id");
}

/* ------------------------------------------------------------ the shapes */

/* The patterns composed from a plan's shapes: they live as long as the
 * compiled patterns that point at them. */
static char whole_pat[4096], end_pat[1024], start_pat[4096], weak_pat[8192], weak_end_pat[2048];
static char detect_pat[NDETECT][1024];

/* The same, the regex metacharacters of s escaped ("bonnie\+\+"). */
static bool cat_literal(char *buf, size_t cap, size_t *n, const char *s)
{
	bool ok = true;
	for (; *s && ok; s++) {
		char one[3] = {'\\', *s, '\0'};
		ok = bl_shapes_cat(buf, cap, n, strchr("\\^$.|?*+()[]{}", *s) ? one : one + 1);
	}
	return ok;
}

/* The alternation of one field of every tool: a line pattern each of
 * `lines` (or `ends`), or a fragment. */
static bool join_lines(char *buf, size_t cap, const struct bl_ingest_plan *p, bool ends)
{
	size_t n = 0, k = 0;
	bool ok = bl_shapes_cat(buf, cap, &n, NOT_IN_NUMBER "(?:");
	for (size_t t = 0; p && t < p->ntools; t++) {
		const struct bl_tool_shapes *ts = p->tools[t];
		size_t m = !ts ? 0 : ends ? ts->nends : ts->nlines;
		for (size_t i = 0; i < m; i++)
			ok = ok && bl_shapes_cat(buf, cap, &n, k++ ? "|" : "") &&
			     bl_shapes_cat(buf, cap, &n, (ends ? ts->ends : ts->lines)[i].pattern);
	}
	return ok && bl_shapes_cat(buf, cap, &n, k ? ")" : "(?!))");
}

static const char *fragment(const struct bl_tool_shapes *ts, int which)
{
	return !ts ? NULL : which == 0 ? ts->starts : which == 1 ? ts->weak_starts : ts->weak_ends;
}

static const char *const *fragment_needs(const struct bl_tool_shapes *ts, int which)
{
	return !ts          ? NULL
	       : which == 0 ? ts->start_needs
	       : which == 1 ? ts->weak_start_needs
			    : ts->weak_end_needs;
}

/* The alternation of the tools' fragments `which` (0 starts, 1 weak
 * starts, 2 weak ends) after `lead`, and the union of their needs after
 * those of `lead_needs`, then `tail_needs`. */
static bool join_fragments(char *buf, size_t cap, const struct bl_ingest_plan *p, int which,
			   const char *lead, const char **needs, const char *const *lead_needs,
			   const char *const *tail_needs)
{
	size_t n = 0, k = 0, nn = 0;
	bool ok = bl_shapes_cat(buf, cap, &n, lead);
	for (; lead_needs && *lead_needs; lead_needs++)
		needs[nn++] = *lead_needs;
	for (size_t t = 0; p && t < p->ntools; t++) {
		const char *f = fragment(p->tools[t], which);
		if (!f)
			continue;
		ok = ok && bl_shapes_cat(buf, cap, &n, (*lead || k++) ? "|" : "") &&
		     bl_shapes_cat(buf, cap, &n, f);
		for (const char *const *q = fragment_needs(p->tools[t], which); q && *q; q++) {
			size_t j = 0;
			while (j < nn && strcmp(needs[j], *q) != 0)
				j++;
			if (j == nn && nn + 1 < NEEDS_MAX)
				needs[nn++] = *q;
			ok = ok && nn + 1 < NEEDS_MAX;
		}
	}
	for (; tail_needs && *tail_needs && nn + 1 < NEEDS_MAX; tail_needs++)
		needs[nn++] = *tail_needs;
	needs[nn] = NULL;
	if (!*lead && !k)
		ok = ok && bl_shapes_cat(buf, cap, &n, "(?!)");
	return ok;
}

/* start_re: a prompt and a command, a tool's or another, or a tool's
 * start, or a heading. */
static bool compose_start(const struct bl_ingest_plan *p)
{
	static const char *const prompts[] = {"# ", "$ ", "% ", "> ", NULL};
	static const char *const headings[] = {"**", NULL};
	char lead[2048];
	size_t n = 0;
	bool ok = bl_shapes_cat(lead, sizeof lead, &n, PROMPT "(?=" PROMPT_WRAPPERS "(?:");
	for (size_t t = 0; p && t < p->ntools; t++)
		if (p->commands[t])
			ok = ok && cat_literal(lead, sizeof lead, &n, p->commands[t]) &&
			     bl_shapes_cat(lead, sizeof lead, &n, "|");
	ok = ok && bl_shapes_cat(lead, sizeof lead, &n, OTHER_COMMANDS ") )");
	const char *start_tmp[NEEDS_MAX];
	ok = ok &&
	     join_fragments(start_pat, sizeof start_pat, p, 0, lead, start_tmp, prompts, headings);
	size_t m = strlen(start_pat);
	ok = ok && bl_shapes_cat(start_pat, sizeof start_pat, &m, "|" HEADING);
	memcpy(start_needs, start_tmp, sizeof start_needs);
	nstart_pairs = 0;
	for (const char *const *q = start_needs; *q; q++)
		if ((*q)[0] && (*q)[1]) {
			start_pair[nstart_pairs][0] = (unsigned char)(*q)[0];
			start_pair[nstart_pairs++][1] = (unsigned char)(*q)[1];
		} else {
			ok = false; /* a need of one byte: as good as none */
		}
	return ok;
}

/* detect_re: each line shape with a literal, then each end shape with
 * one, in the order of the site plan's literals (bl_shape_literals). */
static bool compose_detect(const struct bl_ingest_plan *p)
{
	ndetect = 0;
	zsh_pattern = SIZE_MAX;
	bool end;
	for (const struct bl_line_shape *sh; p && (sh = bl_shape_of_literal(p, ndetect, &end));) {
		if (ndetect == NDETECT)
			return false;
		size_t n = 0;
		if (!bl_shapes_cat(detect_pat[ndetect], sizeof detect_pat[0], &n, NOT_IN_NUMBER) ||
		    !bl_shapes_cat(detect_pat[ndetect], sizeof detect_pat[0], &n, sh->pattern))
			return false;
		struct detect *d = &detect_re[ndetect];
		d->re.options = PCRE2_UTF | PCRE2_NO_UTF_CHECK;
		bl_re_reset(&d->re, detect_pat[ndetect]);
		d->lit = sh->lit;
		d->rare = sh->rare;
		d->digit_after = sh->digit_after;
		d->then = sh->then;
		d->next = sh->next;
		if (end && zsh_pattern == SIZE_MAX)
			zsh_pattern = ndetect;
		ndetect++;
	}
	return true;
}

/* The plan whose shapes are in use, for the tools' table_breaks. */
static const struct bl_ingest_plan *in_use;

/* Whether s[a, e) is a mail quote marker, a word of its own in s[0, len):
 * '>' alone or doubled. */
static bool quote_at(const char *s, size_t len, size_t a, size_t e)
{
	return e - a <= 4 && (a == 0 || bl_blank(s[a - 1])) && (e == len || bl_blank(s[e]));
}

/* A copy of s[0, len) with its quote markers blanked, when it holds
 * enough to be a quoted post: "%CPU  >  > TEST5     256  3618" read by
 * the tools' tables as "%CPU       TEST5     256  3618", each row as wide
 * as its header (both lost the same marker). NULL when there are too few
 * markers, or memory ran out. */
#define QUOTED_POST_MARKS 3
static char *quotes_blanked(const char *s, size_t len)
{
	char *c = NULL;
	size_t n = 0;
	/* counted first, then blanked in the copy */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t a = 0; a < len; a++) {
			size_t e = a;
			while (e < len && s[e] == '>')
				e++;
			if (e > a && quote_at(s, len, a, e)) {
				n++;
				if (c)
					memset(c + a, ' ', e - a);
			}
			a = e;
		}
		/* with the zero bytes a text has after it (BL_TEXT_PAD): the
		 * tables' searches read ahead in blocks */
		if (c || n < QUOTED_POST_MARKS || !(c = calloc(len + BL_TEXT_PAD, 1)))
			break;
		memcpy(c, s, len);
	}
	return c;
}

/* Where break x of a quoted post goes: before the quote markers that end
 * the text before it, as bl_break_before puts a line's break ("... 34794
 * > <break>  524288" makes it "... 34794 <break>>  524288"). */
static size_t before_quote(const char *s, size_t x)
{
	size_t k = x;
	while (k > 0 && x - k < BLANK_RUN_MAX && bl_blank(s[k - 1]))
		k--;
	size_t q = quote_before(s, k);
	return q == k || q < 2 || !bl_blank(s[q - 1]) ? x : q - 1;
}

/* Runs a tool's table_breaks over s, or over `blanked` (quotes_blanked);
 * a break found there must fall on a blank of s too. */
static void table_breaks_of(const struct bl_tool_shapes *ts, const char *s, const char *blanked,
			    size_t len, size_t base, struct bl_breaks *b)
{
	if (!blanked) {
		ts->table_breaks(s, len, base, b);
		return;
	}
	size_t n0 = b->n, k = n0;
	ts->table_breaks(blanked, len, base, b);
	size_t n1 = b->n;
	for (size_t i = n0; i < n1; i++) {
		size_t x = b->v[i] - base;
		if (b->v[i] < base || x >= len || !bl_blank(s[x]))
			continue;
		/* quote markers start a line: the blanks before them end
		 * the line above */
		size_t m = x;
		while (m < len && m - x < BLANK_RUN_MAX && bl_blank(s[m]))
			m++;
		size_t me = m;
		while (me < len && s[me] == '>')
			me++;
		if (me > m && quote_at(s, len, m, me))
			x = m - 1;
		b->v[k++] = base + before_quote(s, x);
		/* the line after it starts at its own markers: an empty
		 * quoted line between stands apart */
		size_t t = x;
		while (t < len && t - x < BLANK_RUN_MAX && bl_blank(blanked[t]))
			t++;
		size_t e = t;
		while (e > x && bl_blank(s[e - 1]))
			e--;
		size_t q = quote_before(s, e);
		if (q < e && q > x + 1 && bl_blank(s[q - 1]) && q - 1 > x)
			bl_breaks_add(b, base + q - 1);
	}
	/* the breaks added go after those kept */
	if (b->n > n1)
		memmove(b->v + k, b->v + n1, (b->n - n1) * sizeof *b->v);
	b->n = k + (b->n - n1);
}

void bl_unflatten_tool_tables(const char *s, size_t len, size_t base, struct bl_breaks *b)
{
	char *blanked = quotes_blanked(s, len);
	for (size_t t = 0; in_use && t < in_use->ntools; t++) {
		const struct bl_tool_shapes *ts = in_use->tools[t];
		if (!ts || !ts->table_breaks)
			continue;
		/* bonnie's and bonnie++'s tables share one */
		bool seen = false;
		for (size_t u = 0; u < t && !seen; u++)
			seen = in_use->tools[u] &&
			       in_use->tools[u]->table_breaks == ts->table_breaks;
		if (!seen)
			table_breaks_of(ts, s, blanked, len, base, b);
	}
	free(blanked);
}

bool bl_unflatten_compose(const struct bl_ingest_plan *p)
{
	known = p != NULL;
	in_use = p;
	nsearches = 0; /* made again for the new literals */
	bool ok = join_lines(whole_pat, sizeof whole_pat, p, false) &&
		  join_lines(end_pat, sizeof end_pat, p, true) && compose_start(p) &&
		  join_fragments(weak_pat, sizeof weak_pat, p, 1, "", weak_needs, NULL, NULL) &&
		  join_fragments(weak_end_pat, sizeof weak_end_pat, p, 2, "", weak_end_needs, NULL,
				 NULL) &&
		  compose_detect(p);
	bl_re_reset(&whole_re, whole_pat);
	bl_re_reset(&whole_at_re, whole_pat);
	bl_re_reset(&end_re, end_pat);
	bl_re_reset(&start_re, start_pat);
	bl_re_reset(&weak_re, weak_pat);
	bl_re_reset(&weak_end_re, weak_end_pat);
	known = known && ok;
	return ok;
}
