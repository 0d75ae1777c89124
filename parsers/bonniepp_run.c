/* bonniepp_run.c - bonnie++ records become runs: params, results with
 * their flags, the notes as diagnostics, and a table merged into the run of
 * its CSV line (the CSV's exact values kept, the table's text beside them
 * as `table_raw`, a warning where the two disagree). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonniepp.h"
#include "../base/find.h"

/* A table truncates names ("freebsd.javaforu" for "freebsd.javaforum.h")
 * and 2.00 may print none: one name the prefix of the other, or empty. */
bool bpp_names_match(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (!la || !lb)
		return true;
	return strncmp(a, b, la < lb ? la : lb) == 0;
}

static const char *paired_variant(const char *table_variant)
{
	if (strcmp(table_variant, "1.0x") == 0)
		return "1.0x+csv";
	if (strcmp(table_variant, "2.00") == 0)
		return "2.00+csv";
	return "1.9x+csv";
}

static void param_real(struct bl_run *run, const char *key, double v)
{
	if (!isnan(v) && !json_object_get(run->params, key))
		bl_run_param_real(run, key, v);
}

static void param_str(struct bl_run *run, const char *key, const char *v)
{
	if (v && v[0] && !json_object_get(run->params, key))
		bl_run_param_str(run, key, v, strlen(v));
}

static void rec_params(struct bl_run *run, const struct bpp_rec *r)
{
	param_str(run, "machine", r->name);
	param_str(run, "version", r->version);
	param_str(run, "format_version", r->format_version);
	if (r->io) {
		param_real(run, "file_size", r->file_size);
		param_real(run, "chunk_size", r->chunk_size);
	}
	param_real(run, "concurrency", r->concurrency >= 0 ? (double)r->concurrency : NAN);
	param_str(run, "seed", r->seed);
	param_real(run, "seeks", r->seeks >= 0 ? (double)r->seeks : NAN);
	param_real(run, "seek_proc_count", r->seek_procs >= 0 ? (double)r->seek_procs : NAN);
	if (r->files) {
		param_str(run, "files", r->files_spec);
		param_real(run, "num_files", r->num_files);
		param_real(run, "max_size", r->max_size);
		param_real(run, "min_size", r->min_size);
		param_real(run, "num_dirs", r->num_dirs);
		param_real(run, "file_chunk_size", r->file_chunk_size);
		param_str(run, "file_type", r->file_kind);
	}
}

static void rec_results(struct bl_run *run, const struct bpp_rec *r)
{
	for (int t = 0; t < BL_T_COUNT; t++) {
		if ((t < BL_T_SEQ_CREATE && !r->io) || (t >= BL_T_SEQ_CREATE && !r->files))
			continue;
		const struct bl_btab_cell *lat = r->has_lat ? &r->lat[t] : NULL;
		struct bl_btab_cell blank_lat;
		if (lat && lat->kind == BL_BTAB_BAD) {
			memset(&blank_lat, 0, sizeof blank_lat);
			blank_lat.kind = BL_BTAB_BLANK;
			lat = &blank_lat;
		}
		struct bl_btab_cell rate = r->rate[t], cpu = r->cpu[t];
		/* an unreadable cell is reported (bad-cell) and written as not read */
		if (rate.kind == BL_BTAB_BAD)
			rate.kind = BL_BTAB_BLANK;
		if (cpu.kind == BL_BTAB_BAD)
			cpu.kind = BL_BTAB_BLANK;
		bl_btab_emit(run, (enum bl_btab_test)t, &rate, &cpu, lat);
	}
}

static void rec_notes(struct bl_doc *doc, long ri, const struct bpp_rec *r)
{
	size_t off = r->off;
	if (r->notes & BPP_N_SHORT_ROW)
		bl_doc_diag(
			doc, ri, BL_INFO, "bonniepp.csv-short-row", off,
			"a CSV row one field short with the IO tests skipped (bonnie++ 1.96 with -s0): read with the missing field restored");
	if (r->notes & BPP_N_NO_SEED)
		bl_doc_diag(doc, ri, BL_INFO, "bonniepp.csv-no-seed", off,
			    "a CSV row without the seed field (early 1.92 format)");
	if (r->notes & BPP_N_DIRS_SHIFT)
		bl_doc_diag(
			doc, ri, BL_INFO, "bonniepp.csv-num-dirs", off,
			"format 1.98 writes num_dirs in the file_chunk_size column; read as num_dirs");
	if (r->notes & BPP_N_BAD_CELL)
		bl_doc_diag(doc, ri, BL_WARNING, "bonniepp.bad-cell", off,
			    "a cell that is no number ('%s'): written as not run", r->bad);
	if (r->notes & BPP_N_MISALIGNED)
		bl_doc_diag(
			doc, ri, BL_WARNING, "bonniepp.misaligned", off,
			"cells of the row stand away from the header's columns; placed at the nearest");
	if (r->notes & BPP_N_FIELD_COUNT)
		bl_doc_diag(
			doc, ri, BL_WARNING, "bonniepp.cell-count", off,
			"more cells than bonnie++ prints in a row (or CSV fields past the format): the extra ones are ignored");
	if ((r->notes & BPP_N_FILE_RATE_BUG) && !r->csv)
		bl_doc_diag(
			doc, ri, BL_WARNING, "bonniepp.table-file-rates", off,
			"bonnie++ 2.00's table prints the number of files x 1024 in place of the file-test rates; only its CSV line has the real rates");
}

/* The table's cells beside the CSV's values of the same run. */
static double tolerance(const struct bl_btab_cell *c)
{
	double step = strchr(c->raw, '.') ? 0.05 : 0.5;
	size_t n = strlen(c->raw);
	char suffix = n ? c->raw[n - 1] : 0;
	double mult = suffix == 'k'   ? 1024.0
		      : suffix == 'm' ? 1048576.0
		      : suffix == 'g' ? 1073741824.0
				      : 1.0;
	if (c->converted && mult == 1.0)
		mult = 1024.0; /* K/sec */
	return step * mult + 1024.0 * (mult > 1.0);
}

static bool same_cell(const struct bl_result *res, const struct bl_btab_cell *c, bool latency)
{
	const char *names[4];
	const char *f0 = bl_flag_names(res->flags, names) ? names[0] : NULL;
	double v;
	switch (c->kind) {
	case BL_BTAB_BLANK: return f0 && strcmp(f0, "not-run") == 0;
	case BL_BTAB_CENSORED: return f0 && strcmp(f0, "censored") == 0;
	case BL_BTAB_VALUE:
		if (!bl_result_number(res, &v))
			return false;
		if (latency)
			return res->raw ? strcmp(res->raw, c->raw) == 0 : fabs(v - c->v) < 1e-9;
		return fabs(v - c->v) <= tolerance(c);
	default: return true;
	}
}

void bpp_merge_table(struct bl_doc *doc, long ri, const struct bpp_rec *t)
{
	struct bl_run *run = bl_doc_run(doc, ri);
	int mismatches = 0;
	char first[128] = "";
	bool file_bug = false;
	for (int k = 0; k < BL_T_COUNT; k++) {
		if ((k < BL_T_SEQ_CREATE && !t->io) || (k >= BL_T_SEQ_CREATE && !t->files))
			continue;
		for (int part = 0; part < 3; part++) {
			const struct bl_btab_cell *c = part == 0   ? &t->rate[k]
						       : part == 1 ? &t->cpu[k]
								   : &t->lat[k];
			if (part == 2 && !t->has_lat)
				continue;
			char metric[48];
			bl_str_join3(metric, sizeof metric, bl_btab_metric[k],
				     part == 0   ? ""
				     : part == 1 ? "_cpu"
						 : "_latency",
				     "");
			struct bl_result *res = bl_btab_find_result(run, metric);
			if (!res)
				continue;
			if (c->kind != BL_BTAB_BLANK)
				bl_result_set_str(res, "table_raw", c->raw);
			if (!same_cell(res, c, part == 2)) {
				if (k >= BL_T_SEQ_CREATE && part == 0 &&
				    (t->notes & BPP_N_FILE_RATE_BUG))
					file_bug = true;
				else if (!mismatches++)
					snprintf(first, sizeof first, "%s (table '%s')", metric,
						 c->raw);
			}
		}
	}
	if (mismatches)
		bl_doc_diag(
			doc, ri, BL_WARNING, "bonniepp.table-csv-mismatch", t->off,
			"the table and the CSV line of this run disagree in %d cell(s), first %s; the CSV's values are kept",
			mismatches, first);
	if (file_bug)
		bl_doc_diag(
			doc, ri, BL_WARNING, "bonniepp.table-file-rates", t->off,
			"the table's file-test rates are the number of files x 1024 (a bonnie++ 2.00 printing bug); the CSV's rates are kept");
	rec_params(run, t);
	if (t->off < run->off)
		run->off = t->off;
	if (t->end > run->end_off)
		run->end_off = t->end;
	if (t->name[0] && (!run->label || strlen(t->name) > strlen(run->label)) &&
	    bpp_names_match(run->label ? run->label : "", t->name)) {
		free(run->label);
		run->label = strdup(t->name);
	}
	run->variant = paired_variant(t->variant);
}

long bpp_make_run(struct bl_doc *doc, const struct bpp_rec *r, long first_ri)
{
	struct bl_run *run = bl_doc_add_run(doc, "bonnie++", r->variant, r->off, r->end);
	if (!run)
		return -1;
	long ri = (long)doc->nruns - 1;
	if (r->name[0])
		run->label = strdup(r->name);
	run->repeat_of_prev = (r->repeat && ri > first_ri) || r->after_cut;
	rec_params(run, r);
	rec_results(run, r);
	rec_notes(doc, ri, r);
	return ri;
}
