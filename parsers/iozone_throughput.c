/* iozone_throughput.c - throughput mode (-t N, -l / -u ranges).
 *
 * One section per test, repeated for each number of processes (threads
 * with -T); the spacing between "for" and the count varies inside one
 * output ("for  2 initial writers", "for 2 re-readers"):
 *
 *	Children see throughput for  2 initial writers 	= 4540367.50 kB/sec
 *	Parent sees throughput for  2 initial writers 	=  477393.56 kB/sec
 *	Min throughput per process 			=       0.00 kB/sec
 *	Max throughput per process 			= 4540367.50 kB/sec
 *	Avg throughput per process 			= 2270183.75 kB/sec
 *	Min xfer 					=       0.00 kB
 *
 * Each figure is one result: the metric is the test ("initial_writers",
 * "re_readers", ...), the `scope` says which figure (children, parent, min,
 * max, avg, min_xfer; cpu_wall, cpu_time, cpu_util with -+u; child and
 * child_xfer per child with -C) and `processes` or `threads` the count. */
#include "iozone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/re.h"
#include "../base/units.h"

#define NUM "(\\d{1,20}(?:\\.\\d{1,9})?)"

/* "\tChildren see throughput for  2 initial writers \t= 4540367.50 kB/sec"
 * "\tParent sees throughput for 2 re-readers \t= 4560916.08 kB/sec"
 * "\tChildren see throughput for 1 random readers \t=   1234.56 ops/sec" */
static struct bl_re total_re =
	BL_RE("^[ \\t]*(Children see|Parent sees) throughput for[ \\t]+(\\d{1,9})[ \\t]+"
	      "([A-Za-z][A-Za-z -]{0,40}?)[ \\t]*=[ \\t]*" NUM "[ \\t]*(kB|KB|ops)/sec",
	      0);

/* "\tMin throughput per process \t\t\t=       0.00 kB/sec "
 * "\tAvg throughput per thread \t\t\t= 2270183.75 kB/sec" */
static struct bl_re per_re =
	BL_RE("^[ \\t]*(Min|Max|Avg) throughput per (process|thread)[ \\t]*=[ \\t]*" NUM
	      "[ \\t]*(kB|KB|ops)/sec",
	      0);

/* "\tMin xfer \t\t\t\t\t=    3968.00 kB" */
static struct bl_re xfer_re =
	BL_RE("^[ \\t]*Min xfer[ \\t]*=[ \\t]*" NUM "[ \\t]*(kB|KB|ops)\\b", 0);

/* -+u: "\tCPU Utilization: Wall time    0.011    CPU time    0.010    CPU utilization  93.54 %" */
static struct bl_re cpu_re =
	BL_RE("^[ \\t]*CPU [Uu]tilization: Wall time[ \\t]+" NUM "[ \\t]+CPU time[ \\t]+" NUM
	      "[ \\t]+CPU utilization[ \\t]+" NUM "[ \\t]*%",
	      0);

/* -C: "\tChild[0] xfer count = 4096.00 kB, Throughput = 4540367.50 kB/sec"
 * (with -+u: ", wall= 0.001, cpu= 0.001, %=100.00" after it) */
static struct bl_re child_re = BL_RE("^[ \\t]*Child\\[(\\d{1,9})\\] xfer count =[ \\t]*" NUM
				     "[ \\t]*(kB|KB|ops), Throughput =[ \\t]*" NUM
				     "[ \\t]*(kB|KB|ops)/sec(?:, wall=[ \\t]*" NUM
				     ", cpu=[ \\t]*" NUM ", %=[ \\t]*" NUM ")?",
				     0);

/* lines of the preamble that iozone repeats in this mode:
 * "\tEach process writes a 4096 kByte file in 64 kByte records",
 * "\tThroughput test with 2 processes" */
static struct bl_re each_re = BL_RE(
	"^[ \\t]*Each (process|thread) writes a (\\d{1,19}) [kK]byte file in (?:(\\d{1,19}) [kK]byte records|telemetry)",
	0);
static struct bl_re with_re = BL_RE(
	"^[ \\t]*(?:Throughput test with \\d{1,9} (?:process|thread)|(?:Min|Max) (?:process|thread) = )",
	0);

/* The start of a throughput line that a mail client wrapped:
 * "\tChildren see throughput for  2 initial writers \t=" / "4540367.50 kB/sec" */
static struct bl_re prefix_re = BL_RE(
	"^[ \\t]*(?:Children see throughput for[ \\t]+\\d|Parent sees throughput for[ \\t]+\\d"
	"|(?:Min|Max|Avg) throughput per (?:process|thread)|Min xfer|Child\\[\\d{1,9}\\] xfer"
	"|CPU [Uu]tilization: Wall|Each (?:process|thread) writes a)",
	0);

bool iz_is_throughput_line(const char *s, size_t len)
{
	struct bl_re_match m;
	size_t k = 0;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return len &&
	       (bl_re_match(&total_re, s, len, 0, &m) || bl_re_match(&each_re, s, len, 0, &m) ||
		(len - k >= 27 && memcmp(s + k, "Children see throughput for", 27) == 0));
}

static bool any_full(const char *s, size_t len)
{
	struct bl_re_match m;
	return bl_re_match(&total_re, s, len, 0, &m) || bl_re_match(&per_re, s, len, 0, &m) ||
	       bl_re_match(&xfer_re, s, len, 0, &m) || bl_re_match(&cpu_re, s, len, 0, &m) ||
	       bl_re_match(&child_re, s, len, 0, &m) || bl_re_match(&each_re, s, len, 0, &m);
}

/* Joins a wrapped throughput line with the line below it into `buf` (cap
 * bytes and BL_RE_PAD more, for the patterns that read it); `line` then
 * covers both. */
static bool unwrap(struct iz_ctx *c, struct iz_line *line, char *buf, size_t cap)
{
	struct bl_re_match m;
	struct iz_line nx;
	if (!bl_re_match(&prefix_re, line->s, line->len, 0, &m) || any_full(line->s, line->len) ||
	    !iz_line_next(c->msg, line, &nx) || bl_is_blank(nx.s, nx.len))
		return false;
	const char *t = nx.s;
	size_t tl = nx.len;
	while (tl && (*t == ' ' || *t == '\t')) {
		t++;
		tl--;
	}
	if (line->len + 1 + tl >= cap)
		return false;
	memcpy(buf, line->s, line->len);
	buf[line->len] = ' ';
	memcpy(buf + line->len + 1, t, tl);
	bl_re_pad(buf, line->len + 1 + tl);
	if (!any_full(buf, line->len + 1 + tl))
		return false;
	line->s = buf;
	line->len += 1 + tl;
	line->raw.next = nx.raw.next;
	return true;
}

/* the throughput tests, as printed, and their metric names */
static const char *const test_names[][2] = {
	{"initial writers", "initial_writers"},
	{"rewriters", "rewriters"},
	{"readers", "readers"},
	{"re-readers", "re_readers"},
	{"reverse readers", "reverse_readers"},
	{"stride readers", "stride_readers"},
	{"random readers", "random_readers"},
	{"mixed workload", "mixed_workload"},
	{"random writers", "random_writers"},
	{"pwrite writers", "pwrite_writers"},
	{"pread readers", "pread_readers"},
	{"fwriters", "fwriters"},
	{"freaders", "freaders"},
};

static void test_metric(const char *s, size_t len, char *out, size_t cap)
{
	for (size_t i = 0; i < sizeof test_names / sizeof test_names[0]; i++)
		if (strlen(test_names[i][0]) == len && memcmp(s, test_names[i][0], len) == 0) {
			snprintf(out, cap, "%s", test_names[i][1]);
			return;
		}
	iz_metric_name(s, len, out, cap);
}

struct tp_state {
	char metric[24];
	long count; /* processes/threads of the current section */
	bool in_section; /* Children seen, Min xfer not yet */
	size_t section_off;
};

static double num(const struct iz_line *l, const struct bl_re_match *m, int g)
{
	double v = 0;
	bl_parse_double(l->s + m->ov[2 * g], bl_re_glen(m, g), false, &v, NULL);
	return v;
}

static bool is_ops(const struct iz_line *l, const struct bl_re_match *m, int g)
{
	return l->s[m->ov[2 * g]] == 'o';
}

/* One figure: a rate (B/s or ops/s) or an amount (B or ops). */
static void add(struct iz_ctx *c, const struct tp_state *st, const char *scope,
		const struct iz_line *l, const struct bl_re_match *m, int gval, int gunit,
		bool rate, long child)
{
	double v = num(l, m, gval);
	bool ops = is_ops(l, m, gunit);
	char raw[80];
	snprintf(raw, sizeof raw, "%.*s %.*s%s", (int)bl_re_glen(m, gval), l->s + m->ov[2 * gval],
		 (int)bl_re_glen(m, gunit), l->s + m->ov[2 * gunit], rate ? "/sec" : "");
	const char *unit = ops ? (rate ? "ops/s" : "ops") : (rate ? "B/s" : "B");
	struct bl_result *r =
		bl_run_result(iz_run(c), st->metric, ops ? v : v * 1024.0, unit, raw, 0);
	if (!r)
		return;
	bl_result_set_str(r, "scope", scope);
	bl_result_set_int(r, c->threads ? "threads" : "processes", (long long)st->count);
	if (child >= 0)
		bl_result_set_int(r, "child", (long long)child);
	if (c->file_kb)
		bl_result_set_int(r, "file_size", (long long)(c->file_kb * 1024));
	if (c->rec_kb)
		bl_result_set_int(r, "record_size", (long long)(c->rec_kb * 1024));
}

void iz_pass_children(struct iz_ctx *c, const char *metric, long count, double printed)
{
	struct iz_pass *p = c->npasses ? &c->passes[c->npasses - 1] : NULL;
	bool repeat = false;
	for (int i = 0; p && i < p->ntests; i++)
		repeat = repeat || strcmp(p->metric[i], metric) == 0;
	if (!p || p->count != count || repeat) {
		if (c->npasses == (int)(sizeof c->passes / sizeof c->passes[0]))
			return;
		p = &c->passes[c->npasses++];
		memset(p, 0, sizeof *p);
		p->count = count;
	}
	if (p->ntests < 16) {
		snprintf(p->metric[p->ntests], sizeof p->metric[0], "%s", metric);
		p->children[p->ntests++] = printed;
	}
}

void iz_pass_cpu(struct iz_ctx *c, const char *metric, double percent)
{
	struct iz_pass *p = c->npasses ? &c->passes[c->npasses - 1] : NULL;
	for (int i = 0; p && i < p->ntests; i++)
		if (strcmp(p->metric[i], metric) == 0) {
			p->cpu[i] = percent;
			p->has_cpu[i] = true;
		}
}

static void section_cut(struct iz_ctx *c, const struct tp_state *st)
{
	bl_doc_diag(c->doc, c->ri, BL_WARNING, "iozone.section-cut", st->section_off,
		    "the %s section for %ld %s ends before its Min xfer line: cut off", st->metric,
		    st->count, c->threads ? "threads" : "processes");
	c->cut = true;
}

/* The CPU figures of a line, groups g0 to g0 + 2 (those set): wall and
 * CPU seconds, and the utilisation, each a result of the section's test
 * with its scope ("cpu_wall", ... or "child_cpu_wall", ...), and the
 * child's number when it is one child's (child >= 0). */
static void cpu_figures(struct iz_ctx *c, const struct tp_state *st, const struct iz_line *l,
			const struct bl_re_match *m, int g0, const char *const scope[3], long child)
{
	for (int g = g0; g < g0 + 3 && bl_re_gset(m, g); g++) {
		struct bl_result *r = bl_run_result(iz_run(c), st->metric, num(l, m, g),
						    g == g0 + 2 ? "percent" : "s", NULL, 0);
		if (!r)
			continue;
		bl_result_set_str(r, "scope", scope[g - g0]);
		bl_result_set_int(r, c->threads ? "threads" : "processes", (long long)st->count);
		if (child >= 0)
			bl_result_set_int(r, "child", (long long)child);
	}
}

/* "Children see throughput for  2 initial writers = 123.45 kB/sec" opens
 * a test's section; "Parent sees ..." the same test's is read in it. */
static void total_line(struct iz_ctx *c, struct tp_state *st, const struct iz_line *l,
		       const struct bl_re_match *m)
{
	bool children = l->s[m->ov[2]] == 'C';
	uint64_t n = 0;
	bl_parse_u64(l->s + m->ov[4], bl_re_glen(m, 2), &n, NULL);
	char metric[24];
	test_metric(l->s + m->ov[6], bl_re_glen(m, 3), metric, sizeof metric);
	if (children) {
		if (st->in_section)
			section_cut(c, st);
		snprintf(st->metric, sizeof st->metric, "%s", metric);
		st->count = (long)n;
		st->in_section = true;
		st->section_off = l->raw.off;
		add(c, st, "children", l, m, 4, 5, true, -1);
		iz_pass_children(c, st->metric, st->count, num(l, m, 4));
	} else if (st->in_section && strcmp(metric, st->metric) == 0) {
		add(c, st, "parent", l, m, 4, 5, true, -1);
	} else {
		bl_doc_diag(c->doc, c->ri, BL_WARNING, "iozone.orphan-line", l->raw.off,
			    "a Parent line for %s without its Children line: not read", metric);
	}
}

size_t iz_parse_throughput(struct iz_ctx *c, const struct iz_line *first)
{
	struct tp_state st = {.metric = "", .count = 0, .in_section = false};
	struct iz_line cur = *first, nx;
	size_t end = first->raw.off;
	int blanks = 0;
	char joined[600 + BL_RE_PAD];
	for (;;) {
		struct bl_re_match m;
		bool known = true;
		unwrap(c, &cur, joined, sizeof joined - BL_RE_PAD);
		if (bl_is_blank(cur.s, cur.len)) {
			if (++blanks > 4)
				break;
			known = false;
		} else if (bl_re_match(&total_re, cur.s, cur.len, 0, &m)) {
			total_line(c, &st, &cur, &m);
		} else if (bl_re_match(&per_re, cur.s, cur.len, 0, &m)) {
			c->threads = cur.s[m.ov[4]] == 't';
			static const char *const scope[] = {"min", "max", "avg"};
			int which = cur.s[m.ov[2]] == 'M' ? (cur.s[m.ov[2] + 1] == 'i' ? 0 : 1) : 2;
			if (st.in_section)
				add(c, &st, scope[which], &cur, &m, 3, 4, true, -1);
			else
				bl_doc_diag(
					c->doc, c->ri, BL_WARNING, "iozone.orphan-line",
					cur.raw.off,
					"a per-process figure outside any test section: not read");
		} else if (bl_re_match(&xfer_re, cur.s, cur.len, 0, &m)) {
			if (st.in_section)
				add(c, &st, "min_xfer", &cur, &m, 1, 2, false, -1);
			st.in_section = false;
		} else if (bl_re_match(&cpu_re, cur.s, cur.len, 0, &m)) {
			static const char *const scope[3] = {"cpu_wall", "cpu_time", "cpu_util"};
			iz_pass_cpu(c, st.metric, num(&cur, &m, 3));
			if (st.metric[0])
				cpu_figures(c, &st, &cur, &m, 1, scope, -1);
		} else if (bl_re_match(&child_re, cur.s, cur.len, 0, &m)) {
			if (st.metric[0]) {
				uint64_t id = 0;
				bl_parse_u64(cur.s + m.ov[2], bl_re_glen(&m, 1), &id, NULL);
				add(c, &st, "child_xfer", &cur, &m, 2, 3, false, (long)id);
				add(c, &st, "child", &cur, &m, 4, 5, true, (long)id);
				static const char *const scope[3] = {
					"child_cpu_wall", "child_cpu_time", "child_cpu_util"};
				cpu_figures(c, &st, &cur, &m, 6, scope, (long)id);
			}
		} else if (bl_re_match(&each_re, cur.s, cur.len, 0, &m)) {
			c->threads = cur.s[m.ov[2]] == 't';
			bl_parse_u64(cur.s + m.ov[4], bl_re_glen(&m, 2), &c->file_kb, NULL);
			if (bl_re_gset(&m, 3))
				bl_parse_u64(cur.s + m.ov[6], bl_re_glen(&m, 3), &c->rec_kb, NULL);
		} else if (bl_re_match(&with_re, cur.s, cur.len, 0, &m)) {
			/* repeated for each count of -l/-u; the count is on
			 * every Children line */
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
	if (st.in_section)
		section_cut(c, &st);
	return end > first->raw.off ? end : first->raw.next;
}
