/* scan.c - finds benchmark blocks in a message and gives each its context:
 * the command line that produced it and the label its author wrote above.
 *
 * One PCRE2 pattern, the alternation of every parser's anchor, runs over
 * the whole text; each hit is offered to its parser, which claims a block
 * or declines. Labels are read from the text between the previous block and
 * this one (the "gap"), so every line is looked at a bounded number of
 * times and the scan stays linear. */
#include "parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "re.h"
#include "units.h"

struct bl_scan {
	struct bl_message *msg;
	struct bl_doc *doc;
	size_t floor;     /* end of the previous claimed block */
	char *section;    /* section heading in force (owned) */
};

struct bl_message *bl_scan_message(struct bl_scan *sc) { return sc->msg; }
struct bl_doc *bl_scan_doc(struct bl_scan *sc) { return sc->doc; }
size_t bl_scan_floor(struct bl_scan *sc) { return sc->floor; }

/* ---------------------------------------------------------------- commands */

/* A command line: an optional prompt, optional wrappers, then the command.
 *   srebrny# time dd if=/dev/zero of=/data02/test01 bs=1m count=2000
 *   [root@freebsd:~]$ dd if=/dev/zero of=/ufs/testfile ibs=64k count=32k
 *   #dd if=/dev/zero of=/dev/ad4 bs=1m count=1
 *   $ /usr/bin/time -v dd if=/dev/zero of=x bs=1M count=10
 *   user@host:~$ sudo dd if=/dev/sda of=/dev/null bs=1M count=100
 * Group 1: the wrappers; the command starts at the end of the match. */
static struct bl_re cmdline_re = BL_RE(
	"^[ \\t]*(?:\\[[^\\]\\n]{0,80}\\][ \\t]*[#$%>]|[^\\s#$%>]{0,80}[#$%>])?[ \\t]*"
	"((?:(?:/usr/bin/|/bin/)?time(?:[ \\t]+-[a-zA-Z]+)*[ \\t]+|sudo[ \\t]+(?:-[a-zA-Z]+[ \\t]+)*"
	"|nice[ \\t]+(?:-n[ \\t]*)?(?:-?\\d+[ \\t]+)?|command[ \\t]+|exec[ \\t]+)*)",
	0);

bool bl_scan_parse_cmdline(const char *line, size_t len, const char *word,
			   struct bl_cmdline *out)
{
	struct bl_re_match m;
	if (!bl_re_match(&cmdline_re, line, len, 0, &m))
		return false;
	size_t start = m.ov[1];
	if (!word) {
		/* any command: what follows the wrappers, if anything does */
		if (start >= len || line[start] == ' ' || line[start] == '\t')
			return false;
		out->cmd_start = start;
		out->timed = bl_re_glen(&m, 1) > 0 &&
			     memmem(line + m.ov[2], bl_re_glen(&m, 1), "time", 4) != NULL;
		return true;
	}
	size_t wlen = strlen(word);
	/* the word itself, allowing a path before it: /usr/sbin/diskinfo */
	size_t i = start;
	while (i < len && line[i] == '/') {
		const char *slash = NULL;
		for (size_t k = i; k < len && line[k] != ' ' && line[k] != '\t'; k++)
			if (line[k] == '/')
				slash = line + k;
		if (!slash)
			break;
		i = (size_t)(slash - line) + 1;
	}
	if (len - i < wlen || memcmp(line + i, word, wlen) != 0)
		return false;
	if (i + wlen < len && line[i + wlen] != ' ' && line[i + wlen] != '\t')
		return false;
	out->cmd_start = i;
	out->timed = false;
	if (bl_re_gset(&m, 1)) {
		const char *w = line + m.ov[2];
		size_t wl = bl_re_glen(&m, 1);
		for (size_t k = 0; k + 4 <= wl; k++)
			if (memcmp(w + k, "time", 4) == 0)
				out->timed = true;
	}
	return true;
}

/* How far above a block its command may stand: sample captures put a
 * status line and a rule between them ("$ dd ...", "# exit=0", "-----"). */
#define COMMAND_LOOKBACK 6

bool bl_scan_find_command(struct bl_scan *sc, const struct bl_parser *p,
			  struct bl_run *run)
{
	if (!p->command_word)
		return false;
	struct bl_line cur, prev;
	bl_line_at(sc->msg, run->off, &cur);
	for (int k = 0; k < COMMAND_LOOKBACK; k++) {
		if (!bl_line_prev(sc->msg, &cur, &prev) || prev.off < sc->floor)
			return false;
		cur = prev;
		struct bl_cmdline cl;
		if (!bl_scan_parse_cmdline(cur.s, cur.len, p->command_word, &cl))
			continue;
		char *cmd = bl_strndup_trim(cur.s + cl.cmd_start, cur.len - cl.cmd_start);
		if (!cmd)
			return false;
		free(run->command);
		run->command = cmd;
		run->timed = cl.timed;
		run->has_command = true;
		run->cmd_off = cur.off;
		if (cur.off < run->off)
			run->off = cur.off;
		if (p->command)
			p->command(sc->doc, run, cmd);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------ labels */

static bool is_decoration(char c)
{
	return c == '*' || c == '=' || c == '#' || c == '-' || c == '~' || c == '_' ||
	       c == '+';
}

static void trim(const char **s, size_t *len)
{
	while (*len && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

static bool has_letter(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return true;
	}
	return false;
}

/* A section heading: decorated text that names what follows.
 *   *** (single hdd) UFS2, gjournal, eli.     -> (single hdd) UFS2, gjournal, eli.
 *   *** (mirror hdd, eli) zfs:                -> (mirror hdd, eli) zfs
 *   ***** Mirror: *****                       -> Mirror
 *   ## Results on ZFS                         -> Results on ZFS
 * Not a heading: a rule ("*****"), a table border, or a bonnie header
 * ("-------Sequential Output-------- ---Sequential Input--"), which has
 * more decoration runs inside its text. */
static bool section_heading(const char *s, size_t len, const char **ts,
			    size_t *tlen)
{
	trim(&s, &len);
	if (len < 4 || !is_decoration(s[0]))
		return false;
	char c = s[0];
	size_t n = 0;
	while (n < len && s[n] == c)
		n++;
	if (c == '#' ? (n < 2 || n >= len || s[n] != ' ') : n < 3)
		return false;
	s += n;
	len -= n;
	while (len && is_decoration(s[len - 1]))
		len--;
	trim(&s, &len);
	while (len && (s[len - 1] == ':'))
		len--;
	trim(&s, &len);
	if (!len || len > 200 || !has_letter(s, len))
		return false;
	for (size_t i = 0; i + 2 < len; i++)
		if (is_decoration(s[i]) && s[i + 1] == s[i] && s[i + 2] == s[i] &&
		    s[i] != '*' /* "!!!degraded!!!" style emphasis is fine */)
			return false;
	*ts = s;
	*tlen = len;
	return true;
}

/* "43.64", "1,5": a measurement, so the line is data, not a caption */
static bool has_decimal(const char *s, size_t len)
{
	for (size_t i = 1; i + 1 < len; i++)
		if ((s[i] == '.' || s[i] == ',') && s[i - 1] >= '0' && s[i - 1] <= '9' &&
		    s[i + 1] >= '0' && s[i + 1] <= '9')
			return true;
	return false;
}

/* A caption: a short line of prose that introduces the block below it.
 *   Reading 2GB from a raw device:
 *   測試
 * It ends with a colon, or stands alone between blank lines. */
static bool caption(const char *s, size_t len, bool alone, const char **ts,
		    size_t *tlen)
{
	trim(&s, &len);
	if (len < 2 || len > 120 || !has_letter(s, len) || has_decimal(s, len))
		return false;
	if (strchr("#$%>[|<", s[0]) || memchr(s, '=', len))
		return false;
	bool colon = s[len - 1] == ':';
	if (!colon && !alone)
		return false;
	/* a sentence standing alone is prose, not a caption:
	 *   A ZIL kikapcsolható, ..., lassabb lesz nélküle a fájlrendszer. */
	if (!colon && (len > 80 || s[len - 1] == '.' || s[len - 1] == '!' ||
		       s[len - 1] == '?'))
		return false;
	if (colon) {
		len--;
		trim(&s, &len);
	}
	while (len && is_decoration(s[0])) {
		s++;
		len--;
	}
	trim(&s, &len);
	if (!len || !has_letter(s, len))
		return false;
	*ts = s;
	*tlen = len;
	return true;
}

#define LABEL_LOOKBACK 200
#define CAPTION_LOOKBACK 3

/* Sets run->label from the gap [floor, run->off). */
static void assign_label(struct bl_scan *sc, struct bl_run *run,
			 const struct bl_run *prev)
{
	struct bl_line cur, above;
	bl_line_at(sc->msg, run->off, &cur);
	const char *sec = NULL, *cap = NULL;
	size_t seclen = 0, caplen = 0;
	int nonblank = 0, walked = 0;
	bool prev_blank = true; /* the line below the one examined is blank */
	while (walked < LABEL_LOOKBACK && bl_line_prev(sc->msg, &cur, &above) &&
	       above.off >= sc->floor) {
		walked++;
		bool blank = bl_is_blank(above.s, above.len);
		if (!blank) {
			nonblank++;
			const char *ts;
			size_t tl;
			if (section_heading(above.s, above.len, &ts, &tl)) {
				sec = ts;
				seclen = tl;
				break;
			}
			struct bl_line up;
			bool up_blank = !bl_line_prev(sc->msg, &above, &up) ||
					up.off < sc->floor || bl_is_blank(up.s, up.len);
			if (!cap && nonblank <= CAPTION_LOOKBACK &&
			    caption(above.s, above.len, prev_blank && up_blank, &ts, &tl)) {
				cap = ts;
				caplen = tl;
			}
		}
		prev_blank = blank;
		cur = above;
	}
	if (sec) {
		char *s = bl_strndup_trim(sec, seclen);
		if (s) {
			free(sc->section);
			sc->section = s;
		}
	} else if (walked >= LABEL_LOOKBACK) {
		/* far from any earlier heading: it no longer applies */
		free(sc->section);
		sc->section = NULL;
	}
	if (run->label)
		return;
	if (sc->section)
		run->label = strdup(sc->section);
	else if (cap)
		run->label = bl_strndup_trim(cap, caplen);
	else if (nonblank == 0 && prev && prev->label)
		run->label = strdup(prev->label);
}

/* ---------------------------------------------------------------- scanning */

static pcre2_code *anchors;
static pcre2_match_data *anchors_md;

static void free_anchors(void)
{
	pcre2_code_free(anchors);
	pcre2_match_data_free(anchors_md);
	anchors = NULL;
	anchors_md = NULL;
}

/* (*MARK:i)anchor_i | ... : the mark names the parser that matched. */
static bool build_anchors(void)
{
	if (anchors)
		return true;
	size_t need = 64;
	for (size_t i = 0; bl_parsers[i]; i++)
		need += strlen(bl_parsers[i]->anchor) + 32;
	char *pat = malloc(need);
	if (!pat)
		return false;
	size_t o = 0;
	o += (size_t)snprintf(pat + o, need - o, "(?m)");
	for (size_t i = 0; bl_parsers[i]; i++)
		o += (size_t)snprintf(pat + o, need - o, "%s(*MARK:%zu)(?:%s)", i ? "|" : "",
				      i, bl_parsers[i]->anchor);
	anchors = bl_re_compile_dynamic(pat, PCRE2_UTF | PCRE2_NO_UTF_CHECK);
	free(pat);
	if (!anchors)
		return false;
	anchors_md = pcre2_match_data_create_from_pattern(anchors, NULL);
	if (!anchors_md) {
		free_anchors();
		return false;
	}
	atexit(free_anchors);
	return true;
}

int bl_scan_message_into(struct bl_message *msg, struct bl_doc *doc)
{
	if (!build_anchors())
		return -1;
	struct bl_scan sc = {.msg = msg, .doc = doc, .floor = 0, .section = NULL};
	pcre2_match_context *mctx = pcre2_match_context_create(NULL);
	if (!mctx)
		return -1;
	pcre2_set_match_limit(mctx, 1000000);
	size_t pos = 0;
	while (pos <= msg->len) {
		int rc = pcre2_match(anchors, (PCRE2_SPTR)msg->text, msg->len, pos,
				     PCRE2_NO_UTF_CHECK, anchors_md, mctx);
		if (rc < 0)
			break;
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(anchors_md);
		PCRE2_SPTR mark = pcre2_get_mark(anchors_md);
		size_t idx = 0;
		for (const unsigned char *c = mark; c && *c; c++)
			idx = idx * 10 + (size_t)(*c - '0');
		const struct bl_parser *p = bl_parsers[idx];
		struct bl_line line;
		bl_line_at(msg, ov[0], &line);
		if (line.off < sc.floor) {
			/* the anchor shares a line with the end of the last block */
			pos = line.next > ov[1] ? line.next : ov[1] + 1;
			continue;
		}
		size_t before = doc->nruns, end = 0;
		enum bl_claim c = p->claim(&sc, &line, &end);
		if (c == BL_CLAIMED && end > ov[0]) {
			for (size_t i = before; i < doc->nruns; i++) {
				assign_label(&sc, &doc->runs[i], i ? &doc->runs[i - 1] : NULL);
				/* quoted from an earlier mail: "> 2000+0 records in" */
				doc->runs[i].quote_depth = bl_message_quote_depth(msg, ov[0]);
			}
			sc.floor = end;
			pos = end;
		} else {
			/* not mine: other anchors may still match later on the line */
			pos = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
			/* keep pos on a character boundary */
			while (pos < msg->len && ((unsigned char)msg->text[pos] & 0xC0) == 0x80)
				pos++;
		}
	}
	pcre2_match_context_free(mctx);
	free(sc.section);
	bl_doc_group_repeats(doc);
	return 0;
}
