/* unflatten.h - what unflatten.c and unflatten_tables.c share: the list of
 * blanks to turn into line breaks, and where a line ends around a match. */
#ifndef BL_UNFLATTEN_H
#define BL_UNFLATTEN_H

#include <stdbool.h>
#include <stddef.h>

/* Offsets of blanks that become line breaks (sorted later). */
struct bl_breaks {
	size_t *v;
	size_t n, cap;
};

void bl_breaks_add(struct bl_breaks *b, size_t at);

/* Lines shorter than this are left alone, unless they hold two tool lines
 * or a prompt and one. */
#define BL_UNFLATTEN_MIN 250

static inline bool bl_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The blank that ended the line before s[a] (the first of the blanks
 * before it); false when there is none or they indent the line. */
bool bl_break_before(const char *s, size_t a, size_t *at);
/* The blank after s[e - 1] that ends its line; false when only blanks and
 * the line end follow. */
bool bl_break_after(const char *s, size_t len, size_t e, size_t *at);

/* Breaks between the rows of the tables in the line [s, s+len), which is
 * at offset `base` of the text: ingest's own (dashed rules, TAB- and
 * comma-separated rows) and the tools' (bl_unflatten_tool_tables). */
void bl_unflatten_tables(const char *s, size_t len, size_t base, struct bl_breaks *b);
/* The tools' table_breaks (shapes.h) of the plan in use, each once. */
void bl_unflatten_tool_tables(const char *s, size_t len, size_t base, struct bl_breaks *b);

/* A word of a table, [a, e): the next one at or after `from` in
 * [s, s+len); false when only blanks are left. */
struct bl_token {
	size_t a, e;
};
bool bl_next_token(const char *s, size_t len, size_t from, struct bl_token *t);

#endif
