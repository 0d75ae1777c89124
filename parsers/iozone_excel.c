/* iozone_excel.c - the report -R prints after the table or the throughput
 * sections ("Excel output is below:").
 *
 * Per test, a quoted title, the record sizes (kB) and one row per file
 * size (kB), in the run's unit:
 *
 *	"Writer report"
 *	        "4"  "1024"
 *	"8192"   1030592  4170981
 *
 * Throughput mode: one row per test, one column per count of processes:
 *
 *	"Throughput report Y-axis is type of test X-axis is number of processes"
 *	"Record size = 64 kBytes "
 *	"Output is in kBytes/sec"
 *
 *	"  Initial write "    4540367.50
 *
 * The report repeats the table's numbers: where the table was read, the
 * report is checked against it (a warning where they disagree) and only
 * adds what the table lacks. A row's values follow the order iozone ran
 * the record sizes in, so with a table at hand the i-th value of a row
 * belongs to the i-th table row of that file size (iozone -a skips the
 * small records of big files, and the report then shifts them left). */
#include "iozone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/re.h"
#include "../base/units.h"

/* "Excel output is below:" */
static struct bl_re below_re = BL_RE("^[ \\t]*Excel output is below:", 0);
/* "\"Writer report\"", "\"Re-Fread report\"",
 * "\"Writer CPU utilization report (Zero values should be ignored)\"",
 * "\"Throughput report Y-axis is type of test X-axis is number of processes\"" */
static struct bl_re title_re = BL_RE(
	"^[ \\t]*\"([A-Za-z][A-Za-z -]{0,40}?) (CPU utilization )?report\\b([^\"]{0,120})\"[ \\t]*$",
	0);
/* "        \"4\"  \"1024\"" */
static struct bl_re recs_re = BL_RE("^[ \\t]*(?:\"\\d{1,19}\"[ \\t]*){1,64}$", 0);
/* "\"8192\"   1030592  4170981 " */
static struct bl_re row_re =
	BL_RE("^[ \\t]*\"(\\d{1,19})\"((?:[ \\t]+\\d{1,20}(?:\\.\\d{1,9})?){0,64})[ \\t]*$", 0);
/* "\"  Initial write \"    4540367.50 " */
static struct bl_re tprow_re = BL_RE(
	"^[ \\t]*\"[ \\t]*([A-Za-z][A-Za-z -]{0,40}?)[ \\t]*\"((?:[ \\t]+\\d{1,20}(?:\\.\\d{1,9})?){1,256})[ \\t]*$",
	0);
/* "\"Record size = 64 kBytes \"", "\"Output is in kBytes/sec\"" */
static struct bl_re tpinfo_re = BL_RE(
	"^[ \\t]*\"(?:Record size = (\\d{1,19}) [kK][bB]ytes|Output is in [^\"]{1,40}) ?\"[ \\t]*$",
	0);

/* The rest of a row or of the record sizes that a mail client wrapped:
 * "2381058  2565989  4570058" or "\"4096\"  \"8192\"  \"16384\"" alone. */
static struct bl_re more_nums_re = BL_RE(
	"^[ \\t]*\\d{1,20}(?:\\.\\d{1,9})?(?:[ \\t]+\\d{1,20}(?:\\.\\d{1,9})?){0,64}[ \\t]*$", 0);
static struct bl_re more_recs_re = BL_RE("^[ \\t]*(?:\"\\d{1,19}\"[ \\t]*){1,64}$", 0);

/* Joins `line` and the wrapped rests below it into buf (cap bytes and
 * BL_RE_PAD more, for the patterns that read it); `line` then covers them
 * all. */
static void unwrap(struct iz_ctx *c, struct iz_line *line, struct bl_re *more, char *buf,
		   size_t cap)
{
	struct iz_line nx, at = *line;
	struct bl_re_match m;
	size_t n = 0;
	bool joined = false;
	while (iz_line_next(c->msg, &at, &nx) && nx.len && bl_re_match(more, nx.s, nx.len, 0, &m)) {
		if (!joined) {
			if (line->len >= cap)
				return;
			memcpy(buf, line->s, line->len);
			n = line->len;
			joined = true;
		}
		if (n + 1 + nx.len >= cap)
			break;
		buf[n++] = ' ';
		memcpy(buf + n, nx.s, nx.len);
		n += nx.len;
		at = nx;
	}
	if (!joined)
		return;
	bl_re_pad(buf, n);
	line->s = buf;
	line->len = n;
	line->raw.next = at.raw.next;
}

bool iz_is_report_line(const char *s, size_t len)
{
	struct bl_re_match m;
	return len &&
	       (bl_re_match(&below_re, s, len, 0, &m) || bl_re_match(&title_re, s, len, 0, &m));
}

static const char *const block_metric[][2] = {
	{"writer", "write"},
	{"re-writer", "rewrite"},
	{"reader", "read"},
	{"re-reader", "reread"},
	{"random read", "random_read"},
	{"random write", "random_write"},
	{"backward read", "bkwd_read"},
	{"record rewrite", "record_rewrite"},
	{"stride read", "stride_read"},
	{"fwrite", "fwrite"},
	{"re-fwrite", "frewrite"},
	{"fread", "fread"},
	{"re-fread", "freread"},
	{"pwrite", "pwrite"},
	{"re-pwrite", "repwrite"},
	{"pread", "pread"},
	{"re-pread", "repread"},
	{"pwritev", "pwritev"},
	{"re-pwritev", "repwritev"},
	{"preadv", "preadv"},
	{"re-preadv", "repreadv"},
};

static const char *const tp_metric[][2] = {
	{"initial write", "initial_writers"},
	{"rewrite", "rewriters"},
	{"read", "readers"},
	{"re-read", "re_readers"},
	{"reverse read", "reverse_readers"},
	{"stride read", "stride_readers"},
	{"random read", "random_readers"},
	{"mixed workload", "mixed_workload"},
	{"random write", "random_writers"},
	{"pwrite", "pwrite_writers"},
	{"pread", "pread_readers"},
	{"fwrite", "fwriters"},
	{"fread", "freaders"},
};

static void lookup(const char *const (*tab)[2], size_t n, const char *s, size_t len, char *out,
		   size_t cap)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(tab[i][0]) == len && strncasecmp(tab[i][0], s, len) == 0) {
			snprintf(out, cap, "%s", tab[i][1]);
			return;
		}
	iz_metric_name(s, len, out, cap);
}

/* The numbers of a row, as text spans. */
static int split_nums(const char *s, size_t len, const char **v, size_t *vl, int max)
{
	int n = 0;
	size_t i = 0;
	while (i < len && n < max) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= len)
			break;
		size_t b = i;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
		v[n] = s + b;
		vl[n++] = i - b;
	}
	return n;
}

enum mode { M_NONE, M_TEST, M_TP };

struct rep {
	enum mode mode;
	bool cpu;
	char metric[24];
	int col; /* table column of the metric, or -1 */
	uint64_t recs[64]; /* record sizes of the block, kB */
	int nrecs;
	int mismatches, added;
	size_t first_mismatch_off;
	int added_total; /* over the whole report */
	size_t first_added_off;
	char added_in[120]; /* the tests they belong to */
	char first_mismatch[160];
	bool align_noted;
	size_t block_off; /* the title line of the block */
};

static int table_col(const struct iz_ctx *c, const char *metric)
{
	for (int j = 2; j < c->table.ncols && j - 2 < 32; j++)
		if (strcmp(c->table.names[j], metric) == 0)
			return j;
	return -1;
}

static void cell_result(struct iz_ctx *c, const struct rep *r, uint64_t fkb, uint64_t rkb,
			const char *txt, size_t tl)
{
	double v = 0;
	if (!bl_parse_double(txt, tl, false, &v, NULL))
		return;
	char raw[32];
	snprintf(raw, sizeof raw, "%.*s", (int)(tl < 30 ? tl : 30), txt);
	struct bl_result *res;
	if (r->cpu) {
		char metric[40];
		snprintf(metric, sizeof metric, "%s_cpu", r->metric);
		res = bl_run_result(iz_run(c), metric, v, "percent", NULL, 0);
	} else {
		res = iz_rate_result(c, r->metric, v, raw);
	}
	if (!res)
		return;
	bl_result_set_int(res, "file_size", (long long)(fkb * 1024));
	bl_result_set_int(res, "record_size", (long long)(rkb * 1024));
}

/* A file-size row of a per-test block. */
static void test_row(struct iz_ctx *c, struct rep *r, const struct iz_line *l,
		     const struct bl_re_match *m)
{
	uint64_t fkb = 0;
	bl_parse_u64(l->s + m->ov[2], bl_re_glen(m, 1), &fkb, NULL);
	if (fkb > INT64_MAX / 1024)
		return;
	const char *v[64];
	size_t vl[64];
	int n = split_nums(l->s + m->ov[4], bl_re_glen(m, 2), v, vl, 64);
	/* the table's rows of this file size, in the order they ran */
	size_t rows[64];
	int nrows = 0;
	for (size_t i = 0; i < c->table.nrows && nrows < 64; i++)
		if (c->table.rows[i].file_kb == fkb)
			rows[nrows++] = i;
	for (int i = 0; i < n; i++) {
		if (i < nrows && !r->cpu) {
			const struct iz_row *tr = &c->table.rows[rows[i]];
			int bit = r->col - 2;
			if (r->col >= 2 && (tr->has & (1u << bit))) {
				uint64_t rv = 0;
				if (!bl_parse_u64(v[i], vl[i], &rv, NULL) || rv != tr->val[bit]) {
					if (!r->mismatches++) {
						r->first_mismatch_off = l->raw.off;
						snprintf(
							r->first_mismatch, sizeof r->first_mismatch,
							"%s at %llu kB files, %llu kB records: table %llu, report %.*s",
							r->metric, (unsigned long long)fkb,
							(unsigned long long)tr->rec_kb,
							(unsigned long long)tr->val[bit],
							(int)(vl[i] < 24 ? vl[i] : 24), v[i]);
					}
				}
				continue;
			}
			/* the table has no such cell: the report's value stands */
			cell_result(c, r, fkb, tr->rec_kb, v[i], vl[i]);
			r->added++;
			continue;
		}
		if (i >= r->nrecs) {
			bl_doc_diag(
				c->doc, c->ri, BL_WARNING, "iozone.report-extra", l->raw.off,
				"the %s report row for %llu kB files has more values than record sizes: %.*s not read",
				r->metric, (unsigned long long)fkb, (int)(vl[i] < 24 ? vl[i] : 24),
				v[i]);
			break;
		}
		if (!r->align_noted && n < r->nrecs && nrows == 0) {
			bl_doc_diag(
				c->doc, c->ri, BL_INFO, "iozone.report-alignment", l->raw.off,
				"a row of the %s report has fewer values than record sizes: read left to right "
				"(iozone -a leaves out the small records of big files and does not say so)",
				r->metric);
			r->align_noted = true;
		}
		cell_result(c, r, fkb, r->recs[i], v[i], vl[i]);
		if (c->table.nrows)
			r->added++;
	}
}

/* The count of processes of column k of the throughput report. */
static long tp_count(struct iz_ctx *c, int k)
{
	if (k < c->npasses)
		return c->passes[k].count;
	json_t *p = iz_run(c)->params;
	json_t *mn = json_object_get(p, c->threads ? "min_threads" : "min_processes");
	if (json_is_integer(mn))
		return (long)json_integer_value(mn) + k;
	json_t *t = json_object_get(p, c->threads ? "threads" : "processes");
	if (k == 0 && json_is_integer(t))
		return (long)json_integer_value(t);
	return -1;
}

static void tp_row(struct iz_ctx *c, struct rep *r, const struct iz_line *l,
		   const struct bl_re_match *m)
{
	char metric[24];
	lookup(tp_metric, sizeof tp_metric / sizeof tp_metric[0], l->s + m->ov[2], bl_re_glen(m, 1),
	       metric, sizeof metric);
	const char *v[256];
	size_t vl[256];
	int n = split_nums(l->s + m->ov[4], bl_re_glen(m, 2), v, vl, 256);
	for (int k = 0; k < n; k++) {
		double x = 0;
		if (!bl_parse_double(v[k], vl[k], false, &x, NULL))
			continue;
		long count = tp_count(c, k);
		if (k < c->npasses) {
			const struct iz_pass *p = &c->passes[k];
			int t = -1;
			for (int i = 0; i < p->ntests; i++)
				if (strcmp(p->metric[i], metric) == 0 && (!r->cpu || p->has_cpu[i]))
					t = i;
			if (t >= 0) {
				double was = r->cpu ? p->cpu[t] : p->children[t];
				double d = x - was;
				if (d > 0.006 || d < -0.006) {
					if (!r->mismatches++) {
						r->first_mismatch_off = l->raw.off;
						snprintf(
							r->first_mismatch, sizeof r->first_mismatch,
							"%s%s with %ld: sections %.2f, report %.*s",
							metric, r->cpu ? " CPU" : "", count, was,
							(int)(vl[k] < 24 ? vl[k] : 24), v[k]);
					}
				}
				continue;
			}
		}
		char raw[40];
		snprintf(raw, sizeof raw, "%.*s", (int)(vl[k] < 30 ? vl[k] : 30), v[k]);
		struct bl_result *res =
			r->cpu ? bl_run_result(iz_run(c), metric, x, "percent", NULL, 0)
			       : iz_rate_result(c, metric, x, raw);
		if (!res)
			continue;
		bl_result_set_str(res, "scope", r->cpu ? "cpu_util" : "children");
		if (count >= 0)
			bl_result_set_int(res, c->threads ? "threads" : "processes",
					  (long long)count);
		if (c->rec_kb)
			bl_result_set_int(res, "record_size", (long long)(c->rec_kb * 1024));
		if (c->npasses)
			r->added++;
	}
}

static void block_done(struct iz_ctx *c, struct rep *r)
{
	if (r->mismatches)
		bl_doc_diag(c->doc, c->ri, BL_WARNING, "iozone.report-mismatch",
			    r->first_mismatch_off,
			    "the Excel report disagrees with the output above it in %d value%s "
			    "(first: %s); the output above is kept",
			    r->mismatches, r->mismatches == 1 ? "" : "s", r->first_mismatch);
	if (r->added) {
		if (!r->added_total)
			r->first_added_off = r->block_off;
		size_t n = strlen(r->added_in);
		snprintf(r->added_in + n, sizeof r->added_in - n, "%s%s", n ? ", " : "",
			 r->mode == M_TP ? "throughput" : r->metric);
		r->added_total += r->added;
	}
	r->mismatches = r->added = 0;
}

/* One note for all the values only the report has. */
static void report_done(struct iz_ctx *c, struct rep *r)
{
	block_done(c, r);
	if (r->added_total)
		bl_doc_diag(
			c->doc, c->ri, BL_INFO, "iozone.report-only", r->first_added_off,
			"%d value%s of the report (%s) %s not in the output above: read from the report",
			r->added_total, r->added_total == 1 ? "" : "s", r->added_in,
			r->added_total == 1 ? "is" : "are");
}

size_t iz_parse_report(struct iz_ctx *c, const struct iz_line *first)
{
	if (c->block)
		bl_doc_diag(
			c->doc, c->ri, BL_INFO, "iozone.report-not-read", first->raw.off,
			"the table above was read in blocks of rows, each a run: its Excel report, "
			"which repeats the whole table, is not read against this block");
	struct rep r;
	memset(&r, 0, sizeof r);
	r.col = -1;
	struct iz_line cur = *first, nx;
	size_t end = first->raw.next;
	int blanks = 0;
	char joined[4096 + BL_RE_PAD];
	for (;;) {
		struct bl_re_match m;
		bool known = true;
		if (bl_is_blank(cur.s, cur.len)) {
			known = false;
			if (++blanks > 3)
				break;
		} else if (bl_re_match(&below_re, cur.s, cur.len, 0, &m)) {
			/* the start */
		} else if (bl_re_match(&title_re, cur.s, cur.len, 0, &m)) {
			block_done(c, &r);
			r.block_off = cur.raw.off;
			const char *name = cur.s + m.ov[2];
			size_t nl = bl_re_glen(&m, 1);
			r.cpu = bl_re_gset(&m, 2);
			r.nrecs = 0;
			r.align_noted = false;
			if ((nl == 10 && strncmp(name, "Throughput", 10) == 0) ||
			    (nl == 15 && strncmp(name, "CPU utilization", 15) == 0 && !r.cpu)) {
				/* "Throughput report ...", "CPU utilization report
				 * Y-axis ..." (the words split differently) */
				r.mode = M_TP;
				r.cpu = name[0] == 'C';
			} else {
				r.mode = M_TEST;
				lookup(block_metric, sizeof block_metric / sizeof block_metric[0],
				       name, nl, r.metric, sizeof r.metric);
				r.col = table_col(c, r.metric);
			}
		} else if (r.mode == M_TEST && bl_re_match(&recs_re, cur.s, cur.len, 0, &m)) {
			unwrap(c, &cur, &more_recs_re, joined, sizeof joined - BL_RE_PAD);
			r.nrecs = 0;
			for (size_t i = 0; i < cur.len && r.nrecs < 64; i++) {
				if (cur.s[i] != '"' || i + 1 >= cur.len || cur.s[i + 1] < '0' ||
				    cur.s[i + 1] > '9')
					continue;
				size_t used = 0;
				uint64_t v = 0;
				if (bl_parse_u64(cur.s + i + 1, cur.len - i - 1, &v, &used) &&
				    v <= INT64_MAX / 1024)
					r.recs[r.nrecs++] = v;
				i += used + 1;
			}
		} else if (r.mode == M_TEST && bl_re_match(&row_re, cur.s, cur.len, 0, &m)) {
			/* a table read in blocks was read above: its rows are
			 * passed over (with their wrapped rest), not read again */
			unwrap(c, &cur, &more_nums_re, joined, sizeof joined - BL_RE_PAD);
			if (!c->block && bl_re_match(&row_re, cur.s, cur.len, 0, &m))
				test_row(c, &r, &cur, &m);
			else if (!c->block)
				bl_doc_diag(
					c->doc, c->ri, BL_WARNING, "iozone.report-row", cur.raw.off,
					"a report row too long to read (with its wrapped rest): not read");
		} else if (r.mode == M_TP && bl_re_match(&tpinfo_re, cur.s, cur.len, 0, &m)) {
			if (bl_re_gset(&m, 1) && !c->rec_kb)
				bl_parse_u64(cur.s + m.ov[2], bl_re_glen(&m, 1), &c->rec_kb, NULL);
		} else if (r.mode == M_TP && bl_re_match(&tprow_re, cur.s, cur.len, 0, &m)) {
			unwrap(c, &cur, &more_nums_re, joined, sizeof joined - BL_RE_PAD);
			if (bl_re_match(&tprow_re, cur.s, cur.len, 0, &m))
				tp_row(c, &r, &cur, &m);
			else
				bl_doc_diag(
					c->doc, c->ri, BL_WARNING, "iozone.report-row", cur.raw.off,
					"a report row too long to read (with its wrapped rest): not read");
		} else {
			break;
		}
		if (known) {
			blanks = 0;
			end = cur.raw.next;
		}
		if (!iz_line_next(c->msg, &cur, &nx))
			break;
		cur = nx;
	}
	report_done(c, &r);
	return end;
}
