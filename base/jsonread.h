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

/* As bl_json_read, but every array inside the array value of a member
 * named "rows" (a row of table.h) is kept as its JSON text, a string,
 * checked as bl_json_read would read it but not made into values: the
 * rows of a long stream then cost their text, not a value each. Rows
 * held so are read back one at a time by bl_json_read_row
 * (run_results.h does). */
json_t *bl_json_read_rows_as_text(const char *text, size_t len, size_t *used);

/* A row kept as text by bl_json_read_rows_as_text: a new array, or NULL
 * when the text is not one array read as bl_json_read would read it. */
json_t *bl_json_read_row(const char *text, size_t len);

#endif
