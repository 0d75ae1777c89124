/* bonnie_table.c - rows, columns, cells and metrics shared by the bonnie and
 * bonnie++ parsers. */
#include "bonnie_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/find.h"
#include "../base/units.h"

/* Each test's metric, spelled once for the results, the charts' metric
 * lists and the titles. */
#define OUT_CHAR "seq_output_char"
#define OUT_BLOCK "seq_output_block"
#define OUT_REWRITE "seq_output_rewrite"
#define IN_CHAR "seq_input_char"
#define IN_BLOCK "seq_input_block"
#define SEEKS "random_seeks"
#define SEQ_CREATE "seq_create"
#define SEQ_READ "seq_read"
#define SEQ_DELETE "seq_delete"
#define RND_CREATE "random_create"
#define RND_READ "random_read"
#define RND_DELETE "random_delete"

const char *const bl_btab_metric[BL_T_COUNT] = {
	OUT_CHAR,   OUT_BLOCK, OUT_REWRITE, IN_CHAR,    IN_BLOCK, SEEKS,
	SEQ_CREATE, SEQ_READ,  SEQ_DELETE,  RND_CREATE, RND_READ, RND_DELETE,
};

const char *const bl_btab_rates[] = {OUT_CHAR, OUT_BLOCK, OUT_REWRITE, IN_CHAR, IN_BLOCK, NULL};
const char *const bl_btab_ops[] = {SEEKS,      SEQ_CREATE, SEQ_READ,   SEQ_DELETE,
				   RND_CREATE, RND_READ,   RND_DELETE, NULL};

/* The tests both bonnies run: sequential output and input, seeks. */
// clang-format off
#define IO_TESTS \
	{OUT_CHAR, "write per char", "B/s", "sequential output, a character at a time (putc)"}, \
	{OUT_BLOCK, "block write", "B/s", "sequential output, a block at a time (write)"}, \
	{OUT_REWRITE, "rewrite", "B/s", "each block read, changed, and written back"}, \
	{IN_CHAR, "read per char", "B/s", "sequential input, a character at a time (getc)"}, \
	{IN_BLOCK, "block read", "B/s", "sequential input, a block at a time (read)"}, \
	{SEEKS, "random seeks", "ops/s", "random seeks and reads (some writes) by several processes"}, \
	{"*_cpu", NULL, "percent", "the CPU a test used, as printed (%CPU, %CP)"}
// clang-format on

const struct bl_metric_info bl_bonnie_metric_info[] = {
	IO_TESTS,
	{NULL, NULL, NULL, NULL},
};

const struct bl_metric_info bl_bonniepp_metric_info[] = {
	IO_TESTS,
	{SEQ_CREATE, "seq. create", "ops/s", "files created in name order (-n)"},
	{SEQ_READ, "seq. read (files)", "ops/s", "files stat()ed (and read) in name order"},
	{SEQ_DELETE, "seq. delete", "ops/s", "files deleted in name order"},
	{RND_CREATE, "random create", "ops/s", "files created in random order"},
	{RND_READ, "random read (files)", "ops/s", "files stat()ed (and read) in random order"},
	{RND_DELETE, "random delete", "ops/s", "files deleted in random order"},
	{"*_latency", NULL, "s", "a test's worst latency (1.9x and later)"},
	{NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------ rows */

/* Markup a browser hides, glued to rows in archived posts:
 *   <pre>zfs      4096 79500 44.1 ...
 *   freebsd 2G   430  98 **44175**   8 ... */
static size_t hidden_markup(const char *s, size_t len)
{
	static const char *const tags[] = {"<pre>",   "</pre>", "<b>",   "</b>",     "<code>",
					   "</code>", "<tt>",   "</tt>", "<strong>", "</strong>",
					   "**",      "`",      NULL};
	for (size_t i = 0; tags[i]; i++) {
		size_t n = strlen(tags[i]);
		if (len >= n && strncasecmp(s, tags[i], n) == 0)
			return n;
	}
	return 0;
}

/* The bytes add_text does more with than copy: markup that may hide a
 * word, a tab, a line end. */
static const unsigned char add_special[256] = {
	['<'] = 1, ['*'] = 1, ['`'] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1};

static void add_text(struct bl_btab_row *r, const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && r->len + 1 < sizeof r->s) {
		/* a run of bytes copied as they are, at once */
		size_t run = 0, room = sizeof r->s - 1 - r->len;
		while (i + run < len && run < room && !add_special[(unsigned char)s[i + run]])
			run++;
		if (run) {
			memcpy(r->s + r->len, s + i, run);
			r->len += run;
			i += run;
			continue;
		}
		char c = s[i];
		size_t skip =
			(c == '<' || c == '*' || c == '`') ? hidden_markup(s + i, len - i) : 0;
		if (skip) {
			i += skip;
			continue;
		}
		if (c == '\t') {
			do
				r->s[r->len++] = ' ';
			while (r->len % 8 && r->len + 1 < sizeof r->s);
		} else if (c == '\r' || c == '\n') {
			r->s[r->len++] = ' ';
		} else {
			r->s[r->len++] = c;
		}
		i++;
	}
	while (r->len && r->s[r->len - 1] == ' ')
		r->len--;
	r->s[r->len] = '\0';
}

static void tokenize(struct bl_btab_row *r, size_t from)
{
	size_t i = from;
	while (i < r->len && r->ntok < BL_BTAB_TOK_MAX) {
		while (i < r->len && r->s[i] == ' ')
			i++;
		if (i >= r->len)
			break;
		size_t a = i;
		while (i < r->len && r->s[i] != ' ')
			i++;
		r->tok[r->ntok].a = a;
		r->tok[r->ntok].b = i;
		r->ntok++;
	}
}

void bl_btab_row_init(struct bl_btab_row *r, const char *s, size_t len)
{
	r->len = 0;
	r->ntok = 0;
	add_text(r, s, len);
	tokenize(r, 0);
	r->wrapped_from = r->ntok;
}

void bl_btab_row_append(struct bl_btab_row *r, const char *s, size_t len)
{
	size_t from = r->len;
	if (r->len + 2 >= sizeof r->s)
		return;
	r->s[r->len++] = ' ';
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	add_text(r, s, len);
	size_t before = r->ntok;
	tokenize(r, from);
	if (r->wrapped_from > before)
		r->wrapped_from = before;
}

bool bl_btab_tok_is(const struct bl_btab_row *r, size_t i, const char *word)
{
	size_t n = strlen(word);
	return i < r->ntok && r->tok[i].b - r->tok[i].a == n &&
	       memcmp(r->s + r->tok[i].a, word, n) == 0;
}

long bl_btab_find_word(const struct bl_btab_row *r, const char *word, size_t from)
{
	for (size_t i = 0; i < r->ntok; i++)
		if (r->tok[i].a >= from && bl_btab_tok_is(r, i, word))
			return (long)r->tok[i].b;
	return -1;
}

bool bl_btab_header_fragment(const char *s, size_t len)
{
	struct bl_btab_row r;
	bl_btab_row_init(&r, s, len);
	if (!r.ntok)
		return false;
	for (size_t i = 0; i < r.ntok; i++) {
		const char *t = r.s + r.tok[i].a;
		size_t n = r.tok[i].b - r.tok[i].a;
		if (!memchr(t, '-', n) && !memchr(t, '%', n) && !memchr(t, '/', n) && t[0] != '(')
			return false;
		if (t[0] >= '0' && t[0] <= '9')
			return false;
	}
	return true;
}

/* ------------------------------------------------------------- placement */

static long labs_(long v)
{
	return v < 0 ? -v : v;
}

/* Nearest-edge placement of tokens [t0, t1) into columns [c0, c1). */
static bool place_near(const struct bl_btab_row *r, size_t t0, size_t t1, const long *edge,
		       size_t c0, size_t c1, int *cell, int *uncertain)
{
	long shift = 0;
	size_t j = c0;
	for (size_t t = t0; t < t1; t++) {
		size_t rem = t1 - t - 1;
		if (j + rem >= c1)
			return false;
		long end = (long)r->tok[t].b;
		size_t best = j;
		long bestd = labs_(end - (edge[j] + shift));
		for (size_t k = j + 1; k + rem < c1; k++) {
			long d = labs_(end - (edge[k] + shift));
			if (d < bestd) {
				best = k;
				bestd = d;
			}
		}
		if (bestd > 2)
			(*uncertain)++;
		cell[best] = (int)t;
		shift = end - edge[best];
		j = best + 1;
	}
	return true;
}

bool bl_btab_place(const struct bl_btab_row *r, size_t first, const long *edge, size_t ncol,
		   int *cell, int *uncertain)
{
	*uncertain = 0;
	for (size_t c = 0; c < ncol; c++)
		cell[c] = -1;
	if (first > r->ntok)
		return false;
	size_t m = r->ntok - first;
	if (m > ncol)
		return false;
	if (m == ncol) {
		for (size_t c = 0; c < ncol; c++)
			cell[c] = (int)(first + c);
		return true;
	}
	size_t wf = r->wrapped_from < first ? first : r->wrapped_from;
	if (wf < r->ntok) {
		/* the continuation's tokens end the row */
		size_t nw = r->ntok - wf;
		for (size_t k = 0; k < nw; k++)
			cell[ncol - nw + k] = (int)(wf + k);
		return place_near(r, first, wf, edge, 0, ncol - nw, cell, uncertain);
	}
	return place_near(r, first, r->ntok, edge, 0, ncol, cell, uncertain);
}

/* ----------------------------------------------------------------- cells */

static void set_raw(struct bl_btab_cell *c, const char *s, size_t len)
{
	if (len >= sizeof c->raw)
		len = sizeof c->raw - 1;
	memcpy(c->raw, s, len);
	c->raw[len] = '\0';
}

static bool all_plus(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] != '+')
			return false;
	return true;
}

static void start(struct bl_btab_cell *c, const char *s, size_t len)
{
	memset(c, 0, sizeof *c);
	c->v = NAN;
	if (!s || bl_is_blank(s, len)) {
		c->kind = BL_BTAB_BLANK;
		return;
	}
	set_raw(c, s, len);
	c->kind = all_plus(s, len) ? BL_BTAB_CENSORED : BL_BTAB_BAD;
}

void bl_btab_rate(const char *s, size_t len, double mult, bool suffix_ok, struct bl_btab_cell *c)
{
	start(c, s, len);
	if (c->kind != BL_BTAB_BAD)
		return;
	double v;
	size_t used;
	if (!bl_parse_double(s, len, false, &v, &used) || v < 0)
		return;
	if (used < len) {
		if (!suffix_ok || used + 1 != len)
			return;
		switch (s[used]) {
		case 'k': mult = 1024.0; break;
		case 'm': mult = 1024.0 * 1024.0; break;
		case 'g': mult = 1024.0 * 1024.0 * 1024.0; break;
		default: return;
		}
	}
	c->v = v * mult;
	c->converted = mult != 1.0;
	c->kind = BL_BTAB_VALUE;
}

bool bl_btab_number(const char *s, size_t len, double *v)
{
	size_t used;
	if (!len || !bl_parse_double(s, len, false, v, &used))
		return false;
	/* "100.": the cell's width ends the number at its point */
	return used == len || (used + 1 == len && s[used] == '.' && s[0] != '.');
}

void bl_btab_cpu(const char *s, size_t len, struct bl_btab_cell *c)
{
	start(c, s, len);
	if (c->kind != BL_BTAB_BAD)
		return;
	double v;
	if (bl_btab_number(s, len, &v) && v >= 0) {
		c->v = v;
		c->kind = BL_BTAB_VALUE;
	}
}

void bl_btab_latency(const char *s, size_t len, struct bl_btab_cell *c)
{
	start(c, s, len);
	if (c->kind != BL_BTAB_BAD)
		return;
	double v;
	size_t used;
	if (!bl_parse_double(s, len, false, &v, &used) || v < 0)
		return;
	const char *u = s + used;
	size_t ul = len - used;
	double mult;
	if (ul == 2 && memcmp(u, "us", 2) == 0)
		mult = 1e-6;
	else if (ul == 2 && memcmp(u, "ms", 2) == 0)
		mult = 1e-3;
	else if (ul == 2 && memcmp(u, "ns", 2) == 0)
		mult = 1e-9;
	else if (ul == 1 && u[0] == 's')
		mult = 1;
	else
		return;
	c->v = v * mult;
	c->converted = mult != 1;
	c->kind = BL_BTAB_VALUE;
}

bool bl_btab_size(const char *s, size_t len, bool bare_mib, double *out)
{
	double v;
	size_t used;
	if (!bl_parse_double(s, len, false, &v, &used) || v < 0)
		return false;
	double mult = bare_mib ? 1048576.0 : 1.0;
	if (used < len) {
		if (used + 1 != len)
			return false;
		switch (s[used]) {
		case 'k':
		case 'K': mult = 1024.0; break;
		case 'm':
		case 'M': mult = 1048576.0; break;
		case 'g':
		case 'G': mult = 1073741824.0; break;
		case 't':
		case 'T': mult = 1099511627776.0; break;
		default: return false;
		}
	}
	*out = v * mult;
	return true;
}

/* --------------------------------------------------------------- results */

static struct bl_result *emit_cell(struct bl_run *run, const char *metric, const char *unit,
				   const struct bl_btab_cell *c)
{
	switch (c->kind) {
	case BL_BTAB_BLANK: return bl_run_result(run, metric, NAN, unit, NULL, BL_FLAG_NOT_RUN);
	case BL_BTAB_CENSORED:
		/* finished in under 0.5 s: faster than can be measured; the
		 * value is unknown (null), not zero */
		return bl_run_result(run, metric, NAN, unit, c->raw, BL_FLAG_CENSORED);
	case BL_BTAB_VALUE:
		return bl_run_result(run, metric, c->v, unit, c->converted ? c->raw : NULL, 0);
	default: return NULL;
	}
}

struct bl_result *bl_btab_emit(struct bl_run *run, enum bl_btab_test t,
			       const struct bl_btab_cell *rate, const struct bl_btab_cell *cpu,
			       const struct bl_btab_cell *lat)
{
	char name[48];
	const char *m = bl_btab_metric[t];
	struct bl_result *r = emit_cell(run, m, t < BL_T_SEEKS ? "B/s" : "ops/s", rate);
	bl_str_join3(name, sizeof name, m, "_cpu", "");
	emit_cell(run, name, "percent", cpu);
	if (lat) {
		bl_str_join3(name, sizeof name, m, "_latency", "");
		emit_cell(run, name, "s", lat);
	}
	return r;
}

struct bl_result *bl_btab_find_result(struct bl_run *run, const char *metric)
{
	return bl_results_find(&run->results, metric);
}
