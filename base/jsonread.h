/* jsonread.h - benchlog JSON read back into jansson values, fast (see
 * jsonread.c). */
#ifndef BL_JSONREAD_H
#define BL_JSONREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* One JSON object from the start of text (after whitespace), read as
 * json_loadb(text, len, JSON_DISABLE_EOF_CHECK) reads it, for the plain
 * cases only: NULL when it gives up (an error, a \u escape, ...), and the
 * caller asks json_loadb. *used: the bytes up to the end of the object,
 * as json_loadb's error.position. */
json_t *bl_json_read(const char *text, size_t len, size_t *used);

/* As bl_json_read, but a run's results are kept as their JSON text,
 * checked as bl_json_read would read them but not made into values: each
 * array in the "rows" of a run of the document's "runs" (a row of
 * table.h), and each object in its "results", is a string: BL_JSON_KEPT,
 * then the text. A long stream's results then cost their text, not a
 * value each. run_results.h reads them back one at a time. */
json_t *bl_json_read_results_as_text(const char *text, size_t len, size_t *used);

/* One run's object, as a member of "runs" is read by
 * bl_json_read_results_as_text: its rows and results kept as text. */
json_t *bl_json_read_run_as_text(const char *text, size_t len, size_t *used);

/* As bl_json_read_run_as_text, but the rows or results kept point into
 * text, which must outlive the run and stay as it is, and those in a row
 * (all the results; the rows between two shape declarations) are one
 * kept text: a run of 300,000 rows then costs its text once, not twice
 * and a value a row. Such a pointer carries a tag
 * only this process can make: a string of a document that looks like one
 * is no kept text. */
json_t *bl_json_read_run_in_place(const char *text, size_t len, size_t *used);

/* Copies n bytes from p to memory that outlives the run read: the copy,
 * or NULL when memory ran out. */
typedef const unsigned char *(*bl_json_stash_fn)(const unsigned char *p, size_t n, void *ctx);

/* Values read from a text read before, made once and shared: the
 * runs of a table repeat their tool, variant and parameters, and the
 * shapes of their rows ({"shape": 0, "coords": [...], "cells": [...]},
 * 4 KB each as values) nearly always. A value shared is one reference
 * more to the same value: nothing may edit it. */
struct bl_json_shared;

/* An empty table of shared values; NULL when memory ran out. */
struct bl_json_shared *bl_json_shared_new(void);
/* Lets go of the table's references and frees it (NULL: none). */
void bl_json_shared_free(struct bl_json_shared *sh);

/* How bl_json_read_run_with reads a run. */
struct bl_json_run_opts {
	/* NULL: kept texts point into text (bl_json_read_run_in_place);
	 * else each (the rows between two shape declarations, all the
	 * results) is first copied by stash, and points to the copy: text
	 * need not outlive the run, and a run costs the text of its rows and
	 * results once, not the whole of its text */
	bl_json_stash_fn stash;
	void *stash_ctx;
	/* NULL-terminated: the run's members passed over, not made into
	 * values ("time") */
	const char *const *skip;
	/* NULL-terminated "member.key": the run's member (an object) read
	 * as the value of its member key alone, the rest passed over:
	 * "span.line" makes {"span": {"line": 3, "offset": 40}} "span": 3.
	 * A member without that key, or whose key holds no integer, is
	 * read as null. */
	const char *const *lift;
	/* NULL, or where the run's members that `share` names
	 * (NULL-terminated) and the shapes of its rows are looked up by
	 * their text, and kept when new */
	struct bl_json_shared *shared;
	const char *const *share;
};

/* A run read as bl_json_read_run_in_place reads it, as o says. */
json_t *bl_json_read_run_with(const char *text, size_t len, size_t *used,
			      const struct bl_json_run_opts *o);

/* The first byte of a kept text: a control character, which no string
 * bl_json_read reads can hold, so that a string of the document is never
 * taken for a kept row or result. */
#define BL_JSON_KEPT '\x01'
/* The first byte of a kept text that points into the text read
 * (bl_json_read_run_in_place). */
#define BL_JSON_KEPT_REF '\x02'

/* Whether v is a text kept by bl_json_read_results_as_text. */
bool bl_json_is_kept(const json_t *v);
/* The next row or result of those kept in v (one, or several read in
 * place, a comma between two), from byte *at of its text (0: the
 * first), *at moved past it: a new array or object, read as bl_json_read
 * reads it. NULL after the last; and with *at set to BL_JSON_KEPT_BAD
 * when v is not a kept text, the next does not read, or a text copied
 * holds more than its one element. */
json_t *bl_json_kept_next(const json_t *kept, size_t *at);
#define BL_JSON_KEPT_BAD ((size_t)-1)

#endif
