/* report.h - `benchlog report`: one self-contained HTML page (no network,
 * no external script or font) that shows a post beside what was read from
 * it, so that a person can check every number:
 *
 *   - the decoded text of each message, every run's span highlighted and
 *     linked to its row in the message's runs table (and back), every
 *     diagnostic under its line, the decodings named, and a run's
 *     original bytes a click away;
 *   - the comparisons of `benchlog table` as sortable tables, and the
 *     charts inline as SVG, each bar a link to the runs it aggregates;
 *   - the system context found in the prose; an index of the messages.
 *
 * Messages are added as ingest hands them out (their text is read then);
 * the page is written once all are in. The library prints nothing. */
#ifndef BL_REPORT_H
#define BL_REPORT_H

#include <jansson.h>
#include <stddef.h>

#include "render.h"

struct bl_message;
struct bl_report;

struct bl_report_opts {
	const char *title; /* NULL: from the inputs */
	const struct bl_chart_opts *charts; /* which charts (NULL: every default one) */
	const struct bl_theme *theme; /* of the charts (NULL: light) */
};

struct bl_report *bl_report_new(void);
/* Adds message m of input `path` and the document parsed from it (the
 * reference to doc is taken). 0, or -1 out of memory. */
int bl_report_add(struct bl_report *r, struct bl_message *m, const char *path, json_t *doc);
/* Runs and documents added so far. */
size_t bl_report_runs(const struct bl_report *r);
/* The comparisons, built from every document added; the documents are
 * let go of then, and nothing may be added after. A caller whose values
 * the documents were carved from may give that memory back before the
 * page is drawn: the charts keep nothing of the documents. bl_report_write
 * calls it when the caller has not. 0, or -1 with a message in err. */
int bl_report_compare(struct bl_report *r, const struct bl_report_opts *o, char *err,
		      size_t errlen);
/* Writes the page, as it goes: when writing fails part way (a full
 * disk, a closed pipe), what was written stays written. Charts that
 * cannot be drawn (bl_render_unavailable) fail it before anything is
 * written. 0, or -1 with a message in err. */
int bl_report_write(struct bl_report *r, const struct bl_report_opts *o, bl_write_fn write,
		    void *ctx, char *err, size_t errlen);
void bl_report_free(struct bl_report *r);

/* For the parts (report_msg.c, report_charts.c). */
struct bl_buf;
/* Where a section is written: its buffer, which `flush` hands on (and
 * empties) whenever it holds BL_SECTION_FLUSH bytes or more, a run's row
 * or a line of text at a time; flush sets b->failed when it cannot. */
struct bl_section_out {
	struct bl_buf *b;
	void (*flush)(struct bl_buf *b, void *ctx);
	void *ctx;
};
#define BL_SECTION_FLUSH ((size_t)1 << 20)
/* Flushes out's buffer when it holds BL_SECTION_FLUSH bytes or more. */
void bl_section_flush_full(const struct bl_section_out *out);
/* A message's section: its header, system context, runs table and text.
 * `d` is the document's index in the report. */
void bl_report_message(const struct bl_section_out *out, struct bl_message *m, const char *path,
		       json_t *doc, size_t d);
/* The comparisons: a figure per chart of cs, its SVG and its table,
 * written to out. 0, or -1 with a message in err. */
int bl_report_charts(const struct bl_section_out *out, const struct bl_charts *cs,
		     const struct bl_report_opts *o, char *err, size_t errlen);

#endif
