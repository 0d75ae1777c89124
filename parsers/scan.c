/* scan.c - finds benchmark blocks in a message and gives each its context:
 * the command line that produced it and the label its author wrote above.
 *
 * Every parser's anchor is looked for (anchor.c: needles found with
 * memchr/memmem, then the JIT-compiled alternation on their lines); each
 * hit is offered to its parser, which claims a block or declines. Labels are read from the text between the previous block and
 * this one (the "gap"), so every line is looked at a bounded number of
 * times and the scan stays linear. */
#include "parser.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anchor.h"
#include "../base/re.h"
#include "../base/units.h"

#define BL_SCAN_PARSERS_MAX 32

struct bl_scan {
	struct bl_message *msg;
	struct bl_doc *doc;
	size_t floor; /* end of the previous claimed block */
	char *section; /* section heading in force (owned) */
	bool near_caption; /* the last label was a caption under the heading */
	/* per parser: the end of the last block of prefixed lines it declined
	 * (claim_prefixed does not offer it their lines again) */
	size_t prefix_declined[BL_SCAN_PARSERS_MAX];
	bool go_on; /* bl_scan_go_on: the last claim reads on at its end */
};

struct bl_message *bl_scan_message(struct bl_scan *sc)
{
	return sc->msg;
}
struct bl_doc *bl_scan_doc(struct bl_scan *sc)
{
	return sc->doc;
}
size_t bl_scan_floor(struct bl_scan *sc)
{
	return sc->floor;
}
void bl_scan_go_on(struct bl_scan *sc)
{
	sc->go_on = true;
}

size_t bl_scan_hand_on_from(struct bl_scan *sc, const struct bl_parser *p)
{
	const struct bl_carry *c = sc->doc->carry;
	const struct bl_message *m = sc->msg;
	(void)p;
	/* one table is handed on from a window: what a window before
	 * handed on (of any parser) was read on at this window's start */
	if (!c || !m->window.on || m->window.last || (c->p && c->window == m->window.index))
		return SIZE_MAX;
	return bl_message_text_at(m, m->window.next_from);
}

bool bl_scan_hand_on(struct bl_scan *sc, const struct bl_parser *p, size_t at, void *blob)
{
	size_t from = bl_scan_hand_on_from(sc, p);
	if (from == SIZE_MAX || at < from)
		return false;
	struct bl_carry *c = sc->doc->carry;
	free(c->p);
	*c = (struct bl_carry){p, blob, sc->msg->window.index, bl_message_origin(sc->msg, at)};
	return true;
}

/* Longer than any row of a tool's table: a line of several rows that
 * were not cut back apart. */
#define TABLE_ROW_MAX 1024

/* The table parser p handed on from the window before cannot go on at
 * the line it named: no line starts there, or the line is longer than any
 * row and its claim reads nothing. That is a table pasted without line
 * breaks and longer than a window: this window's rows are not cut back
 * into lines, as their header, which tells the unflattener where, is in a
 * window before. (A claim that reads nothing from a short line is a table
 * that ended where it was handed on: a blank line, a new header.) Said at
 * the start of the window's own part, whose diagnostics it keeps. */
static void table_not_read_on(struct bl_scan *sc, const struct bl_parser *p)
{
	sc->doc->partial = true;
	bl_doc_diag(sc->doc, -1, BL_WARNING, "scan.table-not-read-on",
		    bl_message_text_at(sc->msg, sc->msg->window.own_from),
		    "a %s table from the window before goes on here, but its rows could not be "
		    "read on (pasted without line breaks, its header a window above): the rest of "
		    "the table is not read",
		    p->name);
}

/* The table parser p handed on from this window ended at text offset
 * `end`, with no block after it. Ended in this window's own part, it has
 * nothing for the next window, which keeps only the blocks that start in
 * its own part: the carry is let go, so that the next window does not
 * look for a line there (in a post pasted without line breaks, its lines
 * need not start where this window's did) and another table may be
 * handed on. */
static void table_ended(struct bl_scan *sc, const struct bl_parser *p, size_t end)
{
	struct bl_carry *c = sc->doc->carry;
	const struct bl_message *m = sc->msg;
	if (!c || !c->p || c->owner != p || c->window != m->window.index ||
	    bl_message_origin(m, end) > m->window.own_to)
		return;
	free(c->p);
	c->p = NULL;
}

const void *bl_scan_handed(struct bl_scan *sc, const struct bl_parser *p, size_t *at)
{
	const struct bl_carry *c = sc->doc->carry;
	const struct bl_message *m = sc->msg;
	if (!c || c->owner != p || !c->p || c->window + 1 != m->window.index ||
	    c->at >= m->window.own_from)
		return NULL;
	size_t t = bl_message_text_at(m, c->at);
	if (t >= m->len || (t && m->text[t - 1] != '\n')) {
		table_not_read_on(sc, p);
		return NULL;
	}
	*at = t;
	return c->p;
}

/* ---------------------------------------------------------------- commands */

/* A command line: an optional prompt, optional wrappers, then the command.
 *   srebrny# time dd if=/dev/zero of=/data02/test01 bs=1m count=2000
 *   [root@freebsd:~]$ dd if=/dev/zero of=/ufs/testfile ibs=64k count=32k
 *   #dd if=/dev/zero of=/dev/ad4 bs=1m count=1
 *   $ /usr/bin/time -v dd if=/dev/zero of=x bs=1M count=10
 *   user@host:~$ sudo dd if=/dev/sda of=/dev/null bs=1M count=100
 *   root@nas:~ # diskinfo -v ada2           (FreeBSD's sh prompt for root)
 *   root@bsd:~ # dd if=/dev/zero of=/ufs/blk ibs=64k obs=16k count=4k
 *   tankywoo@gentoo-local ~ % sudo dd if=2015-09-24-raspbian-jessie.img of=/dev/sdb
 *   $ timeout 5 dd status=progress < /dev/zero > /dev/null
 *   # ionice -c3 dd if=/dev/sda of=/dev/null bs=1M
 * (zsh's "user@host dir %": blanks inside the prompt, so it must start
 * with user@host to tell it from "echo 3 > file")
 * Group 1: the wrappers; the command starts at the end of the match. */
static struct bl_re cmdline_re = BL_RE(
	"^[ \\t]*(?:\\[[^\\]\\n]{0,80}\\][ \\t]*[#$%>]"
	"|[^\\s#$%>@]{1,40}@[^\\s#$%>]{1,80}(?:[ \\t][^\\s#$%>]{1,80}){1,2}[ \\t][#$%>](?=[ \\t])"
	"|[^\\s#$%>]{1,80}[ \\t][#$%>](?=[ \\t])"
	"|[^\\s#$%>]{0,80}[#$%>])?[ \\t]*"
	"((?:(?:/usr/bin/|/bin/)?time(?:[ \\t]+-[a-zA-Z]+)*[ \\t]+|sudo[ \\t]+(?:-[a-zA-Z]+[ \\t]+)*"
	"|nice[ \\t]+(?:-n[ \\t]*)?(?:-?\\d+[ \\t]+)?|command[ \\t]+|exec[ \\t]+"
	"|timeout[ \\t]+(?:-{1,2}[a-zA-Z][\\w=-]*[ \\t]+(?:[A-Z]{2,6}[ \\t]+)?)*\\d+(?:\\.\\d+)?[smhd]?[ \\t]+"
	"|ionice(?:[ \\t]+-[a-zA-Z][ \\t]*\\d*)*[ \\t]+)*)",
	0);

/* `word` at line[i], followed by a blank or the end of the line. */
static bool word_at(const char *line, size_t len, size_t i, const char *word, size_t wlen)
{
	if (i > len || len - i < wlen || memcmp(line + i, word, wlen) != 0)
		return false;
	return i + wlen == len || line[i + wlen] == ' ' || line[i + wlen] == '\t';
}

bool bl_scan_parse_cmdline(const char *line, size_t len, const char *word, struct bl_cmdline *out)
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
		if (!out->timed) {
			/* time later in a list or a pipeline: a prompt the shell
			 * reads as a command, so that a pasted line runs as it is,
			 * or the last stage of a pipeline timed on its own:
			 *   : || nomad@omics1 fs2test ; time cp -rp 004test omics1/004test-1
			 *   ％ echo "..." | cat - sample2.ts | /usr/bin/time nc localhost 53561 */
			for (size_t k = start; k + 7 <= len; k++) {
				if (line[k] != ';' && line[k] != '&' && line[k] != '|')
					continue;
				size_t j = k + 1;
				while (j < len && (line[j] == ' ' || line[j] == '\t'))
					j++;
				size_t w = j;
				if (len - w >= 9 && memcmp(line + w, "/usr/bin/", 9) == 0)
					w += 9;
				else if (len - w >= 5 && memcmp(line + w, "/bin/", 5) == 0)
					w += 5;
				if (j > k + 1 && word_at(line, len, w, "time", 4)) {
					j = w + 4;
					while (j < len && (line[j] == ' ' || line[j] == '\t'))
						j++;
					while (j + 1 < len && line[j] == '-' &&
					       line[j + 1] != ' ') {
						while (j < len && line[j] != ' ' && line[j] != '\t')
							j++; /* -l, -p, -v */
						while (j < len &&
						       (line[j] == ' ' || line[j] == '\t'))
							j++;
					}
					if (j < len) {
						out->cmd_start = j;
						out->timed = true;
					}
					break;
				}
			}
		}
		return true;
	}
	size_t wlen = strlen(word);
	/* the word itself, allowing a path before it: /usr/sbin/diskinfo,
	 * ./bonnie++, ../bin/iozone */
	size_t i = start;
	while (i < len && (line[i] == '/' || line[i] == '.')) {
		const char *slash = NULL;
		for (size_t k = i; k < len && line[k] != ' ' && line[k] != '\t'; k++)
			if (line[k] == '/')
				slash = line + k;
		if (!slash)
			break;
		i = (size_t)(slash - line) + 1;
	}
	/* "(dd if=... | gzip > x)" under time: the subshell's parenthesis */
	if (i < len && line[i] == '(')
		i++;
	if (!word_at(line, len, i, word, wlen)) {
		/* later in a list or pipeline:
		 *   sync; echo 3 > /proc/sys/vm/drop_caches; dd bs=1M if=/tmp/x/f of=/dev/null
		 *   head -c 100000 /dev/zero | dd bs=1M of=/tmp/x/g */
		size_t k = i;
		for (; k + 1 < len; k++) {
			if (line[k] != ';' && line[k] != '|' && line[k] != '&')
				continue;
			size_t j = k + 1;
			if (j < len && line[j] == line[k])
				j++; /* "&&", "||" */
			while (j < len && (line[j] == ' ' || line[j] == '\t'))
				j++;
			if (j > k + 1 && word_at(line, len, j, word, wlen)) {
				i = j;
				break;
			}
		}
		if (k + 1 >= len)
			return false;
	}
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

/* A command continued with backslashes, up to text offset `limit`:
 *   # dd \
 *       status=progress \
 *       if=FreeBSD-14.3-RELEASE-amd64-mini-memstick.img \
 *       of=/dev/disk6 \
 *       bs=1m
 * becomes one line, "dd status=progress if=... of=/dev/disk6 bs=1m".
 * Takes `cmd` (owned) and returns the joined string, or NULL. */
#define COMMAND_MAX 4096
static char *join_continued(struct bl_message *msg, const struct bl_line *first, size_t limit,
			    char *cmd)
{
	struct bl_line cur = *first, next;
	size_t n = strlen(cmd);
	while (n && cmd[n - 1] == '\\' && bl_line_next(msg, &cur, &next) && next.off < limit) {
		cmd[--n] = '\0';
		while (n && (cmd[n - 1] == ' ' || cmd[n - 1] == '\t'))
			cmd[--n] = '\0';
		char *part = bl_strndup_trim(next.s, next.len);
		if (!part) {
			free(cmd);
			return NULL;
		}
		size_t pl = strlen(part);
		if (n + 1 + pl + 1 > COMMAND_MAX) {
			free(part);
			break;
		}
		char *j = realloc(cmd, n + 1 + pl + 1);
		if (!j) {
			free(part);
			free(cmd);
			return NULL;
		}
		cmd = j;
		cmd[n++] = ' ';
		memcpy(cmd + n, part, pl + 1);
		n += pl;
		free(part);
		cur = next;
	}
	return cmd;
}

/* Only operands ("bs=1M count=5"): the rest of a command line that a mail
 * client wrapped. */
static bool operands_only(const char *s, size_t len)
{
	size_t i = 0, n = 0;
	while (i < len) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len)
			break;
		if (!(s[i] >= 'a' && s[i] <= 'z'))
			return false;
		bool eq = false;
		for (; i < len && s[i] != ' ' && s[i] != '\t'; i++)
			eq |= s[i] == '=';
		if (!eq)
			return false;
		n++;
	}
	return n > 0;
}

/* A command line wrapped by a mail client, up to text offset `limit`:
 *   [root@kerneltest008.06.prn3 ~]# dd if=/dev/urandom of=/mnt/ram15/test2
 *   bs=1M count=5
 * becomes "dd if=/dev/urandom of=/mnt/ram15/test2 bs=1M count=5".
 * Takes `cmd` (owned) and returns the joined string, or NULL. */
static char *join_wrapped(struct bl_message *msg, const struct bl_line *first, size_t limit,
			  char *cmd)
{
	struct bl_line next;
	if (!bl_line_next(msg, first, &next) || next.off >= limit ||
	    !operands_only(next.s, next.len))
		return cmd;
	char *part = bl_strndup_trim(next.s, next.len);
	if (!part) {
		free(cmd);
		return NULL;
	}
	size_t n = strlen(cmd), pl = strlen(part);
	if (n + 1 + pl + 1 <= COMMAND_MAX) {
		char *j = realloc(cmd, n + 1 + pl + 1);
		if (!j) {
			free(part);
			free(cmd);
			return NULL;
		}
		cmd = j;
		cmd[n] = ' ';
		memcpy(cmd + n + 1, part, pl + 1);
	}
	free(part);
	return cmd;
}

/* The next command of a list is not part of this one: cuts `cmd` at a
 * ';', "&&" or "||" outside quotes and parentheses.
 *   dd if=/dev/zero of=tempfile bs=1M count=1024; sync  ->  dd ... count=1024
 * A pipeline stays whole ("dd if=/dev/urandom bs=1 count=14 | base64"). */
static void list_cut(char *cmd)
{
	int depth = 0;
	char quote = 0;
	for (size_t i = 0; cmd[i]; i++) {
		char c = cmd[i];
		if (quote) {
			if (c == quote)
				quote = 0;
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else if (c == '(') {
			depth++;
		} else if (c == ')') {
			depth--;
		} else if (depth <= 0 &&
			   (c == ';' || ((c == '&' || c == '|') && cmd[i + 1] == c))) {
			while (i && (cmd[i - 1] == ' ' || cmd[i - 1] == '\t'))
				i--;
			cmd[i] = '\0';
			return;
		}
	}
}

bool bl_scan_find_command(struct bl_scan *sc, const struct bl_parser *p, struct bl_run *run)
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
		cmd = join_continued(sc->msg, &cur, run->off, cmd);
		if (!cmd)
			return false;
		cmd = join_wrapped(sc->msg, &cur, run->off, cmd);
		if (!cmd)
			return false;
		list_cut(cmd);
		/* "time (dd ... | gzip > x)": drop the subshell's closing parenthesis */
		size_t cl_len = strlen(cmd);
		if (cl.cmd_start && cur.s[cl.cmd_start - 1] == '(' && cl_len &&
		    cmd[cl_len - 1] == ')')
			cmd[cl_len - 1] = '\0';
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

/* Whether the nearest command line above `off` that stands after a
 * prompt (within COMMAND_LOOKBACK lines, not below the floor) runs a
 * program other than p's: sg_dd prints dd's records lines,
 *   puma:/tmp/dd# time sg_dd if=/dev/sg1 of=/tmp/dd/sg1 bs=64k count=1000
 *   Reducing read to 64 blocks per loop
 *   1000+0 records in
 * Lines without a prompt are passed over: they may be the tool's output. */
bool bl_scan_other_command(struct bl_scan *sc, const struct bl_parser *p, size_t off)
{
	if (!p->command_word)
		return false;
	struct bl_line cur, prev;
	bl_line_at(sc->msg, off, &cur);
	for (int k = 0; k < COMMAND_LOOKBACK; k++) {
		if (!bl_line_prev(sc->msg, &cur, &prev) || prev.off < sc->floor)
			return false;
		cur = prev;
		struct bl_re_match m;
		if (!bl_re_match(&cmdline_re, cur.s, cur.len, 0, &m) || m.ov[1] >= cur.len)
			continue;
		size_t wrappers = m.ov[2];
		bool prompt = false;
		for (size_t i = m.ov[0]; i < wrappers && !prompt; i++)
			prompt = strchr("#$%>", cur.s[i]) != NULL;
		if (!prompt)
			continue;
		/* the program's name, without its path: /bin/dd, ./sg_dd */
		size_t a = m.ov[1], e = a;
		while (e < cur.len && cur.s[e] != ' ' && cur.s[e] != '\t')
			e++;
		const char *slash = memrchr(cur.s + a, '/', e - a);
		if (slash)
			a = (size_t)(slash - cur.s) + 1;
		size_t wlen = strlen(p->command_word);
		return e - a != wlen || memcmp(cur.s + a, p->command_word, wlen) != 0;
	}
	return false;
}

/* ------------------------------------------------------------------ labels */

static bool is_decoration(char c)
{
	return c == '*' || c == '=' || c == '#' || c == '-' || c == '~' || c == '_' || c == '+';
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

/* What a capture script prints between a command and its output names a
 * stream, not what was measured:
 *   ----- STDOUT -----      ----- STDERR -----      === output === */
static bool stream_marker(const char *s, size_t len)
{
	static const char *const words[] = {"stdout", "stderr", "output", "stdin", NULL};
	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == len && strncasecmp(s, words[i], len) == 0)
			return true;
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
static bool section_heading(const char *s, size_t len, const char **ts, size_t *tlen)
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
	if (!len || len > 200 || !has_letter(s, len) || stream_marker(s, len))
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

/* Whether s holds a word (caseless, whole) of words[]. */
static bool has_word(const char *s, size_t len, const char *const *words)
{
	for (size_t i = 0; i < len; i++) {
		if (i && isalpha((unsigned char)s[i - 1]))
			continue;
		for (const char *const *w = words; *w; w++) {
			size_t n = strlen(*w);
			if (i + n <= len && strncasecmp(s + i, *w, n) == 0 &&
			    (i + n == len || !isalpha((unsigned char)s[i + n])))
				return true;
		}
	}
	return false;
}

/* An apology or a courtesy to the reader, not a name for what follows:
 *   My mail client folds long lines, sorry about the table:
 *   Please find the results below:
 * ("Here is the disk with O_DIRECT:" still names a configuration.) */
static bool aside(const char *s, size_t len)
{
	static const char *const words[] = {"sorry",  "apologies", "apologize", "please",
					    "thanks", "thank",     NULL};
	return has_word(s, len, words);
}

/* A caption: a short line of prose that introduces the block below it.
 *   Reading 2GB from a raw device:
 *   測試
 * It ends with a colon, or stands alone between blank lines; an aside
 * (aside()) is not one. */
static bool caption(const char *s, size_t len, bool alone, const char **ts, size_t *tlen)
{
	trim(&s, &len);
	/* markdown emphasis around a caption: "**Measurement:**" */
	while (len > 2 && (s[len - 1] == '*' || s[len - 1] == '_') && s[0] == s[len - 1])
		len--;
	if (len < 2 || len > 120 || !has_letter(s, len) || has_decimal(s, len))
		return false;
	if (strchr("#$%>[|<", s[0]) || memchr(s, '=', len) || aside(s, len))
		return false;
	/* a path alone, or one word full of digits, is a program's output, not
	 * the author's words:
	 *   /dev/md0:                       (hdparm -t)
	 *   5d41402abc4b2a76b9719d911017c592  (md5) */
	if (!memchr(s, ' ', len)) {
		size_t digits = 0;
		for (size_t i = 0; i < len; i++)
			digits += s[i] >= '0' && s[i] <= '9';
		if (s[0] == '/' || digits >= 8)
			return false;
	}
	bool colon = s[len - 1] == ':';
	if (!colon && !alone)
		return false;
	/* a sentence standing alone is prose, not a caption:
	 *   A ZIL kikapcsolható, ..., lassabb lesz nélküle a fájlrendszer. */
	if (!colon && (len > 80 || s[len - 1] == '.' || s[len - 1] == '!' || s[len - 1] == '?'))
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

/* A code fence of markdown or Jekyll says nothing about the block:
 *   ```bash      ~~~console      ``` bash      {% highlight console lineos %} */
static bool code_fence(const char *s, size_t len)
{
	trim(&s, &len);
	if (len >= 3 && (memcmp(s, "```", 3) == 0 || memcmp(s, "~~~", 3) == 0)) {
		size_t i = 3;
		while (i < len && s[i] == s[0])
			i++;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		for (; i < len; i++)
			if (s[i] == ' ' || s[i] == '\t' || s[i] == '`')
				return false;
		return true;
	}
	return len >= 4 && memcmp(s, "{%", 2) == 0 && memcmp(s + len - 2, "%}", 2) == 0;
}

/* "$", "#", "[root@freebsd:~]$": a prompt with nothing typed after it */
static bool bare_prompt(const char *s, size_t len)
{
	trim(&s, &len);
	if (!len || len > 80 || memchr(s, ' ', len) || memchr(s, '\t', len))
		return false;
	char last = s[len - 1];
	return last == '$' || last == '#' || last == '%' || last == '>';
}

/* A shell line: "# newfs /dev/ad4", "netbsd# dd ...", "root@h:~$ sync",
 * "sysctl vfs.zfs.prefetch_disable=1": what sits between a caption and
 * its command. A sentence with a '=' in it ends like one:
 *   With status=noxfer GNU dd prints the records and no transfer line: */
static bool shell_line(const char *s, size_t len)
{
	trim(&s, &len);
	if (!len || strchr("#$%>[|<", s[0]))
		return true;
	if (memchr(s, '=', len) && !strchr(".:!?", s[len - 1]))
		return true;
	size_t w = 0;
	while (w < len && w < 60 && s[w] != ' ' && s[w] != '\t')
		w++;
	return w > 1 && w < len && strchr("#$%>", s[w - 1]);
}

/* A line that ends a sentence or introduces something: ". ! ? :" */
static bool ends_sentence(const char *s, size_t len)
{
	trim(&s, &len);
	if (!len)
		return true;
	char c = s[len - 1];
	return c == '.' || c == '!' || c == '?' || c == ':' || c == ';' || c == ')';
}

/* A sentence, an introduction, or a line as long as one: "I wrote 2 GB
 * to each pool.", "count=0 copies nothing and the rate is 0.0 kB/s:" */
static bool prose_line(const char *s, size_t len)
{
	trim(&s, &len);
	return len >= 60 || (len && strchr(".!?:", s[len - 1]));
}

/* The message's subject or a page's heading ("<h1>Re: benchmarks</h1>")
 * names the whole post, not the run below it. */
static bool is_subject(const struct bl_message *m, const char *s, size_t len)
{
	return m->subject && strlen(m->subject) == len && memcmp(m->subject, s, len) == 0;
}

#define LABEL_LOOKBACK 200
#define CAPTION_LOOKBACK 3

/* Sets run->label from the gap [floor, run->off). */
static void assign_label(struct bl_scan *sc, struct bl_run *run, const struct bl_run *prev)
{
	/* a repeat of the run before it, pasted right under it, is under
	 * the same caption */
	if (!run->label && run->repeat_of_prev && prev && prev->label) {
		run->label = strdup(prev->label);
		return;
	}
	struct bl_line cur, above;
	bl_line_at(sc->msg, run->off, &cur);
	const char *sec = NULL, *cap = NULL;
	size_t seclen = 0, caplen = 0;
	int nonblank = 0, walked = 0;
	bool prose = false; /* a line of prose that is no caption seen */
	bool prev_blank = true; /* the line below the one examined is blank */
	while (walked < LABEL_LOOKBACK && bl_line_prev(sc->msg, &cur, &above) &&
	       above.off >= sc->floor) {
		walked++;
		/* a bare prompt ("$", "[root@freebsd:~]$") between repeats says
		 * nothing about what follows: it counts as blank */
		bool blank = bl_is_blank(above.s, above.len) || bare_prompt(above.s, above.len) ||
			     code_fence(above.s, above.len);
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
			bool up_blank = !bl_line_prev(sc->msg, &above, &up) || up.off < sc->floor ||
					bl_is_blank(up.s, up.len) || code_fence(up.s, up.len);
			/* the end of a sentence that began on the line above is
			 * not a caption: "... three lines\nwere longer than 80:" */
			bool continued = !up_blank && !bare_prompt(up.s, up.len) &&
					 !ends_sentence(up.s, up.len);
			if (!cap && !prose && nonblank <= CAPTION_LOOKBACK && !continued &&
			    caption(above.s, above.len, prev_blank && up_blank, &ts, &tl) &&
			    !is_subject(sc->msg, ts, tl)) {
				cap = ts;
				caplen = tl;
			}
			/* the caption is the prose nearest above: a paragraph that
			 * is not one hides what is above it (a page's heading,
			 * "Re: benchmarks", above "On the router (BusyBox v1.36),
			 * writing ... back:"). Short lines of a program's output
			 * between a caption and its report ("end time: Wed Mar 11
			 * 10:05:18 EDT 2015", "A done") are not prose. */
			if (!cap && has_letter(above.s, above.len) &&
			    !shell_line(above.s, above.len) &&
			    (prose_line(above.s, above.len) ||
			     is_subject(sc->msg, above.s, above.len)))
				prose = true;
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
	if (run->label) {
		sc->near_caption = false;
		return;
	}
	/* a caption between the heading and the block is the nearer word:
	 *   ### MetaMap
	 *   Second run (ii-server6):        -> "Second run (ii-server6)" */
	bool near = sc->near_caption && nonblank == 0 && prev && prev->label;
	sc->near_caption = false;
	if (sec && cap) {
		run->label = bl_strndup_trim(cap, caplen);
		sc->near_caption = true;
	} else if (near) {
		/* the runs that follow it at once share that caption */
		run->label = strdup(prev->label);
		sc->near_caption = true;
	} else if (sc->section)
		run->label = strdup(sc->section);
	else if (cap)
		run->label = bl_strndup_trim(cap, caplen);
	else if (nonblank == 0 && prev && prev->label)
		run->label = strdup(prev->label);
}

/* ---------------------------------------------------------------- prefixes
 *
 * Tool output with something written before it on each line: a comment
 * marker, pdsh's host, a script's label. The anchor finds the tool's text
 * where it stands; when the parser declines the whole line, the prefix is
 * left out of the lines of its block (bl_message_prefix_add) and the
 * parser is asked again. */

/* A comment marker that output was pasted behind, its blanks and an
 * ellipsis:
 *   "    # ... 31+1 records in"
 *   "(* 119.28user 1.68system 2:01.31elapsed 99%CPU ..."
 * The length up to the text, or 0. */
static size_t comment_prefix(const char *s, size_t len)
{
	static const char *const marks[] = {"#", "//", "(*", "/*", "--", ";", "*", "-", NULL};
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	for (size_t k = 0; marks[k]; k++) {
		size_t ml = strlen(marks[k]);
		if (len - i <= ml || memcmp(s + i, marks[k], ml) != 0 ||
		    (s[i + ml] != ' ' && s[i + ml] != '\t'))
			continue;
		size_t j = i + ml;
		while (j < len && (s[j] == ' ' || s[j] == '\t'))
			j++;
		/* "# ... 31+1 records in" */
		if (len - j > 4 && memcmp(s + j, "...", 3) == 0 &&
		    (s[j + 3] == ' ' || s[j + 3] == '\t')) {
			j += 3;
			while (j < len && (s[j] == ' ' || s[j] == '\t'))
				j++;
		}
		return j;
	}
	return 0;
}

/* A label ending with a colon and blanks before the tool's text:
 *   "10.0.0.11:      Children see throughput for  1 initial writers ..."
 *   "ATS:<TAB>21.575u 0.017s 0:21.84 98.8%<TAB>0+0k 0+0io 0pf+0w"
 *   "down (remote->mac) 16 MiB: 16777216 bytes transferred in ..."
 * The last such colon whose blanks end by `limit` (where the anchor
 * matched); the length up to the text, or 0. */
#define PREFIX_LABEL_MAX 120
static size_t label_prefix(const char *s, size_t len, size_t limit)
{
	size_t best = 0;
	bool text = false;
	for (size_t k = 0; k + 1 < len && k < limit && k <= PREFIX_LABEL_MAX; k++) {
		if (s[k] != ':' || !text || (s[k + 1] != ' ' && s[k + 1] != '\t')) {
			text |= s[k] != ' ' && s[k] != '\t';
			continue;
		}
		size_t j = k + 1;
		while (j < len && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (j <= limit)
			best = j;
	}
	return best;
}

/* Whether `l` begins, after its blanks, with the prefix p[0, n) and holds
 * more. */
static bool same_prefix(const struct bl_line *l, const char *p, size_t n)
{
	size_t b = 0;
	while (b < l->len && (l->s[b] == ' ' || l->s[b] == '\t'))
		b++;
	return !l->cut && l->len - b > n && memcmp(l->s + b, p, n) == 0;
}

/* The lines around `line` that begin, after their blanks, with its
 * prefix p[0, plen) (and hold more): [*from, *to), from the first to the
 * last of them. A line without the prefix may stand between two with it
 * (a line wrapped, or cut in two by the unflattener):
 *   node1: <TAB>Children see throughput for  1 initial writers
 *   <TAB>=  302980.50 kB/sec
 *   node1: <TAB>Parent sees throughput for  1 initial writers
 * Not above `lo`, the floor or a block of another prefix, and at most
 * PREFIX_LINES lines each way. */
#define PREFIX_LINES 200
static void prefix_block(struct bl_scan *sc, size_t lo, const char *p, size_t plen,
			 const struct bl_line *line, size_t *from, size_t *to)
{
	struct bl_message *m = sc->msg;
	struct bl_line cur = *line, nb, nb2;
	if (lo < sc->floor)
		lo = sc->floor;
	if (m->nprefixes && m->prefixes[m->nprefixes - 1].to > lo)
		lo = m->prefixes[m->nprefixes - 1].to;
	*from = line->off;
	*to = line->next;
	for (int k = 0; k < PREFIX_LINES && bl_line_prev(m, &cur, &nb) && nb.off >= lo; k++) {
		if (!same_prefix(&nb, p, plen) &&
		    (bl_is_blank(nb.s, nb.len) || !bl_line_prev(m, &nb, &nb2) || nb2.off < lo ||
		     !same_prefix(&nb2, p, plen)))
			break;
		cur = same_prefix(&nb, p, plen) ? nb : nb2;
		*from = cur.off;
	}
	cur = *line;
	for (int k = 0; k < PREFIX_LINES && bl_line_next(m, &cur, &nb); k++) {
		if (!same_prefix(&nb, p, plen) &&
		    (bl_is_blank(nb.s, nb.len) || !bl_line_next(m, &nb, &nb2) ||
		     !same_prefix(&nb2, p, plen)))
			break;
		cur = same_prefix(&nb, p, plen) ? nb : nb2;
		*to = cur.next;
	}
}

/* The label a prefix gives the runs of its block: "10.0.0.11", "ATS",
 * "down (remote->mac) 16 MiB"; none for a comment marker. */
static void prefix_label(struct bl_doc *doc, size_t first_run, const char *p, size_t n)
{
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n && p[n - 1] == ':')
		n--;
	for (size_t i = first_run; i < doc->nruns; i++)
		if (!doc->runs[i].label)
			doc->runs[i].label = bl_strndup_trim(p, n);
}

/* Offers `line`, declined by parser pi, again without the prefix before
 * its anchor (at text offset `at`). */
static enum bl_claim claim_prefixed(struct bl_scan *sc, size_t pi, const struct bl_line *line,
				    size_t at, size_t *end)
{
	const struct bl_parser *p = bl_parsers[pi];
	if (line->cut || at <= line->off || pi >= BL_SCAN_PARSERS_MAX ||
	    line->off < sc->prefix_declined[pi])
		return BL_NOT_MINE;
	/* the tool's text starts at the anchor, or after the marker or colon
	 * the anchor began with: "up 16 MiB: 16777216 bytes (17 MB, 16 MiB) ..." */
	size_t limit = at - line->off;
	if (limit < line->len && (line->s[limit] == ':' || line->s[limit] == '#')) {
		limit++;
		while (limit < line->len &&
		       (line->s[limit] == ' ' || line->s[limit] == '\t' || line->s[limit] == '.'))
			limit++;
	}
	size_t plen = comment_prefix(line->s, line->len);
	bool comment = plen && plen <= limit;
	if (!comment)
		plen = label_prefix(line->s, line->len, limit);
	if (!plen)
		return BL_NOT_MINE;
	/* the prefix itself, after the line's blanks */
	size_t b = 0;
	while (b < plen && (line->s[b] == ' ' || line->s[b] == '\t'))
		b++;
	size_t from, to;
	prefix_block(sc, sc->prefix_declined[pi], line->s + b, plen - b, line, &from, &to);
	if (!bl_message_prefix_add(sc->msg, from, to, line->off + b, plen - b))
		return BL_NOT_MINE;
	struct bl_line view;
	bl_line_at(sc->msg, line->off, &view);
	size_t before = sc->doc->nruns;
	enum bl_claim c = p->claim(sc, &view, end);
	if (c != BL_CLAIMED) {
		/* its other lines would be declined the same way: a block
		 * of prefixed lines is offered once, and costs linear time */
		bl_message_prefix_drop(sc->msg);
		sc->prefix_declined[pi] = to;
		return c;
	}
	if (!comment)
		prefix_label(sc->doc, before, line->s + b, plen - b);
	return c;
}

/* ---------------------------------------------------------------- scanning */

/* Where the run a window before kept last ends in this window's text,
 * or SIZE_MAX when it is not known. */
static size_t window_before_end(const struct bl_scan *sc)
{
	const struct bl_doc *d = sc->doc;
	if (!d->window_before.label || d->window_before.end < sc->msg->raw_offset)
		return SIZE_MAX;
	return bl_message_text_at(sc->msg, d->window_before.end);
}

/* The run a window before kept last, as the one above run, the first of
 * this window, when only blank lines stand between them (*above, its
 * label alone): a run right under a stream that an earlier window read
 * is then named as a whole reading names it. NULL otherwise. */
static const struct bl_run *window_before(const struct bl_scan *sc, const struct bl_run *run,
					  struct bl_run *above)
{
	size_t end = window_before_end(sc);
	if (end == SIZE_MAX || run->off < end || !bl_doc_nothing_between(sc->msg, end, run->off))
		return NULL;
	*above = (struct bl_run){.label = (char *)sc->doc->window_before.label};
	return above;
}

/* Run, the first of this window, that a scan found no name for but that
 * is the run a window before kept last read again, from the window's
 * context or by its parser's resume (its tool, starting before its end):
 * named as it was (as the window's writer names it, take_last_head), so
 * that a run right under it takes the name as in a whole reading. */
static void name_as_kept(const struct bl_scan *sc, struct bl_run *run)
{
	size_t end = window_before_end(sc);
	if (!run->label && end != SIZE_MAX && run->off < end &&
	    run->tool == sc->doc->window_before.tool)
		run->label = strdup(sc->doc->window_before.label);
}

/* A run a window before left open read on from this window's first line
 * (bl_doc.resume): where scanning goes on, 0 when it is not. */
static size_t resume_run(struct bl_scan *sc)
{
	const struct bl_parser *p =
		sc->doc->resume.tool ? bl_parser_find(sc->doc->resume.tool) : NULL;
	size_t end = 0;
	if (!p || !p->resume || !sc->doc->resume.text)
		return 0;
	/* said before the resume reads: the results it hands on as it reads
	 * are the held run's */
	sc->doc->resume.read = true;
	if (p->resume(sc, sc->doc->resume.text, &end) != BL_CLAIMED) {
		sc->doc->resume.read = false;
		return 0;
	}
	if (sc->doc->nruns)
		name_as_kept(sc, &sc->doc->runs[sc->doc->nruns - 1]);
	sc->floor = end;
	return end;
}

/* The next place to offer a claim from pos: where the last block ended
 * when its claim reads on there (bl_scan_go_on; `last` its parser), else
 * the next anchor. */
static bool next_hit(struct bl_scan *sc, struct bl_anchor_scan *as, size_t pos, size_t last,
		     struct bl_anchor_hit *hit)
{
	bool go_on = sc->go_on;
	sc->go_on = false;
	if (go_on && pos < sc->msg->len) {
		*hit = (struct bl_anchor_hit){.start = pos, .end = pos, .parser = last};
		return true;
	}
	return bl_anchor_next(as, pos, hit);
}

/* In a window past the first, the parser that reads on with what the
 * window before handed it (bl_parser.reads_on): the scan starts at its
 * line, offered to it first. */
static size_t read_on(struct bl_scan *sc, size_t *parser)
{
	if (!sc->doc->carry || !sc->msg->window.on || !sc->msg->window.index)
		return 0;
	for (size_t i = 0; bl_parsers[i]; i++) {
		size_t at = bl_parsers[i]->reads_on ? bl_parsers[i]->reads_on(sc) : SIZE_MAX;
		if (at != SIZE_MAX) {
			*parser = i;
			sc->go_on = true;
			return at;
		}
	}
	return 0;
}

int bl_scan_message_into(struct bl_message *msg, struct bl_doc *doc)
{
	/* the anchors, found by their needles first (anchor.c) */
	struct bl_anchor_scan *as = bl_anchor_scan_new(msg);
	if (!as)
		return -1;
	struct bl_scan sc = {.msg = msg, .doc = doc, .floor = 0, .section = NULL};
	/* the prefixes a scan left out are its own: a message read again
	 * starts with whole lines */
	bl_message_prefix_clear(msg);
	struct bl_anchor_hit hit = {0};
	size_t pos = resume_run(&sc);
	if (!pos)
		pos = read_on(&sc, &hit.parser);
	/* the line a table handed on from the window before goes on at */
	size_t on_at = sc.go_on ? pos : SIZE_MAX;
	while (pos <= msg->len && next_hit(&sc, as, pos, hit.parser, &hit)) {
		const struct bl_parser *p = bl_parsers[hit.parser];
		struct bl_line line;
		bl_line_at(msg, hit.start, &line);
		if (line.off < sc.floor) {
			/* the anchor shares a line with the end of the last block */
			pos = line.next > hit.end ? line.next : hit.end + 1;
		} else {
			/* runs before the last are final: write them out (a claim
			 * may still extend the last one) */
			bl_doc_flush(doc, 1);
			size_t before = doc->nruns, end = 0;
			enum bl_claim c = p->claim(&sc, &line, &end);
			if (c != BL_CLAIMED) {
				sc.go_on = false;
				c = claim_prefixed(&sc, hit.parser, &line, hit.start, &end);
			}
			bool took = c == BL_CLAIMED && end > hit.start;
			if (!took)
				sc.go_on = false;
			if (hit.start == on_at && !took && line.next - line.off > TABLE_ROW_MAX)
				table_not_read_on(&sc, p);
			on_at = SIZE_MAX;
			if (!sc.go_on)
				table_ended(&sc, p, took ? end : hit.start);
			if (took) {
				for (size_t i = before; i < doc->nruns; i++) {
					struct bl_run above;
					const struct bl_run *prev =
						i ? &doc->runs[i - 1]
						  : window_before(&sc, &doc->runs[i], &above);
					assign_label(&sc, &doc->runs[i], prev);
					if (!i)
						name_as_kept(&sc, &doc->runs[i]);
					/* quoted from an earlier mail: "> 2000+0 records in" */
					doc->runs[i].quote_depth =
						bl_message_quote_depth(msg, hit.start);
				}
				sc.floor = end;
				pos = end;
				continue;
			}
			/* not mine: other anchors may still match later on the line */
			pos = hit.end > hit.start ? hit.end : hit.start + 1;
		}
		/* keep pos on a character boundary */
		while (pos < msg->len && ((unsigned char)msg->text[pos] & 0xC0) == 0x80)
			pos++;
	}
	size_t where = 0;
	if (bl_anchor_incomplete(as, &where)) {
		/* the document says so: its runs may not be all there are */
		doc->partial = true;
		bl_doc_diag(doc, -1, BL_WARNING, "scan.incomplete", where,
			    "the search for benchmark output gave up on this text "
			    "(regular expression limit); runs may be missing");
	}
	bl_anchor_scan_free(as);
	free(sc.section);
	if (doc->sink)
		bl_doc_flush(doc, 0);
	else
		bl_doc_group_repeats(doc);
	return 0;
}
