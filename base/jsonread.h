/* jsonread.h - benchlog JSON read back into jansson values, fast (see
 * jsonread.c). */
#ifndef BL_JSONREAD_H
#define BL_JSONREAD_H

#include <jansson.h>
#include <stddef.h>

/* One JSON object from the start of text (after whitespace), read as
 * json_loadb(text, len, JSON_DISABLE_EOF_CHECK) reads it, for the plain
 * cases only: NULL when it gives up (an error, a \u escape, ...), and the
 * caller asks json_loadb. *used: the bytes up to the end of the object,
 * as json_loadb's error.position. */
json_t *bl_json_read(const char *text, size_t len, size_t *used);

/* As bl_json_read, but a run's results are kept as their JSON text,
 * checked as bl_json_read would read them but not made into values: each
 * array inside the array value of a member named "rows" (a row of
 * table.h), and each object inside that of a member named "results" is a
 * string. A long stream's results then cost their text, not a value
 * each. run_results.h reads them back one at a time, through
 * bl_json_read_kept. */
json_t *bl_json_read_results_as_text(const char *text, size_t len, size_t *used);

/* A row or result kept as text by bl_json_read_results_as_text: a new
 * array or object, or NULL when the text is not one array or object
 * read as bl_json_read would read it. */
json_t *bl_json_read_kept(const char *text, size_t len);

#endif
