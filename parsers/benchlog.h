/* benchlog.h - the library's public entry points.
 *
 *   bytes --ingest--> messages --scan/parse--> document --> JSON
 *
 * The library prints nothing and never exits: failures are return values,
 * and what it noticed about the input is in each document's diagnostics. */
#ifndef BENCHLOG_H
#define BENCHLOG_H

#include <jansson.h>

#include "../ingest/ingest.h"
#include "../ingest/message.h"
#include "doc.h"
#include "parser.h"

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
 * JSON_ENSURE_ASCII, JSON_ESCAPE_SLASH or JSON_SORT_KEYS).
 * Returns the document's tail {diagnostics, diagnostics_dropped, partial}
 * (new reference), or NULL when memory ran out or a write failed (the
 * output is then incomplete). */
json_t *bl_parse_message_write(struct bl_message *m, const char *path, size_t flags,
			       json_dump_callback_t write, void *wctx);

/* The JSON Schema of benchlog/1, as shipped in schema/. */
extern const char bl_schema_text[];

/* Releases compiled patterns (for leak checkers at exit). */
void bl_cleanup(void);

#endif
