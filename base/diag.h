/* diag.h - diagnostics: what a stage noticed about its input.
 *
 * Library code never prints; it appends diagnostics here, each with the
 * position it concerns, and the CLI decides what to show. */
#ifndef BL_DIAG_H
#define BL_DIAG_H

#include <stdbool.h>
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

/* Diagnostics of one run and code dropped one after another: counted,
 * and remembered so that they can be taken back (bl_diags_retract). */
struct bl_diags_held {
	long run;
	char code[48];
	size_t n, elsewhere; /* of `dropped` and of `dropped_elsewhere`; n 0: empty */
	size_t warnings; /* of `dropped_warnings` */
};
#define BL_DIAGS_HELD 8

struct bl_diags {
	struct bl_diag *v;
	size_t n, cap;
	size_t dropped; /* past BL_DIAGS_MAX, counted and not stored */
	size_t dropped_warnings; /* of them, warnings and errors */
	/* A window's own part of the input, [own_from, own_to) (own_to 0:
	 * not set), and how many of the dropped were of offsets outside it:
	 * the context another window reads as its own and counts again. */
	size_t own_from, own_to;
	size_t dropped_elsewhere;
	/* the runs' diagnostics dropped last (bl_diags_held_drop), a ring */
	struct bl_diags_held held[BL_DIAGS_HELD];
	size_t nheld;
	bool last_elsewhere; /* the last drop was of an offset outside [own_from, own_to) */
	bool last_warning; /* the last drop was of a warning or an error */
};

/* A hostile input can trigger a diagnostic per line; keep memory bounded.
 * Infos stop BL_DIAGS_WARN_ROOM short of it: the room left is for the
 * warnings and errors that come after a thousand infos (a document's
 * partial then has its cause in it). */
#define BL_DIAGS_MAX 1000
#define BL_DIAGS_WARN_ROOM 100

/* Appends a diagnostic; returns the stored entry or NULL when the list is
 * full or memory ran out (then only `dropped` grows). */
struct bl_diag *bl_diags_add(struct bl_diags *d, enum bl_level level, const char *code, size_t line,
			     size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The diagnostic bl_diags_add just dropped was of run `run` (>= 0): it
 * is remembered, so that bl_diags_retract takes it back from the count
 * as it takes back a stored one. Only the last few runs' are: a run's
 * diagnostics are taken back while it is read. */
void bl_diags_held_drop(struct bl_diags *d, long run, const char *code);
/* Takes back the diagnostics `code` of run `run`: those stored are
 * removed, those dropped and remembered are no longer counted (a check
 * that no longer applies: a dd summary that turned out to be a
 * snapshot). A whole reading and one in windows then count alike,
 * however full their lists were. *dropped and *elsewhere: how many of
 * `dropped` and of `dropped_elsewhere` were taken back. */
void bl_diags_retract(struct bl_diags *d, long run, const char *code, size_t *dropped,
		      size_t *elsewhere);
void bl_diags_free(struct bl_diags *d);
const char *bl_level_name(enum bl_level level);

#endif
