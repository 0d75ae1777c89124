/* bonnie.c - the original bonnie: Tim Bray's 1.x, Bonnie-64, and the
 * Garloff/SUSE variant (per-test "done:" lines, "(nosync)", "--Rnd Seek-",
 * sizes like "1*1024").
 *
 * A block is an optional progress part (File line, per-test lines, Seeker
 * line), two dashed headers, the Machine header, then one row per run:
 *               -------Sequential Output-------- ---Sequential Input-- --Random--
 *               -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---
 * Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
 * zfs      4096 79500 44.1 106960 20.8 60252 12.9 155730 70.2 170719 13.6 121.5  0.5
 * Each row is a run labelled by its machine column. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdwords.h"
#include "bonnie_table.h"
#include "parser.h"
#include "../base/re.h"
#include "../base/units.h"

extern const struct bl_parser bl_parser_bonnie;
static void bonnie_command(struct bl_doc *doc, struct bl_run *run, const char *cmd);

/* "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU"
 * "Machine    GB M/sec %CPU M/sec %CPU ..."                       (Bonnie-64)
 * "Kernel     MB K/sec %CPU ..."                         (posts that relabel it)
 * "ST318451LW MB K/sec %CPU ..."    (a disk model written over the word) */
static struct bl_re hdr_re = BL_RE(
	"^[ \\t]*(?:<pre>)?(?:(Machine|Kernel|[A-Za-z]\\S{0,15})[ \\t]+)?([MG]B)[ \\t]+([KM])/sec[ \\t]+%CPU",
	0);

/* "              -------Sequential Output-------- ---Sequential Input-- --Random--"
 * "              ---Sequential Output (nosync)--- ---Sequential Input-- --Rnd Seek-"
 * "Quantum       -------Sequential Output-------- ---Sequential Input-- --Random--"
 *   (the blank machine column of the headers carries a word of the author's) */
static struct bl_re dash1_re = BL_RE(
	"^[ \\t]*(?:<pre>)?(?:[A-Za-z]\\S{0,13}[ \\t]+)?-{2,}Sequential Output(?: \\((no)?sync\\))?-*",
	0);

/* "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---"
 * "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --04k (03)-"
 * "              -CharUnlk- --Block--- -Rewrite-- -CharUnlk- --Block--- --00k (03)-"
 * "Seagate       -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---" */
static struct bl_re dash2_re =
	BL_RE("^[ \\t]*(?:[A-Za-z]\\S{0,13}[ \\t]+)?-(?:Per Char|CharUnlk)- --Block--- -Rewrite--"
	      "(?:.*--(\\d+)k \\((\\d+)\\)-)?",
	      0);

/* "File './Bonnie.2276', size: 1073741824, volumes: 1"
 * "Bonnie 1.4: File './Bonnie.1557', size: 268435456, volumes: 1"
 * "File './Bonnie.1234', size: 104857600"                      (Tim Bray) */
static struct bl_re file_re = BL_RE(
	"^[ \\t]*(?:Bonnie ([0-9][0-9.]{0,8}[a-z]?): )?File '([^'\\n]{0,300})', size: (\\d{1,20})"
	"(?:, volumes: (\\d{1,6}))?",
	0);

/* "Writing with putc()...  done:  72692 kB/s  83.7 %CPU"
 * "Writing intelligently...done: 103022 kB/s  40.5 %CPU"
 * "Reading with getc_unlocked()...done:  10436 kB/s  14.3 %CPU"
 * "Rewriting...done"                                          (Tim Bray) */
static struct bl_re done_re =
	BL_RE("^[ \\t]*(Writing with putc|Rewriting|Writing intelligently|Reading with getc"
	      "|Reading intelligently)[^.\\n]{0,20}\\.\\.\\.[ \\t]*done(?::[ \\t]+(\\d{1,12}) kB/s"
	      "[ \\t]+(\\d{1,3}(?:\\.\\d+)?) %CPU)?",
	      0);

/* "Seeker 1...Seeker 2...Seeker 3...start 'em...done...done...done..." */
static struct bl_re seeker_re = BL_RE("^[ \\t]*Seeker \\d+\\.\\.\\.", 0);

enum kind { K_OTHER, K_BLANK, K_FILE, K_DONE, K_SEEKER, K_DASH1, K_DASH2, K_HDR, K_HFRAG };

static enum kind classify(const struct bl_line *l, struct bl_re_match *m)
{
	if (bl_is_blank(l->s, l->len))
		return K_BLANK;
	if (bl_re_match(&hdr_re, l->s, l->len, 0, m))
		return K_HDR;
	if (bl_re_match(&dash1_re, l->s, l->len, 0, m))
		return K_DASH1;
	if (bl_re_match(&dash2_re, l->s, l->len, 0, m))
		return K_DASH2;
	if (bl_re_match(&file_re, l->s, l->len, 0, m))
		return K_FILE;
	if (bl_re_match(&done_re, l->s, l->len, 0, m))
		return K_DONE;
	if (bl_re_match(&seeker_re, l->s, l->len, 0, m))
		return K_SEEKER;
	if (bl_btab_header_fragment(l->s, l->len))
		return K_HFRAG;
	return K_OTHER;
}

/* What the lines above the rows said. */
struct ctx {
	const char *variant;
	double rate_mult; /* 1024 for K/sec, 1048576 for M/sec (Bonnie-64) */
	bool gb; /* size column in GB (Bonnie-64) */
	long size_edge; /* right edge of the MB/GB column */
	long edge[12]; /* right edges of the data columns */
	const char *sync; /* "nosync", "sync" or NULL */
	long seek_kb, seek_procs; /* Garloff "--04k (03)-", or -1 */
	bool has_file;
	char version[16];
	char path[128];
	unsigned long long file_bytes, volumes;
	struct bl_btab_cell done_rate[5], done_cpu[5];
	bool have_done[5];
	size_t first_off; /* text offset where the block starts */
	/* a block that reads on with a table cut at BLOCK_ROWS rows: the
	 * command of the block before (NULL: none) */
	bool cont;
	const char *cont_command;
	bool cont_timed;
};

/* A table's rows are read this many at a time, each a run held until
 * the block ends: a table of any length is read in blocks of as many. */
#define BLOCK_ROWS 512

static const int done_test[5] = {BL_T_OUT_CHAR, BL_T_OUT_REWRITE, BL_T_OUT_BLOCK, BL_T_IN_CHAR,
				 BL_T_IN_BLOCK};

static int done_index(const char *s, size_t n)
{
	static const char *const names[5] = {"Writing with putc", "Rewriting",
					     "Writing intelligently", "Reading with getc",
					     "Reading intelligently"};
	for (int i = 0; i < 5; i++)
		if (n == strlen(names[i]) && memcmp(s, names[i], n) == 0)
			return i;
	return -1;
}

static void read_done(struct ctx *c, const struct bl_line *l, const struct bl_re_match *m)
{
	int i = done_index(l->s + m->ov[2], bl_re_glen(m, 1));
	if (i < 0 || !bl_re_gset(m, 2))
		return;
	bl_btab_rate(l->s + m->ov[4], bl_re_glen(m, 2), 1024.0, false, &c->done_rate[i]);
	bl_btab_cpu(l->s + m->ov[6], bl_re_glen(m, 3), &c->done_cpu[i]);
	c->have_done[i] = true;
}

static void read_file(struct ctx *c, const struct bl_line *l, const struct bl_re_match *m)
{
	c->has_file = true;
	if (bl_re_gset(m, 1))
		snprintf(c->version, sizeof c->version, "%.*s", (int)bl_re_glen(m, 1),
			 l->s + m->ov[2]);
	snprintf(c->path, sizeof c->path, "%.*s", (int)bl_re_glen(m, 2), l->s + m->ov[4]);
	uint64_t v;
	if (bl_parse_u64(l->s + m->ov[6], bl_re_glen(m, 3), &v, NULL))
		c->file_bytes = v;
	if (bl_re_gset(m, 4) && bl_parse_u64(l->s + m->ov[8], bl_re_glen(m, 4), &v, NULL))
		c->volumes = v;
}

/* Column edges from the Machine header: its rate and %CPU words; where the
 * header was cut short, the rest follow bonnie's 11-column pairs. */
static void read_header(struct ctx *c, const struct bl_line *l, const struct bl_re_match *m)
{
	struct bl_btab_row r;
	bl_btab_row_init(&r, l->s, l->len);
	c->gb = l->s[m->ov[4]] == 'G';
	c->rate_mult = l->s[m->ov[6]] == 'M' ? 1048576.0 : 1024.0;
	/* the machine's column, unless the author cut it off:
	 * " MB K/sec %CPU K/sec %CPU ..." over "400 17380 74.4 13887 ..." */
	size_t n = 0, mb = bl_re_gset(m, 1) ? 1 : 0;
	c->size_edge = r.ntok > mb ? (long)r.tok[mb].b : 13;
	for (size_t i = mb + 1; i < r.ntok && n < 12; i++)
		c->edge[n++] = (long)r.tok[i].b;
	if (n == 0) {
		c->edge[0] = c->size_edge + 6;
		c->edge[1] = c->size_edge + 11;
		n = 2;
	} else if (n == 1) {
		c->edge[1] = c->edge[0] + 5;
		n = 2;
	}
	for (; n < 12; n++)
		c->edge[n] = c->edge[n - 2] + 11;
}

/* A row: name, size, then 12 cells. The size is "4096", "1*1024",
 * "1* 512" (Garloff) or "1" (GB, Bonnie-64); a name may run into it
 * ("localhost4096"). Returns false when the line is not a row. */
struct row {
	struct bl_btab_row r;
	char name[64];
	double size_mb; /* per volume */
	unsigned long volumes;
	bool joined; /* name ran into the size */
	size_t first; /* first data token */
	const char *group; /* the label line above a row without a name */
};

static bool is_num(const char *s, size_t n)
{
	double v;
	return bl_btab_number(s, n, &v);
}

/* "localhost4096 79500 44.1 ...": a name run into the size, read from the
 * first token when its digits end at the size column. A name that fills
 * its 8-character cell and is followed by the size is no such join:
 *   "22pre6aa2 100 12703 90.5 23245 16.3 ..."
 * the tokens after the name count a size and 12 cells, or, in a row
 * wrapped by a mail client (one cell short), the second token ends nearer
 * the size column than the first. */
static bool joined_name(const struct ctx *c, struct row *w)
{
	const struct bl_btab_row *r = &w->r;
	const char *t = r->s + r->tok[0].a;
	size_t n = r->tok[0].b - r->tok[0].a;
	long end = (long)r->tok[0].b;
	if (labs(end - c->size_edge) > 4 || memchr(t, '*', n))
		return false;
	if (r->ntok >= 14 && is_num(r->s + r->tok[1].a, r->tok[1].b - r->tok[1].a))
		return false;
	if (labs((long)r->tok[1].b - c->size_edge) < labs(end - c->size_edge))
		return false;
	size_t k = n;
	while (k && ((t[k - 1] >= '0' && t[k - 1] <= '9') || t[k - 1] == '.'))
		k--;
	double mb;
	if (!k || k == n || !is_num(t + k, n - k) ||
	    !bl_parse_double(t + k, n - k, false, &mb, NULL))
		return false;
	snprintf(w->name, sizeof w->name, "%.*s", (int)k, t);
	w->joined = true;
	w->size_mb = c->gb ? mb * 1024.0 : mb;
	w->first = 1;
	return true;
}

static bool parse_row(const struct ctx *c, const char *s, size_t len, struct row *w)
{
	bl_btab_row_init(&w->r, s, len);
	struct bl_btab_row *r = &w->r;
	w->name[0] = '\0';
	w->volumes = 0;
	w->joined = false;
	if (r->ntok < 2)
		return false;
	/* the size: the first numeric token ending near the size column */
	for (size_t i = 0; i < r->ntok && i < 8; i++) {
		const char *t = r->s + r->tok[i].a;
		size_t n = r->tok[i].b - r->tok[i].a;
		long end = (long)r->tok[i].b;
		const char *star = memchr(t, '*', n);
		size_t ntok_size = 1;
		double mb = 0;
		bool ok = false;
		if (star) {
			/* "1*1024", or "1*" then " 512" */
			uint64_t vol;
			size_t used;
			if (bl_parse_u64(t, (size_t)(star - t), &vol, &used) &&
			    used == (size_t)(star - t)) {
				const char *rest = star + 1;
				size_t rn = n - (size_t)(rest - t);
				if (rn == 0 && i + 1 < r->ntok) {
					rest = r->s + r->tok[i + 1].a;
					rn = r->tok[i + 1].b - r->tok[i + 1].a;
					end = (long)r->tok[i + 1].b;
					ntok_size = 2;
				}
				if (is_num(rest, rn) &&
				    bl_parse_double(rest, rn, false, &mb, NULL)) {
					ok = true;
					w->volumes = (unsigned long)vol;
				}
			}
		} else if (is_num(t, n)) {
			ok = bl_parse_double(t, n, false, &mb, NULL);
		}
		if (ok && labs(end - c->size_edge) > 4 && i + ntok_size < r->ntok)
			ok = false; /* a number in the name, or a data cell */
		if (!ok && i == 0 && joined_name(c, w))
			return true;
		if (!ok)
			continue;
		if (i > 0) {
			size_t a = r->tok[0].a, b = r->tok[i - 1].b;
			size_t nl = b - a < sizeof w->name ? b - a : sizeof w->name - 1;
			memcpy(w->name, r->s + a, nl);
			w->name[nl] = '\0';
		}
		w->size_mb = c->gb ? mb * 1024.0 : mb;
		w->first = i + ntok_size;
		/* every cell after the size must look like a number */
		for (size_t k = w->first; k < r->ntok; k++) {
			const char *u = r->s + r->tok[k].a;
			size_t un = r->tok[k].b - r->tok[k].a;
			if (!is_num(u, un) && !(un && u[0] == '+'))
				return false;
		}
		return w->first < r->ntok;
	}
	return false;
}

/* A line that only continues the row above (cut by a mail client):
 * "6.4"  "11.4  382.1  2.4" */
static bool numeric_fragment(const char *s, size_t len)
{
	struct bl_btab_row r;
	bl_btab_row_init(&r, s, len);
	if (!r.ntok || r.ntok > 11)
		return false;
	for (size_t i = 0; i < r.ntok; i++)
		if (!is_num(r.s + r.tok[i].a, r.tok[i].b - r.tok[i].a))
			return false;
	return true;
}

static void add_params(struct bl_doc *doc, long ri, const struct ctx *c, const struct row *w)
{
	struct bl_run *run = bl_doc_run(doc, ri);
	if (w->name[0])
		bl_run_param_str(run, "machine", w->name, strlen(w->name));
	bl_run_param_real(run, "file_size", w->size_mb * 1048576.0);
	if (w->volumes)
		bl_run_param_int(run, "volumes", (long long)w->volumes);
	if (c->version[0])
		bl_run_param_str(run, "version", c->version, strlen(c->version));
	if (c->sync)
		bl_run_param_str(run, "sync", c->sync, strlen(c->sync));
	if (c->seek_kb >= 0)
		bl_run_param_int(run, "seek_block_size", c->seek_kb * 1024);
	if (c->seek_procs >= 0)
		bl_run_param_int(run, "seek_proc_count", c->seek_procs);
	if (c->has_file) {
		bl_run_param_str(run, "file", c->path, strlen(c->path));
		double total = w->size_mb * 1048576.0 * (w->volumes ? (double)w->volumes : 1.0);
		if (c->file_bytes && fabs((double)c->file_bytes - total) > 1048576.0 &&
		    fabs((double)c->file_bytes - w->size_mb * 1048576.0) > 1048576.0)
			bl_doc_diag(doc, ri, BL_WARNING, "bonnie.size-mismatch", run->off,
				    "the File line says %llu bytes but the row says %g MB",
				    c->file_bytes, w->size_mb);
	}
}

static void read_cells(struct bl_doc *doc, long ri, const struct ctx *c, const struct row *w,
		       size_t row_off, bool compare_done)
{
	struct bl_run *run = bl_doc_run(doc, ri);
	int cell[12], uncertain = 0;
	const struct bl_btab_row *r = &w->r;
	if (!bl_btab_place(r, w->first, c->edge, 12, cell, &uncertain)) {
		bl_doc_diag(doc, ri, BL_WARNING, "bonnie.extra-cells", row_off,
			    "the row has %zu cells where bonnie prints 12; the first 12 are read",
			    r->ntok - w->first);
		for (int k = 0; k < 12; k++)
			cell[k] = w->first + (size_t)k < r->ntok ? (int)w->first + k : -1;
	} else if (uncertain) {
		bl_doc_diag(
			doc, ri, BL_WARNING, "bonnie.misaligned", row_off,
			"%d cell(s) of the row stand away from the header's columns; placed at the nearest",
			uncertain);
	}
	static const int order[6] = {BL_T_OUT_CHAR, BL_T_OUT_BLOCK, BL_T_OUT_REWRITE,
				     BL_T_IN_CHAR,  BL_T_IN_BLOCK,  BL_T_SEEKS};
	for (int t = 0; t < 6; t++) {
		struct bl_btab_cell rate, cpu;
		int a = cell[2 * t], b = cell[2 * t + 1];
		const char *as = a >= 0 ? r->s + r->tok[a].a : NULL;
		size_t an = a >= 0 ? r->tok[a].b - r->tok[a].a : 0;
		const char *bs = b >= 0 ? r->s + r->tok[b].a : NULL;
		size_t bn = b >= 0 ? r->tok[b].b - r->tok[b].a : 0;
		bl_btab_rate(as, an, t == 5 ? 1.0 : c->rate_mult, false, &rate);
		bl_btab_cpu(bs, bn, &cpu);
		if (rate.kind == BL_BTAB_BAD || cpu.kind == BL_BTAB_BAD)
			bl_doc_diag(doc, ri, BL_WARNING, "bonnie.bad-cell", row_off,
				    "cannot read the %s cells '%s' '%s'", bl_btab_metric[order[t]],
				    rate.raw, cpu.raw);
		bl_btab_emit(run, (enum bl_btab_test)order[t], &rate, &cpu, NULL);
	}
	if (!compare_done)
		return;
	for (int i = 0; i < 5; i++) {
		if (!c->have_done[i])
			continue;
		const struct bl_result *res =
			bl_btab_find_result(run, bl_btab_metric[done_test[i]]);
		double v;
		if (res && bl_result_number(res, &v) && c->done_rate[i].kind == BL_BTAB_VALUE &&
		    fabs(v - c->done_rate[i].v) > 1024.0)
			bl_doc_diag(
				doc, ri, BL_WARNING, "bonnie.done-mismatch", row_off,
				"the table says %s = %.0f B/s, but its progress line says %s kB/s",
				bl_btab_metric[done_test[i]], v, c->done_rate[i].raw);
	}
}

/* A run from the progress lines alone (a post that cut the table off). */
static void done_only_run(struct bl_scan *sc, const struct ctx *c, size_t end)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	struct bl_run *run = bl_doc_add_run(doc, "bonnie", "garloff", c->first_off, end);
	if (!run)
		return;
	long ri = (long)doc->nruns - 1;
	bl_scan_find_command(sc, &bl_parser_bonnie, run);
	if (c->version[0])
		bl_run_param_str(run, "version", c->version, strlen(c->version));
	bl_run_param_str(run, "file", c->path, strlen(c->path));
	if (c->file_bytes)
		bl_run_param_real(run, "file_size", (double)c->file_bytes);
	if (c->volumes)
		bl_run_param_int(run, "volumes", (long long)c->volumes);
	for (int i = 0; i < 5; i++)
		if (c->have_done[i])
			bl_btab_emit(run, (enum bl_btab_test)done_test[i], &c->done_rate[i],
				     &c->done_cpu[i], NULL);
	bl_doc_diag(doc, ri, BL_INFO, "bonnie.no-table", c->first_off,
		    "bonnie's progress lines without its result table: the seek test is missing");
}

/* The start of the block at `anchor`: the File, progress and dashed
 * header lines above it. */
static struct bl_line block_start(struct bl_scan *sc, const struct bl_line *anchor)
{
	struct bl_message *msg = bl_scan_message(sc);
	size_t floor = bl_scan_floor(sc);
	struct bl_re_match m;
	struct bl_line start = *anchor, prev;
	for (int i = 0; i < 12 && bl_line_prev(msg, &start, &prev) && prev.off >= floor; i++) {
		enum kind pk = classify(&prev, &m);
		if (pk == K_BLANK || pk == K_OTHER || pk == K_HDR)
			break;
		start = prev;
	}
	return start;
}

/* The context of a block starting at `first_off` before its head says
 * more: Tim Bray's bonnie and its columns. */
static void ctx_init(struct ctx *c, size_t first_off)
{
	memset(c, 0, sizeof *c);
	c->variant = "bray";
	c->rate_mult = 1024.0;
	c->seek_kb = c->seek_procs = -1;
	c->first_off = first_off;
	c->size_edge = 13;
	for (int i = 0; i < 12; i++) /* Tim Bray's columns, until a header says */
		c->edge[i] = 19 + 11 * (i / 2) + 5 * (i % 2);
}

/* A line of the head above the Machine header (of kind ck, matched in m):
 * the File line, a progress line, a dashed header line. *any_done: some
 * progress line gave a rate. */
static void head_line(struct ctx *c, enum kind ck, const struct bl_line *l,
		      const struct bl_re_match *m, bool *any_done)
{
	if (ck == K_FILE) {
		read_file(c, l, m);
		/* Tim Bray's prints "File './Bonnie.4711', size: 104857600";
		 * Garloff's adds the volumes and its version */
		if (bl_re_gset(m, 1) || bl_re_gset(m, 4))
			c->variant = "garloff";
	} else if (ck == K_DONE) {
		read_done(c, l, m);
		if (c->have_done[0] || c->have_done[1] || c->have_done[2])
			*any_done = true;
	} else if (ck == K_DASH1) {
		if (bl_re_gset(m, 1))
			c->sync = bl_re_glen(m, 1) ? "nosync" : "sync";
		else if (memmem(l->s, l->len, "(sync)", 6))
			c->sync = "sync";
	} else if (ck == K_DASH2) {
		uint64_t v;
		if (bl_re_gset(m, 1) && bl_parse_u64(l->s + m->ov[2], bl_re_glen(m, 1), &v, NULL))
			c->seek_kb = (long)v;
		if (bl_re_gset(m, 2) && bl_parse_u64(l->s + m->ov[4], bl_re_glen(m, 2), &v, NULL))
			c->seek_procs = (long)v;
	}
}

/* The head, from `start`: everything up to and including the Machine
 * header, which sets the variant and the columns. True when the header is
 * there (*cur is then its last line). *last_end: the end of the head. */
static bool read_head(struct bl_message *msg, struct ctx *c, const struct bl_line *start,
		      struct bl_line *cur, size_t *last_end, bool *any_done)
{
	struct bl_re_match m;
	struct bl_line next;
	bool have_hdr = false;
	*cur = *start;
	*last_end = start->next;
	*any_done = false;
	for (int i = 0; i < 24; i++) {
		enum kind ck = classify(cur, &m);
		if (ck == K_HDR) {
			read_header(c, cur, &m);
			have_hdr = true;
			*last_end = cur->next;
			/* a header cut short continues on the next line */
			if (bl_line_next(msg, cur, &next) && classify(&next, &m) == K_HFRAG) {
				*cur = next;
				*last_end = cur->next;
			}
			break;
		}
		if (ck == K_BLANK || ck == K_OTHER)
			break;
		head_line(c, ck, cur, &m, any_done);
		*last_end = cur->next;
		if (!bl_line_next(msg, cur, &next))
			break;
		*cur = next;
	}
	if (c->sync || c->seek_kb >= 0 || *any_done)
		c->variant = "garloff";
	if (c->gb)
		c->variant = "bonnie-64";
	return have_hdr;
}

/* The run of row `w` at [row_off, row_end): the first run of the block
 * (none before it since first_run) starts at the block's start and finds
 * the command line, the later ones share it. Returns its index, or -1
 * when out of memory. */
static long row_run(struct bl_scan *sc, const struct ctx *c, const struct row *w, size_t first_run,
		    size_t start_off, size_t row_off, size_t row_end)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	bool first = doc->nruns == first_run;
	struct bl_run *run =
		bl_doc_add_run(doc, "bonnie", c->variant, first ? start_off : row_off, row_end);
	if (!run)
		return -1;
	long ri = (long)doc->nruns - 1;
	if (w->name[0])
		run->label = strdup(w->name);
	else if (w->group && w->group[0])
		run->label = strdup(w->group);
	add_params(doc, ri, c, w);
	if (first && c->cont) {
		run = bl_doc_run(doc, ri);
		if (c->cont_command && (run->command = strdup(c->cont_command))) {
			run->timed = c->cont_timed;
			bonnie_command(doc, run, run->command);
		}
	} else if (first) {
		bl_scan_find_command(sc, &bl_parser_bonnie, bl_doc_run(doc, ri));
	} else {
		const struct bl_run *r0 = bl_doc_run(doc, (long)first_run);
		run = bl_doc_run(doc, ri);
		if (r0->command) {
			run->command = strdup(r0->command);
			run->timed = r0->timed;
			if (run->command)
				bonnie_command(doc, run, run->command);
		}
	}
	if (w->joined)
		bl_doc_diag(doc, ri, BL_INFO, "bonnie.name-joined", row_off,
			    "the machine name runs into the size column; read as '%s' and %g MB",
			    w->name, w->size_mb);
	read_cells(doc, ri, c, w, row_off, first && !c->cont);
	return ri;
}

/* A line that labels the rows below it, whose machine cells are blank:
 *   pblade 1 (reiserfs defaults)
 *            1000 13048 98.9 21609 27.4  6599 10.7 11066 72.3 ...
 * Short text, no header, and a row without a name on the next line (or
 * the one after a blank line: "*** ac-16:", "", "400 17380 74.4 ..."). The
 * label is copied to `label`. */
static bool label_line(const struct ctx *c, struct bl_message *msg, const struct bl_line *l,
		       struct row *w, char *label, size_t size)
{
	struct bl_re_match m;
	struct bl_line next;
	if (l->len >= size || classify(l, &m) != K_OTHER || !bl_line_next(msg, l, &next))
		return false;
	struct bl_line after;
	if (bl_is_blank(next.s, next.len)) {
		if (!bl_line_next(msg, &next, &after))
			return false;
		next = after;
	}
	if (!parse_row(c, next.s, next.len, w) || w->name[0])
		return false;
	const char *s = l->s;
	size_t n = l->len;
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	snprintf(label, size, "%.*s", (int)n, s);
	return true;
}

/* Rows of one machine and size, one under the other, are repeats of one
 * test; so are nameless rows of one size under a label line:
 *   zfs      4096 79500 44.1 106960 20.8 ...
 *   zfs      4096 78294 42.9 108320 20.8 ...
 *
 *   node7 (noatime)
 *            1000 13048 98.9 21609 27.4 ...
 *            1000 14361 100. 17089 10.4 ...
 * *prev_size: the size of the row before, -1 when it cannot be repeated;
 * prev_name: its machine (of at least sizeof w->name bytes). */
static void mark_repeat(struct bl_doc *doc, long ri, const struct row *w, const char *group,
			double *prev_size, char *prev_name)
{
	bool named = w->name[0] != '\0';
	if (!named && !group[0]) {
		*prev_size = -1;
		return;
	}
	bl_doc_run(doc, ri)->repeat_of_prev =
		*prev_size == w->size_mb && strcmp(prev_name, w->name) == 0;
	*prev_size = w->size_mb;
	strcpy(prev_name, w->name);
}

/* The rows below the header (*cur its last line), a run each. They may
 * come in groups: blank lines (or lines of blanks) between them, no header
 * repeated, and a group may be headed by a label line:
 *   2.4.21    100 11052 77.3 21683 15.5 16401  8.8 20347 82.1 ...
 *
 *   22pre6    100 13070 91.4 23314 15.3 15402  6.5 21202 81.8 ...
 * Up to 2 blank lines may stand before the first row and between groups;
 * a row after such a gap must have its cells (11 or 12: a mail client may
 * have wrapped the last). Returns the end of the last row read, or
 * `last_end` when there is none. */
struct rows {
	char group[80]; /* the label line in force */
	double prev_size; /* the row before, to tell repeats (mark_repeat) */
	char prev_name[sizeof((struct row *)0)->name];
	size_t nrows; /* read in this block */
	/* a text offset: the first row at or after it ends the block, where
	 * the next read window starts (hand_on); SIZE_MAX for none */
	size_t cut_before;
	bool cut; /* the block ended there */
};

/* Whether line l, a row or a label line of the table, is where the next
 * read window starts: the block ends there (st->cut), and that window
 * reads on from it. A line that ends the table is no cut: the next
 * window would look for it, and in a post pasted without line breaks no
 * line of that window need start there. */
static bool at_cut(struct rows *st, const struct bl_line *l)
{
	st->cut = st->nrows && l->off >= st->cut_before;
	return st->cut;
}

static size_t read_rows(struct bl_scan *sc, const struct ctx *c, struct bl_line *cur,
			size_t start_off, size_t last_end, struct rows *st, bool at_cur)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct bl_doc *doc = bl_scan_doc(sc);
	size_t first_run = doc->nruns;
	struct bl_line next;
	char *group = st->group;
	double prev_size = st->prev_size;
	char *prev_name = st->prev_name;
	int blanks = 0;
	/* from the line after cur, or (at_cur) from cur itself */
	for (; st->nrows < BLOCK_ROWS && (at_cur || bl_line_next(msg, cur, &next));
	     at_cur = false) {
		if (!at_cur)
			*cur = next;
		if (bl_is_blank(cur->s, cur->len)) {
			if (++blanks > 2)
				break;
			continue;
		}
		bool gap = blanks > 0 && doc->nruns > first_run;
		blanks = 0;
		struct row *w = malloc(sizeof *w);
		if (!w)
			break;
		if (!parse_row(c, cur->s, cur->len, w)) {
			bool lab = label_line(c, msg, cur, w, group, sizeof st->group);
			prev_size = -1;
			free(w);
			if (!lab || at_cut(st, cur))
				break;
			continue;
		}
		if ((gap && w->r.ntok - w->first < 11) || at_cut(st, cur)) {
			free(w);
			break;
		}
		w->group = group;
		size_t row_off = cur->off, row_end = cur->next;
		/* a row cut by a mail client: "... 167240 97.6 1504.4" / "6.4" */
		if (w->r.ntok - w->first < 12 && bl_line_next(msg, cur, &next) &&
		    numeric_fragment(next.s, next.len)) {
			bl_btab_row_append(&w->r, next.s, next.len);
			*cur = next;
			row_end = cur->next;
		}
		long ri = row_run(sc, c, w, first_run, start_off, row_off, row_end);
		if (ri >= 0)
			mark_repeat(doc, ri, w, group, &prev_size, prev_name);
		free(w);
		if (ri < 0)
			break;
		last_end = row_end;
		st->nrows++;
	}
	st->prev_size = prev_size;
	return last_end;
}

/* A table cut at BLOCK_ROWS rows: the next block starts at the line
 * after its last row (bl_scan_go_on) and reads on with the table's
 * columns, its label and its last row, so that the rows below are read
 * as they would be in one block. */
struct bonnie_cut {
	const char *text; /* the message's */
	size_t next; /* where the next block starts */
	struct ctx c;
	struct rows rows;
	char *command; /* owned */
	bool timed, set;
};
static _Thread_local struct bonnie_cut cut;

/* Handed to the next window of a long input (bl_scan_hand_on): the
 * table as it stood at the first cut in the next window's bytes. */
struct bonnie_carry {
	struct ctx c;
	struct rows rows;
	bool timed, has_command;
	char command[]; /* the first run's */
};

static void hand_on(struct bl_scan *sc)
{
	if (cut.next < bl_scan_hand_on_from(sc, &bl_parser_bonnie))
		return; /* SIZE_MAX: none to hand on */
	size_t n = cut.command ? strlen(cut.command) + 1 : 1;
	struct bonnie_carry *b = malloc(sizeof *b + n);
	if (!b)
		return;
	*b = (struct bonnie_carry){.c = cut.c,
				   .rows = cut.rows,
				   .timed = cut.timed,
				   .has_command = cut.command != NULL};
	memcpy(b->command, cut.command ? cut.command : "", n);
	if (!bl_scan_hand_on(sc, &bl_parser_bonnie, cut.next, b))
		free(b);
}

/* The line of this window where the table handed on goes on. */
static size_t bonnie_reads_on(struct bl_scan *sc)
{
	size_t t;
	const struct bonnie_carry *b = bl_scan_handed(sc, &bl_parser_bonnie, &t);
	if (!b)
		return SIZE_MAX;
	char *cmd = b->has_command ? strdup(b->command) : NULL;
	if (b->has_command && !cmd)
		return SIZE_MAX;
	free(cut.command);
	cut.command = cmd;
	cut.timed = b->timed;
	cut.text = bl_scan_message(sc)->text;
	cut.next = t;
	cut.c = b->c;
	cut.rows = b->rows;
	cut.set = true;
	return t;
}

/* Keeps the table for the next block when this one stopped at its size:
 * its first run's command. */
static void keep_cut(struct bl_scan *sc, const struct ctx *c, const struct rows *st,
		     size_t first_run, size_t end)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	cut.set = (st->nrows == BLOCK_ROWS || st->cut) && doc->nruns > first_run;
	if (!cut.set)
		return;
	const struct bl_run *r0 = bl_doc_run(doc, (long)first_run);
	char *cmd = r0->command ? strdup(r0->command) : NULL;
	free(cut.command);
	cut.command = cmd;
	cut.timed = r0->timed;
	cut.text = bl_scan_message(sc)->text;
	cut.next = end;
	cut.c = *c;
	cut.rows = *st;
	cut.rows.nrows = 0;
	cut.rows.cut = false;
	bl_scan_go_on(sc);
	hand_on(sc);
}

/* Reads on with the table kept when `anchor` is where it was cut. */
static bool take_cut(struct bl_scan *sc, const struct bl_line *anchor, struct ctx *c,
		     struct rows *st)
{
	bool go = cut.set && cut.text == bl_scan_message(sc)->text && cut.next == anchor->off;
	cut.set = false;
	if (!go)
		return false;
	*c = cut.c;
	c->cont = true;
	c->cont_command = cut.command;
	c->cont_timed = cut.timed;
	c->first_off = anchor->off;
	*st = cut.rows;
	return true;
}

/* The rows of a table read on from the block before, from `anchor`. */
static enum bl_claim read_on(struct bl_scan *sc, const struct bl_line *anchor, struct ctx *c,
			     struct rows *st, size_t *end)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	size_t first_run = doc->nruns;
	struct bl_line cur = *anchor;
	size_t last_end = read_rows(sc, c, &cur, anchor->off, anchor->off, st, true);
	if (doc->nruns == first_run || last_end <= anchor->off)
		return BL_NOT_MINE;
	keep_cut(sc, c, st, first_run, last_end);
	*end = last_end;
	return BL_CLAIMED;
}

static enum bl_claim bonnie_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	struct rows st = {.prev_size = -1};
	struct ctx c;
	bool cont = take_cut(sc, anchor, &c, &st);
	st.cut_before = bl_scan_hand_on_from(sc, &bl_parser_bonnie);
	if (cont)
		return read_on(sc, anchor, &c, &st, end);
	struct bl_re_match m;
	enum kind k = classify(anchor, &m);
	if (k != K_HDR && k != K_DASH1 && k != K_FILE)
		return BL_NOT_MINE;

	struct bl_line start = block_start(sc, anchor), cur;
	ctx_init(&c, start.off);
	size_t last_end;
	bool any_done;
	bool have_hdr = read_head(bl_scan_message(sc), &c, &start, &cur, &last_end, &any_done);
	size_t first_run = doc->nruns;
	if (have_hdr) {
		last_end = read_rows(sc, &c, &cur, start.off, last_end, &st, false);
		keep_cut(sc, &c, &st, first_run, last_end);
	}
	if (doc->nruns == first_run && any_done) {
		/* progress lines without a table, or without its rows */
		done_only_run(sc, &c, last_end);
	} else if (!have_hdr) {
		return BL_NOT_MINE;
	} else if (doc->nruns == first_run) {
		bl_doc_diag(doc, -1, BL_WARNING, "bonnie.no-rows", anchor->off,
			    "a bonnie header without result rows");
	}
	*end = last_end;
	return BL_CLAIMED;
}

/* ------------------------------------------------------------- command */

/* "bonnie -d /home/dslab/data -s 4096 -m zfs": -s in MB, -m machine. */
static void bonnie_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	const char *p = bl_cmd_args(cmd), *w, *v;
	size_t wl, vl;
	while (bl_cmd_word(&p, &w, &wl)) {
		if (wl != 2 || w[0] != '-')
			continue;
		if (!bl_cmd_word(&p, &v, &vl))
			break;
		if (w[1] == 'd')
			bl_run_param_str(run, "directory", v, vl);
		else if (w[1] == 'm' && !json_object_get(run->params, "machine"))
			bl_run_param_str(run, "machine", v, vl);
	}
}

static const char *const bonnie_variants[] = {
	"bray (Tim Bray's bonnie 1.x: Machine MB K/sec %CPU)",
	"bonnie-64 (Machine GB M/sec %CPU)",
	"garloff (Garloff/SUSE bonnie 1.2-1.4: File ... volumes, done: lines, (nosync), --Rnd Seek-, 1*1024)",
	NULL,
};

/* How bonnie's headers look where a post lost its line breaks
 * (ingest/shapes.h): "-------Sequential Output--------",
 * "-Per Char- --Block--- -Rewrite--" (bonnie++'s too: "-Per Chr-"). */
static const struct bl_tool_shapes bonnie_shapes = {
	.weak_starts = "-{3,}Sequential Output"
		       "|(?:Concurrency +\\d+ +)?-Per Cha?r- +-{1,3}Block-{1,3} +-{1,3}Rewrite",
	.weak_start_needs = (const char *const[]){"Sequential", "-Per Ch", NULL},
	.table_breaks = bl_btab_table_breaks,
};

/* Charts: the IO rates and the seeks, a bar per run under each test. */
/* bonnie has seeks, and no file tests */
static const char *const bonnie_ops[] = {"random_seeks", NULL};

static const struct bl_chart_view bonnie_views[] = {
	{.name = "rates",
	 .title = "bonnie sequential rates",
	 .metrics = bl_btab_rates,
	 .unit = "B/s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = "ops",
	 .title = "bonnie seeks",
	 .metrics = bonnie_ops,
	 .unit = "ops/s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = NULL},
};

const struct bl_parser bl_parser_bonnie = {
	.name = "bonnie",
	.summary =
		"bonnie result tables: sequential output/input per char and block, rewrite, seeks",
	.variants = bonnie_variants,
	/* "Machine    MB K/sec %CPU", "---Sequential Output (nosync)---",
	 * "File './Bonnie.2276', size: 1073741824, volumes: 1" */
	.anchor =
		"^[ \\t]*(?:<pre>)?(?:Machine|Kernel|[A-Za-z]\\S{0,15})[ \\t]+[MG]B[ \\t]+[KM]/sec"
		"|^[ \\t]*(?:<pre>)?(?:[A-Za-z]\\S{0,13}[ \\t]+)?-{2,}Sequential Output"
		"|File '[^'\\n]{0,300}', size: \\d",
	.command_word = "bonnie",
	.reads_on = bonnie_reads_on,
	.shapes = &bonnie_shapes,
	.claim = bonnie_claim,
	.command = bonnie_command,
	.views = bonnie_views,
	.metrics = bl_bonnie_metric_info,
};
