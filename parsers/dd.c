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

#include "parser.h"
#include "re.h"
#include "units.h"

extern const struct bl_parser bl_parser_dd;

/* "2000+0 records in", "32768+0 records in", "64+0 Datensätze ein",
 * "64+0 enregistrements lus": two counts, then words in any language. */
static struct bl_re rec_re = BL_RE("^[ \\t]*(\\d{1,20})\\+(\\d{1,20}) ([^\\d\\s][^\\d]{0,40})$", 0);

/* BSD, macOS:
 * "2097152000 bytes transferred in 92.451346 secs (22683845 bytes/sec)" */
static struct bl_re bsd_re = BL_RE(
	"^[ \\t]*(\\d{1,20}) bytes transferred in ([\\d.]{1,30}) secs? "
	"\\((\\d{1,20}) bytes/sec\\)",
	0);

/* GNU coreutils, every version and locale, and busybox:
 * "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s"   (8.24+)
 * "1073741824 bytes (1.1 GB) copied, 9.2 s, 117 MB/s"              (older)
 * "512 bytes copied, 9.5351e-05 s, 5.4 MB/s"  "1 byte copied, ..."
 * "67108864 Bytes (67 MB, 64 MiB) kopiert, 0,0153913 s, 4,4 GB/s"  (de)
 * "1048576 bytes (1.0MB) copied, 0.004234 seconds, 236.2MB/s"     (busybox)
 * Groups: 1 bytes, 2 bytes word, 3 human size, 4 verb, 5 seconds,
 * 6 seconds unit, 7 rate, 8 rate unit. */
static struct bl_re gnu_re = BL_RE(
	"^[ \\t]*(\\d{1,20}) (\\S{1,20})(?: \\(([^)\\n]{1,40})\\))? (\\S{1,30}), "
	"(\\d[\\d.,]{0,30}(?:[eE][-+]?\\d{1,3})?) ?(\\S{1,10}), "
	"(\\d[\\d.,]{0,20}|Infinity|inf) ?(\\S{1,12}/\\S{1,6})[ \\t]*$",
	0);

/* "dd: error writing '/tmp/x/small/f': No space left on device"
 * "dd: /dev/ad4: Input/output error"
 * "dd: warning: partial read (958464 bytes); suggest iflag=fullblock" */
static struct bl_re err_re = BL_RE("^[ \\t]*dd: (.{1,300})$", 0);

enum line_kind { K_OTHER, K_REC, K_BSD, K_GNU, K_PROGRESS, K_ERR };

struct dd_line {
	enum line_kind kind;
	struct bl_line line;
	struct bl_re_match m;
};

static enum line_kind classify(const struct bl_line *l, struct bl_re_match *m)
{
	if (l->len == 0)
		return K_OTHER;
	/* status=progress: "\r933232640 bytes (933 MB, 890 MiB) copied, 1 s, 933 MB/s\r..." */
	if (memchr(l->s, '\r', l->len))
		return K_PROGRESS;
	if (bl_re_match(&rec_re, l->s, l->len, 0, m))
		return K_REC;
	if (bl_re_match(&bsd_re, l->s, l->len, 0, m))
		return K_BSD;
	if (bl_re_match(&gnu_re, l->s, l->len, 0, m))
		return K_GNU;
	if (bl_re_match(&err_re, l->s, l->len, 0, m))
		return K_ERR;
	return K_OTHER;
}

static bool get(struct bl_message *msg, const struct bl_line *at, struct dd_line *out)
{
	out->line = *at;
	out->kind = classify(at, &out->m);
	(void)msg;
	return true;
}

static bool u64_group(const struct bl_line *l, const struct bl_re_match *m, int g,
		      uint64_t *v)
{
	return bl_re_gset(m, g) &&
	       bl_parse_u64(l->s + m->ov[2 * g], bl_re_glen(m, g), v, NULL);
}

static char *group_dup(const struct bl_line *l, const struct bl_re_match *m, int g)
{
	return bl_strndup_trim(l->s + m->ov[2 * g], bl_re_glen(m, g));
}

/* Reads a GNU progress line: updates separated by '\r', each a summary
 * with whole seconds. Adds one result per update. */
static void progress_results(struct bl_run *run, const struct bl_line *l)
{
	size_t i = 0, sample = 0;
	while (i < l->len) {
		const char *cr = memchr(l->s + i, '\r', l->len - i);
		size_t end = cr ? (size_t)(cr - l->s) : l->len;
		struct bl_re_match m;
		if (end > i && bl_re_match(&gnu_re, l->s + i, end - i, 0, &m)) {
			struct bl_line part = {.s = l->s + i, .len = end - i};
			uint64_t bytes;
			double secs;
			if (u64_group(&part, &m, 1, &bytes) &&
			    bl_parse_double(part.s + m.ov[10], bl_re_glen(&m, 5), true, &secs,
					    NULL)) {
				json_t *r = bl_run_result(run, "progress_bytes", (double)bytes,
							  "B", NULL, 0);
				if (r) {
					json_object_set_new(r, "sample", json_integer((json_int_t)sample));
					json_object_set_new(r, "at", json_real(secs));
				}
				sample++;
			}
		}
		i = end + 1;
	}
}

static void record_results(struct bl_run *run, const struct dd_line *l,
			   const char *dir)
{
	uint64_t full = 0, part = 0;
	u64_group(&l->line, &l->m, 1, &full);
	u64_group(&l->line, &l->m, 2, &part);
	char name[32];
	snprintf(name, sizeof name, "records_%s_full", dir);
	bl_run_result(run, name, (double)full, "records", NULL, 0);
	snprintf(name, sizeof name, "records_%s_partial", dir);
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

/* The checks a reader would do by hand: do the records, the byte count, the
 * time and the printed rate agree with each other and with the command? */
static void consistency(struct bl_doc *doc, long ri, uint64_t in_full,
			uint64_t in_part, uint64_t out_full, uint64_t out_part,
			bool have_records, bool have_bytes, uint64_t bytes,
			size_t sum_off)
{
	struct bl_run *run = &doc->runs[ri];
	uint64_t count, bs, obs = 0;
	if (have_records && param_u64(run, "count", &count) &&
	    in_full + in_part != count)
		bl_doc_diag(doc, ri, BL_WARNING, "dd.count-mismatch", run->off,
			    "the command says count=%llu but dd read %llu+%llu records: "
			    "the input ended early, or the transcript was edited",
			    (unsigned long long)count, (unsigned long long)in_full,
			    (unsigned long long)in_part);
	if (param_u64(run, "block_size", &bs))
		obs = bs;
	else if (param_u64(run, "output_block_size", &bs))
		obs = bs;
	else if (run->has_command)
		obs = 512; /* dd's default output block size */
	if (have_records && have_bytes && obs) {
		double lo = (double)out_full * (double)obs;
		double hi = (double)(out_full + out_part) * (double)obs;
		bool ok = out_part ? ((double)bytes > lo && (double)bytes < hi)
				   : (double)bytes == lo;
		if (!ok)
			bl_doc_diag(doc, ri, BL_WARNING, "dd.bytes-mismatch", sum_off,
				    "%llu bytes does not match %llu+%llu records of %llu bytes",
				    (unsigned long long)bytes, (unsigned long long)out_full,
				    (unsigned long long)out_part, (unsigned long long)obs);
	}
}

/* Finds the first line of the block that contains `anchor`. */
static struct bl_line block_start(struct bl_scan *sc, const struct bl_line *anchor,
				  enum line_kind kind)
{
	struct bl_message *msg = bl_scan_message(sc);
	size_t floor = bl_scan_floor(sc);
	struct bl_line start = *anchor, prev;
	int want_rec = kind == K_REC ? 1 : (kind == K_BSD || kind == K_GNU) ? 2 : 0;
	/* A summary has its two records lines above it; "records out" has
	 * "records in" above it. */
	for (int k = 0; k < want_rec; k++) {
		if (!bl_line_prev(msg, &start, &prev) || prev.off < floor)
			break;
		struct dd_line d;
		get(msg, &prev, &d);
		if (d.kind != K_REC)
			break;
		start = prev;
	}
	/* then progress and error lines directly above */
	for (int k = 0; k < 3; k++) {
		if (!bl_line_prev(msg, &start, &prev) || prev.off < floor)
			break;
		struct dd_line d;
		get(msg, &prev, &d);
		if (d.kind != K_PROGRESS && d.kind != K_ERR)
			break;
		start = prev;
	}
	return start;
}

static const char *gnu_variant(const struct dd_line *s)
{
	const struct bl_line *l = &s->line;
	size_t wl = bl_re_glen(&s->m, 2), vl = bl_re_glen(&s->m, 4);
	const char *word = l->s + s->m.ov[4], *verb = l->s + s->m.ov[8];
	const char *su = l->s + s->m.ov[12];
	size_t sul = bl_re_glen(&s->m, 6);
	if (sul == 7 && memcmp(su, "seconds", 7) == 0)
		return "busybox";
	bool english = ((wl == 5 && memcmp(word, "bytes", 5) == 0) ||
			(wl == 4 && memcmp(word, "byte", 4) == 0)) &&
		       vl == 6 && memcmp(verb, "copied", 6) == 0;
	if (!english)
		return "gnu-localized";
	if (bl_re_gset(&s->m, 3) && !memchr(l->s + s->m.ov[6], ',', bl_re_glen(&s->m, 3)) &&
	    strstr(l->s, "iB") == NULL) {
		/* "(1.1 GB)" alone, where 8.24+ prints "(1.1 GB, 1.0 GiB)" for
		 * every count past 1023 bytes */
		uint64_t b = 0;
		u64_group(l, &s->m, 1, &b);
		if (b >= 1024)
			return "gnu-old";
	}
	return "gnu";
}

static enum bl_claim dd_claim(struct bl_scan *sc, const struct bl_line *anchor,
			      size_t *end)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct bl_doc *doc = bl_scan_doc(sc);
	struct dd_line a;
	get(msg, anchor, &a);
	if (a.kind == K_OTHER || a.kind == K_ERR)
		return BL_NOT_MINE;

	struct bl_line start = block_start(sc, anchor, a.kind);
	/* Walk the block from its start. */
	struct dd_line lines[8];
	size_t n = 0;
	struct bl_line cur = start;
	for (;;) {
		get(msg, &cur, &lines[n]);
		enum line_kind k = lines[n].kind;
		if (k == K_OTHER)
			break;
		n++;
		if (k == K_BSD || k == K_GNU || n == 8)
			break;
		struct bl_line next;
		if (!bl_line_next(msg, &cur, &next))
			break;
		cur = next;
	}
	/* What the walk found: recs[0..1], a summary, progress and errors. */
	const struct dd_line *recs[2] = {NULL, NULL}, *sum = NULL, *progress = NULL;
	const struct dd_line *errs[3];
	size_t nerr = 0, nrec = 0;
	for (size_t i = 0; i < n; i++) {
		switch (lines[i].kind) {
		case K_REC:
			if (nrec < 2)
				recs[nrec++] = &lines[i];
			break;
		case K_BSD:
		case K_GNU: sum = &lines[i]; break;
		case K_PROGRESS: progress = &lines[i]; break;
		case K_ERR:
			if (nerr < 3)
				errs[nerr++] = &lines[i];
			break;
		default: break;
		}
	}
	/* A lone "N+M word" line, or a progress line with nothing after it,
	 * is not enough to call it dd. */
	if (!sum && nrec < 2)
		return BL_NOT_MINE;
	if (progress && !sum && nrec < 2)
		return BL_NOT_MINE;

	const struct dd_line *last = &lines[n - 1];
	const char *variant = !sum ? "records-only"
			      : sum->kind == K_BSD ? "bsd"
						   : gnu_variant(sum);
	struct bl_run *run = bl_doc_add_run(doc, "dd", variant, start.off, last->line.next);
	if (!run)
		return BL_NOT_MINE;
	long ri = (long)(doc->nruns - 1);
	bl_scan_find_command(sc, &bl_parser_dd, run);

	uint64_t in_full = 0, in_part = 0, out_full = 0, out_part = 0;
	if (nrec >= 1) {
		u64_group(&recs[0]->line, &recs[0]->m, 1, &in_full);
		u64_group(&recs[0]->line, &recs[0]->m, 2, &in_part);
		record_results(run, recs[0], "in");
	}
	if (nrec >= 2) {
		u64_group(&recs[1]->line, &recs[1]->m, 1, &out_full);
		u64_group(&recs[1]->line, &recs[1]->m, 2, &out_part);
		record_results(run, recs[1], "out");
	}
	if (progress)
		progress_results(run, &progress->line);

	uint64_t bytes = 0;
	bool have_bytes = false;
	if (sum) {
		const struct bl_line *l = &sum->line;
		const struct bl_re_match *m = &sum->m;
		double secs = NAN;
		have_bytes = u64_group(l, m, 1, &bytes);
		int sg = 2;
		bool comma = sum->kind == K_GNU;
		if (sum->kind == K_GNU)
			sg = 5;
		bl_parse_double(l->s + m->ov[2 * sg], bl_re_glen(m, sg), comma, &secs, NULL);
		bl_run_result(run, "bytes", (double)bytes, "B", NULL, 0);
		bl_run_result(run, "elapsed", secs, "s", NULL, 0);
		if (sum->kind == K_BSD) {
			uint64_t rate = 0;
			u64_group(l, m, 3, &rate);
			char *raw = bl_strndup_trim(l->s + m->ov[6], bl_re_glen(m, 3));
			size_t rl = raw ? strlen(raw) : 0;
			char buf[64];
			snprintf(buf, sizeof buf, "%.*s bytes/sec", (int)rl, raw ? raw : "");
			free(raw);
			bl_run_result(run, "throughput", (double)rate, "B/s", buf, 0);
			/* BSD prints bytes * 1e6 / microseconds, truncated */
			if (secs > 0 && rate > 0) {
				double calc = (double)bytes / secs;
				if (fabs(calc - (double)rate) > 0.01 * (double)rate + 2)
					bl_doc_diag(doc, ri, BL_WARNING, "dd.rate-mismatch", l->off,
						    "%llu bytes in %g s is %.0f bytes/sec, but %llu bytes/sec is printed",
						    (unsigned long long)bytes, secs, calc,
						    (unsigned long long)rate);
			}
		} else {
			char *raw = NULL;
			size_t rs = m->ov[14], re_ = m->ov[17];
			raw = bl_strndup_trim(l->s + rs, re_ - rs);
			double printed = NAN;
			char *num = group_dup(l, m, 7), *unit = group_dup(l, m, 8);
			char rate_txt[64];
			snprintf(rate_txt, sizeof rate_txt, "%s %s", num ? num : "", unit ? unit : "");
			bool have_printed = bl_parse_rate(rate_txt, strlen(rate_txt), true, &printed);
			/* translated rate units ("MB/c" in ru) parse as unknown: keep raw */
			if (secs > 0) {
				double calc = (double)bytes / secs;
				bl_run_result(run, "throughput", calc, "B/s", raw, BL_FLAG_COMPUTED);
				/* GNU rounds to 2-3 significant digits */
				if (have_printed && printed > 0 &&
				    fabs(calc - printed) > 0.06 * printed)
					bl_doc_diag(doc, ri, BL_WARNING, "dd.rate-mismatch", l->off,
						    "%llu bytes in %g s is %.3g B/s, but %s is printed",
						    (unsigned long long)bytes, secs, calc, raw ? raw : "");
			} else {
				bl_run_result(run, "throughput", have_printed ? printed : NAN, "B/s", raw,
					      BL_FLAG_APPROXIMATE);
			}
			free(num);
			free(unit);
			free(raw);
		}
	} else {
		bl_doc_diag(doc, ri, BL_INFO, "dd.no-summary", start.off,
			    "dd printed its records but no transfer summary (status=noxfer, or a system whose dd prints none)");
	}
	for (size_t i = 0; i < nerr; i++) {
		char *e = group_dup(&errs[i]->line, &errs[i]->m, 1);
		bl_doc_diag(doc, ri, BL_WARNING, "dd.error", errs[i]->line.off, "dd reported: %s",
			    e ? e : "");
		if (e && !json_object_get(run->params, "error"))
			bl_run_param_str(run, "error", e, strlen(e));
		free(e);
	}
	consistency(doc, ri, in_full, in_part, out_full, out_part, nrec >= 2, have_bytes,
		    bytes, sum ? sum->line.off : start.off);
	*end = last->line.next;
	return BL_CLAIMED;
}

/* ------------------------------------------------------------- command */

static void set_size(struct bl_doc *doc, struct bl_run *run, const char *key,
		     const char *v, size_t len)
{
	uint64_t n;
	if (bl_parse_size(v, len, &n) && n <= INT64_MAX)
		bl_run_param_int(run, key, (long long)n);
	else
		bl_doc_diag(doc, (long)(doc->nruns - 1), BL_WARNING, "dd.bad-operand",
			    run->cmd_off, "cannot read the size '%.*s' of %s", (int)len, v, key);
}

/* "dd if=/dev/zero of=/data01/test01 bs=1m count=2000 conv=fdatasync"
 * Operands are key=value words; the command ends at a shell operator. */
static void dd_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	const char *p = cmd + 2;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
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
		/* strip one level of quotes: of="/tmp/a b" is rare, of='x' less so */
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
	"bsd (FreeBSD, NetBSD, OpenBSD, macOS: bytes transferred in ... secs)",
	"gnu (coreutils 8.24+: bytes (SI, IEC) copied)",
	"gnu-old (coreutils before 8.24: bytes (SI) copied)",
	"gnu-localized (translated words, decimal comma)",
	"busybox (copied, ... seconds, ...MB/s)",
	"records-only (status=noxfer, Solaris)",
	NULL,
};

const struct bl_parser bl_parser_dd = {
	.name = "dd",
	.summary = "dd transfer summaries: records in/out, bytes, seconds, rate",
	.variants = dd_variants,
	/* "2000+0 records in", "bytes transferred in", "bytes (...) copied, 0.1 s" */
	.anchor = "\\d\\+\\d+ \\S|bytes transferred in |^[ \\t]*\\d+ \\S+(?: \\([^)\\n]{1,40}\\))? \\S+, \\d[\\d.,e+-]* ?\\S+, ",
	.command_word = "dd",
	.claim = dd_claim,
	.command = dd_command,
};
