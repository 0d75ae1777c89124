/* iozone_auto.c - the tables of auto mode (-a) and of -i / -s / -r runs.
 *
 * Two header lines, right-aligned in fixed columns (3.489):
 *
 *                                                               random    random     bkwd    record    stride
 *               kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
 *             4096      64  2884558  9019223  9419791  9105266
 *
 * Tests that were not run (-i) leave their cells blank, so a cell belongs
 * to the column whose right edge is nearest to its own: counting tokens
 * would put a value in the wrong test. The widths changed between versions
 * (3.263 prints %8 cells under "KB", 3.489 %9 under "kB") and a header edge
 * can sit one column left of its data ("read" is %8s over %9lld), so the
 * match allows a few columns either way.
 *
 * Mail clients wrap the long rows: a row's continuation line has lost its
 * columns, and is placed by the spacing of its own cells, at the first
 * column after the cells already read where all of them fit. */
#include "iozone.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/numfmt.h"
#include "../base/re.h"
#include "../base/units.h"

#define TOL 3 /* columns a cell may stand off its header's edge */
#define LINE_CAP 1024 /* a table line, tabs expanded */
/* A table is read this many rows at a time: a run's results are held
 * until it ends, and 2,048 rows of 13 tests (26,624 results) keep that
 * bounded. The rows past a block are read on by the next block as a run
 * of their own, with the table's command, params and columns (struct
 * kept_table); so is a table longer than a read window, in the next
 * window (bl_scan_hand_on). */
#define BLOCK_ROWS 2048

/* "              kB  reclen    write  rewrite    read    reread    read ..."
 * "              KB  reclen   write rewrite    read    reread    read   write" */
static struct bl_re hdr_re = BL_RE("^[ \\t]*[kK][bB][ \\t]+reclen[ \\t]+write\\b", 0);

/* interruptions iozone prints between rows:
 * "The test completed too quickly to give a good result"
 * "I/O error during read.  Try again with the command:" */
static struct bl_re interject_re =
	BL_RE("too quickly to give a good result|I/O error during read", 0);

bool iz_is_table_header(const char *s, size_t len)
{
	struct bl_re_match m;
	return len && bl_re_match(&hdr_re, s, len, 0, &m);
}

struct tok {
	int start, end; /* [start, end) in the expanded line */
};

static int tokenize(const char *s, size_t len, struct tok *t, int max)
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
		t[n].start = (int)b;
		t[n].end = (int)i;
		n++;
	}
	return n;
}

static bool all_digits(const char *s, const struct tok *t)
{
	for (int i = t->start; i < t->end; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return t->end > t->start;
}

static bool all_alpha(const char *s, const struct tok *t)
{
	for (int i = t->start; i < t->end; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	return t->end > t->start;
}

/* A line of header words only ("fwrite frewrite    fread  freread"): the
 * rest of a header line that a mail client wrapped. */
static bool words_only(const char *s, size_t len, const char *const *vocab)
{
	struct tok t[40];
	int n = tokenize(s, len, t, 40);
	if (!n)
		return false;
	for (int i = 0; i < n; i++) {
		if (!all_alpha(s, &t[i]))
			return false;
		bool known = false;
		for (const char *const *v = vocab; *v; v++)
			if ((size_t)(t[i].end - t[i].start) == strlen(*v) &&
			    memcmp(s + t[i].start, *v, strlen(*v)) == 0)
				known = true;
		if (!known)
			return false;
	}
	return true;
}

static const char *const bottom_words[] = {
	"write",   "rewrite",   "read",   "reread",   "fwrite", "frewrite",
	"fread",   "freread",   "pwrite", "repwrite", "pread",  "repread",
	"pwritev", "repwritev", "preadv", "repreadv", NULL,
};
static const char *const top_words[] = {"random", "bkwd", "record", "stride", NULL};

bool iz_is_top_header(const char *s, size_t len)
{
	return len && words_only(s, len, top_words);
}

struct header {
	int ncols;
	int edge[IZ_MAX_COLS];
	char bottom[IZ_MAX_COLS][16];
};

/* Names each column from its bottom word and the top word over it
 * ("random" over "read"); where the top line is missing or wrapped, by the
 * order iozone prints them: the 2nd "read" is random read, the 3rd bkwd
 * read, the 4th stride read; the 2nd "write" random write; the 2nd
 * "rewrite" record rewrite. */
static void name_columns(struct iz_table *t, const struct header *h, const char *top,
			 const struct tok *tt, int ntop)
{
	static const char *const seq_read[] = {"read", "random_read", "bkwd_read", "stride_read"};
	static const char *const seq_write[] = {"write", "random_write"};
	static const char *const seq_rewrite[] = {"rewrite", "record_rewrite"};
	int nread = 0, nwrite = 0, nrewrite = 0;
	t->ncols = h->ncols;
	for (int j = 2; j < h->ncols; j++) {
		const char *b = h->bottom[j];
		char name[48] = "";
		for (int k = 0; k < ntop; k++) {
			int d = tt[k].end - h->edge[j];
			if (d >= -2 && d <= 2) {
				char both[48];
				snprintf(both, sizeof both, "%.*s %s", tt[k].end - tt[k].start,
					 top + tt[k].start, b);
				iz_metric_name(both, strlen(both), name, sizeof name);
			}
		}
		const char *seq = NULL;
		if (strcmp(b, "read") == 0) {
			seq = seq_read[nread < 4 ? nread : 3];
			nread++;
		} else if (strcmp(b, "write") == 0) {
			seq = seq_write[nwrite < 2 ? nwrite : 1];
			nwrite++;
		} else if (strcmp(b, "rewrite") == 0) {
			seq = seq_rewrite[nrewrite < 2 ? nrewrite : 1];
			nrewrite++;
		}
		if (!name[0])
			snprintf(name, sizeof name, "%s", seq ? seq : b);
		/* a top word out of line, or a doubled name: the order decides */
		for (int k = 2; k < j; k++)
			if (strcmp(t->names[k], name) == 0 && seq)
				snprintf(name, sizeof name, "%s", seq);
		name[sizeof t->names[j] - 1] = '\0';
		memcpy(t->names[j], name, sizeof t->names[j]);
	}
}

/* Reads both header lines (and their wrapped rests) around `hdr`. Returns
 * the line after the header in *after. */
static bool read_header(struct iz_ctx *c, const struct iz_line *hdr, struct header *h,
			struct iz_line *after)
{
	char buf[LINE_CAP];
	size_t n = iz_expand_tabs(hdr->s, hdr->len, buf, sizeof buf);
	struct tok t[IZ_MAX_COLS];
	int nt = tokenize(buf, n, t, IZ_MAX_COLS);
	if (nt < 3)
		return false;
	h->ncols = 0;
	for (int i = 0; i < nt; i++) {
		h->edge[h->ncols] = t[i].end;
		snprintf(h->bottom[h->ncols], sizeof h->bottom[0], "%.*s", t[i].end - t[i].start,
			 buf + t[i].start);
		for (char *p = h->bottom[h->ncols]; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		h->ncols++;
	}
	/* wrapped rest of the second header line */
	struct iz_line cur = *hdr, nx;
	int width = (int)n;
	while (iz_line_next(c->msg, &cur, &nx) && words_only(nx.s, nx.len, bottom_words)) {
		char b2[LINE_CAP];
		size_t n2 = iz_expand_tabs(nx.s, nx.len, b2, sizeof b2);
		struct tok t2[IZ_MAX_COLS];
		int nt2 = tokenize(b2, n2, t2, IZ_MAX_COLS);
		if (nt2 < 1) /* its words past what the expansion kept */
			break;
		int base = width + 1 - t2[0].start;
		for (int i = 0; i < nt2 && h->ncols < IZ_MAX_COLS; i++) {
			h->edge[h->ncols] = base + t2[i].end;
			snprintf(h->bottom[h->ncols], sizeof h->bottom[0], "%.*s",
				 t2[i].end - t2[i].start, b2 + t2[i].start);
			h->ncols++;
		}
		width = base + (int)n2;
		cur = nx;
	}
	*after = cur;
	if (!iz_line_next(c->msg, &cur, after))
		after->raw.off = c->msg->len;

	/* the first header line, directly above: "random  random  bkwd ..." */
	struct iz_line up;
	char top[LINE_CAP];
	struct tok tt[16];
	int ntop = 0;
	size_t topn = 0;
	if (iz_line_prev(c->msg, hdr, &up) && up.raw.off >= bl_scan_floor(c->sc) &&
	    words_only(up.s, up.len, top_words)) {
		struct iz_line up2;
		/* wrapped: its first part is one line further up; the rest
		 * cannot be placed, and the order names those columns */
		if (iz_line_prev(c->msg, &up, &up2) && up2.raw.off >= bl_scan_floor(c->sc) &&
		    words_only(up2.s, up2.len, top_words))
			up = up2;
		topn = iz_expand_tabs(up.s, up.len, top, sizeof top);
		ntop = tokenize(top, topn, tt, 16);
	}
	name_columns(&c->table, h, top, tt, ntop);
	return true;
}

/* Places tokens [from, n) of a line: each in the free column whose edge is
 * nearest (within TOL), left to right. col[k] = -1 where none fits. */
static void place(const struct header *h, const struct tok *t, int from, int n, int shift,
		  uint32_t allowed, int *last, int *col)
{
	for (int k = from; k < n; k++) {
		int e = t[k].end + shift, best = -1, bestd = TOL + 1;
		for (int j = *last + 1; j < h->ncols; j++) {
			if (allowed && j >= 2 && j - 2 < 32 && !(allowed & (1u << (j - 2))))
				continue;
			int d = h->edge[j] > e ? h->edge[j] - e : e - h->edge[j];
			if (d < bestd) {
				bestd = d;
				best = j;
			}
			if (h->edge[j] > e + TOL)
				break;
		}
		col[k] = best;
		if (best >= 0)
			*last = best;
	}
}

/* A wrapped row's continuation: the first shift at which every cell of
 * the line lands on a free column. When the wrap fell inside blank cells
 * the gap is gone: only the columns the -i tests fill (`allowed`, when
 * known) are candidates. */
static bool place_continuation(const struct header *h, const struct tok *t, int n, int last,
			       uint32_t allowed, int *col)
{
	for (int c0 = last + 1; c0 < h->ncols; c0++) {
		if (allowed && c0 - 2 < 32 && !(allowed & (1u << (c0 - 2))))
			continue;
		int shift = h->edge[c0] - t[0].end, l = last;
		place(h, t, 0, n, shift, allowed, &l, col);
		bool ok = true;
		for (int k = 0; k < n; k++)
			ok = ok && col[k] >= 0;
		if (ok)
			return true;
	}
	return false;
}

struct rowline {
	char buf[LINE_CAP];
	size_t n;
	struct tok t[IZ_MAX_COLS + 4];
	int nt;
	bool numeric;
};

static void load(struct rowline *r, const struct iz_line *l)
{
	r->n = iz_expand_tabs(l->s, l->len, r->buf, sizeof r->buf);
	r->nt = tokenize(r->buf, r->n, r->t, IZ_MAX_COLS + 4);
	r->numeric = r->nt > 0;
	for (int i = 0; i < r->nt; i++)
		r->numeric = r->numeric && all_digits(r->buf, &r->t[i]);
}

static bool row_start(const struct header *h, const struct rowline *r)
{
	if (!r->numeric || r->nt < 2)
		return false;
	/* iozone prints both with fixed widths (%16, %8): they stand right
	 * under "kB" and "reclen", and a record is never larger than its
	 * file; a wrapped row's rest rarely passes both tests */
	int d0 = r->t[0].end - h->edge[0], d1 = r->t[1].end - h->edge[1];
	if (d0 < -1 || d0 > 1 || d1 < -1 || d1 > 1)
		return false;
	uint64_t f = 0, rec = 0;
	bl_parse_u64(r->buf + r->t[0].start, (size_t)(r->t[0].end - r->t[0].start), &f, NULL);
	bl_parse_u64(r->buf + r->t[1].start, (size_t)(r->t[1].end - r->t[1].start), &rec, NULL);
	return rec <= f;
}

/* A forum that collapsed runs of spaces leaves no columns to go by:
 *	kB reclen write rewrite read reread read write read rewrite ...
 *	4096 64 2884558 9019223 9419791 9105266
 * Such a table is read in order (order mode). */
static bool collapsed(const char *s, size_t len)
{
	char buf[LINE_CAP];
	size_t n = iz_expand_tabs(s, len, buf, sizeof buf);
	struct tok t[IZ_MAX_COLS];
	int nt = tokenize(buf, n, t, IZ_MAX_COLS);
	for (int i = 1; i < nt; i++)
		if (t[i].start - t[i - 1].end != 1)
			return false;
	return nt >= 3;
}

static bool order_row(const struct rowline *r)
{
	if (!r->numeric || r->nt < 3)
		return false;
	uint64_t f = 0, rec = 0;
	bl_parse_u64(r->buf + r->t[0].start, (size_t)(r->t[0].end - r->t[0].start), &f, NULL);
	bl_parse_u64(r->buf + r->t[1].start, (size_t)(r->t[1].end - r->t[1].start), &rec, NULL);
	return rec <= f;
}

static int popcount32(uint32_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Cells [from, n) in order: into the -i columns when their number fits,
 * else into the columns from `last` on. */
static void place_in_order(const struct header *h, int from, int n, uint32_t allowed, int *last,
			   int *col)
{
	bool use_mask = allowed && popcount32(allowed) == n - from && *last == 1;
	for (int k = from; k < n; k++) {
		int j = *last + 1;
		while (use_mask && j < h->ncols && j - 2 < 32 && !(allowed & (1u << (j - 2))))
			j++;
		col[k] = j < h->ncols ? j : -1;
		if (j < h->ncols)
			*last = j;
	}
}

static uint64_t tok_u64(const struct rowline *r, int k)
{
	uint64_t v = 0;
	bl_parse_u64(r->buf + r->t[k].start, (size_t)(r->t[k].end - r->t[k].start), &v, NULL);
	return v;
}

/* Stores the cells of one line of a row; warns about cells that fit no
 * column or overflowed into their neighbour. */
static void store_cells(struct iz_ctx *c, const struct header *h, struct iz_row *row,
			const struct rowline *r, int from, const int *col, size_t off, bool wrapped)
{
	for (int k = from; k < r->nt; k++) {
		int j = col[k];
		int w = r->t[k].end - r->t[k].start;
		if (j < 2 || j - 2 >= 32) {
			bl_doc_diag(c->doc, c->ri, BL_WARNING, "iozone.cell-unplaced", off,
				    "the value %.*s stands under no column of the header: not read",
				    w, r->buf + r->t[k].start);
			continue;
		}
		/* (a wrapped line's header edges are only known relative to
		 * each other: no width to check against) */
		if (!wrapped && w > h->edge[j] - h->edge[j - 1] + 1) {
			bl_doc_diag(
				c->doc, c->ri, BL_WARNING, "iozone.cell-overflow", off,
				"'%.*s' under %s is wider than its column: two values ran together; not read",
				w, r->buf + r->t[k].start, c->table.names[j]);
			continue;
		}
		row->val[j - 2] = tok_u64(r, k);
		row->has |= 1u << (j - 2);
	}
}

/* The columns the -i selections fill: test 0 write/rewrite, 1 read/reread,
 * 2 random read/write, 3 bkwd read, 4 record rewrite, 5 stride read,
 * 6 fwrite/frewrite, 7 fread/freread, 8.. the -E tests. */
static uint32_t expected_from_tests(const struct iz_ctx *c)
{
	static const char *const by_test[12][2] = {
		{"write", "rewrite"},   {"read", "reread"},       {"random_read", "random_write"},
		{"bkwd_read", NULL},    {"record_rewrite", NULL}, {"stride_read", NULL},
		{"fwrite", "frewrite"}, {"fread", "freread"},     {"pwrite", "repwrite"},
		{"pread", "repread"},   {"pwritev", "repwritev"}, {"preadv", "repreadv"},
	};
	uint32_t mask = 0;
	long tests = c->tests_mask;
	if (!tests)
		return 0;
	tests |= 1; /* iozone always writes the file first */
	for (int t = 0; t < 12; t++) {
		if (!(tests & (1L << t)))
			continue;
		for (int k = 0; k < 2; k++)
			for (int j = 2; by_test[t][k] && j < c->table.ncols && j - 2 < 32; j++)
				if (strcmp(c->table.names[j], by_test[t][k]) == 0)
					mask |= 1u << (j - 2);
	}
	return mask;
}

static int top_bit(uint32_t m)
{
	int b = -1;
	for (int i = 0; i < 32; i++)
		if (m & (1u << i))
			b = i;
	return b;
}

static void emit_row(struct iz_ctx *c, const struct iz_row *row)
{
	for (int j = 2; j < c->table.ncols && j - 2 < 32; j++) {
		if (!(row->has & (1u << (j - 2))))
			continue;
		char raw[BL_NUM_MAX + 1];
		raw[bl_fmt_u64(row->val[j - 2], raw)] = '\0';
		struct bl_result *r =
			iz_rate_result(c, c->table.names[j], (double)row->val[j - 2], raw);
		if (!r)
			continue;
		bl_result_set_int(r, "file_size", (long long)(row->file_kb * 1024));
		bl_result_set_int(r, "record_size", (long long)(row->rec_kb * 1024));
	}
}

/* What reading a table's rows shares. */
struct table_walk {
	struct iz_ctx *c;
	struct header h;
	struct rowline *r; /* the line under way, loaded */
	struct iz_line cur;
	size_t end; /* the end of the table so far */
	size_t *row_off; /* where each row starts */
	bool interjected; /* iozone's note between rows was reported */
	bool order; /* cells read in order: the spacing is lost */
	uint32_t allowed; /* the columns the -i tests fill, 0 unknown */
	/* where each column's cells end in the rows read so far: a row whose
	 * last cell ends elsewhere was cut inside that cell ("4995" of
	 * "4995276" still stands near the freread column) */
	int data_edge[IZ_MAX_COLS];
	bool last_odd; /* the last row's last cell ends elsewhere */
	bool full; /* stopped at BLOCK_ROWS or a window's cut, w->cur the next row */
};

/* Is the loaded line the first line of a row? */
static bool is_row(const struct table_walk *w)
{
	return w->order ? order_row(w->r) : row_start(&w->h, w->r);
}

/* At a line that is no row: the table goes on past iozone's own notes
 * ("The test completed too quickly ...") and past a blank line or two (a
 * wrapper's leftover of a row's trailing blanks); prose ends it. True when
 * a row follows (w->cur is then that row). */
static bool past_interjection(struct table_walk *w)
{
	struct iz_ctx *c = w->c;
	struct bl_re_match m;
	struct iz_line look = w->cur, nx, note = w->cur;
	bool found = false, noted = false;
	int blank = 0;
	for (int k = 0; c->table.nrows && k < 8; k++) {
		if (bl_is_blank(look.s, look.len)) {
			blank++;
		} else if (bl_re_match(&interject_re, look.s, look.len, 0, &m)) {
			if (!noted)
				note = look;
			noted = true;
		} else if (!noted) {
			break;
		}
		if (!iz_line_next(c->msg, &look, &nx))
			break;
		look = nx;
		load(w->r, &look);
		if (is_row(w)) {
			found = noted || blank <= 2;
			break;
		}
	}
	if (!found)
		return false;
	if (noted && !w->interjected)
		bl_doc_diag(c->doc, c->ri, BL_INFO, "iozone.interjection", note.raw.off,
			    "iozone's note between rows: %.*s",
			    (int)(note.len > 120 ? 120 : note.len), note.s);
	w->interjected = w->interjected || noted;
	w->cur = look;
	return true;
}

/* Room for one more row and its offset. False when out of memory. */
static bool grow_rows(struct table_walk *w)
{
	struct iz_table *t = &w->c->table;
	if (t->nrows != t->cap)
		return true;
	size_t cap = t->cap ? t->cap * 2 : 16;
	struct iz_row *v = realloc(t->rows, cap * sizeof *v);
	size_t *o = realloc(w->row_off, cap * sizeof *o);
	if (o)
		w->row_off = o;
	if (!v || !o) {
		if (v)
			t->rows = v;
		return false;
	}
	t->rows = v;
	t->cap = cap;
	return true;
}

/* Reads the first line of a row (loaded, at w->cur) into `row`: sizes and
 * cells, col[k] the column of cell k and *last the last column filled.
 * False when the sizes are too large to be iozone's. */
static bool first_row_line(struct table_walk *w, struct iz_row *row, int *col, int *last)
{
	struct iz_ctx *c = w->c;
	const struct rowline *r = w->r;
	memset(row, 0, sizeof *row);
	row->file_kb = tok_u64(r, 0);
	row->rec_kb = tok_u64(r, 1);
	if (row->file_kb > INT64_MAX / 1024 || row->rec_kb > INT64_MAX / 1024) {
		bl_doc_diag(
			c->doc, c->ri, BL_WARNING, "iozone.row-unreadable", w->cur.raw.off,
			"a file size or record length too large to be iozone's: the table ends here");
		return false;
	}
	w->row_off[c->table.nrows] = w->cur.raw.off;
	*last = 1;
	col[0] = 0;
	col[1] = 1;
	if (w->order)
		place_in_order(&w->h, 2, r->nt, w->allowed, last, col);
	else
		place(&w->h, r->t, 2, r->nt, 0, 0, last, col);
	store_cells(c, &w->h, row, r, 2, col, w->cur.raw.off, w->order);
	w->last_odd = false;
	for (int k = 2; !w->order && k < r->nt; k++) {
		int j = col[k];
		if (j < 0)
			continue;
		if (k == r->nt - 1 && w->data_edge[j] && w->data_edge[j] != r->t[k].end)
			w->last_odd = true;
		if (!w->data_edge[j])
			w->data_edge[j] = r->t[k].end;
	}
	return true;
}

/* The continuation lines of a wrapped row after its first, each placed
 * after column `last`. False at the end of the message; else w->cur is
 * the line after the row. */
static bool continuation_lines(struct table_walk *w, struct iz_row *row, int *col, int last)
{
	struct iz_ctx *c = w->c;
	struct rowline *r = w->r;
	struct iz_line nx;
	bool more = iz_line_next(c->msg, &w->cur, &nx);
	while (more) {
		load(r, &nx);
		if (!r->numeric || is_row(w))
			break;
		if (w->order) {
			place_in_order(&w->h, 0, r->nt, 0, &last, col);
			store_cells(c, &w->h, row, r, 0, col, nx.raw.off, true);
		} else if (place_continuation(&w->h, r->t, r->nt, last, w->allowed, col) ||
			   (w->allowed && place_continuation(&w->h, r->t, r->nt, last, 0, col))) {
			store_cells(c, &w->h, row, r, 0, col, nx.raw.off, true);
			last = col[r->nt - 1];
		} else {
			bl_doc_diag(
				c->doc, c->ri, BL_WARNING, "iozone.wrap-unplaced", nx.raw.off,
				"a wrapped part of the row (%llu kB, %llu kB records) fits no columns: not read",
				(unsigned long long)row->file_kb, (unsigned long long)row->rec_kb);
		}
		w->end = nx.raw.next;
		w->cur = nx;
		more = iz_line_next(c->msg, &w->cur, &nx);
	}
	if (!more) {
		w->cur.raw.off = c->msg->len;
		return false;
	}
	w->cur = nx;
	return true;
}

/* Reads the rows from w->cur into the table, until a line that ends it. */
static void read_rows(struct table_walk *w)
{
	struct iz_table *t = &w->c->table;
	while (w->cur.raw.off < w->c->msg->len) {
		load(w->r, &w->cur);
		if (!is_row(w)) {
			if (past_interjection(w))
				continue;
			break;
		}
		if (t->nrows == BLOCK_ROWS) {
			w->full = true;
			w->end = w->cur.raw.off;
			break;
		}
		if (!grow_rows(w))
			break;
		struct iz_row *row = &t->rows[t->nrows];
		int col[IZ_MAX_COLS + 4];
		int last;
		if (!first_row_line(w, row, col, &last))
			break;
		t->nrows++;
		w->end = w->cur.raw.next;
		if (!continuation_lines(w, row, col, last))
			break;
	}
}

/* A row with fewer cells than the rows before it (or than its -i tests),
 * where the table ends, was cut off: its last cell may be cut too, so the
 * row is reported and not read. The other rows become results. */
static void emit_rows(struct table_walk *w)
{
	struct iz_ctx *c = w->c;
	struct iz_table *t = &c->table;
	if (!t->nrows)
		return;
	uint32_t expect = 0;
	for (size_t i = 0; i + 1 < t->nrows; i++)
		expect |= t->rows[i].has;
	if (t->nrows == 1)
		expect = expected_from_tests(c);
	struct iz_row *lastrow = &t->rows[t->nrows - 1];
	/* a full block's last row has a row after it: not cut */
	if (!w->full && ((expect && top_bit(lastrow->has) < top_bit(expect)) || w->last_odd)) {
		int have = 0;
		for (int i = 0; i < 32; i++)
			have += (lastrow->has >> i) & 1;
		bl_doc_diag(c->doc, c->ri, BL_WARNING, "iozone.table-cut", w->row_off[t->nrows - 1],
			    "the table is cut off in the row for %llu kB files, %llu kB records "
			    "(%d of its cells printed): that row is not read",
			    (unsigned long long)lastrow->file_kb,
			    (unsigned long long)lastrow->rec_kb, have);
		c->cut = true;
		t->nrows--;
	}
	for (size_t i = 0; i < t->nrows; i++)
		emit_row(c, &t->rows[i]);
}

/* A table cut at BLOCK_ROWS rows, kept for the block after it, which
 * starts at row line `next` of `text` (the message's): what its run is
 * read on with. A copy is handed to the next read window (bl_carry): it
 * points nowhere, its strings are in strs[]. */
struct kept_table {
	size_t size; /* of the whole block of memory */
	const char *text; /* NULL in a handed copy */
	size_t next;
	struct header h;
	struct iz_table names; /* ncols and names; no rows */
	bool order;
	uint32_t allowed;
	int data_edge[IZ_MAX_COLS];
	enum iz_unit unit;
	bool unit_known, threads, timed, has_label, has_command;
	uint64_t file_kb, rec_kb;
	long tests_mask;
	char strs[]; /* label, command, params (JSON): each with its NUL */
};
static _Thread_local struct kept_table *kept;

/* Appends string s to k's strings at *at. */
static void put_str(struct kept_table *k, size_t *at, const char *s)
{
	size_t n = strlen(s) + 1;
	memcpy(k->strs + *at, s, n);
	*at += n;
}

/* The table as it stands at the end of a full block, w->cur the next row. */
static struct kept_table *table_state(const struct table_walk *w)
{
	struct iz_ctx *c = w->c;
	const struct bl_run *run = iz_run(c);
	size_t np = json_dumpb(run->params, NULL, 0, JSON_COMPACT);
	size_t nl = run->label ? strlen(run->label) + 1 : 0;
	size_t nc = run->command ? strlen(run->command) + 1 : 0;
	size_t size = sizeof(struct kept_table) + nl + nc + np + 1;
	struct kept_table *k = np ? malloc(size) : NULL;
	if (!k)
		return NULL;
	*k = (struct kept_table){.size = size,
				 .text = c->msg->text,
				 .next = w->cur.raw.off,
				 .h = w->h,
				 .order = w->order,
				 .allowed = w->allowed,
				 .unit = c->unit,
				 .unit_known = c->unit_known,
				 .threads = c->threads,
				 .timed = run->timed,
				 .has_label = run->label != NULL,
				 .has_command = run->command != NULL,
				 .file_kb = c->file_kb,
				 .rec_kb = c->rec_kb,
				 .tests_mask = c->tests_mask};
	k->names.ncols = c->table.ncols;
	memcpy(k->names.names, c->table.names, sizeof k->names.names);
	memcpy(k->data_edge, w->data_edge, sizeof k->data_edge);
	size_t at = 0;
	if (run->label)
		put_str(k, &at, run->label);
	if (run->command)
		put_str(k, &at, run->command);
	json_dumpb(run->params, k->strs + at, np, JSON_COMPACT);
	k->strs[at + np] = '\0';
	return k;
}

/* A copy of k that goes on at `next` of `text` (NULL: a copy handed to
 * the next window, which points nowhere). */
static struct kept_table *kept_copy(const struct kept_table *k, const char *text, size_t next)
{
	struct kept_table *c = malloc(k->size);
	if (c) {
		memcpy(c, k, k->size);
		c->text = text;
		c->next = next;
	}
	return c;
}

/* Keeps the table for the block after this full one (bl_scan_go_on), and
 * hands a copy to the next read window when that block starts in its
 * bytes. */
static void keep_table(const struct table_walk *w)
{
	struct kept_table *k = table_state(w);
	if (!k)
		return;
	free(kept);
	kept = k;
	bl_scan_go_on(w->c->sc);
	if (k->next < bl_scan_hand_on_from(w->c->sc, &bl_parser_iozone)) /* SIZE_MAX: none */
		return;
	struct kept_table *copy = kept_copy(k, NULL, k->next);
	if (copy && !bl_scan_hand_on(w->c->sc, &bl_parser_iozone, k->next, copy))
		free(copy);
}

size_t iz_table_reads_on(struct bl_scan *sc)
{
	size_t t;
	const struct kept_table *h = bl_scan_handed(sc, &bl_parser_iozone, &t);
	if (!h)
		return SIZE_MAX;
	struct kept_table *k = kept_copy(h, bl_scan_message(sc)->text, t);
	if (!k)
		return SIZE_MAX;
	free(kept);
	kept = k;
	return t;
}

/* The kept table when `off` of m is the row where it goes on, else NULL;
 * either way no table is kept after. Owned by the caller. */
static struct kept_table *take_kept(const struct bl_message *m, size_t off)
{
	struct kept_table *k = kept;
	kept = NULL;
	if (k && k->text == m->text && k->next == off)
		return k;
	free(k);
	return NULL;
}

/* The first of the places after text offset `from` where a window's
 * part starts or ends (the bytes of the next window, this window's own
 * part, the next window's), in a long input read in windows; SIZE_MAX:
 * none. */
static size_t window_mark(const struct iz_ctx *c, size_t from)
{
	const struct bl_message *m = c->msg;
	size_t at[3] = {bl_scan_hand_on_from(c->sc, &bl_parser_iozone), SIZE_MAX, SIZE_MAX};
	if (m->window.on && m->window.index > 0)
		at[1] = bl_message_text_at(m, m->window.own_from);
	if (m->window.on && !m->window.last)
		at[2] = bl_message_text_at(m, m->window.own_to);
	size_t mark = SIZE_MAX;
	for (int i = 0; i < 3; i++)
		if (at[i] > from && at[i] < mark)
			mark = at[i];
	return mark;
}

/* A block that stopped before its table's end (at BLOCK_ROWS rows, or at
 * the end of the window's text) ends at its first row at or past the
 * next window mark instead, so that the windows on either side cut the
 * table into the same blocks, and each keeps those that start in its own
 * part. A table that ends in the text is read whole, wherever it is. */
static void cut_at_window_mark(struct table_walk *w)
{
	struct iz_ctx *c = w->c;
	struct iz_table *t = &c->table;
	if (!t->nrows || (!w->full && w->cur.raw.off < c->msg->len))
		return;
	size_t mark = window_mark(c, w->row_off[0]);
	size_t k = 1;
	while (k < t->nrows && w->row_off[k] < mark)
		k++;
	if (k == t->nrows)
		return;
	t->nrows = k;
	w->cur.raw.off = w->end = w->row_off[k];
	w->full = true;
}

/* Reads the rows from w->cur: a block of the table, its cells results of
 * the run; the table kept when the block is full. The end of the block. */
static size_t walk_rows(struct table_walk *w)
{
	w->r = malloc(sizeof *w->r);
	if (!w->r)
		return w->end;
	read_rows(w);
	free(w->r);
	cut_at_window_mark(w);
	emit_rows(w);
	if (w->full)
		keep_table(w);
	free(w->row_off);
	return w->end;
}

/* The run of a block that goes on with a kept table: its label, command
 * and params; the context its cells are read in. */
static bool restore_run(struct iz_ctx *c, const struct kept_table *k)
{
	struct bl_run *run = iz_run(c);
	const char *s = k->strs;
	if (k->has_label) {
		run->label = strdup(s);
		s += strlen(s) + 1;
	}
	if (k->has_command) {
		run->command = strdup(s);
		s += strlen(s) + 1;
		run->has_command = true;
		run->cmd_off = run->off;
	}
	run->timed = k->timed;
	json_t *params = json_loads(s, 0, NULL);
	bool ok = params && json_object_update(run->params, params) == 0 &&
		  (!k->has_label || run->label) && (!k->has_command || run->command);
	json_decref(params);
	c->unit = k->unit;
	c->unit_known = k->unit_known;
	c->threads = k->threads;
	c->file_kb = k->file_kb;
	c->rec_kb = k->rec_kb;
	c->tests_mask = k->tests_mask;
	c->table.ncols = k->names.ncols;
	memcpy(c->table.names, k->names.names, sizeof c->table.names);
	return ok;
}

size_t iz_table_read_on(struct iz_ctx *c, const struct iz_line *first)
{
	struct kept_table *k = take_kept(c->msg, first->raw.off);
	/* a line longer than any row: the rows of a table pasted without
	 * line breaks, which no header in this window cuts back apart */
	if (!k || first->len >= LINE_CAP) {
		free(k);
		return first->raw.off;
	}
	struct table_walk w = {.c = c,
			       .h = k->h,
			       .cur = *first,
			       .end = first->raw.off,
			       .order = k->order,
			       .allowed = k->allowed};
	memcpy(w.data_edge, k->data_edge, sizeof w.data_edge);
	bool ok = restore_run(c, k);
	free(k);
	if (!ok)
		return first->raw.off;
	bl_doc_diag(c->doc, c->ri, BL_INFO, "iozone.table-goes-on", first->raw.off,
		    "the table above goes on: its rows from here are read as a run of their own, "
		    "with its command and params (a run holds %d rows)",
		    BLOCK_ROWS);
	return walk_rows(&w);
}

bool iz_table_kept_at(const struct bl_message *m, size_t off)
{
	return kept && kept->text == m->text && kept->next == off;
}

void iz_table_forget(void)
{
	free(kept);
	kept = NULL;
}

size_t iz_parse_table(struct iz_ctx *c, const struct iz_line *hdr)
{
	struct table_walk w = {.c = c};
	if (!read_header(c, hdr, &w.h, &w.cur))
		return hdr->raw.next;
	w.end = w.cur.raw.off;
	w.allowed = expected_from_tests(c);
	struct rowline first;
	load(&first, &w.cur);
	if (!row_start(&w.h, &first) && order_row(&first) && collapsed(hdr->s, hdr->len)) {
		w.order = true;
		bl_doc_diag(c->doc, c->ri, BL_WARNING, "iozone.columns-lost", hdr->raw.off,
			    "the table's spacing was collapsed: cells are read in order%s",
			    w.allowed ? " (into the columns of the -i tests when their number fits)"
				      : ", as if no test before the last one printed were blank");
	}
	size_t end = walk_rows(&w);
	return end > hdr->raw.next ? end : hdr->raw.next;
}
