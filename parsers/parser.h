/* parser.h - the interface every tool parser implements.
 *
 * The scanner finds lines that match a parser's `anchor` and offers each to
 * that parser's `claim`. A parser reads the lines around the anchor, and
 * either says the text is not its output (BL_NOT_MINE) or claims a block:
 * it adds runs to the document (with diagnostics for whatever was odd or
 * cut) and reports where the block ends, so that scanning resumes there.
 *
 * The three outcomes are kept apart: not mine (nothing added), malformed
 * (an error diagnostic with its line, no run), partial (runs plus warning
 * diagnostics). A parser never drops a value silently. */
#ifndef BL_PARSER_H
#define BL_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/message.h"
#include "../base/sites.h"
#include "../ingest/shapes.h"
#include "doc.h"
#include "views.h"

enum bl_claim { BL_NOT_MINE = 0, BL_CLAIMED = 1 };

struct bl_scan;

/* A tool whose run is a stream of records (zpool iostat's samples, dd's
 * progress updates): a run longer than a window of the input is
 * continued, record by record, in the windows after it (write.c). Its
 * results carry their record number under `key`, and each record's start
 * is noted (bl_run_record); a result with no number (dd's summary) is
 * the run's own, after its records. */
struct bl_records {
	const char *key; /* "sample" */
	/* makes `result`, read as record `local` of its window's run, record
	 * `index` of the whole run (a result with no number keeps none);
	 * NULL: a run cut at a window's end is not continued in the
	 * next, its records are only handed on as read */
	void (*renumber)(struct bl_result *result, size_t index);
	/* the params of a run of `n` records (with renumber); optional */
	void (*count)(json_t *params, size_t n);
	/* its results are written as rows (table.h): a stream of table rows,
	 * not of single updates */
	bool rows;
};

struct bl_parser {
	const char *name; /* "dd", "time", "bonnie++", "zpool-iostat" */
	const char *summary; /* one line for `benchlog list` */
	const char *const *variants; /* NULL-terminated, for `benchlog list` */
	/* PCRE2 pattern (multiline) for a line worth offering to claim; keep it
	 * cheap and literal-led: it runs over the whole input. */
	const char *anchor;
	/* The word a command line starts with ("dd"), so the scanner can find
	 * the command above a block; NULL if the tool has none. */
	const char *command_word;
	/* Claims the block around `anchor`; on BL_CLAIMED sets *end to the
	 * text offset where scanning resumes (past the block). */
	enum bl_claim (*claim)(struct bl_scan *sc, const struct bl_line *anchor, size_t *end);
	/* Reads params from a command line ("dd if=/dev/zero bs=1m"), given
	 * without prompt or time prefix. Optional. */
	void (*command)(struct bl_doc *doc, struct bl_run *run, const char *cmd);
	/* Optional: the run is a stream of records (see above). */
	const struct bl_records *records;
	/* Optional, with records: reads on a run of records that a window
	 * before this one left open, from the window's first line, as its
	 * claim would with `state`, the text the claim left in bl_run.resume;
	 * on BL_CLAIMED sets *end as claim does. */
	enum bl_claim (*resume)(struct bl_scan *sc, const char *state, size_t *end);
	/* Optional: in a window past an input's first, where it reads on
	 * with what it handed on in the window before (bl_doc.carry): a
	 * text offset before the window's own part, or SIZE_MAX. The line
	 * there is offered to its claim first. */
	size_t (*reads_on)(struct bl_scan *sc);
	/* Optional: how its output lines look, for ingest to put back the
	 * breaks of a post that lost them (ingest/shapes.h). */
	const struct bl_tool_shapes *shapes;
	/* Optional, for charts (views.h): the tool's default charts (NULL:
	 * the generic one, every B/s result per label), its metrics' display
	 * names, and, for a tool that copies a file, the ends of the copy. */
	const struct bl_chart_view *views;
	const struct bl_metric_info *metrics;
	const struct bl_transfer *transfer;
};

/* The registry: NULL-terminated, in the order parsers are tried. */
extern const struct bl_parser *const bl_parsers[];
const struct bl_parser *bl_parser_find(const char *name);
/* What ingest is handed (ingest/shapes.h): the registry's site plan
 * (every parser's anchor, the literals of the parsers' line shapes, the
 * system reader's marks: base/sites.h) and every parser's shapes and
 * command word. NULL when a pattern could not be compiled or memory ran
 * out. */
const struct bl_ingest_plan *bl_parser_ingest(void);
/* Its site plan alone. */
const struct bl_site_plan *bl_parser_sites(void);

/* What a parser may ask of the scanner. */
struct bl_message *bl_scan_message(struct bl_scan *sc);
struct bl_doc *bl_scan_doc(struct bl_scan *sc);
/* Text offset where the previous claimed block ended: a parser must not
 * read back past it. */
size_t bl_scan_floor(struct bl_scan *sc);
/* Said by a claim whose block it cut at the most it holds (a table of
 * thousands of rows): the line where the block ends is offered to the
 * same parser's claim next, whether an anchor is on it or not, so that
 * the claim reads on from there. */
void bl_scan_go_on(struct bl_scan *sc);

/* A table longer than a read window, handed from one window to the next
 * (bl_doc.carry, bl_parser.reads_on). Where parser p's block must end
 * for the next window to read on from it: the text offset where that
 * window's bytes start; SIZE_MAX when this window is the input's last,
 * the input is read whole, or a table (of any parser) has been handed on
 * from this window already: a window hands on one. */
size_t bl_scan_hand_on_from(struct bl_scan *sc, const struct bl_parser *p);
/* Hands `blob` (malloc'd, freed with free) to the next window, to read
 * on from text offset `at` of this window: true when taken (at is at or
 * past bl_scan_hand_on_from), else the caller keeps it. */
bool bl_scan_hand_on(struct bl_scan *sc, const struct bl_parser *p, size_t at, void *blob);
/* What parser p handed on from the window before this one, and the text
 * offset of this window where it reads on (a line start before the
 * window's own part); NULL when there is none. */
const void *bl_scan_handed(struct bl_scan *sc, const struct bl_parser *p, size_t *at);

/* Looks above the run's first line (at most a few lines, never past the
 * previous block) for the command that produced it: a line starting with
 * `word` after an optional prompt and optional time/sudo/nice. On success
 * sets run->command, run->timed, extends run->off to the command line, and
 * calls the parser's `command` hook. */
bool bl_scan_find_command(struct bl_scan *sc, const struct bl_parser *p, struct bl_run *run);

/* Whether the nearest command line after a prompt above `off` runs
 * another program than p's command word ("sg_dd" above dd-like records);
 * false when there is none. */
bool bl_scan_other_command(struct bl_scan *sc, const struct bl_parser *p, size_t off);

/* A command on one line: the prompt and time prefix split off.
 * Returns true when `line` is a command line for `word`, or, with word NULL,
 * for any command (what follows the prompt and wrappers). */
struct bl_cmdline {
	size_t cmd_start; /* offset in line of the command word */
	bool timed; /* "time", "/usr/bin/time -v" before it */
};
bool bl_scan_parse_cmdline(const char *line, size_t len, const char *word, struct bl_cmdline *out);

/* Scans a whole message: every parser over the text, then labels, time
 * attachment and repeat groups. Diagnostics go to the document. */
int bl_scan_message_into(struct bl_message *msg, struct bl_doc *doc);

#endif
