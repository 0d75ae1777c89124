/* hdparm.c - hdparm -t / -T: the read timings of a disk.
 *
 *   /dev/sda:
 *    Timing cached reads:   11810 MB in  1.99 seconds = 5931.70 MB/sec
 *    Timing buffered disk reads: 310 MB in  3.03 seconds = 102.39 MB/sec
 *
 * hdparm names each device on a line of its own, then prints one line a
 * timing: -T "cached reads" (before 6.0, "buffer-cache reads"), -t
 * "buffered disk reads", and with --direct "O_DIRECT cached reads" and
 * "O_DIRECT disk reads", the last with "(offset N GB)" under
 * --offset. Its MB is 2^20 bytes (it reads TIMING_BUF_MB of 1 MiB
 * blocks), and the rate is kB/sec (2^10) when under 1 MB/sec.
 *
 * A run is one device's timings: a device line, or a second timing of the
 * same kind (hdparm -t run again and pasted in a row), begins the next.
 * Each timing gives its rate (B/s), its bytes and its seconds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdwords.h"
#include "parser.h"
#include "../base/re.h"
#include "../base/units.h"

extern const struct bl_parser bl_parser_hdparm;

/* " Timing buffered disk reads: 310 MB in  3.03 seconds = 102.39 MB/sec"
 * " Timing buffer-cache reads:   128 MB in  0.81 seconds =158.02 MB/sec"
 * " Timing O_DIRECT disk reads (offset 30 GB): 1474 MB in 3.00 seconds = 491.17 MB/sec"
 * Groups: 1 O_DIRECT, 2 the kind, 3 offset GB, 4 MB, 5 seconds, 6 rate,
 * 7 its unit's first letter (k or M). */
static struct bl_re timing_re = BL_RE(
	"Timing (O_DIRECT )?(cached|buffer-cache|buffered disk|disk) reads"
	"(?: \\(offset (\\d{1,12}) GB\\))?:[ \\t]*(\\d{1,15}) MB in[ \\t]+(\\d{1,9}(?:\\.\\d{1,9})?)"
	" seconds[ \\t]*=[ \\t]*(\\d{1,15}(?:\\.\\d{1,9})?) ([kM])B/sec",
	0);

/* "/dev/sda:"  "/dev/mapper/vg0-root:", on a line of its own or, in a
 * post flattened onto one line, just before the device's first timing */
static struct bl_re device_re = BL_RE("^[ \\t]*(/dev/[\\w./:+-]{1,200}):[ \\t]*$", 0);
static struct bl_re device_end_re = BL_RE("(?:^|[ \\t])(/dev/[\\w./:+-]{1,200}):[ \\t]*$", 0);

enum kind { T_CACHED, T_DISK, T_DIRECT_CACHED, T_DIRECT_DISK, T_KINDS };
static const char *const metric[T_KINDS] = {"cached_reads", "buffered_disk_reads",
					    "direct_cached_reads", "direct_disk_reads"};

/* A timing line read: its kind and figures. */
struct timing {
	enum kind kind;
	bool old; /* "buffer-cache" */
	double mb, secs, rate; /* rate in B/s */
	char raw[48]; /* "5931.70 MB/sec" */
	long long offset_gb; /* -1: none */
};

static double num(const struct bl_line *l, const struct bl_re_match *m, int g)
{
	double v = 0;
	bl_parse_double(l->s + m->ov[2 * g], bl_re_glen(m, g), false, &v, NULL);
	return v;
}

/* The first timing in `l` from byte `from` on: its figures into *t, where
 * it starts and ends into *at, *to. A line holds several when a post was
 * flattened onto one line. */
static bool read_timing(const struct bl_line *l, size_t from, struct timing *t, size_t *at,
			size_t *to)
{
	struct bl_re_match m;
	if (from >= l->len || !memmem(l->s + from, l->len - from, "Timing ", 7) ||
	    !bl_re_match(&timing_re, l->s, l->len, from, &m))
		return false;
	*at = m.ov[0];
	*to = m.ov[1];
	bool direct = bl_re_gset(&m, 1);
	/* "cached" or "buffer-cache" (12 bytes), not "buffered disk" or "disk" */
	bool cached = l->s[m.ov[4]] == 'c' || bl_re_glen(&m, 2) == 12;
	t->kind =
		direct ? (cached ? T_DIRECT_CACHED : T_DIRECT_DISK) : (cached ? T_CACHED : T_DISK);
	t->old = bl_re_glen(&m, 2) == 12; /* "buffer-cache" */
	t->offset_gb = -1;
	if (bl_re_gset(&m, 3)) {
		uint64_t gb;
		if (bl_parse_u64(l->s + m.ov[6], bl_re_glen(&m, 3), &gb, NULL) && gb < (1ULL << 30))
			t->offset_gb = (long long)gb;
	}
	t->mb = num(l, &m, 4);
	t->secs = num(l, &m, 5);
	double printed = num(l, &m, 6);
	bool kilo = l->s[m.ov[14]] == 'k';
	t->rate = printed * (kilo ? 1024.0 : 1048576.0);
	snprintf(t->raw, sizeof t->raw, "%.*s %cB/sec", (int)bl_re_glen(&m, 6), l->s + m.ov[12],
		 kilo ? 'k' : 'M');
	return true;
}

/* The device named on a line of its own at `l`, into dev (cap bytes). */
static bool read_device(const struct bl_line *l, char *dev, size_t cap)
{
	struct bl_re_match m;
	if (!memchr(l->s, '/', l->len) || !bl_re_match(&device_re, l->s, l->len, 0, &m))
		return false;
	snprintf(dev, cap, "%.*s", (int)bl_re_glen(&m, 1), l->s + m.ov[2]);
	return true;
}

/* The device named at the end of s[0, n), what stands before a timing on
 * its line ("/dev/sda: Timing cached reads: ..."), into dev. */
static bool device_before(const char *s, size_t n, char *dev, size_t cap)
{
	struct bl_re_match m;
	if (!n || !memchr(s, '/', n) || !bl_re_match(&device_end_re, s, n, 0, &m))
		return false;
	snprintf(dev, cap, "%.*s", (int)bl_re_glen(&m, 1), s + m.ov[2]);
	return true;
}

static void hdparm_command(struct bl_doc *doc, struct bl_run *run, const char *cmd);

/* The state of one claim: the run being built and what it has seen. */
struct hd {
	struct bl_scan *sc;
	struct bl_doc *doc;
	long ri; /* the run being built, -1 before the first */
	bool seen[T_KINDS]; /* its timings so far */
	char device[256]; /* the device line above it, or "" */
	size_t device_off; /* where that line starts */
	bool has_device;
};

/* Lines between a device line and its timings that hdparm (or the kernel)
 * prints too: " HDIO_DRIVE_CMD(identify) failed: Invalid argument",
 * "SG_IO: bad/missing sense data, sb[]:  70 00 ...", settings
 * (" readonly      =  0 (off)"). */
static bool aside(const struct bl_line *l)
{
	return memmem(l->s, l->len, "failed", 6) || memmem(l->s, l->len, "SG_IO", 5) ||
	       memchr(l->s, '=', l->len);
}

/* Begins a run at text offset `off` (its device line or first timing).
 * A run right under the one before, with no device line of its own, is
 * the same command run again (its timings pasted in a row): it takes that
 * run's command rather than looking above it. */
static struct bl_run *begin_run(struct hd *h, size_t off, size_t end)
{
	long prev = h->has_device ? -1 : h->ri;
	struct bl_run *run = bl_doc_add_run(h->doc, "hdparm", "default", off, end);
	if (!run)
		return NULL;
	h->ri = (long)h->doc->nruns - 1;
	memset(h->seen, 0, sizeof h->seen);
	const struct bl_run *p = bl_doc_run(h->doc, prev);
	if (p && p->command) {
		run->command = strdup(p->command);
		run->has_command = run->command != NULL;
		run->repeat_of_prev = true;
		run->timed = p->timed;
		if (run->command)
			hdparm_command(h->doc, run, run->command);
	} else {
		if (h->has_device)
			bl_run_param_str(run, "device", h->device, strlen(h->device));
		bl_scan_find_command(h->sc, &bl_parser_hdparm, run);
	}
	return bl_doc_run(h->doc, h->ri);
}

/* The timing's three results, and a warning where the rate is not the
 * bytes over the seconds (each printed to two decimals). */
static void add_timing(struct hd *h, struct bl_run *run, const struct timing *t, size_t off)
{
	char name[48];
	const char *k = metric[t->kind];
	bl_run_result(run, k, t->rate, "B/s", t->raw, 0);
	snprintf(name, sizeof name, "%s_bytes", k);
	bl_run_result(run, name, t->mb * 1048576.0, "B", NULL, 0);
	snprintf(name, sizeof name, "%s_elapsed", k);
	bl_run_result(run, name, t->secs, "s", NULL, 0);
	if (t->old)
		run->variant = "old";
	if (t->kind >= T_DIRECT_CACHED)
		run->variant = "direct";
	if (t->offset_gb >= 0)
		bl_run_param_int(run, "read_offset", t->offset_gb << 30);
	if (t->secs > 0 && t->rate > 0) {
		double expect = t->mb * 1048576.0 / t->secs;
		double slack = 0.006 / t->secs + 0.006 * 1048576.0 / t->rate + 1e-6;
		if (fabs(expect - t->rate) > slack * t->rate)
			bl_doc_diag(h->doc, h->ri, BL_WARNING, "hdparm.rate-mismatch", off,
				    "%.0f MB in %.2f seconds is %.2f MB/sec, not the %s printed",
				    t->mb, t->secs, expect / 1048576.0, t->raw);
	}
	h->seen[t->kind] = true;
}

/* Adds timing t, found at text offset `off`, to the run under way or to
 * a new one. False when memory ran out. */
static bool take_timing(struct hd *h, const struct timing *t, size_t off, size_t line_end)
{
	struct bl_run *run = bl_doc_run(h->doc, h->ri);
	if (!run || h->seen[t->kind]) {
		run = begin_run(h, h->has_device ? h->device_off : off, line_end);
		if (!run)
			return false;
		h->has_device = false;
	}
	add_timing(h, run, t, off);
	run->end_off = line_end;
	return true;
}

/* The timings of line `l`, each with the device named just before it on
 * the line, if any. False when the line holds none. */
static bool read_line(struct hd *h, const struct bl_line *l)
{
	struct timing t;
	size_t pos = 0, at, to;
	bool any = false;
	while (read_timing(l, pos, &t, &at, &to)) {
		if (device_before(l->s + pos, at - pos, h->device, sizeof h->device)) {
			h->has_device = true;
			h->device_off = l->off + pos;
			h->ri = -1; /* the next timing begins a run */
		}
		/* a run begins at its line, or where its timing does on a line
		 * that holds several */
		if (!take_timing(h, &t, l->off + (pos ? at : 0), l->next))
			return any;
		any = true;
		pos = to;
	}
	return any;
}

/* A block ends at the device line after this many runs: a loop over
 * thousands of devices is read as blocks of as many, each run held only
 * until its block ends (the next block finds its device line above its
 * first timing, as a block does). */
#define BLOCK_RUNS 256

/* Reads the timings from the anchor's line on; the end of the block. */
static size_t walk(struct hd *h, const struct bl_line *first)
{
	struct bl_line l = *first, nx;
	size_t end = first->next, before = h->doc->nruns;
	for (;;) {
		if (read_line(h, &l)) {
			end = l.next;
		} else if (h->doc->nruns - before >= BLOCK_RUNS &&
			   read_device(&l, h->device, sizeof h->device)) {
			break;
		} else if (read_device(&l, h->device, sizeof h->device)) {
			h->has_device = true;
			h->device_off = l.off;
			h->ri = -1; /* the next timing begins a run */
		} else if (bl_is_blank(l.s, l.len) || aside(&l)) {
			/* between a device and its timings, or between devices */
		} else {
			break;
		}
		if (!bl_line_next(bl_scan_message(h->sc), &l, &nx) || nx.off == l.off)
			break;
		l = nx;
	}
	return end;
}

/* The device line just above the first timing, past blank lines and the
 * lines hdparm prints beside its timings. */
static void device_above(struct hd *h, const struct bl_line *first)
{
	struct bl_message *msg = bl_scan_message(h->sc);
	struct bl_line cur = *first, up;
	for (int k = 0; k < 4 && bl_line_prev(msg, &cur, &up) && up.off >= bl_scan_floor(h->sc);
	     k++) {
		if (read_device(&up, h->device, sizeof h->device)) {
			h->has_device = true;
			h->device_off = up.off;
			return;
		}
		if (!bl_is_blank(up.s, up.len) && !aside(&up))
			return;
		cur = up;
	}
}

static enum bl_claim hdparm_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct timing t;
	size_t at, to;
	if (!read_timing(anchor, 0, &t, &at, &to))
		return BL_NOT_MINE;
	struct hd h = {.sc = sc, .doc = bl_scan_doc(sc), .ri = -1};
	device_above(&h, anchor);
	size_t before = h.doc->nruns;
	*end = walk(&h, anchor);
	return h.doc->nruns > before ? BL_CLAIMED : BL_NOT_MINE;
}

/* "hdparm -tT /dev/sda", "hdparm -t --direct --offset 30 /dev/nvme0n1" */
static void hdparm_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	const char *p = bl_cmd_args(cmd), *w;
	size_t wl;
	while (bl_cmd_word(&p, &w, &wl)) {
		if (wl == 8 && memcmp(w, "--direct", 8) == 0)
			json_object_set_new(run->params, "direct", json_true());
		else if (wl > 5 && memcmp(w, "/dev/", 5) == 0 &&
			 !json_object_get(run->params, "device"))
			bl_run_param_str(run, "device", w, wl);
	}
}

static const char *const hdparm_variants[] = {
	"default (Timing cached reads, Timing buffered disk reads: -T, -t)",
	"old (Timing buffer-cache reads, before hdparm 6)",
	"direct (Timing O_DIRECT cached reads, O_DIRECT disk reads, --offset: --direct)",
	NULL,
};

// clang-format off
static const struct bl_metric_info hdparm_metric_info[] = {
	{"cached_reads", NULL, "B/s", "reads from the page cache, not the disk (-T)"},
	{"buffered_disk_reads", NULL, "B/s", "reads through the buffer cache from the disk (-t)"},
	{"direct_cached_reads", NULL, "B/s", "-T with O_DIRECT (--direct): the drive's own cache"},
	{"direct_disk_reads", NULL, "B/s", "-t with O_DIRECT (--direct)"},
	{"*_bytes", NULL, "B", "the bytes a timing read"},
	{"*_elapsed", NULL, "s", "the seconds a timing took"},
	{NULL, NULL, NULL, NULL},
};
// clang-format on

const struct bl_parser bl_parser_hdparm = {
	.name = "hdparm",
	.summary = "hdparm -t / -T read timings: cached and buffered disk reads, per device",
	.variants = hdparm_variants,
	/* " Timing cached reads:   11810 MB in  1.99 seconds = 5931.70 MB/sec" */
	.anchor = "Timing (?:O_DIRECT )?(?:cached|buffer-cache|buffered disk|disk) reads",
	.command_word = "hdparm",
	.claim = hdparm_claim,
	.command = hdparm_command,
	.metrics = hdparm_metric_info,
};
