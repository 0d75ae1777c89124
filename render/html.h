/* html.h - HTML text into a growable buffer: escaped, and safe whatever
 * the bytes (a post in Latin-1, a NUL in a mail archive). */
#ifndef BL_HTML_H
#define BL_HTML_H

#include <stddef.h>

#include "../base/buf.h"

/* Appends s as it is (markup). */
void bl_html_put(struct bl_buf *b, const char *s);
/* Appends s[0, n) as text: & < > " as entities, a byte that starts no
 * valid UTF-8 sequence as "\xNN" (the original bytes stay readable),
 * control characters other than tab and newline as U+FFFD. */
void bl_html_text(struct bl_buf *b, const char *s, size_t n);
/* bl_html_text of a NUL-terminated string (NULL: nothing). */
void bl_html_esc(struct bl_buf *b, const char *s);
/* printf-style markup; the arguments are not escaped. */
void bl_html_printf(struct bl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
