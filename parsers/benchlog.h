/* benchlog.h - the library's public entry points.
 *
 *   bytes --ingest--> messages --scan/parse--> document --> JSON
 *
 * The library prints nothing and never exits: failures are return values,
 * and what it noticed about the input is in each document's diagnostics. */
#ifndef BL_INTERNAL_BENCHLOG_H
#define BL_INTERNAL_BENCHLOG_H

#include <jansson.h>

#include "../ingest/ingest.h"
#include "../base/message.h"
#include "doc.h"
#include "parser.h"
#include "table.h"

#ifndef BL_VERSION
#define BL_VERSION "0.1.0"
#endif

/* Parses one message into a benchlog/1 document (new reference), or NULL
 * when memory ran out. `path` is the name the document gives its source. */
json_t *bl_parse_message(struct bl_message *m, const char *path);

/* Parses one message and writes its document through `write` (jansson's
 * json_dump_callback_t) as the scan finds runs: each run is written and
 * freed once the scan is past it, so memory does not grow with the number
 * of runs. The bytes are those json_dump_callback(bl_parse_message(m,
 * path), write, wctx, flags) would write, for flags JSON_COMPACT or
 * JSON_INDENT(n) with JSON_PRESERVE_ORDER (and JSON_REAL_PRECISION; not
 * JSON_ENSURE_ASCII, JSON_ESCAPE_SLASH or JSON_SORT_KEYS), except that a
 * run of a tool whose output is a stream of records has "rows" in place
 * of "results" (table.h; bl_doc_expand_rows gives the results back)
 * unless flags hold BL_WRITE_OBJECTS.
 * Returns the document's tail {diagnostics, diagnostics_dropped, partial}
 * and, not written, runs_written: how many runs the document holds (new
 * reference), or NULL when memory ran out or a write failed (the output
 * is then incomplete). */
#define BL_WRITE_OBJECTS ((size_t)1 << 24) /* every result an object */
json_t *bl_parse_message_write(struct bl_message *m, const char *path, size_t flags,
			       json_dump_callback_t write, void *wctx);

/* One document from the windows of a large input (m->window.on; see
 * ingest/window.h): the same document bl_parse_message_write would write
 * for the input read whole, its runs found window by window. _add takes
 * each window in order, _finish writes the document (the runs are held in
 * memory up to a few megabytes, then in a temporary file, until the head
 * is known) and returns its tail like bl_parse_message_write. _add
 * returns 0, or -1 when memory ran out or a write failed. */
struct bl_window_doc;
struct bl_window_doc *bl_window_doc_new(const char *path, size_t flags);
int bl_window_doc_add(struct bl_window_doc *w, struct bl_message *m);
json_t *bl_window_doc_finish(struct bl_window_doc *w, json_dump_callback_t write, void *wctx);
void bl_window_doc_free(struct bl_window_doc *w);
/* A message's document, whole or a window at a time: m written by
 * bl_parse_message_write, or, when m is a window, added to *windows (made
 * at the first window) and the document written at the last (*windows
 * then freed and NULL). *tail: the document's tail, as those return it,
 * or NULL after a window that is not the last. 0, or -1 when memory ran
 * out or a write failed (*tail NULL; *windows is left to free). */
int bl_parse_message_or_window(struct bl_window_doc **windows, struct bl_message *m,
			       const char *path, size_t flags, json_dump_callback_t write,
			       void *wctx, json_t **tail);
/* Releases the output buffer the writers keep between messages (part of
 * bl_cleanup, for this thread). */
void bl_write_cleanup(void);

/* The JSON Schema of benchlog/1, as shipped in schema/. */
extern const char bl_schema_text[];

/* Releases compiled patterns (for leak checkers at exit). */
void bl_cleanup(void);

#endif
