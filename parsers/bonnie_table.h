/* bonnie_table.h - what bonnie and bonnie++ tables have in common: rows
 * cleaned of mail and markup damage, cells placed in columns by their right
 * edge, cell values (+++++, k/m/g speeds, latencies) and one metric
 * vocabulary for both tools.
 *
 * Both tools print right-aligned fixed-width cells (" %5d", " %3d") and a
 * blank cell for a test that did not run, so a row cannot be read by
 * counting tokens: `bonnie++ -f` leaves the two per-char columns blank. A
 * number wider than its cell pushes the rest of the row to the right, so
 * placement follows the row as it goes. */
#ifndef BL_BONNIE_TABLE_H
#define BL_BONNIE_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "doc.h"
#include "views.h"

#define BL_BTAB_LINE_MAX 1024
#define BL_BTAB_TOK_MAX 64

/* A table row as the reader saw it: tabs expanded to 8 columns, and the
 * markup that a browser would hide removed (<pre>, <b>, <code> tags and
 * markdown's ** bold), so that columns line up again. */
struct bl_btab_row {
	char s[BL_BTAB_LINE_MAX];
	size_t len;
	size_t ntok;
	size_t wrapped_from; /* first token that came from a continuation line */
	struct {
		size_t a, b; /* columns [a, b) */
	} tok[BL_BTAB_TOK_MAX];
};

void bl_btab_row_init(struct bl_btab_row *r, const char *s, size_t len);
/* Appends a continuation line (a row re-wrapped by a mail client): its
 * tokens follow the row's, separated by one space. */
void bl_btab_row_append(struct bl_btab_row *r, const char *s, size_t len);
/* Column of the right edge of the first token at or after column `from`
 * that equals `word`, or -1. */
long bl_btab_find_word(const struct bl_btab_row *r, const char *word, size_t from);
/* A header line cut by a mail client at ~72 columns leaves a fragment:
 *   "Input-- --Rnd Seek-"   "%CPU   /sec %CPU"   "--Block-- --Seeks--" */
bool bl_btab_header_fragment(const char *s, size_t len);
bool bl_btab_tok_is(const struct bl_btab_row *r, size_t i, const char *word);

/* Places tokens [first, ntok) into `ncol` columns with right edges `edge`
 * (exclusive column numbers, increasing): cell[c] is the token index or -1
 * for a blank cell. With exactly one token per column they are taken in
 * order (collapsed white space, markup). Otherwise each token goes to the
 * nearest column edge, following the drift of wide numbers; tokens that
 * came from a continuation line fill the last columns. Returns false when
 * the tokens cannot be placed; *uncertain counts tokens that stood more
 * than 2 columns from any edge. */
bool bl_btab_place(const struct bl_btab_row *r, size_t first, const long *edge, size_t ncol,
		   int *cell, int *uncertain);

/* A cell's value. */
enum bl_btab_kind { BL_BTAB_BLANK, BL_BTAB_VALUE, BL_BTAB_CENSORED, BL_BTAB_BAD };
struct bl_btab_cell {
	enum bl_btab_kind kind;
	double v; /* in base units */
	char raw[32]; /* as printed */
	bool converted; /* v differs from the printed number (units) */
};

/* Cell readers from [s, s+len) (a token, or NULL/0 for a blank cell).
 * rate: "44175" times `mult` (1024 for K/sec); with `suffix_ok`, bonnie++
 * 2.00's "1149k" "322m" "1.5g" (KiB/MiB/GiB per second). "+++++" is
 * censored. */
void bl_btab_rate(const char *s, size_t len, double mult, bool suffix_ok, struct bl_btab_cell *c);
/* A whole token read as a number: "98", "44.1", and "100." (a %CPU of
 * 100.0 cut to its 4-character cell). */
bool bl_btab_number(const char *s, size_t len, double *v);
/* "98", "44.1", "100.", "+++" */
void bl_btab_cpu(const char *s, size_t len, struct bl_btab_cell *c);
/* "88046us", "273ms", "3s" (and "12ns") to seconds */
void bl_btab_latency(const char *s, size_t len, struct bl_btab_cell *c);

/* The tests, in the order both tools print them. */
enum bl_btab_test {
	BL_T_OUT_CHAR,
	BL_T_OUT_BLOCK,
	BL_T_OUT_REWRITE,
	BL_T_IN_CHAR,
	BL_T_IN_BLOCK,
	BL_T_SEEKS,
	BL_T_SEQ_CREATE,
	BL_T_SEQ_READ,
	BL_T_SEQ_DELETE,
	BL_T_RND_CREATE,
	BL_T_RND_READ,
	BL_T_RND_DELETE,
	BL_T_COUNT
};
extern const char *const bl_btab_metric[BL_T_COUNT];

/* For both tools' charts (views.h): the metrics of the IO tests (B/s),
 * those of the seeks and file tests (ops/s), each NULL-terminated, and the
 * display name of every test's metric. */
extern const char *const bl_btab_rates[];
extern const char *const bl_btab_ops[];
/* Each tool's metrics (struct bl_metric_info): bonnie's I/O tests and
 * seeks; bonnie++'s, its file tests and latencies too. */
extern const struct bl_metric_info bl_bonnie_metric_info[];
extern const struct bl_metric_info bl_bonniepp_metric_info[];

/* Adds `<metric>` (B/s for the IO tests, ops/s for seeks and file tests),
 * `<metric>_cpu` (percent) and, when lat is not NULL, `<metric>_latency`
 * (s). A blank cell gives a null value flagged not-run; +++++ a null value
 * flagged censored. Returns the rate result (borrowed) or NULL. */
struct bl_result *bl_btab_emit(struct bl_run *run, enum bl_btab_test t,
			       const struct bl_btab_cell *rate, const struct bl_btab_cell *cpu,
			       const struct bl_btab_cell *lat);

/* The result `metric` of run, or NULL. */
struct bl_result *bl_btab_find_result(struct bl_run *run, const char *metric);

/* A size as bonnie++ prints it: "300M" "4G" "2G" "8k" "512", in bytes
 * (M and G of 1024; a bare number is MiB when `bare_mib`, else bytes). */
bool bl_btab_size(const char *s, size_t len, bool bare_mib, double *out);

/* bonnie_flat.c: the rows of bonnie's and bonnie++'s tables in a
 * flattened line (the shapes' table_breaks, ingest/shapes.h). */
struct bl_breaks;
void bl_btab_table_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b);

#endif
