/* diag.h - diagnostics: what a stage noticed about its input.
 *
 * Library code never prints; it appends diagnostics here, each with the
 * position it concerns, and the CLI decides what to show. */
#ifndef BL_DIAG_H
#define BL_DIAG_H

#include <stddef.h>

enum bl_level { BL_INFO, BL_WARNING, BL_ERROR };

struct bl_diag {
	enum bl_level level;
	char code[48]; /* "dd.count-mismatch": stable, for filters and tests */
	size_t line; /* 1-based line in the original input; 0 if none */
	size_t offset; /* byte offset in the original input */
	long run; /* index of the run it concerns, or -1 */
	char *message; /* owned */
};

struct bl_diags {
	struct bl_diag *v;
	size_t n, cap;
	size_t dropped; /* past BL_DIAGS_MAX, counted and not stored */
	/* A window's own part of the input, [own_from, own_to) (own_to 0:
	 * not set), and how many of the dropped were of offsets outside it:
	 * the context another window reads as its own and counts again. */
	size_t own_from, own_to;
	size_t dropped_elsewhere;
};

/* A hostile input can trigger a diagnostic per line; keep memory bounded. */
#define BL_DIAGS_MAX 1000

/* Appends a diagnostic; returns the stored entry or NULL when the list is
 * full or memory ran out (then only `dropped` grows). */
struct bl_diag *bl_diags_add(struct bl_diags *d, enum bl_level level, const char *code, size_t line,
			     size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void bl_diags_free(struct bl_diags *d);
const char *bl_level_name(enum bl_level level);

#endif
