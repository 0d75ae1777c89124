/* iozone_preamble.c - the lines iozone prints before its results: the
 * banner, the version, the options it understood, "Command line used:",
 * the unit ("Output is in kBytes/sec"). Each sets a param of the run. */
#include "iozone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/re.h"
#include "../base/units.h"

struct pre_pat {
	enum iz_pre_kind kind;
	struct bl_re re;
};

static struct pre_pat pre_pats[] = {
	/* "\tIozone: Performance Test of File I/O" */
	{IZ_P_BANNER, BL_RE("^[ \\t]*Iozone: Performance Test of File I/O", 0)},
	/* "\t        Version $Revision: 3.489 $" */
	{IZ_P_VERSION, BL_RE("^[ \\t]*Version \\$Revision: (\\d{1,3}\\.\\d{1,5}) ?\\$", 0)},
	/* "\t\tCompiled for 64 bit mode." */
	{IZ_P_COMPILED, BL_RE("^[ \\t]*Compiled for (\\d{2}) bit mode\\.", 0)},
	/* "\t\tBuild: linux-AMD64 " */
	{IZ_P_BUILD, BL_RE("^[ \\t]*Build: (\\S{1,80})", 0)},
	/* "\tRun began: Mon Nov 30 06:04:58 2026" */
	{IZ_P_RUN_BEGAN, BL_RE("^[ \\t]*Run began: (.{1,80}?)[ \\t]*$", 0)},
	/* "\tAuto Mode", "\tAuto Mode 2. This option is obsolete. ..." */
	{IZ_P_AUTO, BL_RE("^[ \\t]*Auto Mode", 0)},
	/* "\tFile size set to 4096 kB" (3.430+), "... 262144 KB" (older) */
	{IZ_P_FILE_SIZE, BL_RE("^[ \\t]*File size set to (\\d{1,19}) [kK][bB]", 0)},
	/* "\tRecord Size 64 kB", "\tRecord Size 4 KB" */
	{IZ_P_REC_SIZE, BL_RE("^[ \\t]*Record Size (\\d{1,19}) [kK][bB]", 0)},
	/* "\tO_DIRECT feature enabled", "\tO_DIRECTIO feature enabled",
	 * "\tVxFS advanced feature SET_CACHE, VX_DIRECT enabled" */
	{IZ_P_ODIRECT,
	 BL_RE("^[ \\t]*(?:O_DIRECT feature enabled|O_DIRECTIO feature enabled|VxFS advanced feature SET_CACHE, VX_DIRECT enabled)",
	       0)},
	/* "\tInclude fsync in write timing" (-e) */
	{IZ_P_FSYNC, BL_RE("^[ \\t]*Include fsync in write timing", 0)},
	/* "\tInclude close in write timing" (-c) */
	{IZ_P_CLOSE, BL_RE("^[ \\t]*Include close in write timing", 0)},
	/* "\tOPS Mode. Output is in operations per second." (-O) */
	{IZ_P_OPS, BL_RE("^[ \\t]*OPS Mode\\. Output is in operations per second", 0)},
	/* "\tMicroseconds/op Mode. Output is in microseconds per operation." (-N) */
	{IZ_P_USEC, BL_RE("^[ \\t]*Microseconds/op Mode\\.", 0)},
	/* "\tExcel chart generation enabled" (-R) */
	{IZ_P_EXCEL, BL_RE("^[ \\t]*Excel chart generation enabled", 0)},
	/* "\tCommand line used: /usr/bin/iozone -i 0 -i 1 -s 4m -r 64k -f /tmp/x/ioz.tmp" */
	{IZ_P_CMD, BL_RE("^[ \\t]*Command line used: ?(.{0,2000})$", 0)},
	/* "\tOutput is in kBytes/sec" (3.430+), "\tOutput is in Kbytes/sec" */
	{IZ_P_OUTPUT, BL_RE("^[ \\t]*Output is in ([kK]bytes|[kK]Bytes)/sec", 0)},
	/* "\tTime Resolution = 0.000001 seconds." */
	{IZ_P_TIMERES, BL_RE("^[ \\t]*Time Resolution = (\\d{1,6}\\.\\d{1,9}) seconds", 0)},
	/* "\tProcessor cache size set to 1024 kBytes." */
	{IZ_P_CACHE, BL_RE("^[ \\t]*Processor cache size set to (\\d{1,12}) [kK][bB]ytes", 0)},
	/* "\tProcessor cache line size set to 32 bytes." */
	{IZ_P_CACHELINE, BL_RE("^[ \\t]*Processor cache line size set to (\\d{1,12}) bytes", 0)},
	/* "\tFile stride size set to 17 * record size." */
	{IZ_P_STRIDE, BL_RE("^[ \\t]*File stride size set to (\\d{1,12}) \\* record size", 0)},
	/* "\tThroughput test with 2 processes", "... with 1 thread" */
	{IZ_P_TP_WITH,
	 BL_RE("^[ \\t]*Throughput test with (\\d{1,9}) (process|processes|thread|threads)\\b", 0)},
	/* "\tMin process = 1 ", "\tMax thread = 4 " (-l / -u) */
	{IZ_P_MINMAX, BL_RE("^[ \\t]*(Min|Max) (process|thread) = (\\d{1,9})", 0)},
	/* "\tEach process writes a 4096 kByte file in 64 kByte records"
	 * "\tEach thread writes a 262144 Kbyte file in 4 Kbyte records" */
	{IZ_P_EACH,
	 BL_RE("^[ \\t]*Each (process|thread) writes a (\\d{1,19}) [kK]byte file in (?:(\\d{1,19}) [kK]byte records|telemetry)",
	       0)},
	/* "\tContributors:William Norcott, Don Capps, ..." */
	{IZ_P_CONTRIB, BL_RE("^[ \\t]*Contributors:", 0)},
	/* "\tSYNC Mode. " (-o) */
	{IZ_P_SYNC, BL_RE("^[ \\t]*SYNC Mode\\.", 0)},
	/* "\tCPU utilization Resolution = 0.010 seconds." (-+u) */
	{IZ_P_CPU_RES,
	 BL_RE("^[ \\t]*CPU utilization Resolution = (\\d{1,6}\\.\\d{1,9}) seconds", 0)},
	/* "\tUsing Minimum Record Size 4 kB", "\tUsing maximum file size of 524288 kilobytes." */
	{IZ_P_USING,
	 BL_RE("^[ \\t]*Using (Minimum|Maximum|minimum|maximum) (Record Size|file size of) (\\d{1,19}) (?:kB|KB|kilobytes)",
	       0)},
};

#define NPRE (sizeof pre_pats / sizeof pre_pats[0])

/* "iozone test complete." */
static struct bl_re complete_re = BL_RE("^[ \\t]*iozone test complete\\.", 0);

bool iz_is_complete(const struct iz_line *l)
{
	struct bl_re_match m;
	return l->len && bl_re_match(&complete_re, l->s, l->len, 0, &m);
}

bool iz_pre_is(int idx, enum iz_pre_kind kind)
{
	return idx >= 0 && (size_t)idx < NPRE && pre_pats[idx].kind == kind;
}

/* The byte a line must start with, after its blanks, to be pre_pats[i]:
 * the one after "^[ \\t]*" in its pattern, or 0 when that is not a plain
 * byte ("(Min|Max)"). A line is tried only against the patterns it can
 * start: trying all of them cost 8,400 instructions a preamble line. */
static unsigned char lead[NPRE];
static bool lead_ready;

static void lead_init(void)
{
	static const char blanks[] = "^[ \\t]*";
	for (size_t i = 0; i < NPRE; i++) {
		const char *p = pre_pats[i].re.pattern;
		unsigned char c = strncmp(p, blanks, sizeof blanks - 1) == 0 &&
						  !(pre_pats[i].re.options & PCRE2_CASELESS)
					  ? (unsigned char)p[sizeof blanks - 1]
					  : 0;
		lead[i] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? c : 0;
	}
	lead_ready = true;
}

int iz_pre_match(const struct iz_line *l, struct bl_re_match *m)
{
	if (!l->len)
		return -1;
	if (!lead_ready)
		lead_init();
	size_t b = 0;
	while (b < l->len && (l->s[b] == ' ' || l->s[b] == '\t'))
		b++;
	const unsigned char c = b < l->len ? (unsigned char)l->s[b] : 0;
	for (size_t i = 0; i < NPRE; i++)
		if ((!lead[i] || lead[i] == c) && bl_re_match(&pre_pats[i].re, l->s, l->len, 0, m))
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

void iz_param_true(struct bl_run *run, const char *key)
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
void iz_add_record_size(struct bl_run *run, uint64_t bytes)
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

/* The lines of throughput mode (-t) above its sections: the processes
 * or threads, their range (-l/-u), and each one's file and record size. */
static void throughput_params(struct iz_ctx *c, struct bl_run *run, enum iz_pre_kind kind,
			      const struct iz_line *l, const struct bl_re_match *m)
{
	switch (kind) {
	case IZ_P_TP_WITH:
		c->threads = l->s[m->ov[4]] == 't';
		bl_run_param_int(run, c->threads ? "threads" : "processes",
				 (long long)group_u64(l, m, 1));
		break;
	case IZ_P_MINMAX: {
		bool th = l->s[m->ov[4]] == 't';
		c->threads = th;
		char key[24];
		snprintf(key, sizeof key, "%s_%s", l->s[m->ov[2] + 1] == 'i' ? "min" : "max",
			 th ? "threads" : "processes");
		bl_run_param_int(run, key, (long long)group_u64(l, m, 3));
		break;
	}
	case IZ_P_EACH:
		c->threads = l->s[m->ov[2]] == 't';
		c->file_kb = group_u64(l, m, 2);
		param_kb(run, "file_size", c->file_kb);
		if (bl_re_gset(m, 3)) {
			c->rec_kb = group_u64(l, m, 3);
			param_kb(run, "record_size", c->rec_kb);
		}
		break;
	default: break;
	}
}

void iz_apply_pre(struct iz_ctx *c, int idx, const struct iz_line *l, const struct bl_re_match *m,
		  int *nrec)
{
	struct bl_run *run = iz_run(c);
	const char *g1 = bl_re_gset(m, 1) ? l->s + m->ov[2] : NULL;
	size_t g1l = bl_re_glen(m, 1);
	switch (pre_pats[idx].kind) {
	case IZ_P_VERSION: bl_run_param_str(run, "version", g1, g1l); break;
	case IZ_P_COMPILED:
		bl_run_param_int(run, "compiled_bits", (long long)group_u64(l, m, 1));
		break;
	case IZ_P_BUILD: bl_run_param_str(run, "build", g1, g1l); break;
	case IZ_P_RUN_BEGAN: bl_run_param_str(run, "run_began", g1, g1l); break;
	case IZ_P_AUTO: iz_param_true(run, "auto_mode"); break;
	case IZ_P_FILE_SIZE:
		c->file_kb = group_u64(l, m, 1);
		param_kb(run, "file_size", c->file_kb);
		break;
	case IZ_P_REC_SIZE: {
		uint64_t kb = group_u64(l, m, 1);
		if (kb <= INT64_MAX / 1024) {
			/* the command's -r already put these in; the preamble
			 * wins, so start the list afresh */
			if (*nrec == 0) {
				json_object_del(run->params, "record_size");
				json_object_del(run->params, "record_sizes");
			}
			iz_add_record_size(run, kb * 1024);
		}
		c->rec_kb = (*nrec)++ == 0 ? kb : 0;
		break;
	}
	case IZ_P_ODIRECT: iz_param_true(run, "o_direct"); break;
	case IZ_P_FSYNC: iz_param_true(run, "include_fsync"); break;
	case IZ_P_CLOSE: iz_param_true(run, "include_close"); break;
	case IZ_P_OPS:
		c->unit = IZ_OPS;
		c->unit_known = true;
		bl_run_param_str(run, "output_unit", "ops/sec", 7);
		break;
	case IZ_P_USEC:
		c->unit = IZ_USEC;
		c->unit_known = true;
		bl_run_param_str(run, "output_unit", "microseconds/op", 15);
		break;
	case IZ_P_EXCEL: iz_param_true(run, "excel_report"); break;
	case IZ_P_CMD:
		free(c->cmd_text);
		c->cmd_text = bl_strndup_trim(g1 ? g1 : "", g1l);
		break;
	case IZ_P_OUTPUT: {
		char buf[32];
		snprintf(buf, sizeof buf, "%.*s/sec", (int)g1l, g1);
		bl_run_param_str(run, "output_unit", buf, strlen(buf));
		c->unit = IZ_KBS;
		c->unit_known = true;
		break;
	}
	case IZ_P_TIMERES: {
		double v;
		if (bl_parse_double(g1, g1l, false, &v, NULL))
			bl_run_param_real(run, "time_resolution", v);
		break;
	}
	case IZ_P_CACHE: param_kb(run, "cache_size", group_u64(l, m, 1)); break;
	case IZ_P_CACHELINE:
		bl_run_param_int(run, "cache_line_size", (long long)group_u64(l, m, 1));
		break;
	case IZ_P_STRIDE:
		bl_run_param_int(run, "stride_records", (long long)group_u64(l, m, 1));
		break;
	case IZ_P_TP_WITH:
	case IZ_P_MINMAX:
	case IZ_P_EACH: throughput_params(c, run, pre_pats[idx].kind, l, m); break;
	case IZ_P_SYNC: iz_param_true(run, "o_sync"); break;
	case IZ_P_CPU_RES: {
		double v;
		if (bl_parse_double(g1, g1l, false, &v, NULL))
			bl_run_param_real(run, "cpu_resolution", v);
		break;
	}
	case IZ_P_USING: {
		char key[32];
		bool min = g1[1] == 'i';
		bool rec = l->s[m->ov[4]] == 'R';
		snprintf(key, sizeof key, "%s_%s", min ? "min" : "max",
			 rec ? "record_size" : "file_size");
		param_kb(run, key, group_u64(l, m, 3));
		break;
	}
	case IZ_P_BANNER:
	case IZ_P_CONTRIB: break;
	}
}
