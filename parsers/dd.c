/* dd.c - dd(1) transfer summaries: BSD, macOS, GNU coreutils (old, new,
 * translated), busybox.
 *
 * A block is an optional error or progress line, "N+M records in",
 * "N+M records out", then the summary line; a post may show only the
 * summary, or (status=noxfer, Solaris) only the records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/find.h"
#include "parser.h"
#include "../base/re.h"
#include "../base/units.h"

/* The `dd:` lines a block may hold, above its records: a display that a
 * warning or an error (conv=noerror, a bad sector) parts, and those above. */
#define DD_MAX_ERRS 16

extern const struct bl_parser bl_parser_dd;

/* "2000+0 records in", "32768+0 records in", "64+0 Datensätze ein",
 * "64+0 enregistrements lus", "1+0 записей получено": two counts, then
 * words in any language. A terminal that echoed the interrupt puts "^C"
 * in front: "^C11771330744+0 записей получено". Chinese puts its verb
 * there: "记录了10000+0 的读入", "记录了10000+0 的写出". */
#define ZH_RECORDED "记录了"
static struct bl_re rec_re = BL_RE(
	"^[ \\t]*(?:\\^C|" ZH_RECORDED ")?(\\d{1,20})\\+(\\d{1,20}) ([^\\d\\s][^\\d]{0,40})$", 0);

/* BSD, macOS:
 * "2097152000 bytes transferred in 92.451346 secs (22683845 bytes/sec)"
 * NetBSD, OpenBSD (milliseconds):
 * "1073741824 bytes transferred in 12.345 secs (86978681 bytes/sec)"
 * Android's toolbox dd spells the unit out:
 * "33554432 bytes transferred in 3.184339 seconds (10537330 bytes/sec)"
 * illumos (OmniOS r151014 to r151030), in powers of 1024 and the
 * locale's decimal mark:
 * "209715200 bytes transferred in 0,409412 secs (489MB/sec)"
 * and since status= (2021), its sizes rounded to whole units:
 * "726039265280 (676 GiB) bytes transferred in 16.306815 secs (41 GiB/sec)"
 * Groups: 1 bytes, then 2 seconds and 3 bytes/sec, or (illumos) 4 seconds,
 * 5 the rate and 6 its unit. */
static struct bl_re bsd_re =
	BL_RE("^[ \\t]*(\\d{1,20}) (?:bytes transferred in ([\\d.]{1,30}) (?:secs?|seconds) "
	      "\\((\\d{1,20}) bytes/sec\\)|(?:\\([^)\\n]{1,40}\\) )?bytes transferred in "
	      "([\\d.,]{1,30}) secs \\((\\d{1,4}(?:[.,]\\d{1,3})?) ?([kKMGTPE]?i?B)/sec\\))",
	      0);

/* Whether a bsd_re match is dd's: BSD's "(N bytes/sec)"; illumos's with
 * its size in brackets, or without them its rate glued to the unit as
 * OmniOS printed it ("(489MB/sec)"): another program's "12.3 secs (83.25
 * MiB/sec)" is not dd's. */
static bool bsd_form(const struct bl_line *l, const struct bl_re_match *m)
{
	if (bl_re_gset(m, 2))
		return true;
	bool bracket = m->ov[3] + 1 < l->len && l->s[m->ov[3] + 1] == '(';
	return bracket || m->ov[11] == m->ov[12];
}

/* FreeBSD 12+ and macOS status=progress, the last update as pasted (the
 * '\r' before each update is lost in a copy from the terminal):
 * "  4013948928 bytes (4014 MB, 3828 MiB) transferred 415.226s, 9667 kB/s"
 * Groups: 1 bytes, 2 seconds. */
static struct bl_re bsdprog_re = BL_RE(
	"^[ \\t]*(\\d{1,20}) bytes \\([^)\\n]{1,40}\\) transferred (\\d{1,12}(?:\\.\\d{1,9})?)s, "
	"\\d[\\d.]{0,20} ?\\S{1,12}/s[ \\t]*$",
	0);

/* GNU coreutils, every version and locale, and busybox:
 * "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s"   (8.24+)
 * "1073741824 bytes (1.1 GB) copied, 9.20145 s, 117 MB/s"          (older)
 * "512 bytes copied, 9.5351e-05 s, 5.4 MB/s"  "1 byte copied, ..."
 * "5242880000 Bytes (5,2 GB, 4,9 GiB) kopiert, 43,5399 s, 120 MB/s" (de)
 * "300490752 байт (300 MB, 286 MiB) скопирован, 14,6916 c, 20,5 MB/c" (ru)
 * "67108864 bytes (64.0MB) copied, 0.052498 seconds, 1.2GB/s"     (busybox)
 * Groups: 1 bytes, 2 bytes word, 3 human size, 4 verb, 5 seconds,
 * 6 seconds unit, 7 rate, 8 rate unit. */
/* A note of the author's after a summary, two blanks away:
 *   "1073741824 bytes (1.1 GB) copied, 0.5 s, 2.1 GB/s  <- very fast!" */
#define DD_AUTHOR_NOTE "(?:[ \\t]{2,}[^\\s\\d][^\\n]{0,200})?"
static struct bl_re gnu_re =
	BL_RE("^[ \\t]*(\\d{1,20}) (\\S{1,20})(?: \\(([^)\\n]{1,40})\\))? (\\S{1,30}), "
	      "(\\d[\\d.,]{0,30}(?:[eE][-+]?\\d{1,3})?) ?(\\S{1,10}), "
	      "(\\d[\\d.,]{0,20}|Infinity|inf) ?(\\S{1,12}/\\S{1,6})" DD_AUTHOR_NOTE "[ \\t]*$",
	      0);

/* Chinese (zh_CN) coreutils glue the word to the count and put full-width
 * brackets and commas around the figures; older ones write seconds as 秒:
 * "5120000字节（5.1 MB，4.9 MiB）已复制，0.0636968 s，80.4 MB/s"
 * "512字节(512 B)已复制，9.3823e-05 秒，5.5 MB/秒"
 * Groups as gnu_re's. */
#define ZH_COMMA "(?:，|, ?)"
static struct bl_re gnuzh_re =
	BL_RE("^[ \\t]*(\\d{1,20}) ?(字节)(?:[（(]([^）)\\n]{1,40})[）)])? ?(已复制)" ZH_COMMA
	      "(\\d[\\d.,]{0,30}(?:[eE][-+]?\\d{1,3})?) ?(s|秒)" ZH_COMMA
	      "(\\d[\\d.,]{0,20}) ?(\\S{1,12}/(?:s|秒))" DD_AUTHOR_NOTE "[ \\t]*$",
	      0);

/* Older Russian coreutils put the verb first:
 * " скопировано 2147483648 байт (2,1 GB), 4,17328 c, 515 MB/c"
 * Groups: 1 verb, 2 bytes, 3 bytes word, 4 human size, 5 seconds,
 * 6 seconds unit, 7 rate, 8 rate unit. */
static struct bl_re gnuw_re =
	BL_RE("^[ \\t]*([^\\d\\s]\\S{0,29}) (\\d{1,20}) (\\S{1,20})(?: \\(([^)\\n]{1,40})\\))?, "
	      "(\\d[\\d.,]{0,30}(?:[eE][-+]?\\d{1,3})?) ?(\\S{1,10}), "
	      "(\\d[\\d.,]{0,20}|Infinity|inf) ?(\\S{1,12}/\\S{1,6})" DD_AUTHOR_NOTE "[ \\t]*$",
	      0);

/* A GNU summary whose seconds and rate were lost in the paste:
 * "314572800 bytes (315 MB, 300 MiB) copied"
 * Read only right after the records lines. Group 1: bytes. */
static struct bl_re cut_re =
	BL_RE("^[ \\t]*(\\d{1,20}) bytes? \\([^)\\n]{1,40}\\) copied[ \\t]*$", 0);

/* Group numbers of a GNU summary, by meaning, for the two orders above. */
enum { G_BYTES, G_WORD, G_HUMAN, G_VERB, G_SECS, G_SUNIT, G_RATE, G_RUNIT };
static const int gmap_gnu[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const int gmap_verb_first[8] = {2, 3, 4, 1, 5, 6, 7, 8};

/* "dd: error writing '/tmp/x/small/f': No space left on device"
 * "dd: /dev/ad4: Input/output error"
 * "dd: Lesen von /dev/cdrom: Eingabe-/Ausgabefehler"
 * "dd: warning: partial read (958464 bytes); suggest iflag=fullblock" */
static struct bl_re err_re = BL_RE("^[ \\t]*dd: (.{1,300})$", 0);

/* Counts between the records and the summary:
 * "3 truncated records" (GNU conv=block), "1 truncated block" and
 * "2 odd length swab blocks" (BSD), "5 sparse output blocks" (NetBSD). */
static struct bl_re extra_re =
	BL_RE("^[ \\t]*(\\d{1,20}) (truncated records?|truncated blocks?|odd length swab blocks?|"
	      "sparse output blocks?)[ \\t]*$",
	      0);

enum line_kind { K_OTHER, K_REC, K_BSD, K_GNU, K_PROGRESS, K_ERR, K_EXTRA };

struct dd_line {
	enum line_kind kind;
	struct bl_line line;
	struct bl_re_match m;
	const int *g; /* group map of a K_GNU line */
	/* a K_PROGRESS line: the offset of the last line of its display, the
	 * progress lines right below it (walk_block) */
	size_t through;
};

/* Start and length of GNU group `what` (G_*) of a summary line. */
static const char *gs(const struct dd_line *d, int what, size_t *len)
{
	int g = d->g[what];
	*len = bl_re_glen(&d->m, g);
	return bl_re_gset(&d->m, g) ? d->line.s + d->m.ov[2 * g] : d->line.s;
}

/* One update of a progress line: a GNU summary with whole seconds, or the
 * FreeBSD/macOS "bytes (...) transferred 415.226s, 9667 kB/s". */
static bool progress_part(const char *s, size_t len, uint64_t *bytes, double *secs)
{
	struct bl_re_match m;
	int bg, sg;
	if (bl_re_match(&gnu_re, s, len, 0, &m)) {
		bg = 1;
		sg = 5;
	} else if (bl_re_match(&bsdprog_re, s, len, 0, &m)) {
		bg = 1;
		sg = 2;
	} else {
		return false;
	}
	return bl_parse_u64(s + m.ov[2 * bg], bl_re_glen(&m, bg), bytes, NULL) &&
	       bl_parse_double(s + m.ov[2 * sg], bl_re_glen(&m, sg), true, secs, NULL);
}

/* The next update of a progress line from byte i: its end (where the
 * '\r' after it is, or the line's end). */
static size_t update_end(const struct bl_line *l, size_t i)
{
	const char *cr = memchr(l->s + i, '\r', l->len - i);
	return cr ? (size_t)(cr - l->s) : l->len;
}

/* Whether a '\r'-separated update of line l reads as one. */
static bool progress_any(const struct bl_line *l)
{
	uint64_t bytes;
	double secs;
	for (size_t i = 0, end; i < l->len; i = end + 1)
		if ((end = update_end(l, i)) > i && progress_part(l->s + i, end - i, &bytes, &secs))
			return true;
	return false;
}

/* Adds a result for each '\r'-separated update of progress line l to the
 * run, numbered on from `sample`, each a record of the run (a day's log
 * holds 86,400 of them: they are handed on as they are read,
 * bl_doc_run_progress). An update is read from the line's first byte
 * when `from_start`, else only after a '\r': the line's start was cut
 * away, and the start of its first update with it. Returns the number of
 * updates read. */
static size_t progress_walk(struct bl_doc *doc, struct bl_run *run, const struct bl_line *l,
			    bool from_start, size_t sample)
{
	size_t first = sample;
	for (size_t i = from_start ? 0 : update_end(l, 0) + 1, end; i < l->len; i = end + 1) {
		uint64_t bytes;
		double secs;
		end = update_end(l, i);
		if (end == i || !progress_part(l->s + i, end - i, &bytes, &secs))
			continue;
		struct bl_result *r =
			bl_run_result(run, "progress_bytes", (double)bytes, "B", NULL, 0);
		if (r) {
			bl_result_set_int(r, "sample", (long long)sample);
			bl_result_set_real(r, "at", secs);
		}
		if (bl_run_record(run, sample, l->off + i) < 0)
			doc->partial = true;
		sample++;
		bl_doc_run_progress(doc, run);
	}
	return sample - first;
}

static enum line_kind classify(const struct bl_line *l, struct dd_line *d)
{
	struct bl_re_match *m = &d->m;
	d->line = *l;
	d->g = gmap_gnu;
	if (l->len == 0)
		return d->kind = K_OTHER;
	/* status=progress: "\r933232640 bytes (933 MB, 890 MiB) copied, 1 s, 933 MB/s\r..." */
	if (memchr(l->s, '\r', l->len))
		return d->kind = progress_any(l) ? K_PROGRESS : K_OTHER;
	/* each pattern is tried only where the line can start as it does:
	 * all but two start with a count, and the verb-first summary has a
	 * rate with its '/' */
	size_t i = 0;
	while (i < l->len && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	unsigned char c = i < l->len ? (unsigned char)l->s[i] : 0;
	bool count = c >= '0' && c <= '9';
	bool zh = l->len - i >= strlen(ZH_RECORDED) &&
		  memcmp(l->s + i, ZH_RECORDED, strlen(ZH_RECORDED)) == 0;
	if ((count || c == '^' || zh) && bl_re_match(&rec_re, l->s, l->len, 0, m))
		return d->kind = K_REC;
	if (count && bl_re_match(&bsd_re, l->s, l->len, 0, m) && bsd_form(l, m))
		return d->kind = K_BSD;
	if (count && (bl_re_match(&gnu_re, l->s, l->len, 0, m) ||
		      bl_re_match(&gnuzh_re, l->s, l->len, 0, m)))
		return d->kind = K_GNU;
	if (!count && memchr(l->s, '/', l->len) && bl_re_match(&gnuw_re, l->s, l->len, 0, m)) {
		d->g = gmap_verb_first;
		return d->kind = K_GNU;
	}
	if (count && bl_re_match(&bsdprog_re, l->s, l->len, 0, m))
		return d->kind = K_PROGRESS;
	if (count && bl_re_match(&extra_re, l->s, l->len, 0, m))
		return d->kind = K_EXTRA;
	if (c == 'd' && bl_re_match(&err_re, l->s, l->len, 0, m))
		return d->kind = K_ERR;
	return d->kind = K_OTHER;
}

/* Whether l, which reads as a GNU summary (K_GNU), is the last update of
 * the display right above it: a display longer than a megabyte is
 * wrapped at its '\r's (unflatten.c), and its last piece may hold one
 * update, no '\r' in it, "1048576000 bytes (1.0 GB, 1000 MiB) copied,
 * 20008 s, 105 MB/s": whole seconds, as an update counts them. */
static bool display_tail(const struct bl_message *msg, const struct bl_line *l,
			 const struct dd_line *d)
{
	if (d->kind != K_GNU || d->g != gmap_gnu)
		return false;
	size_t n;
	const char *secs = gs(d, G_SECS, &n);
	for (size_t i = 0; i < n; i++)
		if (secs[i] < '0' || secs[i] > '9')
			return false;
	struct bl_line up;
	struct dd_line u;
	return n && bl_line_prev(msg, l, &up) && memchr(up.s, '\r', up.len) &&
	       classify(&up, &u) == K_PROGRESS;
}

static bool u64_group(const struct bl_line *l, const struct bl_re_match *m, int g, uint64_t *v)
{
	return bl_re_gset(m, g) && bl_parse_u64(l->s + m->ov[2 * g], bl_re_glen(m, g), v, NULL);
}

static char *group_dup(const struct bl_line *l, const struct bl_re_match *m, int g)
{
	return bl_strndup_trim(l->s + m->ov[2 * g], bl_re_glen(m, g));
}

static void record_results(struct bl_run *run, const struct dd_line *l, const char *dir)
{
	uint64_t full = 0, part = 0;
	u64_group(&l->line, &l->m, 1, &full);
	u64_group(&l->line, &l->m, 2, &part);
	char name[32];
	bl_str_join3(name, sizeof name, "records_", dir, "_full");
	bl_run_result(run, name, (double)full, "records", NULL, 0);
	bl_str_join3(name, sizeof name, "records_", dir, "_partial");
	bl_run_result(run, name, (double)part, "records", NULL, 0);
}

static bool param_u64(const struct bl_run *run, const char *key, uint64_t *v)
{
	json_t *j = json_object_get(run->params, key);
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

static bool param_has(const struct bl_run *run, const char *key, const char *word)
{
	const char *v = json_string_value(json_object_get(run->params, key));
	return v && strstr(v, word) != NULL;
}

/* The value of the run's result `metric`, looked for from its end: the
 * run's last block holds it (a block before it, a summary so far, has
 * its results renamed snapshot_*), and a long chain of summaries so far
 * costs each block only its own results. */
static bool result_value(const struct bl_run *run, const char *metric, double *v)
{
	for (size_t i = bl_results_count(&run->results); i-- > 0;) {
		const struct bl_result *r = bl_results_at(&run->results, i);
		if (r->metric && strcmp(r->metric, metric) == 0)
			return bl_result_number(r, v);
	}
	return false;
}

/* Does the command carry operand `key` ("bs=")? Then a missing param means
 * its value could not be read, and no default applies. */
static bool command_has_operand(const struct bl_run *run, const char *key)
{
	size_t kl = strlen(key);
	for (const char *p = run->command; p && (p = strstr(p, key)) != NULL; p += kl)
		if (p == run->command || p[-1] == ' ' || p[-1] == '\t')
			return true;
	return false;
}

struct dd_counts {
	uint64_t in_full, in_part, out_full, out_part, bytes;
	bool have_records, have_bytes, had_error;
};

/* The checks a reader would do by hand: do the records, the byte count and
 * the command agree with each other? (The rate is checked where it is
 * read.) dd counts input records in ibs blocks and output records in obs
 * blocks; bs= overrides both; either defaults to 512. */
static void consistency(struct bl_doc *doc, long ri, const struct dd_counts *c, size_t sum_off)
{
	struct bl_run *run = bl_doc_run(doc, ri);
	uint64_t count, bs, obs = 0;
	bool count_bytes = param_has(run, "iflag", "count_bytes");
	/* An error explains a short count; the dd.error warning says so. */
	if (param_u64(run, "count", &count) && !c->had_error) {
		if (count_bytes && c->have_bytes && c->bytes != count)
			bl_doc_diag(
				doc, ri, BL_WARNING, "dd.count-mismatch", run->off,
				"the command says count=%llu with iflag=count_bytes but dd copied %llu bytes",
				(unsigned long long)count, (unsigned long long)c->bytes);
		else if (!count_bytes && c->have_records && c->in_full + c->in_part != count)
			bl_doc_diag(
				doc, ri, BL_WARNING, "dd.count-mismatch", run->off,
				"the command says count=%llu but dd read %llu+%llu records: "
				"the input ended early, dd was interrupted, or the transcript was edited",
				(unsigned long long)count, (unsigned long long)c->in_full,
				(unsigned long long)c->in_part);
	}
	if (param_u64(run, "block_size", &bs))
		obs = bs;
	else if (param_u64(run, "output_block_size", &bs))
		obs = bs;
	else if (run->has_command && !command_has_operand(run, "bs=") &&
		 !command_has_operand(run, "obs="))
		obs = 512; /* dd's default output block size */
	/* conv=block/unblock change record lengths on the way */
	if (param_has(run, "conv", "block"))
		obs = 0;
	if (c->have_records && c->have_bytes && obs) {
		double lo = (double)c->out_full * (double)obs;
		double hi = (double)(c->out_full + c->out_part) * (double)obs;
		bool ok = c->out_part ? ((double)c->bytes > lo && (double)c->bytes < hi)
				      : (double)c->bytes == lo;
		/* the write that failed counts its bytes but no record:
		 *   dd: error writing '/dev/sdX': No space left on device
		 *   116+0 records in / 115+0 records out
		 *   483094528 bytes (483 MB, 461 MiB) copied, ...   (115 x 4 MiB + 749568) */
		if (!ok && c->had_error)
			ok = (double)c->bytes >= lo && (double)c->bytes < hi + (double)obs;
		if (!ok)
			bl_doc_diag(doc, ri, BL_WARNING, "dd.bytes-mismatch", sum_off,
				    "%llu bytes does not match %llu+%llu records of %llu bytes",
				    (unsigned long long)c->bytes, (unsigned long long)c->out_full,
				    (unsigned long long)c->out_part, (unsigned long long)obs);
	}
}

/* Whether line l is a piece of a longer line (bl_line_at): it does not
 * start one (nor does the text, a window's that begins inside a line), or
 * does not end it. */
static bool is_piece(const struct bl_message *m, const struct bl_line *l)
{
	size_t ls = l->off - l->cut;
	return (ls > 0 ? m->text[ls - 1] != '\n' : m->window.mid_line) ||
	       (l->next < m->len && m->text[l->next - 1] != '\n');
}

/* Finds the first line of the block that contains `anchor`. A progress
 * line is taken whole, however long: a log keeps every update of a long
 * transfer on it, one a second, and a line of 4 KB or more is read in
 * pieces (bl_line_at). *cut_at: the offset of the progress line whose
 * start is cut away (by the run above, or by the start of a window
 * inside it), else SIZE_MAX. *errs_cut: more than DD_MAX_ERRS `dd:` lines
 * stand in the display, and its updates above them are not read. */
static struct bl_line block_start(struct bl_scan *sc, const struct bl_line *anchor,
				  enum line_kind kind, size_t *cut_at, bool *errs_cut)
{
	struct bl_message *msg = bl_scan_message(sc);
	size_t floor = bl_scan_floor(sc);
	struct bl_line start = *anchor, prev;
	int want_rec = kind == K_REC ? 1 : (kind == K_BSD || kind == K_GNU) ? 2 : 0;
	/* A summary has its two records lines above it; "records out" has
	 * "records in" above it. */
	for (int k = 0, extra = 0; k < want_rec; k++) {
		if (!bl_line_prev(msg, &start, &prev) || prev.off < floor)
			break;
		struct dd_line d;
		enum line_kind pk = classify(&prev, &d);
		if (pk == K_EXTRA && want_rec == 2 && k == 0 && extra < 3) {
			/* "3 truncated records" between the records and the summary */
			start = prev;
			extra++;
			k--;
			continue;
		}
		if (pk != K_REC)
			break;
		start = prev;
	}
	/* then the error lines directly above and the progress lines: all
	 * of them, as a progress display longer than a megabyte is wrapped
	 * at its '\r's (unflatten.c), and `dd:` lines may part it */
	*cut_at = SIZE_MAX;
	*errs_cut = false;
	for (int errs = 0;;) {
		if (!bl_line_prev(msg, &start, &prev) || prev.off < floor)
			break;
		/* the last piece of a long line may be the tail of one update,
		 * no '\r' in it: the line is told whole */
		bool whole = !is_piece(msg, &prev) || bl_line_whole(msg, &prev, floor, &prev);
		struct dd_line d;
		enum line_kind pk = classify(&prev, &d);
		if (display_tail(msg, &prev, &d))
			pk = K_PROGRESS;
		if (pk == K_ERR && errs == DD_MAX_ERRS) {
			*errs_cut = true;
			break;
		}
		if (pk == K_ERR)
			errs++;
		else if (pk != K_PROGRESS)
			break;
		else if (!whole)
			*cut_at = prev.off;
		start = prev;
	}
	return start;
}

static bool span_is(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(s, word, len) == 0;
}

static const char *gnu_variant(const struct dd_line *s)
{
	size_t wl, vl, sul, hl;
	const char *word = gs(s, G_WORD, &wl), *verb = gs(s, G_VERB, &vl);
	const char *su = gs(s, G_SUNIT, &sul), *human = gs(s, G_HUMAN, &hl);
	/* busybox glues number and unit, "(324.0MB) copied, 30.257324 seconds,
	 * 10.7MB/s"; coreutils 5.93 to 7.x also wrote "seconds" but kept the
	 * blank: "(1.0 GB) copied, 2.57314 seconds, 398 MB/s" (RHEL 5) */
	if (span_is(su, sul, "seconds") && !(hl && memchr(human, ' ', hl)))
		return "busybox";
	bool english = (span_is(word, wl, "bytes") || span_is(word, wl, "byte")) &&
		       span_is(verb, vl, "copied") && s->g == gmap_gnu;
	if (!english)
		return "gnu-localized";
	/* Before 8.24 the parentheses hold the SI figure alone, for every
	 * count ("0 bytes (0 B) copied", "(1.1 GB)"); 8.24+ prints none below
	 * 1000 bytes and both figures from 1024 on ("(67 MB, 64 MiB)"). From
	 * 1000 to 1023 both print "(1.0 kB)". */
	if (hl && !memmem(human, hl, ", ", 2) && !memmem(human, hl, "iB", 2)) {
		uint64_t b = 0;
		size_t bl;
		const char *bs = gs(s, G_BYTES, &bl);
		bl_parse_u64(bs, bl, &b, NULL);
		if (b >= 1024 || b < 1000)
			return "gnu-old";
	}
	return "gnu";
}

/* The first word of a records line: "records", "Datensätze", "записей". */
static size_t first_word(const struct dd_line *d, const char **w)
{
	*w = d->line.s + d->m.ov[6];
	size_t n = 0, len = bl_re_glen(&d->m, 3);
	while (n < len && (*w)[n] != ' ' && (*w)[n] != '\t')
		n++;
	return n;
}

/* Two "N+M words" lines and nothing else: dd's records (status=noxfer,
 * or a dd that prints no summary) only when they look like it, so that
 * prose such as "2+2 words" is left alone. English must read "records
 * in"/"records out"; a translation must repeat its first word ("Datensätze
 * ein"/"Datensätze aus") and be a known one or stand under a dd command. */
static const char *const record_words[] = {
	"Datensätze", "enregistrements", "registros", "записей", "record",
	"rekordów",   "záznamů",         "registres", "records", NULL,
};

static int records_look_like_dd(const struct dd_line *in, const struct dd_line *out)
{
	const char *wi, *wo;
	size_t li = first_word(in, &wi), lo = first_word(out, &wo);
	if (span_is(wi, bl_re_glen(&in->m, 3), "的读入")) /* zh: no word in common */
		return span_is(wo, bl_re_glen(&out->m, 3), "的写出") ? 2 : 0;
	if (li != lo || memcmp(wi, wo, li) != 0)
		return 0;
	if (span_is(wi, li, "records"))
		return span_is(wi, bl_re_glen(&in->m, 3), "records in") &&
				       span_is(wo, bl_re_glen(&out->m, 3), "records out")
			       ? 2
			       : 0;
	for (size_t i = 0; record_words[i]; i++)
		if (span_is(wi, li, record_words[i]))
			return 2;
	return 1; /* only under a dd command */
}

/* The bytes and seconds of a summary line (K_BSD or K_GNU); false when
 * the bytes do not read (secs NAN when the seconds do not). */
static bool summary_figures(const struct dd_line *sum, uint64_t *bytes, double *secs)
{
	size_t bl, sl;
	const char *bs, *ss;
	/* GNU's and illumos's locales: "43,5399 s", "0,409412 secs" */
	bool comma = sum->kind != K_BSD || !bl_re_gset(&sum->m, 2);
	if (sum->kind == K_BSD) {
		bs = sum->line.s + sum->m.ov[2];
		bl = bl_re_glen(&sum->m, 1);
		int g = bl_re_gset(&sum->m, 2) ? 2 : 4; /* BSD's, or illumos's */
		ss = sum->line.s + sum->m.ov[2 * g];
		sl = bl_re_glen(&sum->m, g);
	} else {
		bs = gs(sum, G_BYTES, &bl);
		ss = gs(sum, G_SECS, &sl);
	}
	*secs = NAN;
	bl_parse_double(ss, sl, comma, secs, NULL);
	return bl_parse_u64(bs, bl, bytes, NULL);
}

/* A printed rate in bytes per second, num[0, nl) of unit[0, pl) a second
 * ("4.4" "GB"), and half a unit of its last digit (the rounding). */
static bool rate_value(const char *num, size_t nl, const char *unit, size_t pl, bool busybox,
		       double *out, double *tol)
{
	double v;
	size_t used;
	if (!bl_parse_double(num, nl, true, &v, &used) || used != nl)
		return false;
	double mult;
	if (busybox) {
		static const char pfx[] = "KMGTPE";
		if (span_is(unit, pl, "B")) {
			mult = 1;
		} else if (pl == 2 && unit[1] == 'B' &&
			   strchr(pfx, unit[0] == 'k' ? 'K' : unit[0])) {
			mult = pow(1024.0,
				   (double)(strchr(pfx, unit[0] == 'k' ? 'K' : unit[0]) - pfx + 1));
		} else {
			return false;
		}
	} else if (!bl_unit_multiplier(unit, pl, &mult)) {
		return false;
	}
	/* half a unit of the last printed digit: "4.4" is 4.35 to 4.45 */
	const char *dot = memchr(num, '.', nl);
	if (!dot)
		dot = memchr(num, ',', nl);
	double step = dot ? pow(10.0, -(double)(num + nl - dot - 1)) : 1;
	*out = v * mult;
	*tol = step * mult * (busybox ? 1.0 : 0.5);
	return true;
}

/* GNU and busybox rates: "4.4 GB/s" (SI), "1.2GB/s" (busybox: powers of
 * 1024), "515 MB/c" (ru: the Cyrillic or Latin 'c' for seconds). */
static bool printed_rate(const struct dd_line *s, bool busybox, double *out, double *tol)
{
	size_t nl, ul;
	const char *num = gs(s, G_RATE, &nl), *unit = gs(s, G_RUNIT, &ul);
	const char *slash = memchr(unit, '/', ul);
	if (!slash)
		return false;
	size_t pl = (size_t)(slash - unit), sl = ul - pl - 1;
	const char *per = slash + 1;
	if (!(span_is(per, sl, "s") || span_is(per, sl, "c") || span_is(per, sl, "\xD1\x81") ||
	      span_is(per, sl, "秒")))
		return false;
	return rate_value(num, nl, unit, pl, busybox, out, tol);
}

/* The rate of a BSD summary, "(22683845 bytes/sec)". FreeBSD prints
 * bytes / seconds rounded; NetBSD and OpenBSD bytes * 1000 / milliseconds,
 * truncated. */
static void bsd_rate(struct bl_doc *doc, long ri, const struct dd_line *sum, uint64_t bytes,
		     double secs)
{
	const struct bl_line *l = &sum->line;
	uint64_t rate = 0;
	u64_group(l, &sum->m, 3, &rate);
	char *raw = group_dup(l, &sum->m, 3);
	char buf[64];
	snprintf(buf, sizeof buf, "%s bytes/sec", raw ? raw : "");
	free(raw);
	bl_run_result(bl_doc_run(doc, ri), "throughput", (double)rate, "B/s", buf, 0);
	if (secs > 0 && (rate > 0 || bytes > 0)) {
		double calc = (double)bytes / secs;
		if (fabs(calc - (double)rate) > 0.01 * (double)rate + 2)
			bl_doc_diag(
				doc, ri, BL_WARNING, "dd.rate-mismatch", l->off,
				"%llu bytes in %g s is %.0f bytes/sec, but %llu bytes/sec is printed",
				(unsigned long long)bytes, secs, calc, (unsigned long long)rate);
	}
}

/* The rate of an illumos summary, "(41 GiB/sec)" or "(489MB/sec)" (MB
 * a power of 1024 too): rounded to the unit, so the rate is the bytes over
 * the seconds, the printed one kept as its raw text and checked against
 * it. */
static void illumos_rate(struct bl_doc *doc, long ri, const struct dd_line *sum, uint64_t bytes,
			 double secs)
{
	const struct bl_line *l = &sum->line;
	const struct bl_re_match *m = &sum->m;
	const char *rs = l->s + m->ov[10], *us = l->s + m->ov[12];
	size_t rl = bl_re_glen(m, 5), ul = bl_re_glen(m, 6);
	char raw[64];
	snprintf(raw, sizeof raw, "%.*s/sec", (int)(us + ul - rs), rs);
	double printed = NAN, tol = 0;
	bool iec = memchr(us, 'i', ul) != NULL; /* "GiB"; else "MB", as busybox */
	bool have_printed = rate_value(rs, rl, us, ul, !iec, &printed, &tol);
	struct bl_run *run = bl_doc_run(doc, ri);
	if (!(secs > 0)) {
		bl_run_result(run, "throughput", have_printed ? printed : NAN, "B/s", raw,
			      BL_FLAG_APPROXIMATE);
		return;
	}
	double calc = (double)bytes / secs;
	bl_run_result(run, "throughput", calc, "B/s", raw, BL_FLAG_COMPUTED);
	if (have_printed && fabs(calc - printed) > tol + 0.01 * printed + 1)
		bl_doc_diag(doc, ri, BL_WARNING, "dd.rate-mismatch", l->off,
			    "%llu bytes in %g s is %.3g B/s, but %s is printed",
			    (unsigned long long)bytes, secs, calc, raw);
}

/* Adds the results of one summary (bytes, seconds, rate): its bytes in
 * c, its seconds `secs` (read_counts read both). */
static void summary_results(struct bl_doc *doc, long ri, const struct dd_line *sum,
			    const struct dd_counts *c, double secs, const char *variant)
{
	struct bl_run *run = bl_doc_run(doc, ri);
	const struct bl_line *l = &sum->line;
	const struct bl_re_match *m = &sum->m;
	bl_run_result(run, "bytes", (double)c->bytes, "B", NULL, 0);
	bl_run_result(run, "elapsed", secs, "s", NULL, 0);
	if (sum->kind == K_BSD) {
		if (bl_re_gset(m, 3))
			bsd_rate(doc, ri, sum, c->bytes, secs);
		else
			illumos_rate(doc, ri, sum, c->bytes, secs);
		return;
	}
	size_t rl, ul;
	const char *rs = gs(sum, G_RATE, &rl), *us = gs(sum, G_RUNIT, &ul);
	char *raw = bl_strndup_trim(rs, (size_t)(us + ul - rs));
	bool busybox = strcmp(variant, "busybox") == 0;
	double printed = NAN, tol = 0;
	bool have_printed = printed_rate(sum, busybox, &printed, &tol);
	if (secs > 0) {
		double calc = (double)c->bytes / secs;
		bl_run_result(run, "throughput", calc, "B/s", raw, BL_FLAG_COMPUTED);
		/* GNU rounds to the digits it shows ("4.4 GB/s", "989 MB/s"), from
		 * a time more precise than the printed seconds; busybox to one
		 * decimal of a power of 1024 ("1.2GB/s") */
		if (have_printed && fabs(calc - printed) > tol + 0.01 * printed + 1)
			bl_doc_diag(doc, ri, BL_WARNING, "dd.rate-mismatch", l->off,
				    "%llu bytes in %g s is %.3g B/s, but %s is printed",
				    (unsigned long long)c->bytes, secs, calc, raw ? raw : "");
	} else {
		/* no elapsed time to divide by: keep what dd printed */
		bl_run_result(run, "throughput", have_printed ? printed : NAN, "B/s", raw,
			      BL_FLAG_APPROXIMATE);
	}
	free(raw);
}

/* SIGUSR1 makes dd print its summary mid-run; a transcript then shows
 * several summaries of one command in a row, each larger than the last:
 *
 *   100+0 records in / 100+0 records out / 104857600 bytes (...) copied, 0.334353 s, ...
 *   386+1 records in / ... / 405708800 bytes (...) copied, 1.3361 s, ...
 *   1198+2 records in / ... / 1257529344 bytes (...) copied, 5.77265 s, ...
 *
 * They are one run: its results are the last summary, and each earlier one
 * is kept as snapshot_<metric> results with a "sample" number (0, 1, ...).
 * A block is a snapshot of the run above when it follows it directly (no
 * command, prompt or blank line between), its bytes and seconds are both
 * larger, and that run had not yet read the count= it was given. */
static const char *const snapshot_metrics[] = {
	"records_in_full",
	"records_in_partial",
	"records_out_full",
	"records_out_partial",
	"bytes",
	"elapsed",
	"throughput",
	NULL,
};

/* Whether line s[0, n) (its blanks left out) is an author's elision of
 * the lines between: "...", "[...]", "…". */
static bool elision(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	size_t dots = 0;
	while (dots < n && s[dots] == '.')
		dots++;
	return (n >= 3 && n <= 5 && dots == n) || (n == 5 && memcmp(s, "[...]", 5) == 0) ||
	       (n == 3 && memcmp(s, "\xE2\x80\xA6", 3) == 0);
}

/* Whether line s[0, n) (its blanks left out) is BSD's ^T status line,
 * printed before each summary so far:
 *   load: 1.98  cmd: dd 6571 uninterruptible 0.00u 0.05s */
static bool status_line(const char *s, size_t n)
{
	return n >= 6 && memcmp(s, "load: ", 6) == 0 && memmem(s, n, " cmd: ", 6) != NULL;
}

/* Whether line s[0, n) (its blanks left out) is an author's comment in
 * a transcript, words after a '#' that no shell would run as a command:
 *   # Time passes and it finishes.
 * (a root prompt's command has operands: "# dd if=/dev/ada0 bs=1m"). */
static bool author_comment(const char *s, size_t n)
{
	if (n < 4 || n > 120 || s[0] != '#' || s[1] != ' ' ||
	    !((s[2] >= 'A' && s[2] <= 'Z') || (s[2] >= 'a' && s[2] <= 'z')))
		return false;
	for (size_t i = 2; i < n; i++)
		if (strchr("=|<>;&/$`", s[i]))
			return false;
	return true;
}

/* Whether only BSD's ^T status lines, an author's elision (or, with
 * `comments`, comment) stand between offsets from and to:
 *   load: 1.98  cmd: dd 6571 uninterruptible 0.00u 0.05s
 *   1233125376 bytes (1,2 GB, 1,1 GiB) copied, 9 s, 137 MB/s
 *   ...
 *   2048+0 records in */
static bool status_gap(const struct bl_message *m, size_t from, size_t to, bool comments)
{
	if (from == to)
		return true;
	if (from > to || to - from > 512)
		return false;
	for (size_t i = from; i < to;) {
		const char *nl = memchr(m->text + i, '\n', to - i);
		size_t end = nl ? (size_t)(nl - m->text) : to, k = i;
		while (k < end && (m->text[k] == ' ' || m->text[k] == '\t'))
			k++;
		if (!status_line(m->text + k, end - k) && !elision(m->text + k, end - k) &&
		    !(comments && author_comment(m->text + k, end - k)))
			return false;
		i = end + 1;
	}
	return true;
}

static bool signalled(const struct bl_message *m, const struct bl_run *prev, size_t start);

/* Whether the block at `start`, of `bytes` in `secs`, is a later update
 * of the transfer of the run above it: more bytes, and more seconds, or
 * the same whole second (status=progress prints whole seconds, and may
 * print one twice while the device stalls:
 *   9189720064 bytes (9.2 GB, 8.6 GiB) copied, 94 s, 97.5 MB/s
 *   9193914368 bytes (9.2 GB, 8.6 GiB) copied, 94 s, 97.6 MB/s).
 * An author's comment between them ("# Time passes and it finishes.")
 * only where the post shows dd signalled: else such a line labels the
 * next run ("# WD Red disk"). */
static bool is_snapshot_of(const struct bl_message *m, const struct bl_run *prev, size_t start,
			   uint64_t bytes, double secs, bool on_held)
{
	double pb, pe, pin = 0, pip = 0;
	uint64_t count;
	if (strcmp(prev->tool, "dd") != 0 || prev->time.present ||
	    (prev->nrec && !prev->records_chain))
		return false;
	if (!status_gap(m, prev->end_off, start, false) &&
	    !(status_gap(m, prev->end_off, start, true) && (on_held || signalled(m, prev, start))))
		return false;
	if (!result_value(prev, "bytes", &pb) || !result_value(prev, "elapsed", &pe))
		return false;
	if (!((double)bytes > pb && (secs > pe || (secs == pe && secs == floor(secs)))))
		return false;
	if (param_u64(prev, "count", &count) && result_value(prev, "records_in_full", &pin) &&
	    result_value(prev, "records_in_partial", &pip) && pin + pip >= (double)count)
		return false;
	return true;
}

/* Whether dd runs in the background: a '&' of its own in the command
 * ("dd ... &", "dd ... & pid=$!"), not "&&" nor a redirection ("2>&1",
 * "&>log"). */
static bool backgrounded(const char *c)
{
	for (const char *p = c ? strchr(c, '&') : NULL; p; p = strchr(p + 1, '&')) {
		if (p[1] == '&') {
			p++;
			continue;
		}
		if (p[1] != '>' && (p == c || (p[-1] != '>' && p[-1] != '<')))
			return true;
	}
	return false;
}

/* Whether the post shows dd signalled for the summary so far: dd run in
 * the background ("dd ... &", then kill), a signal named (USR1, SIGINFO,
 * "kill -INFO"), or BSD's ^T status line, within SIGNAL_NEAR bytes of
 * where the run starts and below the block claimed before it: a bounded
 * look, whatever the number of blocks. */
#define SIGNAL_NEAR 4096
static bool signalled(const struct bl_message *m, const struct bl_run *prev, size_t start)
{
	if (backgrounded(prev->command))
		return true;
	size_t from = prev->off > SIGNAL_NEAR ? prev->off - SIGNAL_NEAR : 0;
	if (from < prev->floor)
		from = prev->floor; /* not in the block above, nor another post */
	size_t to = start < prev->off + SIGNAL_NEAR ? start : prev->off + SIGNAL_NEAR;
	if (to > m->len)
		to = m->len;
	const char *t = m->text + from;
	size_t len = to > from ? to - from : 0;
	if (memmem(t, len, "USR1", 4) || memmem(t, len, "SIGINFO", 7) || memmem(t, len, "-INFO", 5))
		return true;
	/* BSD's status line, at a line's start */
	for (const char *p = t; (p = memmem(p, len - (size_t)(p - t), "load: ", 6)) != NULL; p++) {
		const char *ls = p;
		while (ls > t && (ls[-1] == ' ' || ls[-1] == '\t'))
			ls--;
		const char *nl = memchr(p, '\n', len - (size_t)(p - t));
		if ((ls == t || ls[-1] == '\n') &&
		    status_line(p, nl ? (size_t)(nl - p) : len - (size_t)(p - t)))
			return true;
	}
	return false;
}

/* Whether the block at `start` opens with a status=progress update that
 * counts on from the summary of the run above, more bytes in more
 * seconds: that dd still running, signalled for the summary (illumos,
 * whose post need not name the signal):
 *   329128083456 (307 GiB) bytes transferred in 7.393318 secs (41 GiB/sec)  <- above
 *   534473867264 (498 GiB) bytes transferred in 12.000018 secs (41 GiB/sec)
 *   515402+0 records in
 * illumos's form only: another GNU dd pasted with its last update would
 * count on from a smaller one above it. */
static bool counts_on(const struct bl_message *m, const struct bl_run *prev, size_t start)
{
	struct bl_line l;
	struct dd_line d = {0};
	double pb, pe, secs;
	uint64_t bytes;
	if (start >= m->len || !result_value(prev, "bytes", &pb) ||
	    !result_value(prev, "elapsed", &pe))
		return false;
	bl_line_at(m, start, &l);
	return classify(&l, &d) == K_BSD && !bl_re_gset(&d.m, 2) &&
	       summary_figures(&d, &bytes, &secs) && (double)bytes > pb && secs > pe;
}

/* Whether bytes of `full`+`part` records are records of block size bs:
 * full whole ones, and `part` short ones. */
static bool of_block_size(uint64_t bytes, uint64_t full, uint64_t part, uint64_t bs)
{
	return (double)full * (double)bs <= (double)bytes &&
	       (double)bytes <= (double)(full + part) * (double)bs;
}

/* Whether a block whose records lines follow those of the run above is
 * the summary so far of that run's transfer (dd signalled), not another
 * dd's (a loop of them: "for bs in 4k 64k 1M; do dd ...; done" prints
 * block after block, each larger): the post shows dd signalled, and the
 * two blocks count records of one size where that can be told. A block
 * below a summary alone (a progress update) is its transfer's end. */
static bool snapshot_with_records(const struct bl_message *m, const struct bl_run *prev,
				  size_t start, const struct dd_counts *c, bool on_held)
{
	double pf, pp, pb;
	if (!c->have_records || !result_value(prev, "records_out_full", &pf) ||
	    !result_value(prev, "records_out_partial", &pp))
		return true;
	if (!on_held && !signalled(m, prev, start) && !counts_on(m, prev, start))
		return false;
	if (!result_value(prev, "bytes", &pb))
		return true;
	uint64_t full = (uint64_t)pf, part = (uint64_t)pp, bytes = (uint64_t)pb;
	if (!part && full && bytes % full == 0)
		return of_block_size(c->bytes, c->out_full, c->out_part, bytes / full);
	if (!c->out_part && c->out_full && c->bytes % c->out_full == 0)
		return of_block_size(bytes, full, part, c->bytes / c->out_full);
	return true;
}

/* The results of the run's last block become those of summary so far
 * number `sample`: from the run's end back to the first result of an
 * earlier summary so far, so that a chain of them costs each block only
 * its own results. */
static void make_snapshot(struct bl_run *run, size_t sample)
{
	size_t n = bl_results_count(&run->results), from = n;
	while (from > 0) {
		const struct bl_result *r = bl_results_at(&run->results, from - 1);
		if (r->metric && strncmp(r->metric, "snapshot_", 9) == 0)
			break;
		from--;
	}
	for (size_t i = from; i < n; i++) {
		struct bl_result *r = bl_results_at(&run->results, i);
		const char *m = r->metric;
		for (size_t k = 0; m && snapshot_metrics[k]; k++) {
			if (strcmp(m, snapshot_metrics[k]) != 0)
				continue;
			char name[48];
			snprintf(name, sizeof name, "snapshot_%s", m);
			bl_result_set_metric(r, name);
			bl_result_set_int(r, "sample", (long long)sample);
			break;
		}
	}
}

/* One word of output, not a prompt: "Lc+GsxecLeV67NVjGy0=" */
static bool one_word(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (!len || len > 200 || strchr("#$%>[", s[0]))
		return false;
	return !memchr(s, ' ', len) && !memchr(s, '\t', len);
}

/* The stdout of a pipe between dd's records and its summary (both on the
 * terminal):
 *   $ dd if=/dev/urandom bs=1 count=14 | base64 ; echo
 *   14+0 records in
 *   14+0 records out
 *   Lc+GsxecLeV67NVjGy0=
 *   14 bytes copied, 9.2765e-05 s, 151 kB/s
 * One line, one word, no prompt, and the summary next (*nx). */
static bool pipe_output(const struct bl_message *msg, const struct bl_line *l, struct bl_line *nx)
{
	struct dd_line nd;
	enum line_kind nk;
	return one_word(l->s, l->len) && bl_line_next(msg, l, nx) &&
	       ((nk = classify(nx, &nd)) == K_GNU || nk == K_BSD);
}

/* Walks the block from `start` into lines[0..n), at most `cap`: errors and
 * progress, two records lines, a summary. The lines of one progress
 * display (or the pieces of a long one, bl_line_at) are one entry, its
 * first line, `through` its last. Returns n. */
static size_t walk_block(const struct bl_message *msg, const struct bl_line *start,
			 struct dd_line *lines, size_t cap)
{
	size_t n = 0, nrec = 0;
	bool foreign = false;
	struct bl_line cur = *start;
	for (;;) {
		/* a long line whole (its pieces are cut anywhere): from its
		 * start, where the line before it ends */
		if (is_piece(msg, &cur))
			bl_line_whole(msg, &cur, cur.off - cur.cut, &cur);
		struct dd_line *d = &lines[n];
		enum line_kind k = classify(&cur, d);
		if (k == K_OTHER) {
			struct bl_line nx;
			if (nrec == 2 && !foreign && pipe_output(msg, &cur, &nx)) {
				foreign = true;
				cur = nx;
				continue;
			}
			break;
		}
		/* what comes after records belongs to the next block */
		if ((k == K_REC && nrec == 2) || ((k == K_ERR || k == K_PROGRESS) && nrec) ||
		    (k == K_EXTRA && nrec < 2))
			break;
		struct bl_line next;
		bool more = bl_line_next(msg, &cur, &next);
		if ((k == K_GNU || k == K_BSD) && nrec == 0 && more) {
			/* A summary line right above the records is the last
			 * status=progress update, pasted without its '\r':
			 *   421527552 octets (422 MB, 402 MiB) copiés, 1 s, 421 MB/s
			 *   500+0 enregistrements lus */
			struct dd_line nd;
			if (classify(&next, &nd) == K_REC)
				d->kind = k = K_PROGRESS;
		}
		if (k == K_GNU && n && lines[n - 1].kind == K_PROGRESS &&
		    display_tail(msg, &cur, d))
			d->kind = k = K_PROGRESS;
		if (k == K_REC)
			nrec++;
		d->through = cur.off;
		if (k == K_PROGRESS && n && lines[n - 1].kind == K_PROGRESS) {
			lines[n - 1].through = cur.off;
			cur = next;
			if (!more)
				break;
			continue;
		}
		n++;
		if (k == K_BSD || k == K_GNU || n == cap || !more)
			break;
		cur = next;
	}
	return n;
}

/* A block of dd output: its lines, and what they are. */
struct dd_block {
	struct bl_line start;
	struct dd_line *lines;
	size_t n;
	/* progress: the last display; progress1 the first (a `dd: warning`
	 * may stand between two) */
	const struct dd_line *recs[2], *sum, *progress, *progress1;
	const struct dd_line *errs[DD_MAX_ERRS], *extras[3];
	size_t nrec, nerr, nextra;
	size_t cut_at; /* block_start()'s */
	bool errs_cut; /* block_start()'s */
	const char *variant;
	bool have_cut; /* a GNU summary cut after its byte count */
	struct bl_line cut;
	struct bl_re_match cm;
	size_t end;
	struct dd_counts c;
	double secs;
};

/* Sorts the lines the walk found: recs[0..1], a summary, progress, errors
 * and the extra counts ("1 truncated record"). */
static void sort_lines(struct dd_block *b)
{
	b->nrec = b->nerr = b->nextra = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct dd_line *d = &b->lines[i];
		switch (d->kind) {
		case K_REC:
			if (b->nrec < 2)
				b->recs[b->nrec++] = d;
			break;
		case K_BSD:
		case K_GNU: b->sum = d; break;
		case K_PROGRESS:
			b->progress = d;
			if (!b->progress1)
				b->progress1 = d;
			break;
		case K_ERR:
			if (b->nerr < DD_MAX_ERRS)
				b->errs[b->nerr++] = d;
			break;
		case K_EXTRA:
			if (b->nextra < 3)
				b->extras[b->nextra++] = d;
			break;
		default: break;
		}
	}
}

/* Where progress display d ends: past its last line, whole (a line of
 * 4 KB or more is read in pieces). */
static size_t display_end(const struct bl_message *msg, const struct dd_line *d)
{
	struct bl_line l;
	bl_line_at(msg, d->through, &l);
	bl_line_whole(msg, &l, l.off - l.cut, &l);
	return l.next;
}

/* The block's variant and end: a GNU summary cut after its byte count
 * (the rest lost in the paste) below the records is the block's too. */
static void find_end(const struct bl_message *msg, struct dd_block *b)
{
	const struct dd_line *last = &b->lines[b->n - 1];
	const struct dd_line *sum = b->sum;
	b->variant = !sum ? "records-only" : sum->kind == K_BSD ? "bsd" : gnu_variant(sum);
	if (!sum && b->nrec == 2 && last->kind == K_REC &&
	    bl_line_next(msg, &last->line, &b->cut) &&
	    bl_re_match(&cut_re, b->cut.s, b->cut.len, 0, &b->cm)) {
		b->have_cut = true;
		b->variant = "gnu";
	}
	b->end = b->have_cut                ? b->cut.next
		 : last->kind == K_PROGRESS ? display_end(msg, last)
					    : last->line.next;
}

/* Whether a block's one records line is its records out, the records in
 * lost in the paste: "8192+0 records out", "2048+0 Datensätze aus". */
static bool lone_out(const struct dd_block *b)
{
	static const char *const out_words[] = {" out",        " aus",   " écrits", " escritos",
						" отправлено", "的写出", NULL};
	if (b->nrec != 1)
		return false;
	const struct dd_line *d = b->recs[0];
	const char *w = d->line.s + d->m.ov[6];
	size_t n = bl_re_glen(&d->m, 3);
	while (n && (w[n - 1] == ' ' || w[n - 1] == '\t'))
		n--;
	for (size_t i = 0; out_words[i]; i++) {
		size_t k = strlen(out_words[i]);
		if (n >= k && memcmp(w + n - k, out_words[i], k) == 0)
			return true;
	}
	return false;
}

/* The counts of the records lines, the byte count and the seconds of the
 * summary. */
static void read_counts(struct dd_block *b)
{
	struct dd_counts *c = &b->c;
	const struct dd_line *sum = b->sum;
	if (lone_out(b)) {
		u64_group(&b->recs[0]->line, &b->recs[0]->m, 1, &c->out_full);
		u64_group(&b->recs[0]->line, &b->recs[0]->m, 2, &c->out_part);
	} else if (b->nrec >= 1) {
		u64_group(&b->recs[0]->line, &b->recs[0]->m, 1, &c->in_full);
		u64_group(&b->recs[0]->line, &b->recs[0]->m, 2, &c->in_part);
	}
	if (b->nrec >= 2) {
		u64_group(&b->recs[1]->line, &b->recs[1]->m, 1, &c->out_full);
		u64_group(&b->recs[1]->line, &b->recs[1]->m, 2, &c->out_part);
		c->have_records = true;
	}
	b->secs = NAN;
	if (sum)
		c->have_bytes = summary_figures(sum, &c->bytes, &b->secs);
}

/* Whether a summary alone (no records lines, no command) repeats the
 * bytes and seconds of a dd run read earlier in the message: the author
 * quoting the figure again in prose,
 *   "...as the test shows: 1048576 bytes (1.0 MB) copied, 0.006107 seconds, 172 MB/s"
 * Two runs never agree to the microsecond by chance. */
static bool repeats_earlier(struct bl_doc *doc, const struct dd_block *b)
{
	if (b->nrec || !b->sum || !b->c.have_bytes)
		return false;
	for (size_t i = 0; i < doc->nruns; i++) {
		const struct bl_run *r = bl_doc_run(doc, (long)i);
		double pb, pe;
		if (strcmp(r->tool, "dd") == 0 && result_value(r, "bytes", &pb) &&
		    result_value(r, "elapsed", &pe) && pb == (double)b->c.bytes && pe == b->secs)
			return true;
	}
	return false;
}

/* Whether text offset `off` is before this window's own part, where a
 * dd run the window before held (a display, a chain of summaries so
 * far) is read on: as write.c continues a held run. */
static bool held_before(struct bl_scan *sc, size_t off)
{
	const struct bl_message *msg = bl_scan_message(sc);
	const char *held = bl_scan_doc(sc)->resume.tool;
	return held && strcmp(held, bl_parser_dd.name) == 0 && msg->window.on &&
	       bl_message_origin(msg, off) < msg->window.own_from;
}

/* What a chain that the post shows dd signalled for leaves the window
 * after it (bl_run.resume): its blocks there are judged as they were in
 * the window that saw the signal, which may be megabytes above. */
static const char CHAIN_SIGNALLED[] = "signalled";

/* Whether the dd run the window before held was a chain of summaries so
 * far that dd was signalled for. */
static bool held_signalled(struct bl_scan *sc)
{
	const struct bl_doc *doc = bl_scan_doc(sc);
	return doc->resume.tool && strcmp(doc->resume.tool, bl_parser_dd.name) == 0 &&
	       doc->resume.text && strcmp(doc->resume.text, CHAIN_SIGNALLED) == 0;
}

/* Makes the last block of run `prev` a summary so far, the one at `start`
 * its next: each summary a record of the run, so that a chain of
 * thousands (a day's log of a progress display whose '\r's became line
 * breaks) is handed on as it is read and continued past a window's end.
 * Record 0 starts where the run does. `was_signalled`: the post shows dd
 * signalled, which the run tells the window after it. */
static void chain_on(struct bl_doc *doc, struct bl_run *prev, size_t start, bool was_signalled)
{
	if (was_signalled && !prev->resume)
		prev->resume = strdup(CHAIN_SIGNALLED);
	if (!prev->nrec && bl_run_record(prev, 0, prev->off) < 0)
		doc->partial = true;
	size_t sample = prev->nrec ? prev->nrec - 1 : 0;
	make_snapshot(prev, sample);
	if (bl_run_record(prev, sample + 1, start) < 0)
		doc->partial = true;
	prev->records_chain = true;
	bl_doc_run_progress(doc, prev);
}

/* The block's run: the run above when the block is a later snapshot of
 * its transfer, else a new one with its command line. NULL when the block
 * is not dd's after all (`looks` 1: only a command says so). */
static struct bl_run *open_run(struct bl_scan *sc, const struct dd_block *b, int looks)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	struct bl_run *prev = bl_doc_last_run(doc);
	/* a run that reads on a chain the window before held, and that the
	 * post showed dd signalled for there */
	bool on_held = prev && held_before(sc, prev->off) && held_signalled(sc);
	if (b->sum && b->c.have_bytes && prev &&
	    is_snapshot_of(doc->msg, prev, b->start.off, b->c.bytes, b->secs, on_held) &&
	    snapshot_with_records(doc->msg, prev, b->start.off, &b->c, on_held)) {
		chain_on(doc, prev, b->start.off,
			 on_held || signalled(doc->msg, prev, b->start.off));
		/* a snapshot that turned out not to be the last one: its count
		 * check no longer applies */
		bl_doc_retract_diags(doc, (long)(doc->nruns - 1), "dd.count-mismatch");
		prev->end_off = b->end;
		return prev;
	}
	if (repeats_earlier(doc, b)) {
		bl_doc_diag(doc, -1, BL_INFO, "dd.repeated-summary", b->sum->line.off,
			    "this summary repeats the figures of a run above: read as a "
			    "mention of it, not as a run of its own");
		return NULL;
	}
	struct bl_run *run = bl_doc_add_run(doc, "dd", b->variant, b->start.off, b->end);
	if (!run)
		return NULL;
	run->floor = bl_scan_floor(sc);
	bl_scan_find_command(sc, &bl_parser_dd, run);
	/* the last summary of a chain the window before held: a record, so
	 * that it continues the chain (a display reads on by its updates) */
	if (!b->progress && b->sum && held_before(sc, b->start.off)) {
		if (bl_run_record(run, 0, b->start.off) < 0)
			doc->partial = true;
		run->records_chain = true;
	}
	/* records alone under another program's command are its own (sg_dd,
	 * a dd look-alike, prints them too) */
	if ((looks == 1 || !b->sum) && !run->has_command &&
	    (looks == 1 || bl_scan_other_command(sc, &bl_parser_dd, b->start.off))) {
		bl_doc_drop_last_run(doc);
		return NULL;
	}
	return run;
}

/* A result for each update of progress display d, line by line, each
 * line whole, numbered on from `sample`: the number of updates read. */
static size_t display_results(struct bl_doc *doc, struct bl_run *run, const struct dd_line *d,
			      size_t cut_at, size_t sample)
{
	const struct bl_message *msg = doc->msg;
	struct bl_line l = d->line, next;
	size_t first = sample;
	bool from_start = l.off != cut_at;
	for (;;) {
		sample += progress_walk(doc, run, &l, from_start, sample);
		if (l.next > d->through || !bl_line_next(msg, &l, &next))
			break;
		bl_line_whole(msg, &next, next.off - next.cut, &l);
		from_start = true;
	}
	return sample - first;
}

/* The updates of the block's displays, one after another: a `dd:
 * warning` line may part a display in two, and both are the run's. */
static void progress_results(struct bl_doc *doc, struct bl_run *run, const struct dd_block *b)
{
	/* below a chain of summaries so far, the display goes on from the
	 * block's own record */
	size_t sample = run->records_chain && run->nrec ? run->nrec - 1 : 0;
	for (size_t i = 0; i < b->n; i++)
		if (b->lines[i].kind == K_PROGRESS)
			sample += display_results(doc, run, &b->lines[i], b->cut_at, sample);
}

/* The results of the lines before the summary, in their order: progress,
 * records, and the extra counts. The updates come first, each with its
 * number: a display longer than a window is continued in the next
 * (write.c), and what a window hands on before it reads the records
 * lines is updates alone. */
static void line_results(struct bl_doc *doc, struct bl_run *run, const struct dd_block *b,
			 bool updates_only)
{
	if (b->progress)
		progress_results(doc, run, b);
	if (updates_only)
		return;
	if (b->nrec >= 1)
		record_results(run, b->recs[0], lone_out(b) ? "out" : "in");
	if (b->nrec >= 2)
		record_results(run, b->recs[1], "out");
	for (size_t i = 0; i < b->nextra; i++) {
		const struct dd_line *x = b->extras[i];
		uint64_t v = 0;
		u64_group(&x->line, &x->m, 1, &v);
		const char *w = x->line.s + x->m.ov[4];
		const char *metric = w[0] == 't'   ? "truncated_records"
				     : w[0] == 'o' ? "odd_length_swab_blocks"
						   : "sparse_output_blocks";
		bl_run_result(run, metric, (double)v, "records", NULL, 0);
	}
}

/* The summary's results, or what stands in its place: the byte count of a
 * cut one, or a note that dd printed none. Returns the run runs[ri]. */
static struct bl_run *summary_or_note(struct bl_doc *doc, long ri, struct dd_block *b)
{
	struct bl_run *run = bl_doc_run(doc, ri);
	if (b->sum) {
		summary_results(doc, ri, b->sum, &b->c, b->secs, b->variant);
		return bl_doc_run(doc, ri);
	}
	if (b->have_cut) {
		b->c.have_bytes = u64_group(&b->cut, &b->cm, 1, &b->c.bytes);
		if (b->c.have_bytes)
			bl_run_result(run, "bytes", (double)b->c.bytes, "B", NULL, 0);
		bl_doc_diag(
			doc, ri, BL_WARNING, "dd.summary-cut", b->cut.off,
			"the summary stops after the byte count: its seconds and rate are not in the post");
	} else if (!param_has(run, "status", "noxfer")) {
		bl_doc_diag(
			doc, ri, BL_INFO, "dd.no-summary", b->start.off,
			"dd printed its records but no transfer summary (status=noxfer, or a system whose dd prints none)");
	}
	return run;
}

/* What dd reported ("dd: /dev/da0: Input/output error"): a warning each,
 * and the first error as the run's "error" param. */
static void error_diags(struct bl_doc *doc, long ri, struct bl_run *run, struct dd_block *b)
{
	for (size_t i = 0; i < b->nerr; i++) {
		const struct dd_line *d = b->errs[i];
		char *e = group_dup(&d->line, &d->m, 1);
		bool warning = e && strncmp(e, "warning: ", 9) == 0;
		bl_doc_diag(doc, ri, BL_WARNING, warning ? "dd.warning" : "dd.error", d->line.off,
			    "dd reported: %s", e ? e : "");
		if (e && !warning) {
			b->c.had_error = true;
			if (!json_object_get(run->params, "error"))
				bl_run_param_str(run, "error", e, strlen(e));
		}
		free(e);
	}
}

/* Whether block b reads on the dd run the window before held (its
 * display went on past that window's end): a block that starts before
 * this window's own part, as write.c continues a held run. */
static bool reads_on_held(struct bl_scan *sc, const struct dd_block *b)
{
	return held_before(sc, b->start.off);
}

/* How much of a run of status=progress updates block b holds. */
enum display_part {
	DISPLAY_WHOLE, /* all of it, or it is no display */
	DISPLAY_CUT, /* the window's end (not the input's) cuts it: the next
		      * window reads on */
	DISPLAY_LAST, /* the rest of one a window before held, no summary
		       * below it */
};

/* Whether block b reaches the end of the window's text: after its last
 * line at most a piece of one that the window cut ("2283+1 rec"), no
 * line break in it. */
static bool reaches_window_end(const struct bl_message *msg, const struct dd_block *b)
{
	const struct dd_line *last = &b->lines[b->n - 1];
	size_t end = last->kind == K_PROGRESS ? display_end(msg, last) : last->line.next;
	size_t left = msg->len > end ? msg->len - end : 0;
	return left < 256 && !memchr(msg->text + end, '\n', left);
}

static enum display_part display_part(struct bl_scan *sc, const struct dd_block *b)
{
	const struct bl_message *msg = bl_scan_message(sc);
	if (b->sum || !b->progress)
		return DISPLAY_WHOLE;
	if (msg->window.on && !msg->window.last && !msg->window.text_ends &&
	    reaches_window_end(msg, b))
		return DISPLAY_CUT;
	return !b->nrec && reads_on_held(sc, b) ? DISPLAY_LAST : DISPLAY_WHOLE;
}

static enum bl_claim dd_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct bl_doc *doc = bl_scan_doc(sc);
	struct dd_line a;
	enum line_kind ak = classify(anchor, &a);
	if (ak == K_OTHER || ak == K_ERR)
		return BL_NOT_MINE;
	/* a progress line that is not the last of its display, or a piece of
	 * a long one: the last line claims the display whole (block_start),
	 * once */
	struct bl_line below;
	struct dd_line bd;
	if (ak == K_PROGRESS && bl_line_next(msg, anchor, &below) &&
	    (msg->text[anchor->next - 1] != '\n' || classify(&below, &bd) == K_PROGRESS ||
	     display_tail(msg, &below, &bd)))
		return BL_NOT_MINE;

	/* up to DD_MAX_ERRS error lines and the displays around them, 2
	 * records, 3 counts, a summary, and room to spare: the walk always
	 * reaches the anchor */
	struct dd_line lines[2 * DD_MAX_ERRS + 12];
	struct dd_block b = {.lines = lines};
	b.start = block_start(sc, anchor, ak, &b.cut_at, &b.errs_cut);
	b.n = walk_block(msg, &b.start, lines, sizeof lines / sizeof lines[0]);
	if (b.n == 0)
		return BL_NOT_MINE;
	sort_lines(&b);
	/* A lone "N+M word" line, or a progress line with nothing after it,
	 * is not enough to call it dd; but a display cut by a window's end,
	 * or read on from the window before, is a part of one. What the
	 * window's end cuts below a display (its records lines, a piece of
	 * its summary) the next window reads. */
	enum display_part dp = display_part(sc, &b);
	bool part = dp != DISPLAY_WHOLE;
	if (!b.sum && b.nrec < 2 && !part)
		return BL_NOT_MINE;
	int looks = b.sum || part ? 2 : records_look_like_dd(b.recs[0], b.recs[1]);
	if (!looks)
		return BL_NOT_MINE;
	find_end(msg, &b);
	read_counts(&b);
	if (part) {
		b.variant = NULL; /* its summary's, in the window that reads it */
		b.c = (struct dd_counts){0};
	}

	struct bl_run *run = open_run(sc, &b, looks);
	if (!run)
		return BL_NOT_MINE;
	long ri = (long)(doc->nruns - 1);
	run->records_end = !part && !run->records_chain;
	line_results(doc, run, &b, part);
	if (!part)
		run = summary_or_note(doc, ri, &b);
	else if (dp == DISPLAY_LAST)
		bl_doc_diag(doc, ri, BL_INFO, "dd.no-summary", b.progress->through,
			    "a status=progress display longer than a window of the input with no "
			    "summary below it: the transfer's end is not in the post");
	if (b.errs_cut && b.progress1) {
		bl_doc_diag(doc, ri, BL_WARNING, "dd.progress-cut", b.progress1->line.off,
			    "more than %d dd: lines part this status=progress display: its updates "
			    "above them are not read, and its samples are numbered from the first "
			    "one read",
			    DD_MAX_ERRS);
		doc->partial = true;
	}
	if (b.progress1 && b.progress1->line.off == b.cut_at && !reads_on_held(sc, &b)) {
		bl_doc_diag(
			doc, ri, BL_WARNING, "dd.progress-cut", b.progress1->line.off,
			"the status=progress line starts before the text read here: its first "
			"updates are not read, and its samples are numbered from the first one read");
		doc->partial = true;
	}
	error_diags(doc, ri, run, &b);
	consistency(doc, ri, &b.c, b.sum ? b.sum->line.off : b.start.off);
	*end = b.end;
	return BL_CLAIMED;
}

/* ------------------------------------------------------------- command */

static void set_size(struct bl_doc *doc, struct bl_run *run, const char *key, const char *v,
		     size_t len)
{
	uint64_t n;
	if (bl_parse_size(v, len, &n) && n <= INT64_MAX)
		bl_run_param_int(run, key, (long long)n);
	else
		bl_doc_diag(doc, (long)(doc->nruns - 1), BL_WARNING, "dd.bad-operand", run->cmd_off,
			    "cannot read the size '%.*s' of %s", (int)len, v, key);
}

/* "dd if=/dev/zero of=/data01/test01 bs=1m count=2000 conv=fdatasync"
 * Operands are key=value words; the command ends at a shell operator. */
static void dd_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	const char *p = cmd + 2;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		/* a word; blanks inside quotes belong to it: of='/tmp/out file' */
		const char *w = p;
		char q = 0;
		while (*p && (q || (*p != ' ' && *p != '\t'))) {
			if (q) {
				if (*p == q)
					q = 0;
			} else if (*p == '"' || *p == '\'') {
				q = *p;
			}
			p++;
		}
		size_t wl = (size_t)(p - w);
		if (!wl)
			break;
		if (w[0] == '|' || w[0] == ';' || w[0] == '&' || w[0] == '>' || w[0] == '<' ||
		    (wl >= 2 && w[0] == '2' && w[1] == '>'))
			break;
		const char *eq = memchr(w, '=', wl);
		if (!eq)
			continue;
		size_t kl = (size_t)(eq - w);
		const char *v = eq + 1;
		size_t vl = wl - kl - 1;
		/* strip one level of quotes: of="/tmp/a b", of='x' */
		if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
			v++;
			vl -= 2;
		}
#define KEY(s) (kl == sizeof(s) - 1 && memcmp(w, s, kl) == 0)
		if (KEY("if"))
			bl_run_param_str(run, "input", v, vl);
		else if (KEY("of"))
			bl_run_param_str(run, "output", v, vl);
		else if (KEY("bs"))
			set_size(doc, run, "block_size", v, vl);
		else if (KEY("ibs"))
			set_size(doc, run, "input_block_size", v, vl);
		else if (KEY("obs"))
			set_size(doc, run, "output_block_size", v, vl);
		else if (KEY("cbs"))
			set_size(doc, run, "conversion_block_size", v, vl);
		else if (KEY("count"))
			set_size(doc, run, "count", v, vl);
		else if (KEY("skip") || KEY("iseek"))
			set_size(doc, run, "skip", v, vl);
		else if (KEY("seek") || KEY("oseek"))
			set_size(doc, run, "seek", v, vl);
		else if (KEY("conv"))
			bl_run_param_str(run, "conv", v, vl);
		else if (KEY("iflag"))
			bl_run_param_str(run, "iflag", v, vl);
		else if (KEY("oflag"))
			bl_run_param_str(run, "oflag", v, vl);
		else if (KEY("status"))
			bl_run_param_str(run, "status", v, vl);
#undef KEY
	}
}

static const char *const dd_variants[] = {
	"bsd (FreeBSD, NetBSD, OpenBSD, macOS: bytes transferred in ... secs; FreeBSD/macOS status=progress; "
	"illumos: bytes transferred in 0,409412 secs (489MB/sec), bytes (676 GiB) transferred in ... secs (41 GiB/sec); "
	"the same line with 'seconds' from Android toolbox and GNU coreutils before 5.3)",
	"gnu (coreutils 8.24+: bytes (SI, IEC) copied; 512 bytes copied; 1 byte; 9.5351e-05 s; status=progress; "
	"a summary cut after 'copied' in the paste, with a warning)",
	"gnu-old (coreutils before 8.24: bytes (SI) copied; 5.93-7.x: copied, 2.57314 seconds, 398 MB/s)",
	"gnu-localized (de, fr, es, ru, ...: translated words, decimal comma, ru verb first)",
	"busybox (bytes (64.0MB) copied, 0.052498 seconds, 1.2GB/s)",
	"records-only (status=noxfer, or no summary printed)",
	NULL,
};

/* How dd's output lines look where a post lost its line breaks
 * (ingest/shapes.h): each is a line of its own, found by the literal
 * every match holds. */
/* "200+0 records in", "^C5862919230+0 записей получено", and the
 * translations GNU dd prints: "2048+0 Datensätze ein" */
#define DD_RECORDS                                                                                 \
	"(?:\\^C|" ZH_RECORDED                                                                     \
	")?\\d+\\+\\d+ (?:records? (?:in|out)|Datensätze (?:ein|aus)|的(?:读入|写出)|"       \
	"registros (?:leídos|escritos)|enregistrements (?:lus|écrits)|"                          \
	"записей (?:получено|отправлено))"
/* "209715200 bytes transferred in 6.158355 secs (34053769 bytes/sec)",
 * and Android's "... in 3.184339 seconds (10537330 bytes/sec)", as bsd_re */
#define DD_BSD "\\d+ bytes transferred in [\\d.]+ (?:secs?|seconds) \\(\\d+ bytes/sec\\)"
/* "726039265280 (676 GiB) bytes transferred in 16.306815 secs (41 GiB/sec)" */
#define DD_ILLUMOS                                                                                 \
	"\\d+ (?:\\([^)]{1,40}\\) )?bytes transferred in [\\d.,]+ secs "                           \
	"\\(\\d{1,4}(?:[.,]\\d{1,3})? ?[kKMGTPE]?i?B/sec\\)"
/* BSD's ^T status line before a summary so far:
 * "load: 1.65  cmd: dd 99732 uninterruptible 0.00u 0.13s" */
#define DD_LOAD "load: \\d+[.,]\\d+ {1,2}cmd: dd \\d+ \\S+ [\\d.]+u [\\d.]+s"
/* "2147483648 bytes (2147 MB, 2048 MiB) transferred 31.001s, 69 MB/s" */
#define DD_GNU_OLD "\\d+ bytes \\([^)]{1,40}\\) transferred [\\d.]+s, [\\d.]+ ?\\S{1,12}/s"
/* GNU dd in every locale, and busybox:
 * "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s"
 * "2147483648 Bytes (2,1 GB, 2,0 GiB) kopiert, 14,2731 s, 150 MB/s"
 * "67108864 bytes (64.0MB) copied, 0.052498 seconds, 1.2GB/s" */
#define DD_GNU                                                                                           \
	"\\d+ \\S{1,20}(?: \\([^)]{1,40}\\))? \\S{1,30}, \\d[\\d.,]*(?:[eE][-+]?\\d{1,3})? ?\\S{1,10}, " \
	"(?:\\d[\\d.,]*|Infinity|inf) ?\\S{1,12}/\\S{1,6}"
/* and one that a paste cut after "copied" (no time, no rate; the blank
 * after it is a line end, not a ", "):
 * "314572800 bytes (315 MB, 300 MiB) copied" */
#define DD_GNU_CUT "\\d+ bytes? \\([^)]{1,40}\\) copied(?= )"
/* old Russian coreutils: "скопировано 1073741824 байт (1,1 GB), 6,93021 c, 155 MB/c" */
#define DD_RU                                                                                      \
	"скопировано \\d+ \\S{1,20}(?: \\([^)]{1,40}\\))?, \\d[\\d.,]* ?\\S{1,10}, "    \
	"\\d[\\d.,]* ?\\S{1,12}/\\S{1,6}"

static const struct bl_line_shape dd_lines[] = {
	{.pattern = DD_RECORDS, .lit = "+", .rare = 0, .digit_after = true},
	{.pattern = DD_BSD, .lit = "bytes/sec)", .rare = 9, .rewrapped = true},
	{.pattern = DD_ILLUMOS, .lit = "B/sec)", .rare = 0},
	{.pattern = DD_GNU_OLD, .lit = ") transferred ", .rare = 0},
	/* in a line that other dd lines share: found by theirs */
	{.pattern = DD_LOAD, .lit = NULL, .rare = 0},
	/* by the comma, the blank and the digit together: prose has a
	 * comma in most sentences */
	{.pattern = DD_GNU,
	 .lit = ", ",
	 .rare = BL_SHAPE_BY_ENDS,
	 .digit_after = true,
	 .then = ", ",
	 .rewrapped = true},
	{.pattern = DD_GNU_CUT, .lit = ") copied", .rare = 0},
	{.pattern = DD_RU, .lit = "скопировано ", .rare = 0},
};

static const struct bl_tool_shapes dd_shapes = {
	.lines = dd_lines,
	.nlines = sizeof dd_lines / sizeof dd_lines[0],
	/* a command without a prompt: "dd if=/dev/ad4s1a of=/dev/null"; and
	 * dd's complaints: "dd: error writing '/tmp/x/f': No space left on device" */
	.starts = "(?<![#$%>] )(?<!time )(?<!sudo )(?<!-[lpv] )dd (?=(?:if|of|bs|ibs|obs|count)=)"
		  "|dd: ",
	/* "srebrny# time dd if=/dev/zero of=/data01/a/very/long/path/test01"
	 * above "bs=1m count=2000" */
	.wrapped_command = "(?:^|[\\s#$%>])dd (?:[a-z]+=\\S+ ?)+$",
	.wrapped_operands = "^(?:[a-z]+=\\S+[ \\t]*)+$",
	.start_needs = (const char *const[]){"dd", NULL},
};

/* Charts: one throughput metric measures writes and reads alike, so the
 * bars of a run name are told apart by the direction its ends show. */
static const char *const dd_chart_metrics[] = {"throughput", NULL};

static const struct bl_chart_view dd_views[] = {
	{.name = "throughput",
	 .title = "dd throughput",
	 .metrics = dd_chart_metrics,
	 .unit = "B/s",
	 .category = BL_KEY_LABEL,
	 .series = BL_KEY_DIRECTION,
	 .chart_per = BL_KEY_NONE},
	{.name = NULL},
};

static const struct bl_metric_info dd_metric_info[] = {
	{.metric = "throughput",
	 .title = "throughput",
	 .units = "B/s",
	 .about = "the rate dd printed (bytes / seconds where it printed none)"},
	{.metric = "bytes", .units = "B", .about = "the bytes copied"},
	{.metric = "elapsed", .units = "s", .about = "the seconds the copy took"},
	{.metric = "records_in_full", .units = "records", .about = "whole input blocks read"},
	{.metric = "records_in_partial", .units = "records", .about = "short input blocks read"},
	{.metric = "records_out_full", .units = "records", .about = "whole output blocks written"},
	{.metric = "records_out_partial",
	 .units = "records",
	 .about = "short output blocks written"},
	{.metric = "truncated_records",
	 .units = "records",
	 .about = "records cut by conv=block (\"N truncated records\")"},
	{.metric = "progress_bytes",
	 .units = "B",
	 .about = "the bytes of each status=progress update (a \"sample\" each)"},
	{.metric = "snapshot_*",
	 .units = "B s B/s records",
	 .about = "a summary printed mid-run (SIGINFO, SIGUSR1), a \"sample\" each"},
	{.metric = NULL},
};

/* if= and of= (dd_command); reading /dev/zero makes a write, writing
 * /dev/null a read */
static const char *const dd_generators[] = {"/dev/zero", "/dev/random", "/dev/urandom", NULL};
static const char *const dd_sinks[] = {"/dev/null", NULL};

static const struct bl_transfer dd_transfer = {
	.from = "input",
	.to = "output",
	.generators = dd_generators,
	.sinks = dd_sinks,
};

/* Update `index` of a whole progress display. */
static void dd_renumber(struct bl_result *result, size_t index)
{
	bl_result_set_int(result, "sample", (long long)index);
}

/* A status=progress display is a stream of records, one an update: a
 * long one is handed on as it is read, not held whole, and one longer
 * than a window of the input is continued in the windows after it (a
 * week's log holds 600,000 updates on one line). */
static const struct bl_records dd_records = {
	.key = "sample",
	.renumber = dd_renumber,
};

const struct bl_parser bl_parser_dd = {
	.name = "dd",
	.summary = "dd transfer summaries: records in/out, bytes, seconds, rate",
	.variants = dd_variants,
	/* "1+0 records in", "... bytes transferred in ...", a BSD progress
	 * update "... bytes (4014 MB, 3828 MiB) transferred 415.226s, ...",
	 * and GNU's summary at the start of a line or after a label or
	 * comment marker:
	 *   "1048576 bytes (1.0 MB) copied, 0.00302 s, 347 MB/s"
	 *   "up 16 MiB: 16777216 bytes (17 MB, 16 MiB) copied, 0.104922 s, 160 MB/s" */
	.anchor =
		"\\d\\+\\d+ \\S|bytes transferred in |\\) transferred \\d"
		"|^[ \\t]*\\d+ \\S+(?: \\([^)\\n]{1,40}\\))? \\S+, \\d[\\d.,e+-]* ?\\S+, "
		"|[:#][ \\t]+(?:\\.\\.\\.[ \\t]+)?\\d+ \\S+(?: \\([^)\\n]{1,40}\\))? \\S+, \\d[\\d.,e+-]* ?\\S+, ",
	.command_word = "dd",
	.shapes = &dd_shapes,
	.claim = dd_claim,
	.command = dd_command,
	.records = &dd_records,
	.views = dd_views,
	.metrics = dd_metric_info,
	.transfer = &dd_transfer,
};
