/* bonniepp.c - bonnie++ text tables (1.0x, 1.9x, 2.00) and CSV lines.
 *
 * 1.9x prints, per run, an IO table and a file table, each with a Latency
 * row; 1.0x has neither Concurrency nor Latency, and its file table hangs
 * under the IO table without a Version; 2.00 heads the IO table with
 * "Name:Size etc" and prints speeds as 1149k / 322m / 1.5g:
 *
 * Version 1.93d       ------Sequential Output------ --Sequential Input- --Random-
 * Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
 * Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
 * freebsd.javaforu 2G   430  98 44175   8 18723   4   716  96 50878   7 160.6   3
 * Latency             88046us     273ms     440ms     142ms     120ms    3532ms
 * Version 1.93d       ------Sequential Create------ --------Random Create--------
 * freebsd.javaforum.h -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
 *               files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
 *                 128   336   1 97558  99   652   2   336   1 82804  99   403   1
 * Latency               295ms      58us     143ms     295ms      66us     713ms
 *
 * A CSV line (bonniepp_csv.c) may follow the table of the same run (or,
 * with -q, precede it): the two become one run with the CSV's values, the
 * table's text kept beside them as `table_raw`, and a warning where they
 * disagree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdwords.h"
#include "bonniepp.h"
#include "parser.h"
#include "../base/re.h"
#include "../base/units.h"

extern const struct bl_parser bl_parser_bonniepp;
static void bpp_command(struct bl_doc *doc, struct bl_run *run, const char *cmd);

/* "Version 1.93d       ------Sequential Output------ --Sequential Input- --Random-"
 * "Version  2.00       ------Sequential Create------ --------Random Create--------"
 * "1.02b           ------Sequential Output------ --Sequential Input- --Random-"
 *   (a summary table whose author kept the version and dropped the word) */
static struct bl_re ver_re = BL_RE(
	"^[ \\t]*(?:<pre>)?(?:Version +(\\S{1,12})|([12]\\.\\d\\d[a-z]?)) +-{3,}Sequential (Output|Create)",
	0);

/* "                    ------Sequential Create------ --------Random Create--------" (1.0x),
 * and its blank corner filled with dots where a book kept it aligned:
 * "...........     ------Sequential Create------ ..." */
static struct bl_re dashfile_re =
	BL_RE("^[ \\t]*(?:\\.{3,}[ \\t]+)?-{3,}Sequential Create-{3,}", 0);

/* "Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--"
 * "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--" */
static struct bl_re sub_io_re =
	BL_RE("^[ \\t]*(?:Concurrency +(\\d{1,6}) +)?-Per Chr- --Block--", 0);

/* "freebsd.javaforum.h -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--" */
static struct bl_re sub_file_re = BL_RE("^[ \\t]*([^-\\s].{0,40}?)? *-Create-- --Read---", 0);

/* "Machine        Size K/sec %CP K/sec %CP ..."   "Machine   Size:chnk K/sec %CP"
 * "Name:Size etc        /sec %CP  /sec %CP ..."                          (2.00)
 * " Size K/sec %CP K/sec %CP ..."        (the machine column cut off by hand) */
static struct bl_re hdr_io_re = BL_RE(
	"^[ \\t]*(?:<pre>)?(?:(?:(?:Machine|Kernel) +)?Size(?::chnk)?|Name:Size etc) +(?:K/sec|/sec) +%CP",
	0);

/* "              files  /sec %CP  /sec %CP ..."   "files:max:min        /sec %CP" */
static struct bl_re hdr_file_re = BL_RE("^[ \\t]*(?:<pre>)?files(?::max(?::min)?)? +/sec +%CP", 0);

/* "Latency             88046us     273ms     440ms     142ms     120ms    3532ms" */
static struct bl_re lat_re = BL_RE("^[ \\t]*Latency(?: |$)", 0);

enum kind {
	K_OTHER,
	K_BLANK,
	K_VER_IO,
	K_VER_FILE,
	K_DASH_FILE,
	K_SUB_IO,
	K_SUB_FILE,
	K_HDR_IO,
	K_HDR_FILE,
	K_LAT,
	K_CSV_HDR,
	K_CSV,
	K_HFRAG
};

/* Whether the line is only a filler of dots, "...........", which a book
 * set in the blank corner of a header (dashfile_re): alone on its line
 * where the post was flattened and unflattened again. */
static bool dots_only(const char *s, size_t n)
{
	size_t dots = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.')
			dots++;
		else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	}
	return dots >= 3;
}

static enum kind classify(const struct bl_line *l, struct bl_re_match *m, struct bpp_rec *csv)
{
	if (bl_is_blank(l->s, l->len))
		return K_BLANK;
	/* each pattern is tried only on a line with the words it needs */
	const char *s = l->s;
	size_t n = l->len, i = 0;
	bool seq = memmem(s, n, "Sequential ", 11) != NULL;
	bool cp = memmem(s, n, "%CP", 3) != NULL;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (seq && bl_re_match(&ver_re, s, n, 0, m))
		return s[m->ov[6]] == 'O' ? K_VER_IO : K_VER_FILE;
	if (cp && bl_re_match(&hdr_io_re, s, n, 0, m))
		return K_HDR_IO;
	if (cp && bl_re_match(&hdr_file_re, s, n, 0, m))
		return K_HDR_FILE;
	if (memmem(s, n, "-Per Chr-", 9) && bl_re_match(&sub_io_re, s, n, 0, m))
		return K_SUB_IO;
	if (memmem(s, n, "-Create-- --Read---", 19) && bl_re_match(&sub_file_re, s, n, 0, m))
		return K_SUB_FILE;
	if (seq && bl_re_match(&dashfile_re, s, n, 0, m))
		return K_DASH_FILE;
	if (i < n && s[i] == 'L' && bl_re_match(&lat_re, s, n, 0, m))
		return K_LAT;
	if (bpp_csv_header(l->s, l->len))
		return K_CSV_HDR;
	if (csv && bpp_csv_row(l->s, l->len, csv))
		return K_CSV;
	if (bl_btab_header_fragment(l->s, l->len) || dots_only(l->s, l->len))
		return K_HFRAG;
	return K_OTHER;
}

/* ------------------------------------------------------------ the tables */

/* A block holds at most MAX_RECS records (a table of as many rows: years
 * of nightly runs through bon_csv2txt), and its runs until it ends; CSV
 * lines are read CSV_BLOCK at a time, or as many as the block's table
 * rows they may pair with, so that a long log of them is held a block at
 * a time. */
#define MAX_RECS 1024
#define CSV_BLOCK 128

struct tab {
	char version[16];
	const char *variant; /* "1.0x", "1.9x", "2.00" */
	bool is200;
	long concurrency;
	long io_edge[12], f_edge[12];
	long io_start, f_start; /* column where the data cells begin */
	char fname[64]; /* name over the file table (1.9x, 2.00) */
	size_t nio; /* IO rows in io_recs */
	/* file rows read, each paired with the IO row of its place: from
	 * io_base on, those of io_recs; before, those of the blocks before
	 * (a table longer than a block: see cut_tab) */
	size_t fpos, io_base;
	int last; /* record the next Latency row belongs to */
	/* a block that goes on with a table cut at its size: the last IO
	 * record and the last record of the block before, until this one
	 * has its own (else NULL) */
	const struct bpp_rec *carry_io, *carry_last;
	int section; /* 0 none, 1 IO rows, 2 file rows */
	bool full; /* MAX_RECS reached: the block ends there */
	bool unpaired; /* a file row whose IO row a block before read */
	/* a text offset: the first table row at or after it ends the block
	 * (where the next read window starts, so that it reads on from
	 * there: hand_on); SIZE_MAX for none */
	size_t cut_before;
	int io_recs[MAX_RECS]; /* IO rows of the current table, for file rows */
};

/* Right edges of the 12 data columns: the header's words where it has
 * them, bonnie++'s 10-column pairs where a mail client cut it short. */
static void header_edges(const struct bl_line *l, const char *after, long *edge, long *start)
{
	struct bl_btab_row r;
	bl_btab_row_init(&r, l->s, l->len);
	size_t i = 0, n = 0;
	while (i < r.ntok) {
		const char *t = r.s + r.tok[i].a;
		size_t tl = r.tok[i].b - r.tok[i].a;
		i++;
		if (memmem(t, tl, after, strlen(after)))
			break;
	}
	for (; i < r.ntok && n < 12; i++)
		edge[n++] = (long)r.tok[i].b;
	if (n == 0)
		edge[n++] = 25;
	for (; n < 12; n++)
		edge[n] = edge[n - 1] + (n % 2 ? 4 : 6);
	*start = edge[0] - 6;
}

static void longer_name(char *dst, size_t cap, const char *other)
{
	if (strlen(other) > strlen(dst) && bpp_names_match(dst, other))
		snprintf(dst, cap, "%s", other);
}

static bool is_cellish(const char *t, size_t n)
{
	if (!n)
		return false;
	if (t[0] == '+')
		return true;
	if (!((t[0] >= '0' && t[0] <= '9') || t[0] == '.'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!strchr("0123456789.kmgus", t[i]))
			return false;
	return true;
}

/* A piece of a row cut by a mail client: a few cells at the left margin.
 * ("11.4  382.1  2.4", "26152us") A -x repeat row starts far right. */
static bool cell_fragment(const char *s, size_t len, long data_start)
{
	struct bl_btab_row r;
	bl_btab_row_init(&r, s, len);
	if (!r.ntok || r.ntok > 11 || (long)r.tok[0].a >= data_start)
		return false;
	for (size_t i = 0; i < r.ntok; i++)
		if (!is_cellish(r.s + r.tok[i].a, r.tok[i].b - r.tok[i].a))
			return false;
	return true;
}

/* Reads the cells of tests [t0, t0+6) of a row from token `first` on. */
static void row_cells(struct bpp_rec *rec, const struct bl_btab_row *r, size_t first,
		      const long *edge, int t0, bool suffix_ok)
{
	int cell[12], uncertain = 0;
	if (!bl_btab_place(r, first, edge, 12, cell, &uncertain)) {
		rec->notes |= BPP_N_FIELD_COUNT;
		for (int k = 0; k < 12; k++)
			cell[k] = first + (size_t)k < r->ntok ? (int)(first + (size_t)k) : -1;
	}
	if (uncertain)
		rec->notes |= BPP_N_MISALIGNED;
	for (int k = 0; k < 6; k++) {
		int t = t0 + k, a = cell[2 * k], b = cell[2 * k + 1];
		bl_btab_rate(a >= 0 ? r->s + r->tok[a].a : NULL,
			     a >= 0 ? r->tok[a].b - r->tok[a].a : 0, t < BL_T_SEEKS ? 1024.0 : 1.0,
			     suffix_ok && t < BL_T_SEEKS, &rec->rate[t]);
		bl_btab_cpu(b >= 0 ? r->s + r->tok[b].a : NULL,
			    b >= 0 ? r->tok[b].b - r->tok[b].a : 0, &rec->cpu[t]);
		if (rec->rate[t].kind == BL_BTAB_BAD || rec->cpu[t].kind == BL_BTAB_BAD) {
			if (!(rec->notes & BPP_N_BAD_CELL))
				snprintf(rec->bad, sizeof rec->bad, "%s",
					 rec->rate[t].kind == BL_BTAB_BAD ? rec->rate[t].raw
									  : rec->cpu[t].raw);
			rec->notes |= BPP_N_BAD_CELL;
		}
	}
}

/* "2G" "300M" "4G:8k" (1.0x, 1.9x); "64M" "16M::2" "64G:4k::65536" (2.00:
 * size:chunk:concurrency:seeks:seekers, defaults left empty) */
static bool size_cell(struct bpp_rec *rec, const char *s, size_t n, bool is200)
{
	const char *p = s, *end = s + n;
	int field = 0;
	while (p <= end && field < 5) {
		const char *c = memchr(p, ':', (size_t)(end - p));
		size_t fl = c ? (size_t)(c - p) : (size_t)(end - p);
		double v;
		uint64_t u;
		size_t used;
		if (fl) {
			switch (field) {
			case 0:
				if (!bl_btab_size(p, fl, true, &v) || p[fl - 1] < 'A')
					return false;
				rec->file_size = v;
				break;
			case 1:
				if (!bl_btab_size(p, fl, false, &v))
					return false;
				rec->chunk_size = v;
				break;
			default:
				if (!is200 || !bl_parse_u64(p, fl, &u, &used) || used != fl)
					return false;
				if (field == 2)
					rec->concurrency = (long)u;
				else if (field == 3)
					rec->seeks = (long)u;
				else
					rec->seek_procs = (long)u;
			}
		} else if (field == 0) {
			return false;
		}
		field++;
		if (!c)
			return true;
		p = c + 1;
	}
	return false;
}

static struct bpp_rec *new_rec(struct bpp_rec *recs, size_t *n, struct tab *t, size_t off,
			       size_t end)
{
	if (*n >= MAX_RECS || (off >= t->cut_before && *n > 0)) {
		t->full = true;
		return NULL;
	}
	struct bpp_rec *r = &recs[(*n)++];
	bpp_rec_init(r);
	r->off = off;
	r->end = end;
	r->variant = t->variant;
	snprintf(r->version, sizeof r->version, "%s", t->version);
	if (!t->is200 && t->concurrency >= 0)
		r->concurrency = t->concurrency;
	return r;
}

/* The IO row above: this block's last, or the block before's. */
static const struct bpp_rec *io_above(const struct tab *t, const struct bpp_rec *recs)
{
	return t->nio ? &recs[t->io_recs[t->nio - 1]] : t->carry_io;
}

/* The record the row above went to: this block's, or the block before's. */
static const struct bpp_rec *rec_above(const struct tab *t, const struct bpp_rec *recs)
{
	return t->last >= 0 ? &recs[t->last] : t->carry_last;
}

/* Equal, or both not printed (NAN). */
static bool same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* An IO row: name, size, 12 cells. False when the line is no row. */
static bool io_row(struct tab *t, struct bpp_rec *recs, size_t *n, const struct bl_line *l,
		   struct bl_btab_row *r)
{
	size_t k = 0;
	while (k < r->ntok && (long)r->tok[k].a < t->io_start)
		k++;
	/* a name wider than bonnie++'s column, edited in by hand, pushes the
	 * size past it: "Asus-EEE-1001P      2G 10874  85 52615  35 ..." */
	struct bpp_rec probe;
	bpp_rec_init(&probe);
	if (k >= 1 && k < r->ntok && !is_cellish(r->s + r->tok[k].a, r->tok[k].b - r->tok[k].a) &&
	    size_cell(&probe, r->s + r->tok[k].a, r->tok[k].b - r->tok[k].a, t->is200))
		k++;
	for (size_t i = k; i < r->ntok; i++)
		if (!is_cellish(r->s + r->tok[i].a, r->tok[i].b - r->tok[i].a))
			return false;
	struct bpp_rec tmp;
	bpp_rec_init(&tmp);
	if (k == 0) {
		/* a -x repeat: no name, no size */
		if (!io_above(t, recs) || r->ntok == 0)
			return false;
		tmp = *io_above(t, recs);
		tmp.repeat = true;
		tmp.notes = 0;
	} else {
		const char *s = r->s + r->tok[k - 1].a;
		size_t sl = r->tok[k - 1].b - r->tok[k - 1].a;
		if (!size_cell(&tmp, s, sl, t->is200)) {
			/* "averylongmachinename2G": the name ran into the size */
			size_t cut = sl;
			while (cut && s[cut - 1] != ':' &&
			       !(s[cut - 1] >= 'a' && s[cut - 1] <= 'z'))
				cut--;
			while (cut < sl && !(s[cut] >= '0' && s[cut] <= '9'))
				cut++;
			if (k != 1 || cut == 0 || cut >= sl ||
			    !size_cell(&tmp, s + cut, sl - cut, t->is200))
				return false;
			snprintf(tmp.name, sizeof tmp.name, "%.*s", (int)cut, s);
		} else if (k > 1) {
			size_t a = r->tok[0].a, b = r->tok[k - 2].b;
			snprintf(tmp.name, sizeof tmp.name, "%.*s", (int)(b - a), r->s + a);
		}
		/* 1.0x -x N names every row: the same machine and size as the
		 * row above is the same test again
		 *   v4.128M          1G 19903  89 37911  20 ...
		 *   v4.128M          1G 19965  89 37600  20 ... */
		if (io_above(t, recs) && tmp.name[0]) {
			const struct bpp_rec *up = io_above(t, recs);
			if (strcmp(up->name, tmp.name) == 0 &&
			    same_num(up->file_size, tmp.file_size) &&
			    same_num(up->chunk_size, tmp.chunk_size))
				tmp.repeat = true;
		}
	}
	struct bpp_rec *rec = new_rec(recs, n, t, l->off, l->next);
	if (!rec)
		return false;
	long conc = rec->concurrency;
	snprintf(rec->name, sizeof rec->name, "%s", tmp.name);
	rec->repeat = tmp.repeat;
	rec->file_size = tmp.file_size;
	rec->chunk_size = tmp.chunk_size;
	rec->concurrency = tmp.concurrency >= 0 ? tmp.concurrency : (t->is200 ? 1 : conc);
	rec->seeks = tmp.seeks;
	rec->seek_procs = tmp.seek_procs;
	rec->io = true;
	row_cells(rec, r, k, t->io_edge, BL_T_OUT_CHAR, t->is200);
	if (t->nio < MAX_RECS)
		t->io_recs[t->nio++] = (int)(rec - recs);
	t->last = (int)(rec - recs);
	return true;
}

/* A file row: [name] spec, 12 cells. */
static bool file_row(struct tab *t, struct bpp_rec *recs, size_t *n, const struct bl_line *l,
		     struct bl_btab_row *r)
{
	size_t k = 0;
	while (k < r->ntok && (long)r->tok[k].a < t->f_start)
		k++;
	/* a files count and its 12 cells, whatever the columns (a copy that
	 * re-indented the rows: "\t     256 35990  89 227885  85 ...") */
	struct bpp_rec probe;
	bpp_rec_init(&probe);
	if (k > 1 && r->ntok == 13 &&
	    bpp_files_spec(r->s + r->tok[0].a, r->tok[0].b - r->tok[0].a, &probe))
		k = 1;
	for (size_t i = k; i < r->ntok; i++)
		if (!is_cellish(r->s + r->tok[i].a, r->tok[i].b - r->tok[i].a))
			return false;
	struct bpp_rec spec;
	bpp_rec_init(&spec);
	char name[96] = "";
	bool repeat = false;
	if (k == 0) {
		if (!rec_above(t, recs) || !rec_above(t, recs)->files || r->ntok == 0)
			return false;
		spec = *rec_above(t, recs);
		repeat = true;
	} else {
		const char *s = r->s + r->tok[k - 1].a;
		if (!bpp_files_spec(s, r->tok[k - 1].b - r->tok[k - 1].a, &spec))
			return false;
		if (k > 1)
			snprintf(name, sizeof name, "%.*s", (int)(r->tok[k - 2].b - r->tok[0].a),
				 r->s + r->tok[0].a);
	}
	/* the IO row of the same run, or a run of its own (as is the file
	 * row of an IO row a block before read: that run is made) */
	struct bpp_rec *rec = NULL;
	bool io_before = t->fpos < t->io_base;
	if (!io_before && t->fpos - t->io_base < t->nio) {
		struct bpp_rec *io = &recs[t->io_recs[t->fpos - t->io_base]];
		if (!io->files && bpp_names_match(io->name, name[0] ? name : t->fname)) {
			rec = io;
			t->fpos++;
			if (l->next > rec->end)
				rec->end = l->next;
		}
	}
	if (!rec) {
		rec = new_rec(recs, n, t, l->off, l->next);
		if (!rec)
			return false;
		snprintf(rec->name, sizeof rec->name, "%s", repeat ? spec.name : name);
		rec->repeat = repeat;
		if (io_before) {
			t->fpos++;
			t->unpaired = true;
		}
	}
	if (name[0])
		longer_name(rec->name, sizeof rec->name, name);
	if (t->fname[0]) {
		if (!rec->name[0])
			snprintf(rec->name, sizeof rec->name, "%s", t->fname);
		else
			longer_name(rec->name, sizeof rec->name, t->fname);
	}
	rec->files = true;
	rec->num_files = spec.num_files;
	rec->max_size = spec.max_size;
	rec->min_size = spec.min_size;
	rec->num_dirs = spec.num_dirs;
	memcpy(rec->file_kind, spec.file_kind, sizeof rec->file_kind);
	memcpy(rec->files_spec, spec.files_spec, sizeof rec->files_spec);
	row_cells(rec, r, k, t->f_edge, BL_T_SEQ_CREATE, false);
	/* bonnie++ 2.00 prints num_files x 1024 for each measured file rate */
	if (t->is200)
		for (int i = BL_T_SEQ_CREATE; i < BL_T_COUNT; i++)
			if (rec->rate[i].kind == BL_BTAB_VALUE && rec->rate[i].v == rec->num_files)
				rec->notes |= BPP_N_FILE_RATE_BUG;
	t->last = (int)(rec - recs);
	return true;
}

/* "Latency             88046us     273ms ..." for the record above: its
 * cells are right-aligned at 27, 37, ... columns from the word. */
static void latency_row(struct tab *t, struct bpp_rec *recs, struct bl_btab_row *r,
			const struct bl_line *l)
{
	if (t->last < 0 || t->section == 0)
		return;
	struct bpp_rec *rec = &recs[t->last];
	long base = (long)r->tok[0].a, edge[6];
	for (int i = 0; i < 6; i++)
		edge[i] = base + 27 + 10 * i;
	int cell[6], uncertain = 0;
	int t0 = t->section == 1 ? BL_T_OUT_CHAR : BL_T_SEQ_CREATE;
	if (!bl_btab_place(r, 1, edge, 6, cell, &uncertain)) {
		rec->notes |= BPP_N_FIELD_COUNT;
		return;
	}
	for (int i = 0; i < 6; i++) {
		int c = cell[i];
		bl_btab_latency(c >= 0 ? r->s + r->tok[c].a : NULL,
				c >= 0 ? r->tok[c].b - r->tok[c].a : 0, &rec->lat[t0 + i]);
		if (rec->lat[t0 + i].kind == BL_BTAB_BAD)
			rec->notes |= BPP_N_BAD_CELL;
	}
	rec->has_lat = true;
	if (l->next > rec->end)
		rec->end = l->next;
}

/* Two CSV lines of one -x series: same machine, same sizes, same files. */
static bool same_test(const struct bpp_rec *a, const struct bpp_rec *b)
{
	return strcmp(a->name, b->name) == 0 && strcmp(a->version, b->version) == 0 &&
	       a->io == b->io && a->files == b->files &&
	       (isnan(a->file_size) ? isnan(b->file_size) : a->file_size == b->file_size) &&
	       (isnan(a->num_files) ? isnan(b->num_files) : a->num_files == b->num_files) &&
	       strcmp(a->files_spec, b->files_spec) == 0 && a->concurrency == b->concurrency;
}

static bool recs_pair(const struct bpp_rec *csv, const struct bpp_rec *tab)
{
	if (!bpp_names_match(csv->name, tab->name) || csv->repeat != tab->repeat)
		return false;
	if (csv->io != tab->io || csv->files != tab->files)
		return false;
	if (csv->io && !isnan(csv->file_size) && !isnan(tab->file_size) &&
	    csv->file_size != tab->file_size)
		return false;
	if (csv->files && csv->num_files != tab->num_files)
		return false;
	return true;
}

/* A table with -q: its CSV line went to stdout, above it, and was claimed
 * as a block of its own. */
static long earlier_csv_run(struct bl_doc *doc, size_t first_run, const struct bpp_rec *t)
{
	if (!first_run)
		return -1;
	struct bl_run *p = bl_doc_run(doc, (long)first_run - 1);
	if (strcmp(p->tool, "bonnie++") != 0 || strncmp(p->variant, "csv-", 4) != 0 ||
	    t->off < p->end_off || t->off - p->end_off > 400)
		return -1;
	const char *name = json_string_value(json_object_get(p->params, "machine"));
	json_t *fs = json_object_get(p->params, "file_size");
	if (!bpp_names_match(name ? name : "", t->name))
		return -1;
	if (t->io && json_is_number(fs) && json_number_value(fs) != t->file_size)
		return -1;
	return (long)first_run - 1;
}

/* What bonnie++ prints while it runs, between the command and the table:
 * "Using uid:65534, gid:65534."  "Writing a byte at a time...done"
 * "start 'em...done...done...done...done...done..."
 * "Create files in sequential order...done."  "Delete files in random order...done." */
static struct bl_re progress_re = BL_RE(
	"^[ \\t]*(?:Using uid:\\d{1,10}, gid:\\d{1,10}\\.|(?:Writing|Rewriting|Reading|Create|Stat|Delete"
	"|start 'em)[^\\n]{0,60}?\\.\\.\\.done)",
	0);

/* The first run of a block starts at the progress lines above its table
 * (when there are any), so that the command above them is found. */
static void include_progress(struct bl_scan *sc, struct bl_run *run)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct bl_line cur, prev;
	struct bl_re_match m;
	bool found = false;
	bl_line_at(msg, run->off, &cur);
	for (int k = 0; k < 24; k++) {
		if (!bl_line_prev(msg, &cur, &prev) || prev.off < bl_scan_floor(sc))
			break;
		if (bl_re_match(&progress_re, prev.s, prev.len, 0, &m)) {
			found = true;
		} else if (found) {
			break;
		} else {
			/* the table's own header lines lie between */
			enum kind hk = classify(&prev, &m, NULL);
			if (hk != K_VER_IO && hk != K_SUB_IO && hk != K_HDR_IO && hk != K_HFRAG)
				break;
		}
		cur = prev;
	}
	if (found)
		run->off = cur.off;
}

/* The command of a block whose table the next block reads on (owned). */
struct cut_command {
	char *command;
	bool timed;
};

/* What the walk over a block's lines shares: the table read so far, the
 * records found in it, and the line under way. */
struct bpp_walk {
	struct bl_message *msg;
	struct tab *t;
	struct bpp_rec *recs; /* MAX_RECS of them */
	size_t nrec;
	bool csv_cut; /* a CSV line found the block full: the next block starts there */
	size_t cut_at; /* where that line starts */
	struct bpp_rec *csv; /* the CSV line classify read */
	struct bl_btab_row *row;
	struct bl_re_match m;
	struct bl_line cur;
	/* the records from this one on are paired (pair_records): all but
	 * those of a table read on from a block before, whose CSV lines
	 * pair with rows this block does not hold; SIZE_MAX: none */
	size_t pair_from;
};

/* A table before its header says more: 1.0x, in bonnie++'s own columns. */
static void tab_init(struct tab *t)
{
	snprintf(t->version, sizeof t->version, "%s", "");
	t->variant = "1.0x";
	t->concurrency = -1;
	t->last = -1;
	header_edges(&(struct bl_line){.s = "", .len = 0}, "", t->io_edge, &t->io_start);
	memcpy(t->f_edge, t->io_edge, sizeof t->f_edge);
	t->f_start = t->io_start;
}

/* At a blank line: true when the block goes on after it (w->cur is then
 * the next line). */
static bool past_blank(struct bpp_walk *w)
{
	/* one blank line may stand before the CSV line (bonnie++ -n 0) */
	struct bl_line nx;
	if (!bl_line_next(w->msg, &w->cur, &nx))
		return false;
	enum kind kn = classify(&nx, &w->m, w->csv);
	/* ... or before the 1.0x file table of the rows above
	 * (a summary table of several machines):
	 *   tri (v3+)  300M  2708  96  5997  65 ...
	 *
	 *                 ------Sequential Create------ ... */
	bool file_part = kn == K_DASH_FILE && w->t->section == 1 && io_above(w->t, w->recs);
	if (kn != K_CSV && kn != K_CSV_HDR && kn != K_VER_IO && kn != K_VER_FILE && !file_part)
		return false;
	w->cur = nx;
	return true;
}

/* "Version 1.93d       ------Sequential Output------ ..." (or Create):
 * the version says the variant; an Output line starts an IO table. */
static void take_version(struct tab *t, const struct bl_line *l, const struct bl_re_match *m,
			 enum kind k)
{
	if (bl_re_gset(m, 1))
		snprintf(t->version, sizeof t->version, "%.*s", (int)bl_re_glen(m, 1),
			 l->s + m->ov[2]);
	else
		snprintf(t->version, sizeof t->version, "%.*s", (int)bl_re_glen(m, 2),
			 l->s + m->ov[4]);
	if (t->version[0] == '2')
		t->variant = "2.00", t->is200 = true;
	else if (strncmp(t->version, "1.0", 3) != 0)
		t->variant = "1.9x";
	if (k == K_VER_IO) {
		t->nio = t->fpos = t->io_base = 0;
		t->carry_io = t->carry_last = NULL;
		t->fname[0] = '\0';
	}
	t->section = 0;
}

/* "Concurrency   1     -Per Chr- --Block-- ...": 1.9x or 2.00 */
static void take_concurrency(struct tab *t, const struct bl_line *l, const struct bl_re_match *m)
{
	if (!bl_re_gset(m, 1))
		return;
	uint64_t v;
	if (bl_parse_u64(l->s + m->ov[2], bl_re_glen(m, 1), &v, NULL))
		t->concurrency = (long)v;
	if (!t->is200)
		t->variant = "1.9x";
}

/* "Machine        Size K/sec %CP ..." or "              files  /sec %CP":
 * the columns of the rows below, and the header's wrapped rest. */
static void take_header(struct bpp_walk *w, enum kind k)
{
	struct tab *t = w->t;
	struct bl_line next;
	if (k == K_HDR_IO) {
		bool is200 = memmem(w->cur.s, w->cur.len, "Name:Size", 9) != NULL;
		if (is200)
			t->variant = "2.00", t->is200 = true;
		header_edges(&w->cur, is200 ? "etc" : "Size", t->io_edge, &t->io_start);
		t->section = 1;
		t->nio = t->fpos = t->io_base = 0;
		t->carry_io = t->carry_last = NULL;
	} else {
		/* "files:max:min        /sec %CP" or "              files  /sec %CP" */
		header_edges(&w->cur, "files", t->f_edge, &t->f_start);
		t->section = 2;
	}
	if (bl_line_next(w->msg, &w->cur, &next) && classify(&next, &w->m, NULL) == K_HFRAG)
		w->cur = next;
}

/* "Latency             88046us     273ms ...", with its cells a mail
 * client wrapped onto the next line. */
static void take_latency(struct bpp_walk *w)
{
	struct bl_line next;
	bl_btab_row_init(w->row, w->cur.s, w->cur.len);
	if (w->row->ntok < 7 && bl_line_next(w->msg, &w->cur, &next) &&
	    cell_fragment(next.s, next.len, 17)) {
		bl_btab_row_append(w->row, next.s, next.len);
		w->cur = next;
	}
	latency_row(w->t, w->recs, w->row, &w->cur);
}

/* The table rows in the block. */
static size_t table_rows(const struct bpp_walk *w)
{
	size_t n = 0;
	for (size_t i = 0; i < w->nrec; i++)
		n += !w->recs[i].csv;
	return n;
}

/* "1.98,2.00a,feasvm,1,...": a record of its own. False when the block
 * is full (MAX_RECS records, or as many CSV lines as its table rows, at
 * least CSV_BLOCK): the next block starts at this line. */
static bool take_csv(struct bpp_walk *w)
{
	size_t rows = w->nrec < CSV_BLOCK ? 0 : table_rows(w);
	bool ok = w->nrec < MAX_RECS && w->nrec - rows < (rows > CSV_BLOCK ? rows : CSV_BLOCK);
	if (ok) {
		struct bpp_rec *r = &w->recs[w->nrec];
		*r = *w->csv;
		r->off = w->cur.off;
		r->end = w->cur.next;
		if (w->nrec && w->recs[w->nrec - 1].csv && same_test(&w->recs[w->nrec - 1], w->csv))
			r->repeat = true; /* -x N: the same test again */
		w->nrec++;
	} else {
		w->csv_cut = true;
		w->cut_at = w->cur.off;
	}
	w->t->section = 0;
	return ok;
}

/* Reads `l` (with the row in w->row) as a row of the table under way. */
static bool table_row(struct bpp_walk *w, const struct bl_line *l)
{
	return w->t->section == 1 ? io_row(w->t, w->recs, &w->nrec, l, w->row)
				  : file_row(w->t, w->recs, &w->nrec, l, w->row);
}

/* A row of the IO or file table, with its cells a mail client wrapped
 * onto the next line. False when the line is not one. */
static bool take_table_row(struct bpp_walk *w)
{
	struct tab *t = w->t;
	struct bl_btab_row *row = w->row;
	struct bl_line next;
	if (t->section != 1 && t->section != 2)
		return false;
	bl_btab_row_init(row, w->cur.s, w->cur.len);
	long start = t->section == 1 ? t->io_start : t->f_start;
	const long *edge = t->section == 1 ? t->io_edge : t->f_edge;
	if (row->ntok && bl_line_next(w->msg, &w->cur, &next) &&
	    row->tok[row->ntok - 1].b + 4 < (size_t)edge[11] &&
	    classify(&next, &w->m, NULL) == K_OTHER && cell_fragment(next.s, next.len, start)) {
		bl_btab_row_append(row, next.s, next.len);
		struct bl_line joined = w->cur;
		joined.next = next.next;
		if (!table_row(w, &joined))
			return false;
		w->cur = next;
		return true;
	}
	return table_row(w, &w->cur);
}

/* Takes the line w->cur, of kind k, into the table or the records.
 * False when the block ends before it. */
static bool take_line(struct bpp_walk *w, enum kind k)
{
	struct tab *t = w->t;
	if ((k == K_VER_IO || k == K_HDR_IO) && w->pair_from == SIZE_MAX)
		w->pair_from = w->nrec; /* a table of its own */
	switch (k) {
	case K_VER_IO:
	case K_VER_FILE: take_version(t, &w->cur, &w->m, k); break;
	case K_DASH_FILE: t->section = 0; break;
	case K_SUB_IO: take_concurrency(t, &w->cur, &w->m); break;
	case K_SUB_FILE:
		if (bl_re_gset(&w->m, 1))
			snprintf(t->fname, sizeof t->fname, "%.*s", (int)bl_re_glen(&w->m, 1),
				 w->cur.s + w->m.ov[2]);
		else
			t->fname[0] = '\0';
		break;
	case K_HDR_IO:
	case K_HDR_FILE: take_header(w, k); break;
	case K_LAT: take_latency(w); break;
	case K_CSV_HDR: t->section = 0; break;
	case K_CSV: return take_csv(w);
	case K_HFRAG: break;
	default: return take_table_row(w);
	}
	return true;
}

/* Walks the block from `anchor`, reading its tables and CSV lines into
 * w->recs. Returns the end of the last line taken (anchor->off: none). */
static size_t walk_block(struct bpp_walk *w, const struct bl_line *anchor)
{
	size_t last_end = anchor->off;
	struct bl_line next;
	w->cur = *anchor;
	for (;;) {
		enum kind k = classify(&w->cur, &w->m, w->csv);
		if (k == K_BLANK) {
			if (!past_blank(w))
				break;
			continue;
		}
		if (!take_line(w, k))
			break;
		last_end = w->cur.next;
		if (!bl_line_next(w->msg, &w->cur, &next))
			break;
		w->cur = next;
	}
	return last_end;
}

/* Pairs each table record with the CSV line of the same run, those from
 * `from` on: partner[i] is the index of the other, or -1. */
static void pair_records(const struct bpp_rec *recs, size_t nrec, size_t from, int *partner)
{
	for (size_t i = 0; i < nrec; i++)
		partner[i] = -1;
	for (size_t i = from; i < nrec; i++) {
		if (recs[i].csv || partner[i] >= 0)
			continue;
		for (size_t j = from; j < nrec; j++)
			if (recs[j].csv && partner[j] < 0 && recs_pair(&recs[j], &recs[i])) {
				partner[i] = (int)j;
				partner[j] = (int)i;
				break;
			}
	}
}

/* One run per record, a table and its CSV line together (partner): the
 * first run finds the command line above the block, the later ones share
 * it. */
static void make_runs(struct bl_scan *sc, const struct bpp_rec *recs, size_t nrec,
		      const int *partner, const struct cut_command *cont)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	size_t first_run = doc->nruns;
	long first_ri = (long)first_run;
	for (size_t i = 0; i < nrec; i++) {
		long ri;
		if (recs[i].csv && partner[i] >= 0)
			continue; /* made with its table */
		if (!recs[i].csv && partner[i] >= 0) {
			ri = bpp_make_run(doc, &recs[partner[i]], first_ri);
			if (ri >= 0)
				bpp_merge_table(doc, ri, &recs[i]);
		} else if (!recs[i].csv && i == 0 &&
			   (ri = earlier_csv_run(doc, first_run, &recs[i])) >= 0) {
			bpp_merge_table(doc, ri, &recs[i]);
			continue;
		} else {
			ri = bpp_make_run(doc, &recs[i], first_ri);
		}
		if (ri < 0)
			break;
		struct bl_run *run = bl_doc_run(doc, ri);
		const struct bl_run *first = bl_doc_run(doc, first_ri);
		if (ri == first_ri && cont) {
			/* a table read on: the command of the block before */
			if (cont->command && (run->command = strdup(cont->command))) {
				run->timed = cont->timed;
				bpp_command(doc, run, run->command);
			}
		} else if (ri == first_ri) {
			include_progress(sc, run);
			bl_scan_find_command(sc, &bl_parser_bonniepp, run);
		} else if (ri > first_ri && first->command) {
			run->command = strdup(first->command);
			run->timed = first->timed;
			if (run->command)
				bpp_command(doc, run, run->command);
		}
	}
}

/* The last CSV line of a block that a CSV line found full: when the
 * block that line starts is the same test, its first line is one more
 * repeat of it (`bonnie++ -x 300`, a log of nightly runs), not a new
 * configuration every CSV_BLOCK lines. */
static _Thread_local struct {
	size_t next; /* where the next block starts */
	struct bpp_rec rec;
	bool set;
} cut_rec;

/* Whether the run before the block is the record kept in cut_rec: the
 * document's last, or the last it handed on. */
static bool after_kept(const struct bl_doc *doc)
{
	const struct bl_run *last = bl_doc_last_run((struct bl_doc *)doc);
	if (last)
		return last->tool && strcmp(last->tool, "bonnie++") == 0 &&
		       last->off == cut_rec.rec.off && last->end_off == cut_rec.rec.end;
	return doc->prev.set && doc->prev.tool && strcmp(doc->prev.tool, "bonnie++") == 0 &&
	       doc->prev.end_off == cut_rec.rec.end;
}

/* Marks the first record of the block when it goes on from the block
 * before, then keeps this block's last when a CSV line found it full. */
static void across_cut(const struct bl_doc *doc, const struct bpp_walk *w)
{
	struct bpp_rec *recs = w->recs;
	size_t nrec = w->nrec;
	if (cut_rec.set && nrec && recs[0].csv && recs[0].off == cut_rec.next &&
	    same_test(&cut_rec.rec, &recs[0]) && after_kept(doc))
		recs[0].after_cut = true;
	cut_rec.set = w->csv_cut && nrec && recs[nrec - 1].csv;
	if (cut_rec.set) {
		cut_rec.next = w->cut_at;
		cut_rec.rec = recs[nrec - 1];
	}
}

/* A table cut at MAX_RECS records: the next block starts at the row
 * that found it full (bl_scan_go_on) and reads on with the table as it
 * stood, its last records carried over and its command, so that a table
 * of any length is read whole a block at a time. */
static _Thread_local struct {
	const char *text; /* the message's */
	size_t next; /* where the next block starts */
	struct tab tab;
	struct bpp_rec io, last; /* io_above and rec_above */
	bool has_io, has_last, set;
	struct cut_command cmd;
} cut_tab;

static void set_command(struct cut_command *c, const char *command, bool timed)
{
	char *copy = command ? strdup(command) : NULL;
	free(c->command);
	c->command = copy;
	c->timed = timed;
}

/* Handed to the next window of a long input (bl_scan_hand_on): the
 * table as it stood at the first block of this window that starts where
 * the next window's bytes do or later. */
struct bpp_carry {
	struct tab tab;
	struct bpp_rec io, last;
	bool has_io, has_last, timed, has_command;
	char command[];
};

static void hand_on(struct bl_scan *sc)
{
	if (cut_tab.next < bl_scan_hand_on_from(sc, &bl_parser_bonniepp))
		return; /* SIZE_MAX: none to hand on */
	const char *cmd = cut_tab.cmd.command;
	size_t n = cmd ? strlen(cmd) + 1 : 1;
	struct bpp_carry *k = malloc(sizeof *k + n);
	if (!k)
		return;
	*k = (struct bpp_carry){.tab = cut_tab.tab,
				.io = cut_tab.io,
				.last = cut_tab.last,
				.has_io = cut_tab.has_io,
				.has_last = cut_tab.has_last,
				.timed = cut_tab.cmd.timed,
				.has_command = cmd != NULL};
	memcpy(k->command, cmd ? cmd : "", n);
	if (!bl_scan_hand_on(sc, &bl_parser_bonniepp, cut_tab.next, k))
		free(k);
}

/* The line of this window where the table handed on goes on. */
static size_t bpp_reads_on(struct bl_scan *sc)
{
	size_t t;
	const struct bpp_carry *k = bl_scan_handed(sc, &bl_parser_bonniepp, &t);
	if (!k)
		return SIZE_MAX;
	cut_tab.text = bl_scan_message(sc)->text;
	cut_tab.next = t;
	cut_tab.tab = k->tab;
	cut_tab.io = k->io;
	cut_tab.last = k->last;
	cut_tab.has_io = k->has_io;
	cut_tab.has_last = k->has_last;
	set_command(&cut_tab.cmd, k->has_command ? k->command : NULL, k->timed);
	cut_tab.set = true;
	return t;
}

/* After the block: keeps the table when a row found it full, with the
 * command of the block's first run (index first_run). */
static void keep_cut_table(struct bl_scan *sc, const struct bpp_walk *w, size_t first_run)
{
	const struct tab *t = w->t;
	struct bl_doc *doc = bl_scan_doc(sc);
	cut_tab.set = t->full && (t->section == 1 || t->section == 2) && w->nrec &&
		      doc->nruns > first_run;
	if (!cut_tab.set)
		return;
	const struct bpp_rec *io = io_above(t, w->recs), *last = rec_above(t, w->recs);
	const struct bl_run *r0 = bl_doc_run(doc, (long)first_run);
	set_command(&cut_tab.cmd, r0->command, r0->timed);
	cut_tab.text = w->msg->text;
	cut_tab.next = w->cur.off;
	cut_tab.tab = *t;
	if ((cut_tab.has_io = io != NULL))
		cut_tab.io = *io;
	if ((cut_tab.has_last = last != NULL))
		cut_tab.last = *last;
	struct tab *c = &cut_tab.tab;
	c->io_base += t->nio;
	c->nio = 0;
	c->last = -1;
	c->full = c->unpaired = false;
	bl_scan_go_on(sc);
	hand_on(sc);
}

/* Whether the block at `anchor` reads on with the table kept: then t is
 * that table, and *cmd its command (moved). */
static bool take_cut_table(const struct bpp_walk *w, const struct bl_line *anchor, struct tab *t,
			   struct cut_command *cmd)
{
	bool go = cut_tab.set && cut_tab.text == w->msg->text && cut_tab.next == anchor->off;
	cut_tab.set = false;
	if (!go)
		return false;
	*t = cut_tab.tab;
	t->carry_io = cut_tab.has_io ? &cut_tab.io : NULL;
	t->carry_last = cut_tab.has_last ? &cut_tab.last : NULL;
	*cmd = cut_tab.cmd;
	cut_tab.cmd.command = NULL;
	return true;
}

static enum bl_claim bpp_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct bl_doc *doc = bl_scan_doc(sc);
	struct bpp_walk w = {.msg = bl_scan_message(sc)};
	struct cut_command cmd = {0};
	w.csv = malloc(sizeof *w.csv);
	w.recs = malloc(MAX_RECS * sizeof *w.recs);
	w.t = calloc(1, sizeof *w.t);
	w.row = malloc(sizeof *w.row);
	int *partner = malloc(MAX_RECS * sizeof *partner);
	enum bl_claim result = BL_NOT_MINE;
	if (!w.csv || !w.recs || !w.t || !w.row || !partner)
		goto done;
	bool cont = take_cut_table(&w, anchor, w.t, &cmd);
	enum kind k0 = classify(anchor, &w.m, w.csv);
	if (!cont &&
	    (k0 == K_OTHER || k0 == K_BLANK || k0 == K_HFRAG || k0 == K_SUB_FILE || k0 == K_LAT))
		goto done;

	if (!cont)
		tab_init(w.t);
	/* a table read in blocks ends one where the next window starts */
	w.t->cut_before = cont ? bl_scan_hand_on_from(sc, &bl_parser_bonniepp) : SIZE_MAX;
	w.pair_from = cont ? SIZE_MAX : 0;
	size_t last_end = walk_block(&w, anchor);
	if (last_end <= anchor->off)
		goto done;
	result = BL_CLAIMED;
	*end = last_end;

	across_cut(doc, &w);
	if (cont && w.nrec && w.recs[0].repeat)
		w.recs[0].after_cut = true;
	pair_records(w.recs, w.nrec, w.pair_from < w.nrec ? w.pair_from : w.nrec, partner);
	size_t first_run = doc->nruns;
	make_runs(sc, w.recs, w.nrec, partner, cont ? &cmd : NULL);
	keep_cut_table(sc, &w, first_run);
	if (w.t->unpaired)
		bl_doc_diag(doc, -1, BL_INFO, "bonniepp.unpaired-file-rows", anchor->off,
			    "a table of more than %d rows, read %d rows at a time: file rows "
			    "whose IO row was read before are runs of their own",
			    MAX_RECS, MAX_RECS);
	if (w.nrec == 0)
		bl_doc_diag(doc, -1, BL_WARNING, "bonniepp.no-rows", anchor->off,
			    "a bonnie++ header without result rows");
	if (w.t->full && !cut_tab.set) {
		bl_doc_diag(doc, -1, BL_WARNING, "bonniepp.too-many-rows", last_end,
			    "more than %d bonnie++ results in one block: the block is cut here",
			    MAX_RECS);
		doc->partial = true;
	}
done:
	free(cmd.command);
	free(w.csv);
	free(w.recs);
	free(w.t);
	free(w.row);
	free(partner);
	return result;
}

/* ------------------------------------------------------------- command */

/* "bonnie++ -d . -s 2048 -n 128 -u auth.gabor": -d directory, -x repeats,
 * -r RAM (MiB), -f/-b/-D/-q switches. Sizes and names come from the
 * output, which says what was run. */
static void bpp_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	const char *p = bl_cmd_args(cmd), *w;
	size_t wl;
	while (bl_cmd_word(&p, &w, &wl)) {
		if (wl < 2 || w[0] != '-')
			continue;
		if (wl == 2 && (w[1] == 'f' || w[1] == 'b' || w[1] == 'D' || w[1] == 'q')) {
			const char *key = w[1] == 'f'   ? "fast"
					  : w[1] == 'b' ? "no_buffering"
					  : w[1] == 'D' ? "direct_io"
							: "quiet";
			if (!json_object_get(run->params, key))
				json_object_set_new(run->params, key, json_true());
			continue;
		}
		const char *v = w + 2;
		size_t vl = wl - 2;
		if (!vl && !bl_cmd_word(&p, &v, &vl))
			break;
		uint64_t u;
		size_t used;
		if (w[1] == 'd' && !json_object_get(run->params, "directory"))
			bl_run_param_str(run, "directory", v, vl);
		else if (w[1] == 'x' && bl_parse_u64(v, vl, &u, &used) && used == vl &&
			 !json_object_get(run->params, "repeats"))
			bl_run_param_int(run, "repeats", (long long)u);
		else if (w[1] == 'r' && bl_parse_u64(v, vl, &u, &used) && used == vl &&
			 !json_object_get(run->params, "ram_size"))
			bl_run_param_real(run, "ram_size", (double)u * 1048576.0);
	}
}

static const char *const bpp_variants[] = {
	"1.0x (1.00-1.03e text: Machine Size[:chnk] K/sec %CP, files block)",
	"1.9x (1.90-1.97 text: Concurrency and Latency rows)",
	"2.00 (1.98-2.00a text: Name:Size etc, k/m/g speeds, size:chunk:conc:seeks:seekers)",
	"csv-1.0x (27 fields)",
	"csv-1.92, csv-1.92b, csv-1.93b, csv-1.96, csv-1.97 (48 fields; 1.96's -s0 row one short)",
	"csv-1.98 (1.98 and 2.00a: 50 fields, seeks and seek_proc_count)",
	"-x CSV header line; 1.0x+csv, 1.9x+csv, 2.00+csv: a table and its CSV line as one run",
	NULL,
};

/* How bonnie++'s headers look where a post lost its line breaks
 * (ingest/shapes.h): "Version  1.96       ------Sequential Output------",
 * "------Sequential Create------", "-Create-- --Read--- -Delete--",
 * and "Latency   12345us". */
static const struct bl_tool_shapes bpp_shapes = {
	.weak_starts = "Version +\\S{1,12} +-{3,}Sequential|-{3,}Sequential Create"
		       "|-Create-- +--Read--- +-Delete-- +-Create--"
		       "|Latency +\\d",
	.weak_start_needs = (const char *const[]){"Sequential", "-Create--", "Latency", NULL},
	.table_breaks = bl_btab_table_breaks,
};

/* Charts: the IO rates, and the seeks with the file tests, a bar per run
 * under each test. */
static const struct bl_chart_view bpp_views[] = {
	{.name = "rates",
	 .title = "bonnie++ sequential rates",
	 .metrics = bl_btab_rates,
	 .unit = "B/s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = "ops",
	 .title = "bonnie++ seeks and file operations",
	 .metrics = bl_btab_ops,
	 .unit = "ops/s",
	 .category = BL_KEY_METRIC,
	 .series = BL_KEY_LABEL,
	 .chart_per = BL_KEY_NONE},
	{.name = NULL},
};

const struct bl_parser bl_parser_bonniepp = {
	.name = "bonnie++",
	.summary = "bonnie++ tables and CSV: IO and file tests, CPU, latency",
	.variants = bpp_variants,
	/* "Version 1.03e       ------Sequential Output------",
	 * "Machine        Size K/sec %CP", "Name:Size etc        /sec %CP",
	 * "              files  /sec %CP", "1.98,2.00a,feasvm,1,...",
	 * "format_version,bonnie_version,...", "host,4G,547,99,62287,..." */
	.anchor = "^[ \\t]*(?:<pre>)?(?:Version +\\S{1,12}|[12]\\.\\d\\d[a-z]?) +-{3,}Sequential"
		  "|^[ \\t]*(?:<pre>)?(?:(?:Machine|Kernel) +)?Size "
		  "|^[ \\t]*(?:<pre>)?Name:Size etc "
		  "|^[ \\t]*files(?::max(?::min)?)? +/sec %CP"
		  "|^[ \\t]*[12]\\.\\d\\d[a-z]?,[12]\\.\\d\\d[a-z]?,"
		  "|^format_version,bonnie_version,|^name,file_size,putc,"
		  /* the size given or not, as two patterns: with the size optional
		   * the only literal every match holds is ",", which prose is
		   * full of; now it is ",1" or ",," */
		  "|^[ \\t]*[^,\\s]{0,64},\\d+[MG](?::\\d+k?)?,(?:[^,\\n]*,){12}"
		  "|^[ \\t]*[^,\\s]{0,64},,(?:[^,\\n]*,){12}",
	.command_word = "bonnie++",
	.reads_on = bpp_reads_on,
	.shapes = &bpp_shapes,
	.claim = bpp_claim,
	.command = bpp_command,
	.views = bpp_views,
	.metrics = bl_bonniepp_metric_info,
};
