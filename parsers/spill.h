/* spill.h - bytes kept to be written later, after what is not known yet.
 *
 * A document over several windows is written after its last window (its
 * head comes before its runs), and a run's results before the run that
 * holds them: both are kept in a spill, in memory up to a megabyte, then
 * in a temporary file. A spill can take over another whole, in order,
 * without copying its bytes: a `zpool iostat -v 1` stream's 200 MB of
 * results are then written once to a file and once to the output. */
#ifndef BL_SPILL_H
#define BL_SPILL_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/buf.h"

/* bytes kept in memory before a spill moves them to a temporary file */
#define BL_SPILL_MEM ((size_t)1 << 20)
/* parts taken over from other spills, at most */
#define BL_SPILL_PARTS 16

struct bl_spill_part {
	struct bl_buf mem;
	bool in_file; /* the bytes are in the temporary file fd, not in mem */
	int fd;
};

struct bl_spill {
	struct bl_spill_part done[BL_SPILL_PARTS]; /* before cur, in order */
	size_t ndone;
	struct bl_spill_part cur; /* being written */
};

/* Appends buf[0, n) (a json_dump_callback_t, ctx the spill); 0 or -1. */
int bl_spill_write(const char *buf, size_t n, void *ctx);

/* Whether the spill holds bytes in a temporary file: worth taking over
 * rather than copying. */
bool bl_spill_in_file(const struct bl_spill *sp);

/* Puts the bytes of `from` after those of `to`, without copying them
 * (`to` is written on after them); from is left empty. False, and nothing
 * moved, when `to` has taken over too many parts already. */
bool bl_spill_adopt(struct bl_spill *to, struct bl_spill *from);

/* Hands every byte, in order, to write; 0, or -1 when reading back or
 * write failed. */
int bl_spill_copy(struct bl_spill *sp, int (*write)(const char *, size_t, void *), void *ctx);

/* Frees what sp holds and empties it. */
void bl_spill_free(struct bl_spill *sp);

#endif
