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

/* The JSON Schema of benchlog/1, as shipped in schema/. */
extern const char bl_schema_text[];

/* Releases compiled patterns (for leak checkers at exit). */
void bl_cleanup(void);

#endif
