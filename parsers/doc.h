/* doc.h - the benchlog/1 document: runs found in one message, with their
 * provenance and diagnostics, serialized to JSON by jansson.
 *
 * Ownership: a doc borrows its message; runs own their strings, their
 * results and their json_t members (params, extra time fields). */
#ifndef BL_DOC_H
#define BL_DOC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "../base/message.h"
#include "../base/diag.h"
#include "result.h"

#define BL_SCHEMA_ID "benchlog/1"

/* Result flags (see schema/benchlog.schema.json, "flags"). */
enum {
	BL_FLAG_CENSORED = 1 << 0, /* true value is beyond the printed bound */
	BL_FLAG_APPROXIMATE = 1 << 1, /* printed rounded ("1.44K", "4.4 GB/s") */
	BL_FLAG_COMPUTED = 1 << 2, /* derived by benchlog, not printed */
	BL_FLAG_NOT_RUN = 1 << 3, /* the test was skipped; value is null */
};

/* A time(1) report: what the shell or /usr/bin/time printed. */
struct bl_time {
	bool present;
	const char *variant; /* "csh", "bash", "ksh", "zsh", "posix", "bsd", "gnu", "gnu-verbose" */
	double real, user, system, cpu_percent; /* NAN where not printed */
	json_t *extra; /* other printed fields by name (object), or NULL */
	size_t off, end_off; /* text offsets of the report */
};

struct bl_run {
	const char *tool; /* parser name (static) */
	const char *variant; /* static, e.g. "bsd", "gnu" */
	char *label; /* owned; NULL when the post gives none */
	char *command; /* owned; the command line without prompt/time */
	bool timed; /* the command was run under time(1) */
	size_t off, end_off; /* text offsets: block incl. command line */
	/* where the block claimed before the run's ended (the scan's floor
	 * when the run was opened): text above it is another block's, or
	 * another post's in a file of several */
	size_t floor;
	size_t cmd_off; /* text offset of the command line, if any */
	bool has_command;
	json_t *params; /* object */
	struct bl_results results;
	struct bl_time time;
	long group; /* repeat group id, -1 until assigned */
	bool repeat_of_prev; /* a repeat of the run before it (bonnie++ -x rows
			       * that carry no name): same group whatever the
			       * command and label */
	int quote_depth;
	/* a stream's records (zpool iostat's samples): record i starts at
	 * text offset rec_off[i], and its results carry their record number
	 * (struct bl_records). A run that spans windows of a long input is
	 * continued from them in the next window (write.c). */
	size_t *rec_off;
	size_t nrec, reccap;
	/* the run's last line was read (dd's summary below its progress
	 * display): a window's end cuts none of its records, and the window
	 * after it has none to read on */
	bool records_end;
	/* its records are whole summaries so far, one after another (dd
	 * signalled while it copies), not updates of one display: a record
	 * may follow its last summary */
	bool records_chain;
	/* what a reader needs to read on its records in the next window when
	 * no line there says it (zpool iostat's header, printed once at the
	 * top of a log): the parser's own text, for its resume (parser.h);
	 * NULL when the records say it themselves. Owned. */
	char *resume;
	bool keep_results; /* the results sink declined them: kept here */
	/* its diagnostics past the document's thousand (bl_diags), and how
	 * many of them were of offsets outside a window's own part: a window
	 * counts them as it keeps the run's other diagnostics (write.c) */
	size_t diags_dropped, diags_dropped_elsewhere;
};

/* Notes that record number `index` of the run starts at text offset
 * `off` (the first time it is seen). 0, or -1 when out of memory. */
int bl_run_record(struct bl_run *r, size_t index, size_t off);

struct bl_doc;

/* Takes a finished run, number `index` of the document (0-based, in
 * order), while the scan goes on; the run is freed after the call.
 * Non-zero: stop handing runs over (the value is kept in sink_rc). */
typedef int (*bl_run_sink)(void *ctx, struct bl_doc *doc, struct bl_run *run, size_t index);

/* Takes the results of a run's finished records while its claim goes on
 * (a stream of records, struct bl_records), so that they need not be held
 * until the run is: the first n of run->results, which it reads (it keeps
 * no pointer to them). The run is the document's last and the run sink
 * gets it later as usual. 0: taken (they leave the run); 1: declined (the
 * run keeps all its results); -1: an error (kept in sink_rc). */
typedef int (*bl_results_sink)(void *ctx, struct bl_doc *doc, struct bl_run *run, size_t n);

/* What a parser hands from one window of an input to the next (a table
 * longer than a window, whose rows have no anchor): its own block of
 * memory, freed with free() when the input ends. */
struct bl_carry {
	const struct bl_parser *owner;
	void *p;
	size_t window, at; /* handed on by window `window`, from input offset `at` */
};

struct bl_doc {
	struct bl_message *msg; /* borrowed */
	char *path; /* display name of the input (owned) */
	struct bl_run *runs; /* runs[i] is run number base + i */
	size_t nruns, cap;
	size_t base; /* runs already handed to the sink */
	struct bl_diags diags; /* a diagnostic's `run` is a run number */
	bool partial; /* something was cut or could not be read */
	json_t *system; /* what the post says about the machine, or NULL */
	/* a window's: the input's carry, handed window to window; NULL when
	 * the input is read whole */
	struct bl_carry *carry;

	bl_run_sink sink; /* NULL: runs stay in `runs` */
	bl_results_sink results_sink; /* NULL: results stay in their run */
	void *sink_ctx;
	int sink_rc;
	/* a run of records a window before this one left open: its tool,
	 * and the text its claim left (bl_run.resume), with which its
	 * parser's resume (parser.h) reads it on from this window's first
	 * line; borrowed, tool NULL when none, text NULL when the claim left
	 * none (a parser reads the run on as a claim, from the context) */
	struct {
		const char *tool, *text;
		bool read; /* the resume read a run: the document's first */
	} resume;
	/* the run kept last by the windows before this one (a window's
	 * document; label NULL: none, or no name): its label (borrowed) and
	 * its end, an input offset; a run right under it is named as a whole
	 * reading names it (scan.c) */
	struct {
		const char *tool, *label;
		size_t end;
	} window_before;
	/* the run before runs[0], for grouping repeats */
	struct {
		bool set;
		const char *tool;
		char *command, *label; /* owned */
		size_t end_off;
		long group;
	} prev;
	long next_group;
};

int bl_doc_init(struct bl_doc *doc, struct bl_message *msg, const char *path);
/* Whether only blank lines or bare prompts ("$", "[root@host:~]$") stand
 * in the text of m between offsets from and to. */
bool bl_doc_nothing_between(const struct bl_message *m, size_t from, size_t to);
void bl_doc_free(struct bl_doc *doc);

/* Hands runs[0 .. nruns - keep) to the sink (repeat groups assigned first)
 * and frees them: a message with a million runs never holds them all. The
 * scanner keeps the last run, which the next claim may still extend (a
 * time report, a dd snapshot). No-op without a sink. Returns sink_rc. */
int bl_doc_flush(struct bl_doc *doc, size_t keep);

/* The run number of runs[ri] (what diagnostics and documents use). */
static inline long bl_doc_run_id(const struct bl_doc *doc, long ri)
{
	return ri < 0 ? -1 : (long)doc->base + ri;
}

/* runs[ri], or NULL when no run held has that index. */
static inline struct bl_run *bl_doc_run(struct bl_doc *doc, long ri)
{
	return ri >= 0 && (size_t)ri < doc->nruns ? &doc->runs[ri] : NULL;
}

/* The last run held (the one a claim is adding to), or NULL for none. */
static inline struct bl_run *bl_doc_last_run(struct bl_doc *doc)
{
	return doc->nruns ? &doc->runs[doc->nruns - 1] : NULL;
}

/* Appends a run covering text [off, end_off). Returns NULL on out of memory.
 * The pointer is valid until the next bl_doc_add_run. */
struct bl_run *bl_doc_add_run(struct bl_doc *doc, const char *tool, const char *variant, size_t off,
			      size_t end_off);
/* Removes the last run (a parser that changed its mind). */
void bl_doc_drop_last_run(struct bl_doc *doc);

/* Appends a result. `raw` is the printed text, or NULL when the value is
 * printed as is. Returns the result (valid while the run is held, see
 * bl_results_add) so that a parser can add coordinates (file_size,
 * record_size, vdev, sample: bl_result_set_*), or NULL. A NAN value is
 * written as null. */
struct bl_result *bl_run_result(struct bl_run *run, const char *metric, double value,
				const char *unit, const char *raw, unsigned flags);

/* Params: borrowed key, copied value. */
void bl_run_param_str(struct bl_run *run, const char *key, const char *val, size_t len);
void bl_run_param_int(struct bl_run *run, const char *key, long long val);
void bl_run_param_real(struct bl_run *run, const char *key, double val);

/* Called by a parser of records at a record's end: hands the results of
 * the run's finished records to the results sink, in pieces of at least
 * BL_RESULTS_PIECE. */
#define BL_RESULTS_PIECE 4096
void bl_doc_run_progress(struct bl_doc *doc, struct bl_run *run);

/* A diagnostic positioned at text offset `text_off` of the message,
 * attached to runs[run] (or -1); stored with the run's number. Past the
 * document's thousand it is counted, by its run when it has one. */
void bl_doc_diag(struct bl_doc *doc, long run, enum bl_level level, const char *code,
		 size_t text_off, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Takes back the diagnostics `code` of runs[ri], stored or dropped
 * (bl_diags_retract): a check that no longer applies. */
void bl_doc_retract_diags(struct bl_doc *doc, long ri, const char *code);

/* Groups repeats: consecutive runs of one tool with the same command and
 * label and nothing but prompts between them share a group id. Assigns
 * the runs still held (bl_doc_flush assigns those it hands over). */
void bl_doc_group_repeats(struct bl_doc *doc);

/* The document in pieces (new references, NULL on out of memory): the
 * head {schema, source, system}, one run (its number `index`), and the
 * tail {diagnostics, diagnostics_dropped, partial}. A document is the
 * members of the head, "runs": [each run], then the members of the tail.
 * bl_doc_run_head_json is the run with an empty "results" array (its
 * results are written apart). */
json_t *bl_doc_head_json(struct bl_doc *doc);
json_t *bl_doc_run_json(struct bl_doc *doc, const struct bl_run *r, size_t index);
json_t *bl_doc_run_head_json(struct bl_doc *doc, const struct bl_run *r, size_t index);
/* The run's span: its lines and input offsets. */
struct bl_span {
	size_t line, end_line, offset, end_offset;
};
struct bl_span bl_doc_span(const struct bl_doc *doc, size_t off, size_t end_off);
/* A time report as the run's "time" member. */
json_t *bl_doc_time_json(struct bl_doc *doc, const struct bl_time *t);
json_t *bl_doc_tail_json(struct bl_doc *doc);

/* Copies [s, s+len) trimmed of surrounding white space (new string). */
char *bl_strndup_trim(const char *s, size_t len);

#endif
