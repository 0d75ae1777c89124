/* iozone.h - what the iozone parser's files share: the run being built,
 * lines with mail quoting stripped, and the result helpers.
 *
 * iozone.c claims the block; iozone_preamble.c reads the lines before the
 * results, iozone_command.c the command line; iozone_auto.c the -a / -i
 * tables; iozone_throughput.c the -t / -l / -u sections; iozone_excel.c
 * the -R report that follows either. docs/iozone.md says how it all maps
 * to results. */
#ifndef BL_IOZONE_H
#define BL_IOZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

extern const struct bl_parser bl_parser_iozone;

/* How iozone printed its numbers: "Output is in kBytes/sec" (the default;
 * "Kbytes/sec" before 3.430, both KiB), -O "operations per second", -N
 * "microseconds per operation". */
enum iz_unit { IZ_KBS, IZ_OPS, IZ_USEC };

/* One line of the message with any "> " mail quoting taken off. */
struct iz_line {
	struct bl_line raw; /* the whole line as in the text */
	const char *s; /* content after the quote prefix */
	size_t len;
};

bool iz_line_at(const struct bl_message *m, size_t off, struct iz_line *out);
bool iz_line_next(const struct bl_message *m, const struct iz_line *cur, struct iz_line *out);
bool iz_line_prev(const struct bl_message *m, const struct iz_line *cur, struct iz_line *out);

/* Lines with their tabs expanded to 8-column stops, so that cells can be
 * placed by column. Returns the expanded length (at most cap - 1). */
size_t iz_expand_tabs(const char *s, size_t len, char *out, size_t cap);

/* A cell of an auto-mode table kept for the Excel report to check. */
struct iz_row {
	uint64_t file_kb, rec_kb;
	uint64_t val[32];
	uint32_t has; /* bit i: column i+2 has a value */
};

#define IZ_MAX_COLS 34 /* kB, reclen, and up to 32 tests */

struct iz_table {
	int ncols;
	char names[IZ_MAX_COLS][24]; /* metric of each column; [0] [1] unused */
	struct iz_row *rows;
	size_t nrows, cap;
};

/* One throughput_test() pass (a -t run, or one N of -l/-u). */
struct iz_pass {
	long count; /* processes or threads */
	int ntests;
	char metric[16][24];
	double children[16];
	double cpu[16]; /* -+u "CPU utilization" of the test, percent */
	bool has_cpu[16];
};

struct iz_ctx {
	struct bl_scan *sc;
	struct bl_message *msg;
	struct bl_doc *doc;
	long ri; /* index of the run being built */
	enum iz_unit unit;
	bool unit_known;
	bool threads; /* -T: "thread" wording */
	uint64_t file_kb; /* "File size set to"; 0 if not printed */
	uint64_t rec_kb; /* the one "Record Size"; 0 if none or several */
	struct iz_table table;
	int npasses;
	long tests_mask; /* -i selections from the command: bit per test */
	bool cut; /* something was cut off */
	/* the run is a block of a table read in blocks (iz_table_read_on):
	 * an Excel report below repeats the whole table, and is not read */
	bool block;
	char *cmd_text; /* "Command line used:" (owned until the run takes it) */
	struct iz_pass passes[64]; /* [0, npasses): each zeroed when begun */
};

/* A context, zero but for its passes: zeroing their 44 KB for each line
 * offered to the parser cost more than reading the line. */
static inline struct iz_ctx *iz_ctx_new(void)
{
	struct iz_ctx *c = malloc(sizeof *c);
	if (c)
		memset(c, 0, offsetof(struct iz_ctx, passes));
	return c;
}

static inline struct bl_run *iz_run(struct iz_ctx *c)
{
	return bl_doc_run(c->doc, c->ri);
}

/* ---- preamble (iozone_preamble.c) */
enum iz_pre_kind {
	IZ_P_BANNER,
	IZ_P_VERSION,
	IZ_P_COMPILED,
	IZ_P_BUILD,
	IZ_P_RUN_BEGAN,
	IZ_P_AUTO,
	IZ_P_FILE_SIZE,
	IZ_P_REC_SIZE,
	IZ_P_ODIRECT,
	IZ_P_FSYNC,
	IZ_P_CLOSE,
	IZ_P_OPS,
	IZ_P_USEC,
	IZ_P_EXCEL,
	IZ_P_CMD,
	IZ_P_OUTPUT,
	IZ_P_TIMERES,
	IZ_P_CACHE,
	IZ_P_CACHELINE,
	IZ_P_STRIDE,
	IZ_P_TP_WITH,
	IZ_P_MINMAX,
	IZ_P_EACH,
	IZ_P_CONTRIB,
	IZ_P_SYNC,
	IZ_P_CPU_RES,
	IZ_P_USING,
};
struct bl_re_match;
/* Which preamble line this is (an index for iz_apply_pre), or -1. */
int iz_pre_match(const struct iz_line *l, struct bl_re_match *m);
bool iz_pre_is(int idx, enum iz_pre_kind kind);
/* Sets the params (and context) the line says; *nrec counts "Record Size"
 * lines. */
void iz_apply_pre(struct iz_ctx *c, int idx, const struct iz_line *l, const struct bl_re_match *m,
		  int *nrec);
/* "iozone test complete." */
bool iz_is_complete(const struct iz_line *l);
void iz_param_true(struct bl_run *run, const char *key);
/* record_size, and record_sizes when there are several (-r 4k -r 1m) */
void iz_add_record_size(struct bl_run *run, uint64_t bytes);

/* ---- command line (iozone_command.c): the parser's `command` hook */
void iz_command(struct bl_doc *doc, struct bl_run *run, const char *cmd);

/* Adds a rate or a per-op figure printed in the run's unit; returns the
 * result (borrowed) or NULL. */
struct bl_result *iz_rate_result(struct iz_ctx *c, const char *metric, double printed,
				 const char *raw);

/* "initial writers" -> "initial_writers": lower case, runs of anything
 * but letters and digits become one '_'. */
void iz_metric_name(const char *s, size_t len, char *out, size_t cap);

/* Table: is this line the second header line ("kB  reclen   write ...")? */
bool iz_is_table_header(const char *s, size_t len);
/* ... or the first ("random    random     bkwd    record    stride")? */
bool iz_is_top_header(const char *s, size_t len);
/* Reads the table whose second header line is `hdr`; returns the text
 * offset past the table. Adds the cells as results. */
size_t iz_parse_table(struct iz_ctx *c, const struct iz_line *hdr);
/* A table longer than a block of rows (or than a read window) is read on
 * by the next block, as a run of its own (iozone_auto.c): whether the
 * table is kept to go on at `off` of m; the rows from `first` read into
 * the run just opened, which takes the table's command and params (the
 * block's end); the parser's reads_on; the kept table dropped. */
bool iz_table_kept_at(const struct bl_message *m, size_t off);
size_t iz_table_read_on(struct iz_ctx *c, const struct iz_line *first);
size_t iz_table_reads_on(struct bl_scan *sc);
void iz_table_forget(void);

/* Throughput: does a throughput section start on this line? */
bool iz_is_throughput_line(const char *s, size_t len);
size_t iz_parse_throughput(struct iz_ctx *c, const struct iz_line *first);

/* Throughput passes, for the report to check: the children figure and the
 * CPU use of a test in the current pass (a new pass when the count
 * changes or the test repeats). */
void iz_pass_children(struct iz_ctx *c, const char *metric, long count, double printed);
void iz_pass_cpu(struct iz_ctx *c, const char *metric, double percent);

/* A report that stands a few lines below its run: read into that run.
 * Returns true (and *end) when it did. */
struct iz_scan_ref {
	struct bl_scan *sc;
	struct bl_message *msg;
	struct bl_doc *doc;
};
/* Whether run r may have printed an Excel report: it asked for one (-R,
 * or "Excel chart generation enabled" in its preamble), or neither its
 * command nor its preamble is there to say it did not. A report after
 * the output of a run shown without -R is another run's (iozone prints
 * its report after "iozone test complete.", where another post's may
 * follow). */
bool iz_may_have_report(const struct bl_run *r);
bool iz_rejoin_report(struct iz_scan_ref ref, const struct iz_line *first, size_t *end);

/* Excel report: "Excel output is below:" or a quoted report title. */
bool iz_is_report_line(const char *s, size_t len);
size_t iz_parse_report(struct iz_ctx *c, const struct iz_line *first);

/* iozone_flat.c: the rows of the auto-mode table in a flattened line (the
 * shapes' table_breaks, ingest/shapes.h). */
struct bl_breaks;
void bl_iz_table_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b);

#endif
