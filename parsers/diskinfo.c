/* diskinfo.c - FreeBSD diskinfo(8): the plain line, the -v block, and the
 * benchmarks of -c, -t, -i and -wS, as printed from FreeBSD 5 to 14.
 *
 * One run per device. A device's block is its name on a line of its own,
 * the -v lines ("\t512         \t# sectorsize"), a blank line, then one
 * section per test:
 *
 *   I/O command overhead:                     (-c)
 *   Seek times:  / Transfer rates:            (-t)
 *   Asynchronous random reads:                (-i, FreeBSD 11+)
 *   Synchronous random writes:                (-wS, FreeBSD 11+)
 *
 * FreeBSD 5-10 print "Transfer rates:" right after "Seq inner"; 11+ put a
 * blank line before it. The sizes, counts and rates printed use kbytes of
 * 1024 bytes and Mbytes of 1024*1024 bytes.
 *
 * illumos has a diskinfo of its own that prints a table
 * ("TYPE    DISK    VID    PID    SIZE    RMV SSD"): none of its lines
 * match the anchors below, and it is left alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdwords.h"
#include "parser.h"
#include "../base/re.h"
#include "../base/units.h"

extern const struct bl_parser bl_parser_diskinfo;

/* White space as pasted: tabs, spaces, the no-break spaces that HTML
 * archives turn "&nbsp;" into, and "&nbsp;" itself where nothing decoded it. */
#define WS "(?:[ \\t\\x{a0}]|&nbsp;)"

/* -v lines, value first, then what it is:
 *   "\t512         \t# sectorsize"
 *   "\t1500301910016\t# mediasize in bytes (1.4T)"
 *   "\tWD-WMAVU3127845\t# Disk ident."
 *   "\t            \t# Disk ident."            (no ident: empty value)
 * Groups: 1 value, 2 what. */
static struct bl_re param_re =
	BL_RE("^" WS "*(\\S(?:.{0,200}?\\S)?)?" WS "*#" WS "?"
	      "(sectorsize|mediasize in bytes(?:" WS "*\\([^)\\n]{0,16}\\))?|mediasize in sectors"
	      "|stripesize|stripeoffset|Cylinders according to firmware\\.?"
	      "|Heads according to firmware\\.?|Sectors according to firmware\\.?"
	      "|Disk descr\\.?|Disk ident\\.?|Attachment|Physical path|TRIM/UNMAP support"
	      "|Rotation rate in RPM|Zone Mode)" WS "*$",
	      0);

/* "/dev/ad10", "ada0", "/dev/gpt/disk0": a device named alone on a line */
static struct bl_re device_re = BL_RE("^" WS "*([A-Za-z/][\\w./:-]{0,200})" WS "*$", 0);

/* plain form, tab separated (FreeBSD 7+ adds stripesize and stripeoffset):
 *   "ada0\t512\t500107862016\t976773168\t0\t0\t969021\t16\t63"
 *   "ad0\t512\t40020664320\t78165360\t77545\t16\t63"          (FreeBSD 5/6) */
static struct bl_re plain_re =
	BL_RE("^" WS "*([A-Za-z/][\\w./:-]{0,200})((?:" WS "+\\d{1,20}){3,8})" WS "*$", 0);

enum section { S_NONE, S_OVERHEAD, S_SEEK, S_TRANSFER, S_ASYNC, S_SYNC };

/* "Seek times:", "Transfer rates:", "I/O command overhead:",
 * "Asynchronous random reads:", "Synchronous random writes:" */
static struct bl_re section_re =
	BL_RE("^" WS "*(I/O command overhead|Seek times|Transfer rates|Asynchronous random reads"
	      "|Synchronous random writes):" WS "*$",
	      0);

/* "\tFull stroke:\t  250 iter in   5.759155 sec =   23.037 msec"
 * Groups: 1 what, 2 iterations, 3 seconds, 4 msec per seek. */
static struct bl_re seek_re =
	BL_RE("^" WS "*(Full stroke|Half stroke|Quarter stroke|Short forward|Short backward"
	      "|Seq outer|Seq inner):" WS "*(\\d{1,12})" WS "+iter" WS "+in" WS
	      "+(\\d{1,12}(?:\\.\\d{1,9})?)" WS "*sec" WS "*=" WS "*(\\d{1,12}(?:\\.\\d{1,9})?)" WS
	      "*msec" WS "*$",
	      0);

/* The units a transfer rate is printed or re-typed in: "96118 kbytes/sec",
 * "142285 kB/s", "4805 MB/sec" (also the end of a row to the
 * unflattener, diskinfo_shapes) */
#define RATE_UNITS                                                                                 \
	"kbytes/sec|kbytes/s|kB/s|KB/s|KiB/s|kB/sec|KB/sec|Mbytes/sec|Mbytes/s|MB/sec|MB/s|MiB/s"

/* "\toutside:       102400 kbytes in   1.065353 sec =    96118 kbytes/sec"
 * and as authors re-type it: "outside: 102400 kbytes in 0.72 sec = 142285 kB/s",
 * "outside: 102400 kbytes in 0.719681 s = 142285 kB/s", "outside: = 142285 kB/s".
 * Groups: 1 where, 2 kbytes, 3 seconds, 4 its unit, 5 rate, 6 rate unit. */
static struct bl_re transfer_re =
	BL_RE("^" WS "*(outside|middle|inside):" WS "*(?:(\\d{1,15})" WS "*(?:kbytes|kB|KB|KiB)" WS
	      "+in" WS "+(\\d{1,12}(?:\\.\\d{1,9})?)" WS "*(sec|s)" WS "*)?=" WS
	      "*(\\d{1,15}(?:\\.\\d{1,9})?)" WS "*(" RATE_UNITS ")" WS "*$",
	      0);

/* -c:
 *   "\ttime to read 10MB block      0.091530 sec\t=    0.004 msec/sector"
 *   "\ttime to read 20480 sectors   2.371350 sec\t=    0.116 msec/sector"
 *   "\tcalculated command overhead\t\t\t=    0.111 msec/sector"
 * Groups: 1 what, 2 seconds (unset for the overhead), 3 msec/sector. */
static struct bl_re overhead_re =
	BL_RE("^" WS
	      "*(time to read 10MB block|time to read 20480 sectors|calculated command overhead)" WS
	      "*(?:(\\d{1,12}(?:\\.\\d{1,9})?)" WS "*sec)?" WS "*=" WS
	      "*(-?\\d{1,12}(?:\\.\\d{1,9})?)" WS "*msec/sector" WS "*$",
	      0);

/* -i: "\tsectorsize:      123456 ops in    3.000437 sec =    41148 IOPS"
 *     "\t4 kbytes:        ..."  "\t1024 kbytes: ..."
 * Groups: 1 size label, 2 kbytes (unset for sectorsize), 3 ops, 4 seconds,
 * 5 IOPS. */
static struct bl_re async_re = BL_RE("^" WS "*(sectorsize|(\\d{1,7})" WS "*kbytes):" WS
				     "*(\\d{1,15})" WS "+ops" WS "+in" WS "+"
				     "(\\d{1,12}(?:\\.\\d{1,9})?)" WS "*sec" WS "*=" WS
				     "*(\\d{1,15}(?:\\.\\d{1,9})?)" WS "*IOPS" WS "*$",
				     0);

/* -wS: "\t 0.5 kbytes:    811.8 usec/IO =      0.6 Mbytes/s"
 *      "\t8192 kbytes:  40245.6 usec/IO =    198.8 Mbytes/s"
 * Groups: 1 kbytes, 2 usec per IO, 3 Mbytes/s. */
static struct bl_re sync_re = BL_RE("^" WS "*(\\d{1,7}(?:\\.\\d{1,4})?)" WS "*kbytes:" WS
				    "*(\\d{1,12}(?:\\.\\d{1,9})?)" WS "*usec/IO" WS "*=" WS
				    "*(\\d{1,12}(?:\\.\\d{1,9})?)" WS "*Mbytes/s" WS "*$",
				    0);

/* A row label whose numbers could not be read (mangled by re-wrapping or
 * an editor): reported, not guessed. */
static struct bl_re rowish_re = BL_RE(
	"^" WS "*(?:Full stroke|Half stroke|Quarter stroke|Short forward|Short backward|Seq outer"
	"|Seq inner|outside|middle|inside|sectorsize|\\d{1,7}(?:\\.\\d)? kbytes|time to read"
	"|calculated command overhead)" WS "*:?",
	0);

/* ------------------------------------------------------ reading groups */

static double gnum(const struct bl_line *l, const struct bl_re_match *m, int g)
{
	double v = NAN;
	if (!bl_re_gset(m, g) ||
	    !bl_parse_double(l->s + m->ov[2 * g], bl_re_glen(m, g), false, &v, NULL))
		return NAN;
	return v;
}

static bool gis(const struct bl_line *l, const struct bl_re_match *m, int g, const char *word)
{
	size_t n = strlen(word);
	return bl_re_glen(m, g) == n && memcmp(l->s + m->ov[2 * g], word, n) == 0;
}

/* "Full stroke" -> "full_stroke" */
static void slug(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < cap; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '_';
		out[o++] = c;
	}
	out[o] = '\0';
}

/* The printed number of group g with its unit word: "23.037 msec" */
static void graw(const struct bl_line *l, const struct bl_re_match *m, int g, const char *unit,
		 char *out, size_t cap)
{
	snprintf(out, cap, "%.*s %s", (int)bl_re_glen(m, g), l->s + m->ov[2 * g], unit);
}

/* ----------------------------------------------------------------- state */

struct di_state {
	struct bl_scan *sc;
	struct bl_doc *doc;
	long ri; /* current run index, -1 before the first */
	long first_ri; /* first run of this block */
	enum section sec;
	int rows; /* rows read in the current section */
	size_t sec_off; /* offset of the current section header */
	bool headed; /* the current section was opened by its heading */
	unsigned sections; /* bit per section seen in this run */
	uint64_t sectorsize; /* of the current device, 0 if unknown */
	size_t ndevices; /* runs started in this block, or (cont) of the
			  * command, for the name of a device with no line */
	size_t in_block; /* runs started in this block */
	bool cut; /* the block ended at a device line: see cut */
	/* the block goes on from one that ended at a device line after
	 * BLOCK_DEVICES of them: the command of its first run (cont_command
	 * NULL: none) */
	bool cont;
	const char *cont_command;
	size_t cont_cmd_off;
	bool cont_timed;
};

/* A block ends at a device line after this many devices: a command over
 * thousands of devices is read as blocks of as many, each run held only
 * until its block ends. The next block starts at that device line (the
 * next anchor finds it), and its devices take the command of the first. */
#define BLOCK_DEVICES 256

static _Thread_local struct {
	const char *text; /* the message's */
	size_t next; /* the device line the next block starts at */
	size_t ndevices;
	char *command; /* owned */
	size_t cmd_off;
	bool timed, set;
} cut;

static struct bl_run *cur(struct di_state *st)
{
	return bl_doc_run(st->doc, st->ri);
}

/* Rows each section prints; fewer means the paste was cut. */
static int section_rows(enum section s, uint64_t sectorsize)
{
	switch (s) {
	case S_OVERHEAD: return 3;
	case S_SEEK: return 7;
	case S_TRANSFER: return 3;
	case S_ASYNC: return sectorsize == 4096 ? 4 : 5;
	default: return 0; /* -wS: as many as the sizes tried */
	}
}

static const char *section_name(enum section s)
{
	switch (s) {
	case S_OVERHEAD: return "I/O command overhead";
	case S_SEEK: return "Seek times";
	case S_TRANSFER: return "Transfer rates";
	case S_ASYNC: return "Asynchronous random reads";
	case S_SYNC: return "Synchronous random writes";
	default: return "";
	}
}

static void close_section(struct di_state *st)
{
	int want = section_rows(st->sec, st->sectorsize);
	if (st->sec != S_NONE && st->ri >= 0 && st->rows < want) {
		bl_doc_diag(st->doc, st->ri, BL_WARNING, "diskinfo.truncated", st->sec_off,
			    "'%s' has %d of its %d rows: the rest is missing from the text",
			    section_name(st->sec), st->rows, want);
		st->doc->partial = true;
	}
	st->sec = S_NONE;
	st->rows = 0;
}

static void finish_run(struct di_state *st, size_t end_off)
{
	close_section(st);
	struct bl_run *run = cur(st);
	if (!run)
		return;
	run->end_off = end_off;
	if (st->sections) {
		run->variant = "tests";
		char opts[32];
		size_t o = 0;
		opts[0] = '\0';
		static const char *const flag[] = {"", "-c ", "-t ", "-t ", "-i ", "-wS "};
		for (int s = S_OVERHEAD; s <= S_SYNC; s++) {
			if (!(st->sections & (1u << s)))
				continue;
			if (s == S_TRANSFER && (st->sections & (1u << S_SEEK)))
				continue;
			o += (size_t)snprintf(opts + o, sizeof opts - o, "%s", flag[s]);
		}
		if (o)
			opts[o - 1] = '\0';
		bl_run_param_str(run, "tests", opts, strlen(opts));
	}
}

/* Drops the device's run when nothing was read of it (a section header
 * with no readable row, and no device lines): an error stands in its
 * place. */
static void drop_if_empty(struct di_state *st)
{
	struct bl_doc *doc = st->doc;
	struct bl_run *lr = cur(st);
	if (!lr || bl_results_count(&lr->results) != 0 || json_object_get(lr->params, "sectorsize"))
		return;
	size_t off = lr->off;
	bl_doc_drop_last_run(doc);
	for (size_t i = 0; i < doc->diags.n; i++)
		if (doc->diags.v[i].run == bl_doc_run_id(doc, (long)doc->nruns))
			doc->diags.v[i].run = -1;
	if (st->first_ri == st->ri)
		st->first_ri = -1;
	st->ri = -1;
	bl_doc_diag(doc, -1, BL_ERROR, "diskinfo.empty", off,
		    "a diskinfo section with no readable rows");
}

/* Starts the run of a device; `name` may be NULL (a paste without the
 * device line: the command's operand names it then). */
static struct bl_run *start_run(struct di_state *st, const char *variant, size_t off,
				const char *name, size_t nlen)
{
	struct bl_run *prev = cur(st);
	if (prev) {
		finish_run(st, off);
		drop_if_empty(st);
	}
	struct bl_run *run = bl_doc_add_run(st->doc, "diskinfo", variant, off, off);
	if (!run)
		return NULL;
	st->ri = (long)(st->doc->nruns - 1);
	st->sections = 0;
	st->sectorsize = 0;
	st->sec = S_NONE;
	st->rows = 0;
	if (st->cont && st->first_ri < 0) {
		st->first_ri = st->ri;
		if (st->cont_command && (run->command = strdup(st->cont_command))) {
			run->has_command = true;
			run->cmd_off = st->cont_cmd_off;
			run->timed = st->cont_timed;
			bl_parser_diskinfo.command(st->doc, run, run->command);
		}
	} else if (st->ndevices == 0 || st->first_ri < 0) {
		/* the block's first run, or the first after it was dropped */
		st->first_ri = st->ri;
		bl_scan_find_command(st->sc, &bl_parser_diskinfo, run);
	} else if (bl_doc_run(st->doc, st->first_ri)->command) {
		/* later devices of one command: the same command line */
		struct bl_run *first = bl_doc_run(st->doc, st->first_ri);
		run->command = strdup(first->command);
		run->has_command = run->command != NULL;
		run->cmd_off = first->cmd_off;
		run->timed = first->timed;
		if (bl_parser_diskinfo.command && run->command)
			bl_parser_diskinfo.command(st->doc, run, run->command);
	}
	if (name) {
		bl_run_param_str(run, "device", name, nlen);
	} else {
		json_t *devs = json_object_get(run->params, "devices");
		json_t *d = json_array_get(devs, st->ndevices);
		if (json_is_string(d))
			bl_run_param_str(run, "device", json_string_value(d),
					 strlen(json_string_value(d)));
	}
	json_t *dev = json_object_get(run->params, "device");
	if (json_is_string(dev))
		run->label = strdup(json_string_value(dev));
	st->ndevices++;
	st->in_block++;
	return run;
}

static struct bl_run *need_run(struct di_state *st, size_t off)
{
	struct bl_run *run = cur(st);
	return run ? run : start_run(st, "tests", off, NULL, 0);
}

/* ---------------------------------------------------------- the -v block */

static void param_line(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m)
{
	struct bl_run *run = cur(st);
	if (!run)
		return;
	const char *v = bl_re_gset(m, 1) ? l->s + m->ov[2] : "";
	size_t vl = bl_re_glen(m, 1);
	const char *w = l->s + m->ov[4];
	size_t wl = bl_re_glen(m, 2);
	uint64_t n = 0;
	bool num = vl && bl_parse_u64(v, vl, &n, NULL) && n <= INT64_MAX;
	static const struct {
		const char *what, *key;
		bool numeric;
	} keys[] = {
		{"sectorsize", "sectorsize", true},
		{"mediasize in bytes", "mediasize", true},
		{"mediasize in sectors", "mediasize_sectors", true},
		{"stripesize", "stripesize", true},
		{"stripeoffset", "stripeoffset", true},
		{"Cylinders", "firmware_cylinders", true},
		{"Heads", "firmware_heads", true},
		{"Sectors", "firmware_sectors", true},
		{"Disk descr", "description", false},
		{"Disk ident", "ident", false},
		{"Attachment", "attachment", false},
		{"Physical path", "physical_path", false},
		{"TRIM/UNMAP support", "trim", false},
		{"Rotation rate in RPM", "rotation_rate", true},
		{"Zone Mode", "zone_mode", false},
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		size_t kl = strlen(keys[i].what);
		if (wl < kl || memcmp(w, keys[i].what, kl) != 0)
			continue;
		if (keys[i].numeric && num) {
			bl_run_param_int(run, keys[i].key, (long long)n);
			if (i == 0)
				st->sectorsize = n;
		} else if (keys[i].numeric && vl) {
			/* "Unknown" rotation rate, or something mangled */
			bl_run_param_str(run, keys[i].key, v, vl);
		} else if (i == 12 && vl) {
			/* TRIM/UNMAP support: Yes / No */
			json_object_set_new(run->params, "trim",
					    json_boolean(vl == 3 && memcmp(v, "Yes", 3) == 0));
		} else if (!keys[i].numeric && vl) {
			bl_run_param_str(run, keys[i].key, v, vl);
		}
		if (i == 1) {
			/* "mediasize in bytes (1.4T)": keep the printed size */
			const char *p = memchr(w, '(', wl);
			const char *q = p ? memchr(p, ')', wl - (size_t)(p - w)) : NULL;
			if (p && q && q > p + 1)
				bl_run_param_str(run, "mediasize_human", p + 1,
						 (size_t)(q - p - 1));
		}
		return;
	}
}

/* "ada0\t512\t500107862016\t976773168\t0\t0\t969021\t16\t63": true when
 * the numbers are those of a disk (bytes = sectors * sectorsize). */
static bool plain_line(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m,
		       bool dry)
{
	uint64_t v[8];
	size_t n = 0, i = m->ov[4], e = m->ov[5];
	while (i < e && n < 8) {
		while (i < e &&
		       (l->s[i] == ' ' || l->s[i] == '\t' || (unsigned char)l->s[i] >= 0x80))
			i++;
		size_t used = 0;
		if (i >= e || !bl_parse_u64(l->s + i, e - i, &v[n], &used))
			break;
		n++;
		i += used;
	}
	if (n < 3 || v[0] < 512 || v[0] > 65536 || (v[0] & (v[0] - 1)) || v[1] == 0 ||
	    v[1] / v[0] != v[2] || v[1] > INT64_MAX)
		return false;
	/* 3 numbers: FreeBSD 5/6; 5: with stripe size and offset; 6: 5/6 with
	 * geometry; 8: stripe and geometry */
	bool stripe = n == 5 || n == 8;
	if (n != 3 && n != 5 && n != 6 && n != 8)
		return false;
	if (dry)
		return true;
	struct bl_run *run = start_run(st, "plain", l->off, l->s + m->ov[2], bl_re_glen(m, 1));
	if (!run)
		return false;
	st->sectorsize = v[0];
	bl_run_param_int(run, "sectorsize", (long long)v[0]);
	bl_run_param_int(run, "mediasize", (long long)v[1]);
	bl_run_param_int(run, "mediasize_sectors", (long long)v[2]);
	size_t k = 3;
	if (stripe) {
		bl_run_param_int(run, "stripesize", (long long)v[3]);
		bl_run_param_int(run, "stripeoffset", (long long)v[4]);
		k = 5;
	}
	if (n - k == 3) {
		bl_run_param_int(run, "firmware_cylinders", (long long)v[k]);
		bl_run_param_int(run, "firmware_heads", (long long)v[k + 1]);
		bl_run_param_int(run, "firmware_sectors", (long long)v[k + 2]);
	}
	return true;
}

/* ------------------------------------------------------------- the tests */

static void seek_row(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m)
{
	struct bl_run *run = need_run(st, l->off);
	if (!run)
		return;
	char what[32], name[64], raw[64];
	slug(l->s + m->ov[2], bl_re_glen(m, 1), what, sizeof what);
	graw(l, m, 4, "msec", raw, sizeof raw);
	double iters = gnum(l, m, 2), secs = gnum(l, m, 3), ms = gnum(l, m, 4);
	snprintf(name, sizeof name, "seek_%s", what);
	bl_run_result(run, name, ms / 1000.0, "s", raw, 0);
	snprintf(name, sizeof name, "seek_%s_iterations", what);
	bl_run_result(run, name, iters, "count", NULL, 0);
	snprintf(name, sizeof name, "seek_%s_elapsed", what);
	bl_run_result(run, name, secs, "s", NULL, 0);
	/* printed: seconds * 1000 / iterations with 3 decimals */
	if (iters > 0 && fabs(secs * 1000.0 / iters - ms) > 0.0015 + 1e-4 * ms)
		bl_doc_diag(st->doc, st->ri, BL_WARNING, "diskinfo.seek-mismatch", l->off,
			    "%g iterations in %g s is %.3f msec each, but %s is printed", iters,
			    secs, secs * 1000.0 / iters, raw);
}

static void transfer_row(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m)
{
	struct bl_run *run = need_run(st, l->off);
	if (!run)
		return;
	char what[16], name[64], raw[64], unit[16];
	slug(l->s + m->ov[2], bl_re_glen(m, 1), what, sizeof what);
	snprintf(unit, sizeof unit, "%.*s", (int)bl_re_glen(m, 6), l->s + m->ov[12]);
	graw(l, m, 5, unit, raw, sizeof raw);
	double kb = gnum(l, m, 2), secs = gnum(l, m, 3), rate = gnum(l, m, 5);
	/* diskinfo prints "kbytes in ... sec = ... kbytes/sec" under its
	 * "Transfer rates:" heading; another shape is the author's */
	if (strcmp(unit, "kbytes/sec") != 0 || gis(l, m, 4, "s") || !st->headed)
		bl_doc_diag(st->doc, st->ri, BL_INFO, "diskinfo.retyped", l->off,
			    "this transfer row is not as diskinfo prints it: read as re-typed by "
			    "the author");
	/* kbytes, and the kB/KB authors re-type, are 1024 bytes here; an
	 * author's MB is 1024 of them, or 1000 ("102400 kbytes in 0.017823 sec
	 * = 5746 MB/sec"): the one the row's own bytes and seconds agree with */
	double mult = unit[0] == 'M' ? 1024.0 * 1024.0 : 1024.0;
	if (unit[0] == 'M' && bl_re_gset(m, 2) && secs > 0 &&
	    fabs(rate * 1000.0 * 1024.0 - kb * 1024.0 / secs) <
		    fabs(rate * mult - kb * 1024.0 / secs))
		mult = 1000.0 * 1024.0;
	snprintf(name, sizeof name, "transfer_%s", what);
	bl_run_result(run, name, rate * mult, "B/s", raw, 0);
	if (!bl_re_gset(m, 2))
		return;
	snprintf(name, sizeof name, "transfer_%s_bytes", what);
	bl_run_result(run, name, kb * 1024.0, "B", NULL, 0);
	snprintf(name, sizeof name, "transfer_%s_elapsed", what);
	bl_run_result(run, name, secs, "s", NULL, 0);
	/* printed: kbytes / seconds, rounded to an integer */
	if (secs > 0 && fabs(kb * 1024.0 / secs - rate * mult) > 0.01 * rate * mult + mult)
		bl_doc_diag(st->doc, st->ri, BL_WARNING, "diskinfo.rate-mismatch", l->off,
			    "%g kbytes in %g s is %.0f kbytes/sec, but %s is printed", kb, secs,
			    kb / secs, raw);
}

static void overhead_row(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m)
{
	struct bl_run *run = need_run(st, l->off);
	if (!run)
		return;
	char raw[64];
	graw(l, m, 3, "msec/sector", raw, sizeof raw);
	double secs = gnum(l, m, 2), ms = gnum(l, m, 3);
	if (gis(l, m, 1, "calculated command overhead")) {
		bl_run_result(run, "command_overhead", ms / 1000.0, "s", raw, 0);
		return;
	}
	const char *base = gis(l, m, 1, "time to read 10MB block") ? "overhead_10mb_block"
								   : "overhead_20480_sectors";
	char name[64];
	snprintf(name, sizeof name, "%s_elapsed", base);
	bl_run_result(run, name, secs, "s", NULL, 0);
	snprintf(name, sizeof name, "%s_per_sector", base);
	bl_run_result(run, name, ms / 1000.0, "s", raw, 0);
}

static void add_size(struct bl_result *r, double size, const char *label)
{
	if (!r)
		return;
	if (isnan(size))
		bl_result_set_null(r, "size");
	else
		bl_result_set_int(r, "size", (long long)size);
	if (label)
		bl_result_set_str(r, "size_label", label);
}

static void async_row(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m)
{
	struct bl_run *run = need_run(st, l->off);
	if (!run)
		return;
	double size = NAN;
	if (bl_re_gset(m, 2))
		size = gnum(l, m, 2) * 1024.0;
	else if (st->sectorsize)
		size = (double)st->sectorsize;
	char label[32];
	snprintf(label, sizeof label, "%.*s", (int)bl_re_glen(m, 1), l->s + m->ov[2]);
	add_size(bl_run_result(run, "async_random_read_iops", gnum(l, m, 5), "ops/s", NULL, 0),
		 size, label);
	add_size(bl_run_result(run, "async_random_read_ops", gnum(l, m, 3), "ops", NULL, 0), size,
		 label);
	add_size(bl_run_result(run, "async_random_read_elapsed", gnum(l, m, 4), "s", NULL, 0), size,
		 label);
	if (isnan(size))
		bl_doc_diag(
			st->doc, st->ri, BL_INFO, "diskinfo.unknown-sectorsize", l->off,
			"the size of the 'sectorsize' row is unknown: the -v lines are not in the text");
}

static void sync_row(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m)
{
	struct bl_run *run = need_run(st, l->off);
	if (!run)
		return;
	/* "%4.4g kbytes": 0.5, 1, 2, ... 8192 */
	double size = gnum(l, m, 1) * 1024.0;
	char raw[64];
	graw(l, m, 2, "usec/IO", raw, sizeof raw);
	add_size(bl_run_result(run, "sync_random_write_latency", gnum(l, m, 2) / 1e6, "s", raw, 0),
		 size, NULL);
	graw(l, m, 3, "Mbytes/s", raw, sizeof raw);
	add_size(bl_run_result(run, "sync_random_write_throughput", gnum(l, m, 3) * 1024.0 * 1024.0,
			       "B/s", raw, 0),
		 size, NULL);
}

/* ----------------------------------------------------------------- claim */

enum kind {
	L_OTHER,
	L_BLANK,
	L_PARAM,
	L_PLAIN,
	L_SECTION,
	L_SEEK,
	L_TRANSFER,
	L_OVERHEAD,
	L_ASYNC,
	L_SYNC,
	L_ROWISH
};

static enum kind classify(const struct bl_line *l, struct bl_re_match *m)
{
	if (bl_is_blank(l->s, l->len))
		return L_BLANK;
	if (l->len > 400)
		return L_OTHER;
	/* each pattern is tried only on a line with the marks it needs */
	bool colon = memchr(l->s, ':', l->len) != NULL, eq = memchr(l->s, '=', l->len) != NULL;
	if (colon && eq && bl_re_match(&seek_re, l->s, l->len, 0, m))
		return L_SEEK;
	if (colon && eq && bl_re_match(&transfer_re, l->s, l->len, 0, m))
		return L_TRANSFER;
	if (colon && bl_re_match(&section_re, l->s, l->len, 0, m))
		return L_SECTION;
	if (memchr(l->s, '#', l->len) && bl_re_match(&param_re, l->s, l->len, 0, m))
		return L_PARAM;
	if (eq && bl_re_match(&overhead_re, l->s, l->len, 0, m))
		return L_OVERHEAD;
	if (colon && eq && bl_re_match(&async_re, l->s, l->len, 0, m))
		return L_ASYNC;
	if (colon && eq && bl_re_match(&sync_re, l->s, l->len, 0, m))
		return L_SYNC;
	if (bl_re_match(&plain_re, l->s, l->len, 0, m))
		return L_PLAIN;
	if (bl_re_match(&rowish_re, l->s, l->len, 0, m))
		return L_ROWISH;
	return L_OTHER;
}

/* "\t512         \t# sectorsize" with a sector size a disk can have: a
 * "# sectorsize" comment elsewhere ("ashift=12 # sectorsize") is not one. */
static bool sectorsize_line(const struct bl_line *l, const struct bl_re_match *m)
{
	uint64_t v;
	return gis(l, m, 2, "sectorsize") && bl_re_gset(m, 1) &&
	       bl_parse_u64(l->s + m->ov[2], bl_re_glen(m, 1), &v, NULL) && v >= 512 &&
	       v <= 65536 && !(v & (v - 1));
}

/* True when `l` names a device whose -v block follows: the next line is
 * the "# sectorsize" line. */
static bool device_line(const struct bl_message *msg, const struct bl_line *l,
			struct bl_re_match *m)
{
	if (!bl_re_match(&device_re, l->s, l->len, 0, m))
		return false;
	struct bl_line nx;
	struct bl_re_match pm;
	return bl_line_next(msg, l, &nx) && bl_re_match(&param_re, nx.s, nx.len, 0, &pm) &&
	       sectorsize_line(&nx, &pm);
}

static enum section section_of(const struct bl_line *l, const struct bl_re_match *m)
{
	switch (l->s[m->ov[2]]) {
	case 'I': return S_OVERHEAD;
	case 'S': return l->s[m->ov[2] + 1] == 'e' ? S_SEEK : S_SYNC;
	case 'T': return S_TRANSFER;
	default: return S_ASYNC;
	}
}

static void row_in(struct di_state *st, enum section s, size_t off)
{
	if (st->sec != s) {
		close_section(st);
		st->sec = s;
		st->sec_off = off;
		st->headed = false;
	}
	st->rows++;
	st->sections |= 1u << s;
}

/* The start of the block at `anchor`: the device line above its first -v
 * line, or the anchor. False when the anchor begins no block. */
static bool block_start(struct di_state *st, const struct bl_message *msg,
			const struct bl_line *anchor, struct bl_line *start)
{
	struct bl_re_match m;
	struct bl_line prev;
	enum kind k = classify(anchor, &m);
	*start = *anchor;
	if (k == L_PARAM) {
		/* the device line is above the first -v line, unless the author
		 * left it out */
		struct bl_re_match dm;
		if (bl_line_prev(msg, anchor, &prev) && prev.off >= bl_scan_floor(st->sc) &&
		    device_line(msg, &prev, &dm))
			*start = prev;
		else if (!sectorsize_line(anchor, &m))
			return false;
	} else if (k == L_PLAIN) {
		if (!plain_line(st, anchor, &m, true))
			return false;
	} else if (k != L_SECTION && k != L_SEEK && k != L_TRANSFER) {
		return false;
	}
	return true;
}

/* A row a mail client wrapped:
 *   "\tFull stroke:\t  250 iter in"
 *   "5.759155 sec =   23.037 msec"
 * At a line *l of kind L_ROWISH, joins it with the next into `joined`
 * (cap bytes) and, when the two make a row, makes *l, *k and *m the
 * joined line's. */
static void rejoin_row(struct di_state *st, const struct bl_message *msg, struct bl_line *l,
		       enum kind *k, struct bl_re_match *m, char *joined, size_t cap)
{
	struct bl_line nx2;
	if (*k != L_ROWISH || !bl_line_next(msg, l, &nx2) || nx2.off == l->off ||
	    l->len + 1 + nx2.len > cap - 64)
		return;
	memcpy(joined, l->s, l->len);
	joined[l->len] = ' ';
	memcpy(joined + l->len + 1, nx2.s, nx2.len);
	struct bl_line jl = {.s = joined,
			     .len = l->len + 1 + nx2.len,
			     .off = l->off,
			     .next = nx2.next,
			     .cut = l->cut};
	struct bl_re_match jm;
	enum kind jk = classify(&jl, &jm);
	if (jk >= L_SEEK && jk <= L_SYNC) {
		bl_doc_diag(st->doc, st->ri, BL_INFO, "diskinfo.rejoined", l->off,
			    "a row wrapped onto two lines was read as one");
		*k = jk;
		*m = jm;
		*l = jl;
	}
}

/* "Seek times:" and the other section headers (matched in m). */
static void take_section(struct di_state *st, const struct bl_line *l, const struct bl_re_match *m)
{
	/* the same section again: the next device of the command, pasted
	 * without its -v lines */
	enum section sn = section_of(l, m);
	if (cur(st) && (st->sections & (1u << sn)))
		start_run(st, "tests", l->off, NULL, 0);
	need_run(st, l->off);
	close_section(st);
	st->sec = sn;
	st->sec_off = l->off;
	st->headed = true;
	st->sections |= 1u << st->sec;
}

/* Takes line l (of kind k, matched in m, not blank) into the device's
 * run, or starts the next device's. False when the block ends before it. */
static bool take_line(struct di_state *st, const struct bl_message *msg, enum kind k,
		      const struct bl_line *l, struct bl_re_match *m)
{
	if (device_line(msg, l, m)) {
		if (st->in_block >= BLOCK_DEVICES) {
			st->cut = true;
			cut.next = l->off;
			return false;
		}
		start_run(st, "verbose", l->off, l->s + m->ov[2], bl_re_glen(m, 1));
		return true;
	}
	switch (k) {
	case L_PARAM:
		/* -v lines pasted without the device line above them */
		if (!cur(st) && sectorsize_line(l, m))
			start_run(st, "verbose", l->off, NULL, 0);
		if (!cur(st))
			return false;
		param_line(st, l, m);
		return true;
	case L_PLAIN: return plain_line(st, l, m, false);
	case L_SECTION: take_section(st, l, m); return true;
	case L_SEEK:
		need_run(st, l->off); /* a row without its heading starts one */
		row_in(st, S_SEEK, l->off);
		seek_row(st, l, m);
		return true;
	case L_TRANSFER:
		need_run(st, l->off); /* a row without its heading starts one */
		row_in(st, S_TRANSFER, l->off);
		transfer_row(st, l, m);
		return true;
	case L_OVERHEAD:
		need_run(st, l->off); /* a row without its heading starts one */
		row_in(st, S_OVERHEAD, l->off);
		overhead_row(st, l, m);
		return true;
	case L_ASYNC:
		need_run(st, l->off); /* a row without its heading starts one */
		row_in(st, S_ASYNC, l->off);
		async_row(st, l, m);
		return true;
	case L_SYNC:
		need_run(st, l->off); /* a row without its heading starts one */
		row_in(st, S_SYNC, l->off);
		sync_row(st, l, m);
		return true;
	case L_ROWISH:
		if (!cur(st) || st->sec == S_NONE)
			return false;
		bl_doc_diag(st->doc, st->ri, BL_WARNING, "diskinfo.unreadable-row", l->off,
			    "cannot read the numbers of this '%s' row: %.*s", section_name(st->sec),
			    (int)(l->len > 80 ? 80 : l->len), l->s);
		st->doc->partial = true;
		return true;
	default: return false;
	}
}

/* Walks the block from `start`, a run per device. Returns whether a line
 * was taken; *last is the last one. */
static bool walk_block(struct di_state *st, const struct bl_message *msg,
		       const struct bl_line *start, struct bl_line *last)
{
	struct bl_line l = *start;
	struct bl_re_match m;
	int blanks = 0;
	bool any = false;
	/* zeroed, with room past the longest join: PCRE2's JIT may read a few
	 * bytes past the end of a subject (harmless, but not uninitialised) */
	char joined[808 + 64] = {0};
	*last = *start;
	for (;;) {
		enum kind k = classify(&l, &m);
		rejoin_row(st, msg, &l, &k, &m, joined, sizeof joined);
		if (k == L_BLANK) {
			/* a blank line between sections; three in a post that
			 * puts an empty line after every line (Markdown pages
			 * double-spaced: "# Disk ident.", "", "  ", "", "Seek
			 * times:") */
			if (++blanks > 3)
				break;
		} else if (!take_line(st, msg, k, &l, &m)) {
			break;
		} else {
			blanks = 0;
			*last = l;
			any = true;
		}
		struct bl_line nx;
		if (!bl_line_next(msg, &l, &nx) || nx.off == l.off)
			break;
		l = nx;
	}
	return any;
}

/* Ends the block at `end`: the last device's run is finished, and
 * dropped when nothing was read of it. */
static void end_block(struct di_state *st, size_t end)
{
	finish_run(st, end);
	drop_if_empty(st);
}

/* A block starting at `start` goes on from the one cut there: it takes
 * its command and its count of devices. */
static void take_cut(struct di_state *st, const struct bl_message *msg, const struct bl_line *start)
{
	if (cut.set && cut.text == msg->text && cut.next == start->off) {
		st->cont = true;
		st->ndevices = cut.ndevices;
		st->cont_command = cut.command;
		st->cont_cmd_off = cut.cmd_off;
		st->cont_timed = cut.timed;
	}
	cut.set = false;
}

/* After a block cut at a device line (cut.next): what the next needs. */
static void keep_cut(const struct di_state *st, const struct bl_message *msg)
{
	const struct bl_run *first = bl_doc_run(st->doc, st->first_ri);
	if (!st->cut || !first)
		return;
	char *cmd = first->command ? strdup(first->command) : NULL;
	if (first->command && !cmd)
		return;
	free(cut.command);
	cut.command = cmd;
	cut.cmd_off = first->cmd_off;
	cut.timed = first->timed;
	cut.ndevices = st->ndevices;
	cut.text = msg->text;
	cut.set = true;
}

static enum bl_claim diskinfo_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct di_state st = {.sc = sc, .doc = bl_scan_doc(sc), .ri = -1, .first_ri = -1};
	struct bl_line start, last;
	if (!block_start(&st, msg, anchor, &start))
		return BL_NOT_MINE;
	take_cut(&st, msg, &start);
	if (!walk_block(&st, msg, &start, &last) || st.ri < 0)
		return BL_NOT_MINE;
	/* cut at a device line: the last device's run ends where the next
	 * begins, as in one block */
	size_t to = st.cut ? cut.next : last.next;
	end_block(&st, to);
	keep_cut(&st, msg);
	*end = to;
	return BL_CLAIMED;
}

/* ------------------------------------------------------------ command */

/* "diskinfo -t /dev/ad10", "diskinfo -citv ada0 ada1", "diskinfo -wS /dev/da1"
 * Sets options and the device operands ("devices"). */
static void diskinfo_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	const char *p = bl_cmd_args(cmd), *w;
	size_t wl;
	char opts[16];
	size_t no = 0;
	json_t *devs = json_array();
	while (bl_cmd_word(&p, &w, &wl)) {
		if (w[0] == '-') {
			if (no == 0)
				opts[no++] = '-';
			for (size_t i = 1; i < wl && no + 1 < sizeof opts; i++)
				if (!memchr(opts, w[i], no))
					opts[no++] = w[i];
		} else if (devs) {
			json_array_append_new(devs, json_stringn(w, wl));
		}
	}
	opts[no] = '\0';
	if (no)
		bl_run_param_str(run, "options", opts, no);
	if (devs && json_array_size(devs))
		json_object_set_new(run->params, "devices", devs);
	else
		json_decref(devs);
}

static const char *const diskinfo_variants[] = {
	"plain (one tab-separated line: name, sectorsize, bytes, sectors, [stripe], [geometry]; FreeBSD 5-14)",
	"verbose (-v: '<value>\\t# <what>' lines; descr, attachment, TRIM, rotation, zone mode from 11+)",
	"tests -c (I/O command overhead)",
	"tests -t (seek times, transfer rates; FreeBSD 5-10 and 11+ spacing; re-typed rates like '= 142285 kB/s')",
	"tests -i (asynchronous random reads, IOPS by size; FreeBSD 11+)",
	"tests -wS (synchronous random writes, usec/IO and Mbytes/s by size; FreeBSD 11+)",
	NULL,
};

/* How diskinfo's output looks where a post lost its line breaks
 * (ingest/shapes.h). */
/* -t: "Full stroke:	  250 iter in   5.759155 sec =   23.037 msec" */
static const struct bl_line_shape diskinfo_lines[] = {
	{.pattern =
		 "(?:(?:Full|Half|Quarter) stroke|Short (?:forward|backward)|Seq (?:outer|inner)):[ \\t]+"
		 "\\d+ iter in +[\\d.]+ sec = +[\\d.]+ msec",
	 .lit = "sec = ",
	 .rare = 4},
};

static const struct bl_tool_shapes diskinfo_shapes = {
	.lines = diskinfo_lines,
	.nlines = sizeof diskinfo_lines / sizeof diskinfo_lines[0],
	/* its device line "/dev/ada3" above "512  # sectorsize", the
	 * sections "Seek times:" and their rows "Full stroke:   250 iter in ...",
	 * "time to read 10MB block ...", "4 kbytes:     74.5 usec/IO = ..." (some
	 * pages keep "&nbsp;" for the indentation) */
	.weak_starts =
		"/dev/[\\w./-]{1,60}(?=[ \\t]{1,64}\\S{1,64}[ \\t]{1,64}# sectorsize)"
		"|(?<!\\S)\\S{1,64}(?=[ \\t]{1,64}# sectorsize)"
		"|(?:I/O command overhead|Seek times|Transfer rates|Asynchronous random reads|"
		"Synchronous random writes):"
		"|(?:&nbsp;)*(?:(?:Full|Half|Quarter) stroke|Short (?:forward|backward)|Seq (?:outer|inner)|"
		"outside|middle|inside|sectorsize|(?<![\\d.])\\d+(?:\\.\\d+)? kbytes):"
		"|time to read \\d+|calculated command overhead",
	/* the comments of its identity lines, "512  # sectorsize", and the
	 * ends of its rows: "=   19.927 msec", "=    45247 kbytes/sec" */
	.weak_ends =
		"# (?:sectorsize|mediasize in bytes(?: \\([^)\\n]{0,20}\\))?|mediasize in sectors|"
		"stripesize|stripeoffset|(?:Cylinders|Heads|Sectors) according to firmware\\.|"
		"Disk descr\\.|Disk ident\\.|Attachment|Physical path|TRIM/UNMAP support|"
		"Rotation rate in RPM|Zone Mode)"
		"|= {1,64}[\\d.]{1,20} (?:msec(?:/sector)?|IOPS|" RATE_UNITS ")",
	.weak_start_needs = (const char *const[]){"# sectorsize", ":", "time to read",
						  "calculated command overhead", NULL},
	.weak_end_needs = (const char *const[]){"# ", "= ", NULL},
};

/* Charts: each test of -c, -t, -i and -wS on its own, the devices side by
 * side: seek times by distance, transfer rates by zone, and the random
 * I/O tests by block size (five sizes are five measurements, not five
 * repeats of one). The totals each figure is computed from (_elapsed,
 * _iterations, _bytes) are not drawn. */
static const char *const diskinfo_seeks[] = {
	"seek_full_stroke",    "seek_half_stroke", "seek_quarter_stroke", "seek_short_forward",
	"seek_short_backward", "seek_seq_outer",   "seek_seq_inner",      NULL};
static const char *const diskinfo_overheads[] = {"command_overhead",
						 "overhead_10mb_block_per_sector",
						 "overhead_20480_sectors_per_sector", NULL};
static const char *const diskinfo_transfers[] = {"transfer_outside", "transfer_middle",
						 "transfer_inside", NULL};
static const char *const diskinfo_iops[] = {"async_random_read_iops", NULL};
static const char *const diskinfo_sync_rates[] = {"sync_random_write_throughput", NULL};
static const char *const diskinfo_sync_latency[] = {"sync_random_write_latency", NULL};

static const struct bl_chart_view diskinfo_views[] = {
	{.name = "seek",
	 .title = "diskinfo seek times",
	 .metrics = diskinfo_seeks,
	 .unit = "s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = "overhead",
	 .title = "diskinfo command overhead",
	 .metrics = diskinfo_overheads,
	 .unit = "s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = "transfer",
	 .title = "diskinfo transfer rates",
	 .metrics = diskinfo_transfers,
	 .unit = "B/s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = "iops",
	 .title = "diskinfo random reads by block size",
	 .metrics = diskinfo_iops,
	 .unit = "ops/s",
	 .category = BL_KEY_BLOCK_SIZE,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = "sync-writes",
	 .title = "diskinfo synchronous random writes by block size",
	 .metrics = diskinfo_sync_rates,
	 .unit = "B/s",
	 .category = BL_KEY_BLOCK_SIZE,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = "sync-latency",
	 .title = "diskinfo synchronous write latency by block size",
	 .metrics = diskinfo_sync_latency,
	 .unit = "s",
	 .category = BL_KEY_BLOCK_SIZE,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = NULL},
};

// clang-format off
static const struct bl_metric_info diskinfo_metric_info[] = {
	{"seek_full_stroke", "full stroke", "s", "a seek across the whole disk (-t), per seek"},
	{"seek_half_stroke", "half stroke", "s", "a seek across half the disk, per seek"},
	{"seek_quarter_stroke", "quarter stroke", "s", "a seek across a quarter of the disk, per seek"},
	{"seek_short_forward", "short forward", "s", "a short seek forward, per seek"},
	{"seek_short_backward", "short backward", "s", "a short seek backward, per seek"},
	{"seek_seq_outer", "seq. outer", "s", "sequential reads at the outer edge, per read"},
	{"seek_seq_inner", "seq. inner", "s", "sequential reads at the inner edge, per read"},
	{"seek_*_elapsed", NULL, "s", "the seconds a seek test took in all"},
	{"seek_*_iterations", NULL, "count", "how many seeks a test made"},
	{"command_overhead", "command overhead", "s", "the time of one command (-c)"},
	{"overhead_10mb_block_per_sector", "10 MB block, per sector", "s", "one 10 MB read, per sector"},
	{"overhead_20480_sectors_per_sector", "20480 sectors, per sector", "s",
	 "20480 one-sector reads, per sector"},
	{"overhead_*_elapsed", NULL, "s", "the seconds an overhead test took in all"},
	{"transfer_outside", "outside", "B/s", "sequential reads at the outer edge (-t)"},
	{"transfer_middle", "middle", "B/s", "sequential reads in the middle"},
	{"transfer_inside", "inside", "B/s", "sequential reads at the inner edge"},
	{"transfer_*_bytes", NULL, "B", "the bytes a transfer test read"},
	{"transfer_*_elapsed", NULL, "s", "the seconds a transfer test took"},
	{"async_random_read_iops", "random reads", "ops/s", "asynchronous random reads (-i), a \"size\" each"},
	{"async_random_read_ops", NULL, "ops", "how many reads an -i test made"},
	{"async_random_read_elapsed", NULL, "s", "the seconds an -i test took"},
	{"sync_random_write_throughput", "sync. random writes", "B/s",
	 "synchronous random writes (-wS), a \"size\" each"},
	{"sync_random_write_latency", "sync. write latency", "s", "the time of one synchronous write"},
	{NULL, NULL, NULL, NULL},
};
// clang-format on

const struct bl_parser bl_parser_diskinfo = {
	.name = "diskinfo",
	.summary =
		"FreeBSD diskinfo: device geometry (-v) and the -c -t -i -wS benchmarks, one run per device",
	.variants = diskinfo_variants,
	/* "\t512\t# sectorsize", "Seek times:", "Transfer rates:", "I/O command
	 * overhead:", "Asynchronous random reads:", "Synchronous random writes:",
	 * "ada0\t512\t500107862016\t976773168\t0\t0" */
	/* one literal per branch, so that the scan finds each by its needle
	 * (anchor.c): a branch without one runs as a regex over every message */
	.anchor = "\\# ?sectorsize[ \\t]*$"
		  "|^[ \\t]*Seek times:|^[ \\t]*Transfer rates:|^[ \\t]*I/O command overhead:"
		  "|^[ \\t]*Asynchronous random reads:|^[ \\t]*Synchronous random writes:"
		  /* a transfer row an author re-typed without its heading:
		   * "outside: 102400 kbytes in 0.719681 s = 142285 kB/s" */
		  "|outside:[ \\t]*\\d+ ?(?:kbytes|kB|KB|KiB)[ \\t]+in[ \\t]"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+512[ \\t]+\\d"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+1024[ \\t]+\\d"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+2048[ \\t]+\\d"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+4096[ \\t]+\\d"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+8192[ \\t]+\\d"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+16384[ \\t]+\\d"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+32768[ \\t]+\\d"
		  "|^[ \\t]*[A-Za-z/][\\w./:-]{0,200}[ \\t]+65536[ \\t]+\\d",
	.command_word = "diskinfo",
	.metrics = diskinfo_metric_info,
	.shapes = &diskinfo_shapes,
	.claim = diskinfo_claim,
	.command = diskinfo_command,
	.views = diskinfo_views,
};
