/* cmdwords.h - the words of a command line a parser's command hook reads.
 *
 *   bonnie++ -d /tank -s 8g -u root | tee out.txt
 *            ^^ ^^^^^ ^^ ^^ ^^ ^^^^   stops at '|'
 *
 * Words are separated by blanks (no quoting: the hooks read options and
 * plain paths). A shell operator (|, ||, ;, &, &&, >, <, 2>...), alone or
 * against a word, ends the tool's own words. */
#ifndef BL_CMDWORDS_H
#define BL_CMDWORDS_H

#include <stdbool.h>
#include <stddef.h>

/* The first word of cmd skipped: the tool's name ("bonnie++"). */
const char *bl_cmd_args(const char *cmd);

/* The next word at *p into *w (not NUL-terminated) and *wl, *p moved past
 * it. False at the end of the line or at a shell operator. */
bool bl_cmd_word(const char **p, const char **w, size_t *wl);

#endif
