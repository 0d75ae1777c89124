/* iozone_rejoin.c - an Excel report that stands apart from its table.
 *
 * Posts often put a line of prose between the table and the report
 * ("and the Excel output:"). The report still belongs to the run above: its
 * table (or throughput passes) is rebuilt from that run's results, so that
 * the report is checked against it and adds only what it lacks. */
#include "iozone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"

/* How far below its run a report may stand, in lines. */
#define REJOIN_LINES 12

/* Whether text [from, to) is a few lines of prose: no more than
 * REJOIN_LINES, and no iozone command among them ("$ iozone -l 1 -u 3
 * -R" above a report is that report's run, not the one before). */
static bool near(const struct bl_message *msg, size_t from, size_t to)
{
	if (from > to || to > msg->len)
		return false;
	int lines = 0;
	for (size_t i = from; i < to; lines++) {
		const char *nl = memchr(msg->text + i, '\n', to - i);
		size_t end = nl ? (size_t)(nl - msg->text) : to;
		struct bl_cmdline cl;
		if (lines > REJOIN_LINES ||
		    bl_scan_parse_cmdline(msg->text + i, end - i, "iozone", &cl))
			return false;
		i = end + 1;
	}
	return true;
}

static int column(struct iz_table *t, const char *metric)
{
	for (int j = 2; j < t->ncols; j++)
		if (strcmp(t->names[j], metric) == 0)
			return j;
	if (t->ncols >= IZ_MAX_COLS)
		return -1;
	if (t->ncols < 2)
		t->ncols = 2;
	snprintf(t->names[t->ncols], sizeof t->names[0], "%s", metric);
	return t->ncols++;
}

static struct iz_row *row_of(struct iz_table *t, uint64_t fkb, uint64_t rkb)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].file_kb == fkb && t->rows[i].rec_kb == rkb)
			return &t->rows[i];
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct iz_row *v = realloc(t->rows, cap * sizeof *v);
		if (!v)
			return NULL;
		t->rows = v;
		t->cap = cap;
	}
	struct iz_row *r = &t->rows[t->nrows++];
	memset(r, 0, sizeof *r);
	r->file_kb = fkb;
	r->rec_kb = rkb;
	return r;
}

/* The value of a result, 0 where it is null (as jansson reads null). */
static double value_of(const struct bl_result *r)
{
	double v;
	return bl_result_number(r, &v) ? v : 0.0;
}

static void rebuild(struct iz_ctx *c, const struct bl_run *run)
{
	for (size_t i = 0; i < bl_results_count(&run->results); i++) {
		const struct bl_result *r = bl_results_at(&run->results, i);
		const char *metric = r->metric, *unit = r->unit, *raw = r->raw;
		const struct bl_coord *scope = bl_result_get(r, "scope");
		if (!metric || !unit)
			continue;
		if (strcmp(unit, "ops/s") == 0)
			c->unit = IZ_OPS;
		else if (strcmp(unit, "s") == 0 && !scope)
			c->unit = IZ_USEC;
		if (!scope) {
			long long fs = bl_result_int(r, "file_size", -1);
			long long rs = bl_result_int(r, "record_size", -1);
			uint64_t v;
			if (fs < 0 || rs < 0 || !raw || !bl_parse_u64(raw, strlen(raw), &v, NULL))
				continue;
			int j = column(&c->table, metric);
			struct iz_row *row = j >= 2 && j - 2 < 32
						     ? row_of(&c->table, (uint64_t)fs / 1024,
							      (uint64_t)rs / 1024)
						     : NULL;
			if (!row)
				continue;
			row->val[j - 2] = v;
			row->has |= 1u << (j - 2);
			continue;
		}
		/* throughput: the children figure and the CPU use of each pass */
		const char *sc = scope->type == BL_VAL_STR ? scope->v.s : NULL;
		long long n = bl_result_int(r, "threads", -1);
		if (n >= 0)
			c->threads = true;
		else
			n = bl_result_int(r, "processes", -1);
		if (!sc || n < 0)
			continue;
		if (strcmp(sc, "children") == 0) {
			double printed = value_of(r);
			if (c->unit == IZ_KBS)
				printed /= 1024.0;
			iz_pass_children(c, metric, (long)n, printed);
		} else if (strcmp(sc, "cpu_util") == 0) {
			iz_pass_cpu(c, metric, value_of(r));
		}
	}
	json_t *rec = json_object_get(run->params, "record_size");
	if (json_is_integer(rec) && json_integer_value(rec) > 0)
		c->rec_kb = (uint64_t)json_integer_value(rec) / 1024;
}

bool iz_may_have_report(const struct bl_run *r)
{
	if (json_is_true(json_object_get(r->params, "excel_report")))
		return true;
	return !r->has_command && !json_object_get(r->params, "version");
}

bool iz_rejoin_report(struct iz_scan_ref ref, const struct iz_line *first, size_t *end)
{
	struct bl_doc *doc = ref.doc;
	struct bl_run *prev = bl_doc_last_run(doc);
	if (!prev)
		return false;
	if (strcmp(prev->tool, "iozone") != 0 || !prev->variant ||
	    strcmp(prev->variant, "report") == 0 || !near(ref.msg, prev->end_off, first->raw.off) ||
	    !iz_may_have_report(prev))
		return false;
	struct iz_ctx *c = iz_ctx_new();
	if (!c)
		return false;
	c->sc = ref.sc;
	c->msg = ref.msg;
	c->doc = doc;
	c->unit = IZ_KBS;
	c->ri = (long)(doc->nruns - 1);
	rebuild(c, prev);
	size_t stop = iz_parse_report(c, first);
	bool ok = stop > first->raw.off;
	if (ok) {
		bl_doc_diag(doc, c->ri, BL_INFO, "iozone.report-joined", first->raw.off,
			    "the Excel report below the output is read as part of its run");
		bl_doc_run(doc, c->ri)->end_off = stop;
		*end = stop;
	}
	free(c->table.rows);
	free(c);
	return ok;
}
