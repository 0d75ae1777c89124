/* bonniepp.h - one bonnie++ result as read from a text table or a CSV line,
 * before it becomes a run: the parser pairs a table with the CSV line of
 * the same run and makes one run of the two. */
#ifndef BL_BONNIEPP_H
#define BL_BONNIEPP_H

#include <stdbool.h>
#include <stddef.h>

#include "bonnie_table.h"
#include "doc.h"

/* What a record noticed, reported once it is a run. */
enum {
	BPP_N_SHORT_ROW = 1 << 0, /* 1.96 -s0 CSV row, one field short */
	BPP_N_NO_SEED = 1 << 1, /* a 1.92 row without the seed field */
	BPP_N_DIRS_SHIFT = 1 << 2, /* 1.98: num_dirs in the chunk column */
	BPP_N_BAD_CELL = 1 << 3, /* a cell that is no number */
	BPP_N_MISALIGNED = 1 << 4, /* cells away from the header's columns */
	BPP_N_FILE_RATE_BUG = 1 << 5, /* 2.00 table: file rates = files x 1024 */
	BPP_N_FIELD_COUNT = 1 << 6, /* CSV fields missing or extra */
};

struct bpp_rec {
	bool csv; /* from a CSV line (else a table) */
	size_t off, end; /* text span */
	const char *variant; /* static */
	char name[96];
	char version[16]; /* bonnie++ version: "1.93d", "2.00a" */
	char format_version[16]; /* CSV format: "1.97", "1.98" */
	bool io, files; /* which sections were printed */
	bool repeat; /* a -x row without name or size */
	bool after_cut; /* the first of a block that goes on from a block
			 * cut at its size, the same test again */
	bool has_lat; /* latencies printed */
	double file_size, chunk_size; /* bytes; NAN when not printed */
	long concurrency, seeks, seek_procs; /* -1 when not printed */
	char seed[24];
	char files_spec[48]; /* "16:100000:16/64" as printed */
	double num_files, max_size, min_size, num_dirs, file_chunk_size; /* NAN if absent */
	char file_kind[8]; /* "link", "symlink" or "" */
	struct bl_btab_cell rate[BL_T_COUNT], cpu[BL_T_COUNT], lat[BL_T_COUNT];
	unsigned notes;
	char bad[32]; /* the first cell that could not be read */
};

void bpp_rec_init(struct bpp_rec *r);

/* "1.97,1.97,host,1,1339089420,16G,,..." or the 27-field 1.0x line
 * "host,4G,547,99,62287,10,...". True when [s, s+len) is a bonnie++ CSV
 * row; fills rec. */
bool bpp_csv_row(const char *s, size_t len, struct bpp_rec *rec);
/* "format_version,bonnie_version,name,..." or "name,file_size,putc,..." */
bool bpp_csv_header(const char *s, size_t len);

/* "16", "16:100000:16/64", "4:65536:1024/2", "128:link": the -n spec as a
 * table prints it. */
bool bpp_files_spec(const char *s, size_t len, struct bpp_rec *rec);

/* Names that may be the same machine: one a prefix of the other, or
 * one empty (tables truncate names). */
bool bpp_names_match(const char *a, const char *b);

/* Adds the run of a record (params, results, diagnostics); a repeat record
 * after the block's first run (index first_ri) joins its group. Returns
 * the run index or -1. */
long bpp_make_run(struct bl_doc *doc, const struct bpp_rec *r, long first_ri);

/* Merges a table record into run ri, made from the CSV line of the same
 * run: the table's text as `table_raw`, a warning where they disagree,
 * missing params, the span and the longer name. */
void bpp_merge_table(struct bl_doc *doc, long ri, const struct bpp_rec *t);

#endif
