/* iozone.c - iozone output: finds the block, reads the preamble and the
 * command line, and hands the body to the table, throughput and Excel
 * readers (iozone_auto.c, iozone_throughput.c, iozone_excel.c).
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

#include "re.h"
#include "units.h"

/* ------------------------------------------------------------------ lines */

/* Mail quoting: "> " or ">" per level, at the very start of the line. */
static void strip_quote(struct iz_line *l)
{
	const char *s = l->raw.s;
	size_t n = l->raw.len;
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

bool iz_line_next(const struct bl_message *m, const struct iz_line *cur,
		  struct iz_line *out)
{
	if (!bl_line_next(m, &cur->raw, &out->raw))
		return false;
	strip_quote(out);
	return true;
}

bool iz_line_prev(const struct bl_message *m, const struct iz_line *cur,
		  struct iz_line *out)
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

json_t *iz_rate_result(struct iz_ctx *c, const char *metric, double printed,
		       const char *raw)
{
	switch (c->unit) {
	case IZ_OPS:
		return bl_run_result(iz_run(c), metric, printed, "ops/s", raw, 0);
	case IZ_USEC:
		return bl_run_result(iz_run(c), metric, printed * 1e-6, "s", raw, 0);
	case IZ_KBS:
	default:
		return bl_run_result(iz_run(c), metric, printed * 1024.0, "B/s", raw, 0);
	}
}

/* --------------------------------------------------------------- preamble */

enum pre_kind {
	P_BANNER, P_VERSION, P_COMPILED, P_BUILD, P_RUN_BEGAN, P_AUTO, P_FILE_SIZE,
	P_REC_SIZE, P_ODIRECT, P_FSYNC, P_CLOSE, P_OPS, P_USEC, P_EXCEL, P_CMD,
	P_OUTPUT, P_TIMERES, P_CACHE, P_CACHELINE, P_STRIDE, P_TP_WITH, P_MINMAX,
	P_EACH, P_CONTRIB, P_SYNC, P_CPU_RES, P_USING,
};

struct pre_pat {
	enum pre_kind kind;
	struct bl_re re;
};

static struct pre_pat pre_pats[] = {
	/* "\tIozone: Performance Test of File I/O" */
	{P_BANNER, BL_RE("^[ \\t]*Iozone: Performance Test of File I/O", 0)},
	/* "\t        Version $Revision: 3.489 $" */
	{P_VERSION, BL_RE("^[ \\t]*Version \\$Revision: (\\d{1,3}\\.\\d{1,5}) ?\\$", 0)},
	/* "\t\tCompiled for 64 bit mode." */
	{P_COMPILED, BL_RE("^[ \\t]*Compiled for (\\d{2}) bit mode\\.", 0)},
	/* "\t\tBuild: linux-AMD64 " */
	{P_BUILD, BL_RE("^[ \\t]*Build: (\\S{1,80})", 0)},
	/* "\tRun began: Mon Nov 30 06:04:58 2026" */
	{P_RUN_BEGAN, BL_RE("^[ \\t]*Run began: (.{1,80}?)[ \\t]*$", 0)},
	/* "\tAuto Mode", "\tAuto Mode 2. This option is obsolete. ..." */
	{P_AUTO, BL_RE("^[ \\t]*Auto Mode", 0)},
	/* "\tFile size set to 4096 kB" (3.430+), "... 262144 KB" (older) */
	{P_FILE_SIZE, BL_RE("^[ \\t]*File size set to (\\d{1,19}) [kK][bB]", 0)},
	/* "\tRecord Size 64 kB", "\tRecord Size 4 KB" */
	{P_REC_SIZE, BL_RE("^[ \\t]*Record Size (\\d{1,19}) [kK][bB]", 0)},
	/* "\tO_DIRECT feature enabled", "\tO_DIRECTIO feature enabled",
	 * "\tVxFS advanced feature SET_CACHE, VX_DIRECT enabled" */
	{P_ODIRECT, BL_RE("^[ \\t]*(?:O_DIRECT feature enabled|O_DIRECTIO feature enabled|VxFS advanced feature SET_CACHE, VX_DIRECT enabled)", 0)},
	/* "\tInclude fsync in write timing" (-e) */
	{P_FSYNC, BL_RE("^[ \\t]*Include fsync in write timing", 0)},
	/* "\tInclude close in write timing" (-c) */
	{P_CLOSE, BL_RE("^[ \\t]*Include close in write timing", 0)},
	/* "\tOPS Mode. Output is in operations per second." (-O) */
	{P_OPS, BL_RE("^[ \\t]*OPS Mode\\. Output is in operations per second", 0)},
	/* "\tMicroseconds/op Mode. Output is in microseconds per operation." (-N) */
	{P_USEC, BL_RE("^[ \\t]*Microseconds/op Mode\\.", 0)},
	/* "\tExcel chart generation enabled" (-R) */
	{P_EXCEL, BL_RE("^[ \\t]*Excel chart generation enabled", 0)},
	/* "\tCommand line used: /usr/bin/iozone -i 0 -i 1 -s 4m -r 64k -f /tmp/x/ioz.tmp" */
	{P_CMD, BL_RE("^[ \\t]*Command line used: ?(.{0,2000})$", 0)},
	/* "\tOutput is in kBytes/sec" (3.430+), "\tOutput is in Kbytes/sec" */
	{P_OUTPUT, BL_RE("^[ \\t]*Output is in ([kK]bytes|[kK]Bytes)/sec", 0)},
	/* "\tTime Resolution = 0.000001 seconds." */
	{P_TIMERES, BL_RE("^[ \\t]*Time Resolution = (\\d{1,6}\\.\\d{1,9}) seconds", 0)},
	/* "\tProcessor cache size set to 1024 kBytes." */
	{P_CACHE, BL_RE("^[ \\t]*Processor cache size set to (\\d{1,12}) [kK][bB]ytes", 0)},
	/* "\tProcessor cache line size set to 32 bytes." */
	{P_CACHELINE, BL_RE("^[ \\t]*Processor cache line size set to (\\d{1,12}) bytes", 0)},
	/* "\tFile stride size set to 17 * record size." */
	{P_STRIDE, BL_RE("^[ \\t]*File stride size set to (\\d{1,12}) \\* record size", 0)},
	/* "\tThroughput test with 2 processes", "... with 1 thread" */
	{P_TP_WITH, BL_RE("^[ \\t]*Throughput test with (\\d{1,9}) (process|processes|thread|threads)\\b", 0)},
	/* "\tMin process = 1 ", "\tMax thread = 4 " (-l / -u) */
	{P_MINMAX, BL_RE("^[ \\t]*(Min|Max) (process|thread) = (\\d{1,9})", 0)},
	/* "\tEach process writes a 4096 kByte file in 64 kByte records"
	 * "\tEach thread writes a 262144 Kbyte file in 4 Kbyte records" */
	{P_EACH, BL_RE("^[ \\t]*Each (process|thread) writes a (\\d{1,19}) [kK]byte file in (?:(\\d{1,19}) [kK]byte records|telemetry)", 0)},
	/* "\tContributors:William Norcott, Don Capps, ..." */
	{P_CONTRIB, BL_RE("^[ \\t]*Contributors:", 0)},
	/* "\tSYNC Mode. " (-o) */
	{P_SYNC, BL_RE("^[ \\t]*SYNC Mode\\.", 0)},
	/* "\tCPU utilization Resolution = 0.010 seconds." (-+u) */
	{P_CPU_RES, BL_RE("^[ \\t]*CPU utilization Resolution = (\\d{1,6}\\.\\d{1,9}) seconds", 0)},
	/* "\tUsing Minimum Record Size 4 kB", "\tUsing maximum file size of 524288 kilobytes." */
	{P_USING, BL_RE("^[ \\t]*Using (Minimum|Maximum|minimum|maximum) (Record Size|file size of) (\\d{1,19}) (?:kB|KB|kilobytes)", 0)},
};

#define NPRE (sizeof pre_pats / sizeof pre_pats[0])

/* "iozone test complete." */
static struct bl_re complete_re = BL_RE("^[ \\t]*iozone test complete\\.", 0);

static int pre_match(const struct iz_line *l, struct bl_re_match *m)
{
	if (!l->len)
		return -1;
	for (size_t i = 0; i < NPRE; i++)
		if (bl_re_match(&pre_pats[i].re, l->s, l->len, 0, m))
			return (int)i;
	return -1;
}

static uint64_t group_u64(const struct iz_line *l, const struct bl_re_match *m, int g)
{
	uint64_t v = 0;
	if (bl_re_gset(m, g))
		bl_parse_u64(l->s + m->ov[2 * g], bl_re_glen(m, g), &v, NULL);
	return v;
}

static void param_true(struct bl_run *run, const char *key)
{
	json_object_set_new(run->params, key, json_true());
}

static void param_kb(struct bl_run *run, const char *key, uint64_t kb)
{
	if (kb <= INT64_MAX / 1024)
		bl_run_param_int(run, key, (long long)(kb * 1024));
}

/* Record sizes: one is "record_size"; several (-r 4k -r 1m) also fill
 * "record_sizes" in the order given. */
static void add_record_size(struct bl_run *run, uint64_t bytes)
{
	json_t *arr = json_object_get(run->params, "record_sizes");
	json_t *one = json_object_get(run->params, "record_size");
	if (!arr && one) {
		arr = json_array();
		json_array_append(arr, one);
		json_object_set_new(run->params, "record_sizes", arr);
	}
	if (arr)
		json_array_append_new(arr, json_integer((json_int_t)bytes));
	if (!one)
		json_object_set_new(run->params, "record_size", json_integer((json_int_t)bytes));
}

static void apply_pre(struct iz_ctx *c, int idx, const struct iz_line *l,
		      const struct bl_re_match *m, int *nrec)
{
	struct bl_run *run = iz_run(c);
	const char *g1 = bl_re_gset(m, 1) ? l->s + m->ov[2] : NULL;
	size_t g1l = bl_re_glen(m, 1);
	switch (pre_pats[idx].kind) {
	case P_VERSION: bl_run_param_str(run, "version", g1, g1l); break;
	case P_COMPILED: bl_run_param_int(run, "compiled_bits", (long long)group_u64(l, m, 1)); break;
	case P_BUILD: bl_run_param_str(run, "build", g1, g1l); break;
	case P_RUN_BEGAN: bl_run_param_str(run, "run_began", g1, g1l); break;
	case P_AUTO: param_true(run, "auto_mode"); break;
	case P_FILE_SIZE:
		c->file_kb = group_u64(l, m, 1);
		param_kb(run, "file_size", c->file_kb);
		break;
	case P_REC_SIZE: {
		uint64_t kb = group_u64(l, m, 1);
		if (kb <= INT64_MAX / 1024) {
			/* the command's -r already put these in; the preamble
			 * wins, so start the list afresh */
			if (*nrec == 0) {
				json_object_del(run->params, "record_size");
				json_object_del(run->params, "record_sizes");
			}
			add_record_size(run, kb * 1024);
		}
		c->rec_kb = (*nrec)++ == 0 ? kb : 0;
		break;
	}
	case P_ODIRECT: param_true(run, "o_direct"); break;
	case P_FSYNC: param_true(run, "include_fsync"); break;
	case P_CLOSE: param_true(run, "include_close"); break;
	case P_OPS:
		c->unit = IZ_OPS;
		c->unit_known = true;
		bl_run_param_str(run, "output_unit", "ops/sec", 7);
		break;
	case P_USEC:
		c->unit = IZ_USEC;
		c->unit_known = true;
		bl_run_param_str(run, "output_unit", "microseconds/op", 15);
		break;
	case P_EXCEL: param_true(run, "excel_report"); break;
	case P_CMD:
		free(c->cmd_text);
		c->cmd_text = bl_strndup_trim(g1 ? g1 : "", g1l);
		break;
	case P_OUTPUT: {
		char buf[32];
		snprintf(buf, sizeof buf, "%.*s/sec", (int)g1l, g1);
		bl_run_param_str(run, "output_unit", buf, strlen(buf));
		c->unit = IZ_KBS;
		c->unit_known = true;
		break;
	}
	case P_TIMERES: {
		double v;
		if (bl_parse_double(g1, g1l, false, &v, NULL))
			bl_run_param_real(run, "time_resolution", v);
		break;
	}
	case P_CACHE: param_kb(run, "cache_size", group_u64(l, m, 1)); break;
	case P_CACHELINE: bl_run_param_int(run, "cache_line_size", (long long)group_u64(l, m, 1)); break;
	case P_STRIDE: bl_run_param_int(run, "stride_records", (long long)group_u64(l, m, 1)); break;
	case P_TP_WITH: {
		c->threads = l->s[m->ov[4]] == 't';
		bl_run_param_int(run, c->threads ? "threads" : "processes",
				 (long long)group_u64(l, m, 1));
		break;
	}
	case P_MINMAX: {
		bool th = l->s[m->ov[4]] == 't';
		c->threads = th;
		char key[24];
		snprintf(key, sizeof key, "%s_%s", l->s[m->ov[2] + 1] == 'i' ? "min" : "max",
			 th ? "threads" : "processes");
		bl_run_param_int(run, key, (long long)group_u64(l, m, 3));
		break;
	}
	case P_EACH:
		c->threads = l->s[m->ov[2]] == 't';
		c->file_kb = group_u64(l, m, 2);
		param_kb(run, "file_size", c->file_kb);
		if (bl_re_gset(m, 3)) {
			c->rec_kb = group_u64(l, m, 3);
			param_kb(run, "record_size", c->rec_kb);
		}
		break;
	case P_SYNC: param_true(run, "o_sync"); break;
	case P_CPU_RES: {
		double v;
		if (bl_parse_double(g1, g1l, false, &v, NULL))
			bl_run_param_real(run, "cpu_resolution", v);
		break;
	}
	case P_USING: {
		char key[32];
		bool min = g1[1] == 'i';
		bool rec = l->s[m->ov[4]] == 'R';
		snprintf(key, sizeof key, "%s_%s", min ? "min" : "max", rec ? "record_size" : "file_size");
		param_kb(run, key, group_u64(l, m, 3));
		break;
	}
	case P_BANNER:
	case P_CONTRIB:
		break;
	}
}

/* ---------------------------------------------------------------- command */

/* An iozone size operand: "4m", "512k", "1g", "64K"; a bare number is kB. */
static bool iz_size(const char *s, size_t len, uint64_t *bytes)
{
	uint64_t v;
	size_t used;
	if (!bl_parse_u64(s, len, &v, &used))
		return false;
	uint64_t mul = 1024;
	if (used < len) {
		if (used + 1 != len)
			return false;
		switch (s[used]) {
		case 'k': case 'K': mul = 1024; break;
		case 'm': case 'M': mul = 1024ull * 1024; break;
		case 'g': case 'G': mul = 1024ull * 1024 * 1024; break;
		default: return false;
		}
	}
	if (v > UINT64_MAX / mul || v * mul > INT64_MAX)
		return false;
	*bytes = v * mul;
	return true;
}

/* Options that take an argument, from iozone's getopt string. */
static bool takes_arg(char o)
{
	return o && strchr("JjkVrtsfFdluUSLHPibXYgnyq", o) != NULL;
}

/* "/usr/bin/iozone -i 0 -i 1 -s 4m -r 64k -f /tmp/x/ioz.tmp"
 * "iozone -i0 -i1 -i2 -O -I -s4g -r128k -f /data0/blah"
 * "iozone -Ra -g 2G -b out.xls"
 * Options cluster as getopt allows ("-Rab out.xls"); the command ends at a
 * shell operator. */
static void iz_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	const char *words[128];
	size_t lens[128], n = 0;
	const char *p = cmd;
	while (*p && n < 128) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*w == '|' || *w == ';' || *w == '&' || *w == '>' || *w == '<' ||
		    (w[0] == '2' && w[1] == '>'))
			break;
		words[n] = w;
		lens[n++] = (size_t)(p - w);
	}
	long long streams = -1, lmin = -1, lmax = -1;
	bool threads = false;
	json_t *tests = NULL, *files = NULL;
	int nrec = 0;
	for (size_t i = 1; i < n; i++) {
		const char *w = words[i];
		size_t wl = lens[i];
		if (wl < 2 || w[0] != '-')
			continue;
		for (size_t k = 1; k < wl; k++) {
			char o = w[k];
			if (o == '+') {
				/* -+u CPU utilization; -+m file, -+p N, ... take one */
				char o2 = k + 1 < wl ? w[k + 1] : 0;
				if (o2 == 'u')
					param_true(run, "cpu_utilization");
				if (o2 && strchr("mpxwyCBGNST", o2) && k + 2 >= wl)
					i++;
				break;
			}
			if (!takes_arg(o)) {
				switch (o) {
				case 'a': case 'A': param_true(run, "auto_mode"); break;
				case 'I': param_true(run, "o_direct"); break;
				case 'e': param_true(run, "include_fsync"); break;
				case 'c': param_true(run, "include_close"); break;
				case 'O': param_true(run, "ops_mode"); break;
				case 'N': param_true(run, "usec_mode"); break;
				case 'R': param_true(run, "excel_report"); break;
				case 'T': threads = true; break;
				case 'o': param_true(run, "o_sync"); break;
				case 'z': param_true(run, "all_record_sizes"); break;
				case 'B': param_true(run, "mmap"); break;
				default: break;
				}
				continue;
			}
			/* the argument: the rest of this word, or the next word */
			const char *a;
			size_t al;
			if (k + 1 < wl) {
				a = w + k + 1;
				al = wl - k - 1;
			} else if (i + 1 < n) {
				a = words[++i];
				al = lens[i];
			} else {
				break;
			}
			uint64_t v;
			switch (o) {
			case 's':
				if (iz_size(a, al, &v))
					bl_run_param_int(run, "file_size", (long long)v);
				break;
			case 'r':
				if (iz_size(a, al, &v)) {
					if (nrec++ == 0) {
						json_object_del(run->params, "record_size");
						json_object_del(run->params, "record_sizes");
					}
					add_record_size(run, v);
				}
				break;
			case 'g': if (iz_size(a, al, &v)) bl_run_param_int(run, "max_file_size", (long long)v); break;
			case 'n': if (iz_size(a, al, &v)) bl_run_param_int(run, "min_file_size", (long long)v); break;
			case 'y': if (iz_size(a, al, &v)) bl_run_param_int(run, "min_record_size", (long long)v); break;
			case 'q': if (iz_size(a, al, &v)) bl_run_param_int(run, "max_record_size", (long long)v); break;
			case 'i':
				if (bl_parse_u64(a, al, &v, NULL) && v < 64) {
					if (!tests)
						tests = json_array();
					json_array_append_new(tests, json_integer((json_int_t)v));
				}
				break;
			case 't': if (bl_parse_u64(a, al, &v, NULL) && v < 1000000) streams = (long long)v; break;
			case 'l': if (bl_parse_u64(a, al, &v, NULL) && v < 1000000) lmin = (long long)v; break;
			case 'u': if (bl_parse_u64(a, al, &v, NULL) && v < 1000000) lmax = (long long)v; break;
			case 'f': bl_run_param_str(run, "file", a, al); break;
			case 'b': bl_run_param_str(run, "excel_file", a, al); break;
			case 'F':
				/* -F takes every following word that is not an option */
				files = files ? files : json_array();
				json_array_append_new(files, json_stringn(a, al));
				while (i + 1 < n && words[i + 1][0] != '-') {
					i++;
					json_array_append_new(files, json_stringn(words[i], lens[i]));
				}
				break;
			default: break;
			}
			break; /* the argument ended this word */
		}
	}
	const char *unit = threads ? "threads" : "processes";
	char key[32];
	if (threads)
		param_true(run, "use_threads");
	if (streams >= 0)
		bl_run_param_int(run, unit, streams);
	if (lmin >= 0) {
		snprintf(key, sizeof key, "min_%s", unit);
		bl_run_param_int(run, key, lmin);
	}
	if (lmax >= 0) {
		snprintf(key, sizeof key, "max_%s", unit);
		bl_run_param_int(run, key, lmax);
	}
	if (tests)
		json_object_set_new(run->params, "tests", tests);
	if (files)
		json_object_set_new(run->params, "files", files);
}

/* ------------------------------------------------------------------ claim */

static bool is_complete(const struct iz_line *l)
{
	struct bl_re_match m;
	return l->len && bl_re_match(&complete_re, l->s, l->len, 0, &m);
}

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
	    nx.s[0] == '\t' || pre_match(&nx, &m) >= 0 || is_complete(&nx) ||
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
		int idx = pre_match(&cur, &m);
		/* the first header line ("random  random  bkwd ...") */
		bool hdr1 = k < 2 && iz_is_top_header(cur.s, cur.len);
		if (idx < 0 && !hdr1)
			break;
		start = cur.raw.off;
	}
	return start;
}

static enum bl_claim iz_claim(struct bl_scan *sc, const struct bl_line *anchor,
			      size_t *end)
{
	struct iz_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return BL_NOT_MINE;
	c->sc = sc;
	c->msg = bl_scan_message(sc);
	c->doc = bl_scan_doc(sc);
	c->unit = IZ_KBS;
	enum bl_claim ret = BL_NOT_MINE;

	struct iz_line cur;
	iz_line_at(c->msg, anchor->off, &cur);
	struct bl_re_match m;
	int first = pre_match(&cur, &m);
	bool banner = first >= 0 && pre_pats[first].kind == P_BANNER;
	bool body_line = iz_is_table_header(cur.s, cur.len) ||
			 iz_is_throughput_line(cur.s, cur.len) ||
			 iz_is_report_line(cur.s, cur.len);
	if (!banner && !body_line) {
		free(c);
		return BL_NOT_MINE;
	}
	size_t start = banner ? cur.raw.off : walk_back(c, cur.raw.off);
	size_t ndiags0 = c->doc->diags.n;
	struct bl_run *run = bl_doc_add_run(c->doc, "iozone", "table", start, cur.raw.next);
	if (!run) {
		free(c);
		return BL_NOT_MINE;
	}
	c->ri = (long)(c->doc->nruns - 1);
	bl_scan_find_command(sc, &bl_parser_iozone, run);
	size_t cmd_off = iz_run(c)->off;

	/* the preamble, from the start of the block to the body */
	int nrec = 0, unknown = 0;
	iz_line_at(c->msg, start, &cur);
	size_t last_end = cur.raw.next;
	bool have_body = false;
	for (int k = 0; k < 400; k++) {
		if (iz_is_table_header(cur.s, cur.len) || iz_is_throughput_line(cur.s, cur.len) ||
		    iz_is_report_line(cur.s, cur.len)) {
			have_body = true;
			break;
		}
		if (!bl_is_blank(cur.s, cur.len)) {
			int idx = pre_match(&cur, &m);
			if (idx >= 0) {
				apply_pre(c, idx, &cur, &m, &nrec);
				last_end = cur.raw.next;
				if (pre_pats[idx].kind == P_CMD)
					cmd_rest(c, &cur, &last_end);
			} else if (is_complete(&cur)) {
				last_end = cur.raw.next;
				break;
			} else if (iz_is_top_header(cur.s, cur.len)) {
				last_end = cur.raw.next;
			} else if (!banner || ++unknown > 40) {
				break;
			} else {
				/* contributors' names, "Processor binding ...",
				 * the first table header line: part of the block */
				last_end = cur.raw.next;
			}
		}
		struct iz_line nx;
		if (!iz_line_next(c->msg, &cur, &nx))
			break;
		cur = nx;
	}
	if (c->cmd_text) {
		run = iz_run(c);
		free(run->command);
		run->command = c->cmd_text;
		c->cmd_text = NULL;
		if (!run->has_command) {
			run->has_command = true;
			run->cmd_off = start;
		}
		iz_command(c->doc, run, run->command);
	}
	ctx_from_params(c);

	/* the body: one table or one set of throughput sections, then
	 * "iozone test complete." and the Excel report */
	bool table = false, throughput = false, report = false;
	int blanks = 0;
	while (have_body || blanks <= 4) {
		have_body = false;
		size_t next = 0;
		if (!table && !throughput && !report && iz_is_table_header(cur.s, cur.len)) {
			next = iz_parse_table(c, &cur);
			table = true;
		} else if (!table && !throughput && !report &&
			   iz_is_throughput_line(cur.s, cur.len)) {
			next = iz_parse_throughput(c, &cur);
			throughput = true;
		} else if (!report && iz_is_report_line(cur.s, cur.len)) {
			next = iz_parse_report(c, &cur);
			report = true;
		} else if (is_complete(&cur)) {
			next = cur.raw.next;
		} else if (bl_is_blank(cur.s, cur.len)) {
			blanks++;
			struct iz_line nx;
			if (!iz_line_next(c->msg, &cur, &nx))
				break;
			cur = nx;
			continue;
		} else {
			break;
		}
		if (next <= cur.raw.off)
			break;
		last_end = next;
		blanks = 0;
		if (next >= c->msg->len || !iz_line_at(c->msg, next, &cur))
			break;
	}

	run = iz_run(c);
	run->end_off = last_end;
	if (run->off > cmd_off)
		run->off = cmd_off;
	if (json_array_size(run->results) == 0) {
		/* a banner with nothing measured: malformed; anything else
		 * (a header quoted in prose) is not iozone output */
		for (size_t i = ndiags0; i < c->doc->diags.n; i++)
			c->doc->diags.v[i].run = -1;
		bl_doc_drop_last_run(c->doc);
		if (banner) {
			bl_doc_diag(c->doc, -1, BL_ERROR, "iozone.no-results", start,
				    "iozone's banner and preamble, but no table, throughput or report follows");
			*end = last_end;
			ret = BL_CLAIMED;
		}
	} else {
		if (throughput)
			run->variant = "throughput";
		else if (table)
			run->variant = json_is_true(json_object_get(run->params, "auto_mode")) ? "auto" : "table";
		else
			run->variant = "report";
		if (!c->unit_known)
			bl_doc_diag(c->doc, c->ri, BL_INFO, "iozone.unit-assumed", start,
				    "no preamble or command says how iozone reported: kBytes/sec assumed");
		if (c->cut)
			c->doc->partial = true;
		*end = last_end;
		ret = BL_CLAIMED;
	}
	free(c->cmd_text);
	free(c->table.rows);
	free(c);
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

const struct bl_parser bl_parser_iozone = {
	.name = "iozone",
	.summary = "iozone: auto-mode and -i tables, throughput mode, Excel report",
	.variants = iz_variants,
	/* "Iozone: Performance Test of File I/O"; "kB  reclen    write";
	 * "Children see throughput for  2 initial writers"; "Excel output is below:";
	 * "\"Writer report\"" */
	.anchor = "Iozone: Performance Test of File I/O|\\b[kK][bB][ \\t]+reclen[ \\t]+write"
		  "|Children see throughput for|Excel output is below:"
		  "|\"(?:Writer|Reader|Throughput) report",
	.command_word = "iozone",
	.claim = iz_claim,
	.command = iz_command,
};
