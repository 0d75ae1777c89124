/* iozone.c - iozone output: finds the block, has its preamble and command
 * line read (iozone_preamble.c, iozone_command.c), and hands the body to
 * the table, throughput and Excel readers (iozone_auto.c,
 * iozone_throughput.c, iozone_excel.c).
 *
 * A block is what one iozone run printed, whole or in part:
 *
 *	Iozone: Performance Test of File I/O
 *	        Version $Revision: 3.489 $
 *	...
 *	Command line used: /usr/bin/iozone -i 0 -i 1 -s 4m -r 64k -f /tmp/x/ioz.tmp
 *	Output is in kBytes/sec
 *	...
 *	(a table, or throughput sections)
 *	iozone test complete.
 *	Excel output is below:           (with -R)
 *
 * Posts often keep only the table or only the throughput lines: those are
 * claimed too, from the table header or the first "Children see" line. */
#include "iozone.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/re.h"
#include "../base/units.h"

/* ------------------------------------------------------------------ lines */

/* Mail quoting: "> " or ">" per level, at the start of the line (after
 * an indent, where a quoted post was indented again). */
static void strip_quote(struct iz_line *l)
{
	const char *s = l->raw.s;
	size_t n = l->raw.len, k = 0;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k < n && s[k] == '>') {
		s += k;
		n -= k;
	}
	while (n && s[0] == '>') {
		s++;
		n--;
		if (n && s[0] == ' ') {
			s++;
			n--;
		}
	}
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	l->s = s;
	l->len = n;
}

bool iz_line_at(const struct bl_message *m, size_t off, struct iz_line *out)
{
	if (off > m->len)
		return false;
	bl_line_at(m, off, &out->raw);
	strip_quote(out);
	return true;
}

bool iz_line_next(const struct bl_message *m, const struct iz_line *cur, struct iz_line *out)
{
	if (!bl_line_next(m, &cur->raw, &out->raw))
		return false;
	strip_quote(out);
	return true;
}

bool iz_line_prev(const struct bl_message *m, const struct iz_line *cur, struct iz_line *out)
{
	if (!bl_line_prev(m, &cur->raw, &out->raw))
		return false;
	strip_quote(out);
	return true;
}

size_t iz_expand_tabs(const char *s, size_t len, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < cap; i++) {
		if (s[i] == '\t') {
			size_t to = (o / 8 + 1) * 8;
			while (o < to && o + 1 < cap)
				out[o++] = ' ';
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
	return o;
}

void iz_metric_name(const char *s, size_t len, char *out, size_t cap)
{
	size_t o = 0;
	bool sep = false;
	for (size_t i = 0; i < len && o + 2 < cap; i++) {
		char ch = s[i];
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
		if (!alnum) {
			sep = o > 0;
			continue;
		}
		if (sep)
			out[o++] = '_';
		sep = false;
		out[o++] = ch;
	}
	out[o] = '\0';
	if (!o && cap > 1)
		snprintf(out, cap, "unknown");
}

struct bl_result *iz_rate_result(struct iz_ctx *c, const char *metric, double printed,
				 const char *raw)
{
	switch (c->unit) {
	case IZ_OPS: return bl_run_result(iz_run(c), metric, printed, "ops/s", raw, 0);
	case IZ_USEC: return bl_run_result(iz_run(c), metric, printed * 1e-6, "s", raw, 0);
	case IZ_KBS:
	default: return bl_run_result(iz_run(c), metric, printed * 1024.0, "B/s", raw, 0);
	}
}

/* ------------------------------------------------------------------ claim */

/* A "Command line used:" that a mail client wrapped: iozone indents every
 * preamble line with a tab, so a line right below it that starts at the
 * margin, and is nothing iozone prints, is the rest of the command.
 *	Command line used: iozone -I -a -s 512M -r 4k -r 64k -r 1m -i 0 -i
 * 1 -i 2 */
static void cmd_rest(struct iz_ctx *c, struct iz_line *cur, size_t *last_end)
{
	struct iz_line nx;
	struct bl_re_match m;
	if (!c->cmd_text || !iz_line_next(c->msg, cur, &nx) || !nx.len || nx.s[0] == ' ' ||
	    nx.s[0] == '\t' || iz_pre_match(&nx, &m) >= 0 || iz_is_complete(&nx) ||
	    iz_is_table_header(nx.s, nx.len) || iz_is_top_header(nx.s, nx.len) ||
	    iz_is_throughput_line(nx.s, nx.len) || iz_is_report_line(nx.s, nx.len))
		return;
	size_t ol = strlen(c->cmd_text);
	char *joined = malloc(ol + 1 + nx.len + 1);
	if (!joined)
		return;
	memcpy(joined, c->cmd_text, ol);
	joined[ol] = ' ';
	memcpy(joined + ol + 1, nx.s, nx.len);
	joined[ol + 1 + nx.len] = '\0';
	free(c->cmd_text);
	c->cmd_text = joined;
	*cur = nx;
	*last_end = nx.raw.next;
}

/* What the command (hook) said, read back into the context. */
static void ctx_from_params(struct iz_ctx *c)
{
	struct bl_run *run = iz_run(c);
	if (!c->unit_known) {
		if (json_is_true(json_object_get(run->params, "ops_mode"))) {
			c->unit = IZ_OPS;
			c->unit_known = true;
		} else if (json_is_true(json_object_get(run->params, "usec_mode"))) {
			c->unit = IZ_USEC;
			c->unit_known = true;
		}
	}
	/* a command without -O or -N: iozone's default, kBytes/sec */
	if (run->has_command)
		c->unit_known = true;
	if (json_is_true(json_object_get(run->params, "use_threads")))
		c->threads = true;
	json_t *tests = json_object_get(run->params, "tests");
	size_t i;
	json_t *v;
	c->tests_mask = 0;
	json_array_foreach(tests, i, v)
	{
		json_int_t t = json_integer_value(v);
		if (t >= 0 && t < 31)
			c->tests_mask |= 1L << t;
	}
}

/* Walks up from a table header or a throughput line (no banner above) over
 * the preamble lines a post kept: "Command line used:", "Output is in ...".
 * Returns the offset of the first such line, or `off`. */
static size_t walk_back(struct iz_ctx *c, size_t off)
{
	struct iz_line cur, prev;
	size_t floor = bl_scan_floor(c->sc), start = off;
	iz_line_at(c->msg, off, &cur);
	for (int k = 0; k < 40; k++) {
		if (!iz_line_prev(c->msg, &cur, &prev) || prev.raw.off < floor)
			break;
		cur = prev;
		if (bl_is_blank(cur.s, cur.len))
			continue;
		struct bl_re_match m;
		int idx = iz_pre_match(&cur, &m);
		/* the first header line ("random  random  bkwd ...") */
		bool hdr1 = k < 2 && iz_is_top_header(cur.s, cur.len);
		if (idx < 0 && !hdr1)
			break;
		start = cur.raw.off;
	}
	return start;
}

/* Frees the context and what it still owns (the command, the rows). */
static void ctx_free(struct iz_ctx *c)
{
	free(c->cmd_text);
	free(c->table.rows);
	free(c);
}

/* Reads the preamble, from the block's `start` to its body: the lines
 * iozone prints before a table or throughput sections (*cur ends at the
 * body's first line when there is one; true then). *last_end is the end
 * of the last line taken. */
static bool read_preamble(struct iz_ctx *c, size_t start, bool banner, struct iz_line *cur,
			  size_t *last_end)
{
	struct bl_re_match m;
	int nrec = 0, unknown = 0;
	iz_line_at(c->msg, start, cur);
	*last_end = cur->raw.next;
	for (int k = 0; k < 400; k++) {
		if (iz_is_table_header(cur->s, cur->len) ||
		    iz_is_throughput_line(cur->s, cur->len) || iz_is_report_line(cur->s, cur->len))
			return true;
		if (!bl_is_blank(cur->s, cur->len)) {
			int idx = iz_pre_match(cur, &m);
			/* a second banner: this run printed nothing more */
			if (iz_pre_is(idx, IZ_P_BANNER) && cur->raw.off != start)
				break;
			if (idx >= 0) {
				iz_apply_pre(c, idx, cur, &m, &nrec);
				*last_end = cur->raw.next;
				if (iz_pre_is(idx, IZ_P_CMD))
					cmd_rest(c, cur, last_end);
			} else if (iz_is_complete(cur)) {
				*last_end = cur->raw.next;
				break;
			} else if (iz_is_top_header(cur->s, cur->len)) {
				*last_end = cur->raw.next;
			} else if (!banner || ++unknown > 40) {
				break;
			} else {
				/* contributors' names, "Processor binding ...",
				 * the first table header line: part of the block */
				*last_end = cur->raw.next;
			}
		}
		struct iz_line nx;
		if (!iz_line_next(c->msg, cur, &nx))
			break;
		*cur = nx;
	}
	return false;
}

/* The "Command line used:" of the preamble, when there is one, is the
 * run's command (the line above the block may have given another). */
static void take_command(struct iz_ctx *c, size_t start)
{
	if (!c->cmd_text)
		return;
	struct bl_run *run = iz_run(c);
	free(run->command);
	run->command = c->cmd_text;
	c->cmd_text = NULL;
	if (!run->has_command) {
		run->has_command = true;
		run->cmd_off = start;
	}
	iz_command(c->doc, run, run->command);
}

/* What the body of a block held. */
struct iz_body {
	bool table, throughput, report;
};

/* Reads the body from *cur: one table or one set of throughput sections,
 * then "iozone test complete." and the Excel report. `at_body`: *cur is
 * the body's first line. *last_end moves to the end of what was read. */
static struct iz_body read_body(struct iz_ctx *c, struct iz_line *cur, bool at_body,
				size_t *last_end, struct iz_body b)
{
	int blanks = 0;
	while (at_body || blanks <= 4) {
		at_body = false;
		size_t next = 0;
		bool first = !b.table && !b.throughput && !b.report;
		if (first && iz_is_table_header(cur->s, cur->len)) {
			next = iz_parse_table(c, cur);
			b.table = true;
		} else if (first && iz_is_throughput_line(cur->s, cur->len)) {
			next = iz_parse_throughput(c, cur);
			b.throughput = true;
		} else if (!b.report && iz_is_report_line(cur->s, cur->len) &&
			   iz_may_have_report(iz_run(c))) {
			next = iz_parse_report(c, cur);
			b.report = true;
		} else if (iz_is_complete(cur)) {
			next = cur->raw.next;
		} else if (bl_is_blank(cur->s, cur->len)) {
			blanks++;
			struct iz_line nx;
			if (!iz_line_next(c->msg, cur, &nx))
				break;
			*cur = nx;
			continue;
		} else {
			break;
		}
		if (next <= cur->raw.off)
			break;
		*last_end = next;
		blanks = 0;
		if (next >= c->msg->len || !iz_line_at(c->msg, next, cur))
			break;
	}
	return b;
}

/* Ends the run over [start, last_end) (its command line at cmd_off): its
 * variant, or, with nothing measured, no run. BL_CLAIMED when the block
 * is iozone's. */
static enum bl_claim finish_run(struct iz_ctx *c, struct iz_body b, bool banner, size_t start,
				size_t cmd_off, size_t ndiags0, size_t last_end)
{
	struct bl_run *run = iz_run(c);
	run->end_off = last_end;
	if (run->off > cmd_off)
		run->off = cmd_off;
	if (bl_results_count(&run->results) == 0) {
		/* a banner with nothing measured: malformed; anything else
		 * (a header quoted in prose) is not iozone output */
		for (size_t i = ndiags0; i < c->doc->diags.n; i++)
			c->doc->diags.v[i].run = -1;
		bl_doc_drop_last_run(c->doc);
		if (!banner)
			return BL_NOT_MINE;
		bl_doc_diag(
			c->doc, -1, BL_ERROR, "iozone.no-results", start,
			"iozone's banner and preamble, but no table, throughput or report follows");
		return BL_CLAIMED;
	}
	if (b.throughput)
		run->variant = "throughput";
	else if (b.table)
		run->variant =
			json_is_true(json_object_get(run->params, "auto_mode")) ? "auto" : "table";
	else
		run->variant = "report";
	if (!c->unit_known)
		bl_doc_diag(c->doc, c->ri, BL_INFO, "iozone.unit-assumed", start,
			    "no preamble or command says how iozone reported: kBytes/sec assumed");
	if (c->cut)
		c->doc->partial = true;
	return BL_CLAIMED;
}

/* The rows of a table the block before was too full to read, from
 * `anchor` on: a run of their own, then what follows the table. */
static enum bl_claim read_on(struct iz_ctx *c, const struct bl_line *anchor, size_t *end)
{
	size_t ndiags0 = c->doc->diags.n;
	if (!bl_doc_add_run(c->doc, "iozone", "table", anchor->off, anchor->next)) {
		iz_table_forget();
		return BL_NOT_MINE;
	}
	c->ri = (long)(c->doc->nruns - 1);
	struct iz_line cur;
	iz_line_at(c->msg, anchor->off, &cur);
	size_t last_end = iz_table_read_on(c, &cur);
	struct iz_body b = {.table = true};
	c->block = true;
	if (last_end > anchor->off && last_end < c->msg->len && iz_line_at(c->msg, last_end, &cur))
		b = read_body(c, &cur, false, &last_end, b);
	enum bl_claim ret = finish_run(c, b, false, anchor->off, anchor->off, ndiags0, last_end);
	if (ret == BL_CLAIMED)
		*end = last_end;
	return ret;
}

static enum bl_claim iz_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct iz_ctx *c = iz_ctx_new();
	if (!c)
		return BL_NOT_MINE;
	c->sc = sc;
	c->msg = bl_scan_message(sc);
	c->doc = bl_scan_doc(sc);
	c->unit = IZ_KBS;
	enum bl_claim ret = BL_NOT_MINE;
	if (iz_table_kept_at(c->msg, anchor->off)) {
		ret = read_on(c, anchor, end);
		goto out;
	}
	iz_table_forget();

	struct iz_line cur;
	iz_line_at(c->msg, anchor->off, &cur);
	struct bl_re_match m;
	int first = iz_pre_match(&cur, &m);
	bool banner = iz_pre_is(first, IZ_P_BANNER);
	bool body_line = iz_is_table_header(cur.s, cur.len) ||
			 iz_is_throughput_line(cur.s, cur.len) || iz_is_report_line(cur.s, cur.len);
	if (!banner && !body_line)
		goto out;
	/* a report a few lines below the run it belongs to */
	if (!banner && !iz_is_table_header(cur.s, cur.len) &&
	    !iz_is_throughput_line(cur.s, cur.len) &&
	    iz_rejoin_report((struct iz_scan_ref){sc, c->msg, c->doc}, &cur, end)) {
		ret = BL_CLAIMED;
		goto out;
	}
	size_t start = banner ? cur.raw.off : walk_back(c, cur.raw.off);
	size_t ndiags0 = c->doc->diags.n;
	struct bl_run *run = bl_doc_add_run(c->doc, "iozone", "table", start, cur.raw.next);
	if (!run)
		goto out;
	c->ri = (long)(c->doc->nruns - 1);
	bl_scan_find_command(sc, &bl_parser_iozone, run);
	size_t cmd_off = iz_run(c)->off;

	size_t last_end;
	bool at_body = read_preamble(c, start, banner, &cur, &last_end);
	take_command(c, start);
	ctx_from_params(c);
	struct iz_body b = read_body(c, &cur, at_body, &last_end, (struct iz_body){0});
	ret = finish_run(c, b, banner, start, cmd_off, ndiags0, last_end);
	if (ret == BL_CLAIMED)
		*end = last_end;
out:
	ctx_free(c);
	return ret;
}

static const char *const iz_variants[] = {
	"auto (-a: file size x record size table, every test column)",
	"table (-i selected tests, -s/-r single rows: blank cells for tests not run)",
	"throughput (-t, -l/-u: children/parent, min/max/avg per process or thread, min xfer)",
	"report (-R Excel report alone: per-test blocks, throughput report)",
	"versions 3.2xx (KB, Kbytes/sec), 3.3xx, 3.4xx (kB, kBytes/sec); -O ops/sec, -N microseconds/op",
	NULL,
};

/* How iozone's output looks where a post lost its line breaks
 * (ingest/shapes.h). */
static const struct bl_tool_shapes iz_shapes = {
	/* the preamble, every line led by a tab: "\tRecord Size 8 KB"; not
	 * diskinfo's "512         \t# sectorsize"; -R: "Excel output is below:",
	 * "\"Writer report\"", and the rows under the record lengths:
	 * "\"64\"   1149134  3526006"; its throughput report: "\"Throughput
	 * report Y-axis is ...\"", "\"Record size = 64 kBytes \"",
	 * "\"  Initial write \"  812345.25"; the line above the auto table's
	 * header: "random  random    bkwd   record   stride" */
	.weak_starts =
		"(?<= )\\t(?!#)"
		"|Excel output is below:|\"[A-Z][\\w -]{0,40} report\"|\"\\d+\"(?= {2,}\\d)"
		"|\"(?:Throughput report|Record size = |Output is in )|\" {0,20}[A-Z][\\w -]{1,30}\"(?= +\\d)"
		"|random +random +bkwd +record +stride",
	/* -R: a report's title and rows, "\"Writer report\"",
	 * "\"64\"   1149134  3526006  1698432", "\"  Initial write \"  812345.25" */
	.weak_ends = "\"[A-Z][\\w -]{0,40} report\"|\"\\d+\"(?: +\\d+)+"
		     "|\" {0,20}[A-Z][\\w -]{1,30}\"(?: +\\d+(?:\\.\\d+)?)+",
	.weak_start_needs = (const char *const[]){"\t", ":", "\"", "random", NULL},
	.weak_end_needs = (const char *const[]){"\"", NULL},
	.table_breaks = bl_iz_table_breaks,
};

/* Charts. Auto mode and -i tables: a curve per test against record size,
 * one chart per file size; two runs of one post (-a, -I -a) kept apart;
 * and with several file sizes, a panel per test with a series per size.
 * Throughput mode (-t, -l/-u): the children's sum per test, a bar per run,
 * one chart per number of processes or threads. Its figures carry a
 * scope, which keeps them out of the first two. */
static const struct bl_chart_view iz_views[] = {
	{.name = "throughput",
	 .title = "iozone throughput by record size",
	 .unit = "B/s",
	 .category = BL_KEY_RECORD_SIZE,
	 .series = BL_KEY_METRIC,
	 .chart_per = BL_KEY_FILE_SIZE,
	 .skip_results_with = "scope",
	 .keep_runs_apart = true},
	{.name = "ops",
	 .title = "iozone operations by record size",
	 .unit = "ops/s",
	 .category = BL_KEY_RECORD_SIZE,
	 .series = BL_KEY_METRIC,
	 .chart_per = BL_KEY_FILE_SIZE,
	 .skip_results_with = "scope",
	 .keep_runs_apart = true},
	/* one panel per test: throughput against record size, a series per
	 * file size, as iozone users read an -a run */
	{.name = "test",
	 .title = "iozone throughput by record size and file size",
	 .unit = "B/s",
	 .category = BL_KEY_RECORD_SIZE,
	 .series = BL_KEY_FILE_SIZE,
	 .chart_per = BL_KEY_METRIC,
	 .skip_results_with = "scope",
	 .keep_runs_apart = true,
	 .min_series = 2},
	{.name = "tests",
	 .title = "iozone throughput per test",
	 .unit = "B/s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_PROCESSES,
	 .only_scope = "children"},
	{.name = "tests-ops",
	 .title = "iozone operations per test",
	 .unit = "ops/s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_PROCESSES,
	 .only_scope = "children"},
	{.name = NULL},
};

/* Auto mode and -i tables give one result per (file size, record size)
 * cell; throughput mode (-t, -l/-u) one per figure, its "scope" saying
 * which (children, parent, min, max, avg, min_xfer, cpu_*). */
// clang-format off
static const struct bl_metric_info iz_metric_info[] = {
	{"write", NULL, "B/s ops/s s", "writing a new file (ops/s with -O, s a call with -N)"},
	{"rewrite", NULL, "B/s ops/s s", "writing a file that exists"},
	{"read", NULL, "B/s ops/s s", "reading a file"},
	{"reread", NULL, "B/s ops/s s", "reading a file read just before"},
	{"random_read", NULL, "B/s ops/s s", "reading records at random offsets"},
	{"random_write", NULL, "B/s ops/s s", "writing records at random offsets"},
	{"bkwd_read", NULL, "B/s ops/s s", "reading a file backwards"},
	{"record_rewrite", NULL, "B/s ops/s s", "writing one record over and over"},
	{"stride_read", NULL, "B/s ops/s s", "reading with a stride between records"},
	{"fwrite", NULL, "B/s ops/s s", "writing with fwrite()"},
	{"frewrite", NULL, "B/s ops/s s", "fwrite() to a file that exists"},
	{"fread", NULL, "B/s ops/s s", "reading with fread()"},
	{"freread", NULL, "B/s ops/s s", "fread() of a file read just before"},
	{"pwrite", NULL, "B/s ops/s s", "writing with pwrite()"},
	{"repwrite", NULL, "B/s ops/s s", "pwrite() to a file that exists"},
	{"pread", NULL, "B/s ops/s s", "reading with pread()"},
	{"repread", NULL, "B/s ops/s s", "pread() of a file read just before"},
	{"pwritev", NULL, "B/s ops/s s", "writing with pwritev()"},
	{"repwritev", NULL, "B/s ops/s s", "pwritev() to a file that exists"},
	{"preadv", NULL, "B/s ops/s s", "reading with preadv()"},
	{"repreadv", NULL, "B/s ops/s s", "preadv() of a file read just before"},
	{"*_cpu", NULL, "percent", "the CPU of a test in an Excel report with -+u"},
	{"*_writers", NULL, "B/s ops/s B percent s",
	 "a throughput-mode write test (-t): rate, min_xfer bytes, CPU (-+u)"},
	{"*_readers", NULL, "B/s ops/s B percent s",
	 "a throughput-mode read test (-t): rate, min_xfer bytes, CPU (-+u)"},
	{"readers", NULL, "B/s ops/s B percent s", "the throughput-mode read test"},
	{"rewriters", NULL, "B/s ops/s B percent s", "the throughput-mode rewrite test"},
	{"mixed_workload", NULL, "B/s ops/s B percent s", "the throughput-mode mixed test (-i 8)"},
	{"fwriters", NULL, "B/s ops/s B percent s", "the throughput-mode fwrite test"},
	{"freaders", NULL, "B/s ops/s B percent s", "the throughput-mode fread test"},
	{NULL, NULL, NULL, NULL},
};
// clang-format on

const struct bl_parser bl_parser_iozone = {
	.name = "iozone",
	.summary = "iozone: auto-mode and -i tables, throughput mode, Excel report",
	.variants = iz_variants,
	/* "Iozone: Performance Test of File I/O"; "kB  reclen    write";
	 * "Children see throughput for  2 initial writers"; "Excel output is below:";
	 * "\"Writer report\"" */
	.anchor = "Iozone: Performance Test of File I/O|\\b[kK][bB][ \\t]+reclen[ \\t]+write"
		  "|Children see throughput for|Excel output is below:"
		  /* three literals, not one group: a group leaves " report" as
		   * the needle, which every "reply" of a mail brings up */
		  "|\"Writer report|\"Reader report|\"Throughput report",
	.command_word = "iozone",
	.shapes = &iz_shapes,
	.claim = iz_claim,
	.command = iz_command,
	.reads_on = iz_table_reads_on,
	.views = iz_views,
	.metrics = iz_metric_info,
};
