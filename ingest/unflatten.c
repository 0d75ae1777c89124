/* unflatten.c - a post flattened onto one line, given its lines back.
 *
 * Web scrapes and some archives join a whole mail into one line:
 *   ...partition): # dd if=/dev/zero of=/root/z bs=1M count=200 200+0
 *   records in 200+0 records out 209715200 bytes transferred in 6.158355
 *   secs (34053769 bytes/sec) # dd if=...
 * In a long line, the blank before a prompt, a command, or a tool line
 * becomes a line break, and so does the blank after a complete tool line.
 * Each break replaces one blank, so the text keeps its length and its
 * offsets. To teach it a new tool, add the tool's line shapes below. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/re.h"
#include "decode.h"

/* Lines shorter than this are left alone. */
#define UNFLATTEN_MIN 250
/* A line this long is worth telling the user about; and what remains of
 * it after the breaks above is wrapped at blanks to at most WRAP_MAX bytes,
 * so that the parsers, which read a whole line around each match, stay
 * linear in the input. A GNU dd progress line ('\r'-separated updates) is
 * left whole below HUGE_LINE. */
#define LONG_LINE ((size_t)1 << 16)
#define HUGE_LINE ((size_t)1 << 20)
#define WRAP_MAX 4096

/* A line break before and after these. */
static struct bl_re whole_re = BL_RE(
	/* (each alternative starts where a number does, so that a long run of
	 * digits is tried once, not from each of its digits) */
	"(?<![\\d.])(?:"
	/* "200+0 records in", "^C5862919230+0 записей получено", and the
	 * translations GNU dd prints: "2048+0 Datensätze ein" */
	"(?:\\^C)?\\d+\\+\\d+ (?:records? (?:in|out)|Datensätze (?:ein|aus)|"
	"registros (?:leídos|escritos)|enregistrements (?:lus|écrits)|"
	"записей (?:получено|отправлено))"
	/* "209715200 bytes transferred in 6.158355 secs (34053769 bytes/sec)" */
	"|\\d+ bytes transferred in [\\d.]+ secs? \\(\\d+ bytes/sec\\)"
	/* "2147483648 bytes (2147 MB, 2048 MiB) transferred 31.001s, 69 MB/s" */
	"|\\d+ bytes \\([^)]{1,40}\\) transferred [\\d.]+s, [\\d.]+ ?\\S{1,12}/s"
	/* GNU dd in every locale, and busybox:
	 * "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s"
	 * "2147483648 Bytes (2,1 GB, 2,0 GiB) kopiert, 14,2731 s, 150 MB/s"
	 * "67108864 bytes (64.0MB) copied, 0.052498 seconds, 1.2GB/s" */
	"|\\d+ \\S{1,20}(?: \\([^)]{1,40}\\))? \\S{1,30}, \\d[\\d.,]*(?:[eE][-+]?\\d{1,3})? ?\\S{1,10}, "
	"(?:\\d[\\d.,]*|Infinity|inf) ?\\S{1,12}/\\S{1,6}"
	/* old Russian coreutils: "скопировано 1073741824 байт (1,1 GB), 6,93021 c, 155 MB/c" */
	"|скопировано \\d+ \\S{1,20}(?: \\([^)]{1,40}\\))?, \\d[\\d.,]* ?\\S{1,10}, "
	"\\d[\\d.,]* ?\\S{1,12}/\\S{1,6}"
	/* "0.029u 6.422s 1:07.25 9.5% 26+1531k 0+0io 0pf+0w" */
	"|\\d+\\.\\d+u \\d+\\.\\d+s [\\d:.]+ [\\d.]+% \\d+\\+\\d+k \\d+\\+\\d+io \\d+pf\\+\\d+w"
	/* pdksh: "0m18.40s real     0m00.00s user     0m02.85s system" */
	"|\\d+m[\\d.]+s real +\\d+m[\\d.]+s user +\\d+m[\\d.]+s sys(?:tem)?"
	/* BSD /usr/bin/time ("%9.2f real %9.2f user %9.2f sys"):
	 * "7.42 real         0.00 user         0.41 sys"; not a time -p after
	 * "sleep 0.1": "0.1 real 0.10 user 0.00 sys" */
	"|\\d+\\.\\d\\d real {2,}\\d+\\.\\d\\d user {2,}\\d+\\.\\d\\d sys"
	/* "real 0m1.597s" "user 0m0.001s" "sys 0m0.5s" (bash time, tabs kept),
	 * "real 0.01" (time -p); not zsh's "0.00s user 0.21s system" */
	"|(?:real|user|sys)[ \\t]+(?:\\d+m[\\d.]+s|\\d+\\.\\d+(?![\\d.s]))"
	/* GNU time: "0.00user 0.01system 0:00.01elapsed 83%CPU (0avgtext+0avgdata 2772maxresident)k"
	 * "0inputs+65536outputs (0major+358minor)pagefaults 0swaps"
	 * "Command exited with non-zero status 1" */
	"|\\d+\\.\\d+user \\d+\\.\\d+system [\\d:.]+elapsed \\d+%CPU "
	"\\(\\d+avgtext\\+\\d+avgdata \\d+maxresident\\)k"
	"|\\d+inputs\\+\\d+outputs \\(\\d+major\\+\\d+minor\\)pagefaults \\d+swaps"
	"|Command exited with non-zero status \\d+"
	/* diskinfo -t: "Full stroke:	  250 iter in   5.759155 sec =   23.037 msec" */
	"|(?:(?:Full|Half|Quarter) stroke|Short (?:forward|backward)|Seq (?:outer|inner)):[ \\t]+"
	"\\d+ iter in +[\\d.]+ sec = +[\\d.]+ msec)",
	0);

/* A line break after these: zsh prints the command before its times.
 *   "dd if=/dev/zero of=x bs=1m count=100  0.00s user 0.21s system 95% cpu 0.220 total" */
static struct bl_re end_re = BL_RE(
	"(?<![\\d.])\\d+(?:\\.\\d+)?s user \\d+(?:\\.\\d+)?s system \\d+% cpu [\\d:.]+ total", 0);

/* A line break before these. */
static struct bl_re start_re = BL_RE(
	/* a prompt and a command: "# dd", "srebrny# time dd", "[root@h:~]$ dd",
	 * "[root@viejo ~]# dd", "root@fbsd:~ # zpool" */
	"(?:[#$%>]|\\[[^\\]\\n]{1,60}\\][#$%>]|[\\w.@:~/-]{1,60}[#$%>]|[\\w.-]{1,40}@[\\w.:~/-]{1,60} [#$%>]) "
	"(?=(?:time |sudo |nice |/usr/bin/time )?(?:-[lpv] )?(?:dd|bonnie\\+\\+|bonnie|iozone|"
	"diskinfo|zpool|zfs|gmirror|geli|newfs|gpart|mount|umount|df|sysctl|uname|fio|tar|rm|"
	"time|make|sleep|/usr/bin/time) )"
	/* a command without a prompt: "dd if=/dev/ad4s1a of=/dev/null" */
	"|(?<![#$%>] )(?<!time )(?<!sudo )(?<!-[lpv] )dd (?=(?:if|of|bs|ibs|obs|count)=)"
	/* dd's complaints: "dd: error writing '/tmp/x/small/f': No space left on device" */
	"|dd: "
	/* a heading: "*** (mirror hdd, eli) zfs:" */
	"|\\*{2,}(?= |$)",
	0);

/* A line break before these, in a line that is already known to be
 * flattened (they do not make one so). */
static struct bl_re weak_re = BL_RE(
	/* GNU time -v, one tab-led field a line: "\tUser time (seconds): 0.00",
	 * "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:00.01" */
	"\\t(?=[A-Z][^\\t\\n]{1,80}?: )"
	/* BSD /usr/bin/time -l: "      2936  maximum resident set size" */
	"|(?<!\\d)\\d+  (?=(?:maximum|average|page|swaps|block|messages|signals|voluntary|involuntary)\\b)"
	/* zpool iostat headers: "capacity     operations     bandwidth",
	 * "tank         total_wait     disk_wait", "media   sync_read    sync_write" */
	"|capacity +operations +bandwidth"
	/* and -T u's timestamp above a sample: "1796018647" */
	"|(?<!\\d)\\d{9,11}(?= +capacity +operations +bandwidth)"
	"|(?<!\\S)(?!bandwidth )[^\\s]{1,256} +(?=total_wait +disk_wait|sync_read +sync_write)"
	/* and the second line of a histogram's header: "latency      read  write",
	 * "req_size        ind    agg" */
	"|(?:latency|req_size) +(?=read +write|ind +agg)"
	/* diskinfo: its device line "/dev/ada3" above "512  # sectorsize", the
	 * sections "Seek times:" and their rows "Full stroke:   250 iter in ...",
	 * "time to read 10MB block ...", "4 kbytes:     74.5 usec/IO = ..." (some
	 * pages keep "&nbsp;" for the indentation) */
	"|/dev/[\\w./-]{1,60}(?=[ \\t]{1,64}\\S{1,64}[ \\t]{1,64}# sectorsize)|(?<!\\S)\\S{1,64}(?=[ \\t]{1,64}# sectorsize)"
	"|(?:I/O command overhead|Seek times|Transfer rates|Asynchronous random reads|"
	"Synchronous random writes):"
	"|(?:&nbsp;)*(?:(?:Full|Half|Quarter) stroke|Short (?:forward|backward)|Seq (?:outer|inner)|"
	"outside|middle|inside|sectorsize|(?<![\\d.])\\d+(?:\\.\\d+)? kbytes):"
	"|time to read \\d+|calculated command overhead"
	/* iozone's preamble, every line led by a tab: "\tRecord Size 8 KB"; not
	 * diskinfo's "512         \t# sectorsize" */
	"|(?<= )\\t(?!#)"
	/* iozone -R: "Excel output is below:", "\"Writer report\"", and the
	 * rows under the record lengths: "\"64\"   1149134  3526006" */
	"|Excel output is below:|\"[A-Z][\\w -]{0,40} report\"|\"\\d+\"(?= {2,}\\d)"
	/* and its throughput report: "\"Throughput report Y-axis is ...\"",
	 * "\"Record size = 64 kBytes \"", "\"  Initial write \"  812345.25" */
	"|\"(?:Throughput report|Record size = |Output is in )|\" {0,20}[A-Z][\\w -]{1,30}\"(?= +\\d)"
	/* bonnie and bonnie++ headers: "Version  1.96       ------Sequential Output------",
	 * "-------Sequential Output--------", "-Per Char- --Block--- -Rewrite--",
	 * "Concurrency   1     -Per Chr- --Block--", "-Create-- --Read--- -Delete--",
	 * "------Sequential Create------", and "Latency   12345us" */
	"|Version +\\S{1,12} +-{3,}Sequential|-{3,}Sequential (?:Output|Create)"
	"|(?:Concurrency +\\d+ +)?-Per Cha?r- +-{1,3}Block-{1,3} +-{1,3}Rewrite"
	"|-Create-- +--Read--- +-Delete-- +-Create--"
	"|Latency +\\d"
	/* the line above iozone's header: "random  random    bkwd   record   stride" */
	"|random +random +bkwd +record +stride"
	/* zpool iostat -T d: "Tue Mar  5 14:02:16 2024", not iozone's
	 * "Run began: Wed Jun  7 14:40:12 2006" */
	"|(?<!: )(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
	"[ \\d]\\d \\d\\d:\\d\\d:\\d\\d (?:[A-Z]{2,5} )?\\d{4}",
	0);

/* A line break after these, in a line already known to be flattened:
 * the comments of diskinfo's identity lines, "512  # sectorsize", and
 * the ends of its rows. */
static struct bl_re weak_end_re = BL_RE(
	"# (?:sectorsize|mediasize in bytes(?: \\([^)\\n]{0,20}\\))?|mediasize in sectors|"
	"stripesize|stripeoffset|(?:Cylinders|Heads|Sectors) according to firmware\\.|"
	"Disk descr\\.|Disk ident\\.|Attachment|Physical path|TRIM/UNMAP support|"
	"Rotation rate in RPM|Zone Mode)"
	/* iozone -R: a report's title and rows, "\"Writer report\"",
	 * "\"64\"   1149134  3526006  1698432", "\"  Initial write \"  812345.25" */
	"|\"[A-Z][\\w -]{0,40} report\"|\"\\d+\"(?: +\\d+)+"
	"|\" {0,20}[A-Z][\\w -]{1,30}\"(?: +\\d+(?:\\.\\d+)?)+"
	/* and the ends of diskinfo's rows: "=   19.927 msec", "=    45247 kbytes/sec" */
	"|= {1,64}[\\d.]{1,20} (?:msec(?:/sector)?|kbytes/sec|kB/s|IOPS|Mbytes/s)",
	0);

/* A line break at the blank between two sentences, so that the one before
 * a block can serve as its caption:
 *   "...than the non-zfs test. With a 2GB test file: # dd if=..." */
static struct bl_re sentence_re = BL_RE("(?<=[a-z)][.!?]) (?=[A-Z])", 0);

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

struct breaks {
	size_t *v;
	size_t n, cap;
};

static void add_break(struct breaks *b, size_t at)
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

static bool blank(char c) { return c == ' ' || c == '\t'; }

/* How far back a run of blanks is followed to its first blank. */
#define BLANK_RUN_MAX 256

/* The blank that ended the line before s[a]: the first of the blanks just
 * before it, since flattening put one blank where the newline was and the
 * blanks after it are the next line's indentation (a table row keeps its
 * columns). None when s[a] is not after a blank, or the blanks indent the
 * line. */
static bool break_before(const char *s, size_t a, size_t *at)
{
	if (a == 0 || !blank(s[a - 1]))
		return false;
	size_t k = a - 1, lim = a > BLANK_RUN_MAX ? a - BLANK_RUN_MAX : 0;
	while (k > lim && blank(s[k - 1]))
		k--;
	if (k == 0)
		return false;
	/* a progress update after its '\r', quoted or not: "\r> 2571108352 bytes" */
	size_t q = k;
	while (q > 0 && k - q < 16 && (s[q - 1] == '>' || s[q - 1] == '|' || blank(s[q - 1])))
		q--;
	if (q > 0 && s[q - 1] == '\r')
		return false;
	*at = k;
	return true;
}

/* The blank after s[e - 1] that ends its line, unless only blanks and the
 * line end (or a '\r' of dd's progress updates) follow. */
static bool break_after(const char *s, size_t len, size_t e, size_t *at)
{
	if (e >= len || !blank(s[e]))
		return false;
	size_t k = e, lim = len - e > BLANK_RUN_MAX ? e + BLANK_RUN_MAX : len;
	while (k < lim && blank(s[k]))
		k++;
	if (k >= len || s[k] == '\r' || s[k] == '\n')
		return false;
	*at = e;
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
		if (g->rule[c] == ' ' && !blank(s[from + c]))
			return false;
	for (size_t i = 1; i < g->n; i++)
		if (blank(s[from + g->end[i] - 1]))
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

static void rule_breaks(const char *s, size_t len, size_t base, struct breaks *b)
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
		if (break_before(s, a, &at))
			add_break(b, base + at);
		/* rows after the rule */
		size_t p = e;
		for (;;) {
			if (p >= len || !blank(s[p]))
				break;
			size_t ts = p > e ? stamp_at(s, len, p + 1) : 0;
			if (ts && p + 1 + ts < len && blank(s[p + 1 + ts]) &&
			    p + 2 + ts + g.w <= len && grid_row(s, p + 2 + ts, &g)) {
				add_break(b, base + p);
				p += 1 + ts;
				continue;
			}
			if (!(p + 1 + g.w <= len && grid_row(s, p + 1, &g) &&
			      (p + 1 + g.w == len || blank(s[p + 1 + g.w]))))
				break;
			add_break(b, base + p);
			p += 1 + g.w;
		}
		if (p > e && p < len)
			add_break(b, base + p);
		else if (p == e && break_after(s, len, e, &at)) {
			add_break(b, base + at);
			/* zpool iostat -v leaves an empty line between samples:
			 * "-----  -----\n\n              capacity" */
			size_t k = e;
			while (k < len && blank(s[k]))
				k++;
			if (k - e >= 2 && len - k >= 8 && memcmp(s + k, "capacity", 8) == 0)
				add_break(b, base + e + 1);
		}
		/* rows before it: the header, the rows above a closing rule */
		size_t q = a;
		while (q > g.w && blank(s[q - 1]) && grid_row(s, q - 1 - g.w, &g) &&
		       (q - 1 - g.w == 0 || blank(s[q - 2 - g.w]))) {
			add_break(b, base + q - 1);
			q -= 1 + g.w;
		}
		if (q < a && break_before(s, q, &at))
			add_break(b, base + at);
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

static void tab_rows(const char *s, size_t len, size_t base, struct breaks *b)
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
				add_break(b, base + k);
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

struct token {
	size_t a, e;
};

static bool next_token(const char *s, size_t len, size_t from, struct token *t)
{
	while (from < len && blank(s[from]))
		from++;
	if (from >= len)
		return false;
	t->a = from;
	while (from < len && !blank(s[from]))
		from++;
	t->e = from;
	return true;
}

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

static void iozone_rows(const char *s, size_t len, size_t base, struct breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0;
	while (pos < len && bl_re_match(&iozhead_re, s, len, pos, &m)) {
		size_t a = m.ov[0], kb = a + 2, at;
		pos = m.ov[1];
		size_t r = kb;
		while (r < len && blank(s[r]))
			r++;
		size_t dist = r + 6 - kb; /* from the end of "kB" to that of "reclen" */
		size_t hs = 0;
		bool fixed = kb > IOZONE_KB_COLUMN && blank(s[kb - IOZONE_KB_COLUMN - 1]);
		for (size_t i = kb - IOZONE_KB_COLUMN; fixed && i < a; i++)
			fixed = blank(s[i]);
		if (fixed)
			hs = kb - IOZONE_KB_COLUMN;
		else if (break_before(s, a, &at))
			hs = at + 1;
		else
			continue;
		if (hs > 0)
			add_break(b, base + hs - 1);
		size_t col = kb - hs;
		struct token t, u, last = {a, kb};
		size_t p = a;
		bool rows = false;
		while (next_token(s, len, p, &t)) {
			bool num = numeric(s, &t);
			/* a row starts where a number and the next line up with
			 * "kB" and "reclen" */
			if (num && t.e >= col + 1 && next_token(s, len, t.e, &u) && numeric(s, &u) &&
			    u.e - t.e == dist && power_of_two(s, &u)) {
				size_t start = t.e - col;
				bool ok = start - 1 >= last.e && blank(s[start - 1]);
				for (size_t i = start; ok && i < t.a; i++)
					ok = blank(s[i]);
				if (ok) {
					add_break(b, base + start - 1);
					rows = true;
					last = u;
					p = u.e;
					continue;
				}
			}
			/* a cell past the header's width: a row that a mail client
			 * wrapped, its end at the start of the next line */
			if (rows && num) {
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
		if (rows && break_after(s, len, last.e, &at))
			add_break(b, base + at);
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
 * "files  /sec %CP", "files:max:min        /sec %CP" */
static struct bl_re bonhead_re = BL_RE(
	"(?:Machine|Kernel) +(?:Size(?::chnk)?|[MG]B) +[KM]/sec|Name:Size etc +/sec|"
	"files(?::max(?::min)?)? +/sec +%CP",
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
 * not (prose; "Latency   702ms     488ms" is read apart). */
static size_t bonnie_row(const char *s, size_t from, size_t to)
{
	struct token t;
	size_t n = 0, p = from;
	while (p < to && next_token(s, to, p, &t)) {
		/* the machine's name first, then numbers only */
		if (n > 0 && !has_digit(s, &t))
			return SIZE_MAX;
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

static void bonnie_rows(const char *s, size_t len, size_t base, struct breaks *b)
{
	struct bl_re_match m;
	size_t pos = 0, at;
	while (pos < len && bl_re_match(&bonhead_re, s, len, pos, &m)) {
		size_t a = m.ov[0];
		pos = m.ov[1];
		size_t hs = break_before(s, a, &at) ? at + 1 : 0;
		if (hs)
			add_break(b, base + hs - 1);
		struct token t;
		size_t he = m.ov[1], p = a, nh = 0;
		while (next_token(s, len, p, &t) && (t.e <= m.ov[1] || header_word(s, &t))) {
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
		while (p < len && blank(s[p])) {
			size_t r = p + 1, end = 0;
			/* bonnie++ 1.96+: each row's latencies on the line below it,
			 * "Latency             12043us     301ms     512ms" */
			if (next_token(s, len, r, &t) && t.e - t.a == 7 &&
			    memcmp(s + t.a, "Latency", 7) == 0 && t.a == r) {
				end = t.e;
				while (next_token(s, len, end, &t) && latency(s, &t))
					end = t.e;
				add_break(b, base + p);
				p = end;
				continue;
			}
			/* a row whose numbers overflow their columns ends where
			 * the next line's first word (a name, "Latency") starts */
			for (size_t d = 0; d <= BONNIE_OVERFLOW + BONNIE_SLACK && !end; d++) {
				size_t c = r + w + BONNIE_OVERFLOW - d;
				if (c > r && c <= len && !blank(s[c - 1]) && (c == len || blank(s[c])) &&
				    bonnie_row(s, r, c) <= nh &&
				    (!next_token(s, len, c, &t) || name_like(s[t.a])))
					end = c;
			}
			/* else the longest row that has no more cells than the
			 * header has words: cells that overflow push the end right */
			for (size_t d = 0; d <= 2 * BONNIE_SLACK && !end; d++) {
				size_t c = r + w + BONNIE_SLACK - d;
				if (c > r && c <= len && !blank(s[c - 1]) && (c == len || blank(s[c])) &&
				    bonnie_row(s, r, c) <= nh)
					end = c;
			}
			if (!end)
				break;
			add_break(b, base + p);
			p = end;
		}
		if (p > he && p < len && break_after(s, len, p, &at))
			add_break(b, base + at);
		else if (p == he && break_after(s, len, he, &at))
			add_break(b, base + at);
		pos = p > pos ? p : pos;
	}
}

/* What line_breaks() found: tool lines and prompts that share their line
 * with other text. */
struct found {
	size_t tool, start;
};

/* Collects blanks to turn into breaks in the line [s, s+len) at `base`. */
static struct found line_breaks(const char *s, size_t len, size_t base, struct breaks *b)
{
	struct bl_re_match m;
	struct found f = {0, 0};
	size_t pos = 0, at;
	while (pos < len && bl_re_match(&whole_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		bool any = false;
		if (break_before(s, a, &at)) {
			add_break(b, base + at);
			any = true;
		}
		if (break_after(s, len, e, &at)) {
			add_break(b, base + at);
			any = true;
		}
		f.tool += any;
		pos = e > a ? e : a + 1;
	}
	pos = 0;
	while (pos < len && bl_re_match(&end_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (break_after(s, len, e, &at)) {
			add_break(b, base + at);
			f.tool++;
		}
		pos = e > a ? e : a + 1;
	}
	pos = 0;
	while (pos < len && bl_re_match(&start_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (break_before(s, a, &at)) {
			add_break(b, base + at);
			f.start++;
		}
		pos = e > a ? e : a + 1;
	}
	/* a line of a megabyte or more is no post (a flattened mail is some
	 * kilobytes): the tables' shapes are not looked for in it, which
	 * keeps a hostile line of digits or dashes cheap */
	if (len >= HUGE_LINE)
		goto sentences;
	pos = 0;
	while (pos < len && bl_re_match(&weak_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (break_before(s, a, &at))
			add_break(b, base + at);
		pos = e > a ? e : a + 1;
	}
	pos = 0;
	while (pos < len && bl_re_match(&weak_end_re, s, len, pos, &m)) {
		size_t a = m.ov[0], e = m.ov[1];
		if (break_after(s, len, e, &at))
			add_break(b, base + at);
		pos = e > a ? e : a + 1;
	}
	if (len >= UNFLATTEN_MIN) {
		rule_breaks(s, len, base, b);
		tab_rows(s, len, base, b);
		iozone_rows(s, len, base, b);
		bonnie_rows(s, len, base, b);
	}
sentences:
	pos = 0;
	while (pos < len && bl_re_match(&sentence_re, s, len, pos, &m)) {
		add_break(b, base + m.ov[0]);
		pos = m.ov[1] > m.ov[0] ? m.ov[1] : m.ov[0] + 1;
	}
	return f;
}

/* A line shorter than UNFLATTEN_MIN is a flattened post too when it holds
 * two tool lines or a prompt and a tool line, which a line of a post never
 * does: "$ dd bs=1 count=1 if=/dev/zero of=/tmp/x/g 1+0 records in 1+0 ..."
 * but not "Counting 10+0 records in the table above was a mistake."
 * Breaks [n0, b->n) were found in it; they are kept or dropped. */
static void keep_short(struct breaks *b, size_t n0, struct found f)
{
	if (f.tool < 2 && !(f.tool && f.start))
		b->n = n0;
}

/* Breaks at blanks so that no piece of [from, to) exceeds WRAP_MAX. */
static void wrap_piece(const char *s, size_t from, size_t to, struct breaks *b)
{
	while (to - from > WRAP_MAX) {
		const char *sp = NULL;
		for (size_t k = from + WRAP_MAX; k > from; k--)
			if (blank(s[k])) {
				sp = s + k;
				break;
			}
		if (!sp) {
			/* one long word: wrap at the first blank after it */
			size_t k = from + WRAP_MAX;
			while (k < to && !blank(s[k]))
				k++;
			if (k >= to)
				return;
			sp = s + k;
		}
		add_break(b, (size_t)(sp - s));
		from = (size_t)(sp - s) + 1;
	}
}

/* Adds wrap breaks to the long lines; b is sorted on entry and on exit. */
static void hard_wrap(const char *s, size_t n, struct breaks *b)
{
	size_t nb = b->n, k = 0, i = 0;
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n;
		size_t len = end - i;
		bool wrap = len >= HUGE_LINE ||
			    (len >= LONG_LINE && !memchr(s + i, '\r', len > 1 ? len - 1 : 0));
		size_t from = i;
		while (k < nb && b->v[k] < end) {
			if (wrap && b->v[k] >= from)
				wrap_piece(s, from, b->v[k], b);
			if (b->v[k] >= from)
				from = b->v[k] + 1;
			k++;
		}
		if (wrap)
			wrap_piece(s, from, end, b);
		i = end + 1;
	}
	if (b->n > nb && b->v)
		qsort(b->v, b->n, sizeof *b->v, cmp_size);
}

bool bl_unflatten_detect(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;
		if (end - i >= UNFLATTEN_MIN)
			return true;
		i = end + 1;
	}
	/* short lines: each tool line found, its line tried once */
	struct bl_re_match m;
	struct breaks b = {NULL, 0, 0};
	size_t pos = 0, done = 0;
	bool found = false;
	while (!found && pos < len && bl_re_match(&whole_re, s, len, pos, &m)) {
		size_t a = m.ov[0];
		pos = m.ov[1] > a ? m.ov[1] : a + 1;
		if (a < done)
			continue;
		const char *nl = memrchr(s, '\n', a);
		size_t from = nl ? (size_t)(nl - s) + 1 : 0;
		nl = memchr(s + a, '\n', len - a);
		size_t to = nl ? (size_t)(nl - s) : len;
		done = to;
		b.n = 0;
		keep_short(&b, 0, line_breaks(s + from, to - from, from, &b));
		found = b.n > 0;
	}
	free(b.v);
	return found;
}

bool bl_unflatten(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	const char *s = in->s;
	size_t n = in->len, i = 0, nlong = 0, first_long = 0, longest = 0;
	struct breaks b = {NULL, 0, 0};
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n;
		if (end - i >= LONG_LINE) {
			if (!nlong++)
				first_long = i;
			if (end - i > longest)
				longest = end - i;
		}
		/* GNU dd's progress updates are separated by '\r', not by
		 * blanks: break_after() leaves them together */
		size_t n0 = b.n;
		struct found f = line_breaks(s + i, end - i, i, &b);
		if (end - i < UNFLATTEN_MIN)
			keep_short(&b, n0, f);
		i = end + 1;
	}
	if (nlong)
		bl_ingest_diag(m, BL_INFO, "ingest.long-line", bl_src_origin(in, first_long),
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
	if (!bl_tbuf_reserve(out, n)) {
		free(b.v);
		return false;
	}
	size_t from = 0;
	for (size_t k = 0; k < b.n; k++) {
		size_t at = b.v[k];
		if (at < from)
			continue; /* the same blank twice */
		bl_tbuf_copy(out, in, from, at - from);
		bl_tbuf_putc(out, '\n', bl_src_origin(in, at));
		from = at + 1;
	}
	bl_tbuf_copy(out, in, from, n - from);
	free(b.v);
	return true;
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
