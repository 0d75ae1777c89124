/* mapped.h - a long text kept in a temporary file and read through a
 * mapping of it, so that only the part being read is in memory.
 *
 * A `zpool iostat -v 1` left running for a day is one run of a quarter
 * of a million rows: as a document's text, twice the size of the input.
 * Held in memory, that text alone is past any bound a reader may keep;
 * written to a file and mapped, it is read a page at a time, and the
 * pages a reader has passed are let go (bl_mapped_passed): they are read
 * again from the file when needed.
 *
 *   char *t = bl_mapped_fd(fd, n, 1);     the file's n bytes, then a NUL
 *   for (p = t; ...; p = next) {
 *           read(p, next);
 *           bl_mapped_passed(p, next);    whole blocks behind let go
 *   }
 *   bl_mapped_free(t);
 *
 * bl_mapped_passed is a no-op on memory that is no mapping of this
 * module: a reader calls it on whatever text it reads. A mapping is
 * freed by the thread that reads it, never while another reads it.
 *
 * The pages let go are those of this process: a TMPDIR on tmpfs keeps
 * the file itself in memory all the same. */
#ifndef BL_MAPPED_H
#define BL_MAPPED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What is let go at a time: the blocks of this size, aligned to it, that
 * a reader has gone past. */
#define BL_MAPPED_BLOCK ((size_t)1 << 20)

/* The first n bytes of the file fd, read-only, followed by pad zero
 * bytes; NULL with errno set. fd may be closed afterwards. The file must
 * keep those n bytes while it is mapped: a page cut from it is an error
 * (SIGBUS) where it is read. */
char *bl_mapped_fd(int fd, size_t n, size_t pad);

/* When p is the start of a mapping bl_mapped_fd made: unmaps it and
 * returns true. Else false, and nothing is done (the caller frees p as
 * it was made). */
bool bl_mapped_free(void *p);
/* Frees p, a mapping bl_mapped_fd made or memory of malloc's. */
void bl_mapped_or_free(void *p);

/* The blocks from the one holding `from` up to the one holding `to`,
 * when both lie in one mapping (bl_mapped_passed). */
void bl_mapped_let_go(const void *from, const void *to);

/* A reader went from `from` on to `to`: when both lie in one mapping,
 * the whole blocks from the one holding `from` up to the one holding
 * `to` are let go. A shift and a compare when no block boundary lies
 * between them: a reader may call it at every line. */
static inline void bl_mapped_passed(const void *from, const void *to)
{
	if ((uintptr_t)from / BL_MAPPED_BLOCK < (uintptr_t)to / BL_MAPPED_BLOCK)
		bl_mapped_let_go(from, to);
}

/* A reader begins to read at p (a text among others in one mapping, as
 * the runs of many documents): when p lies in a mapping past the
 * blocks where the last reading of it began, those blocks are let go.
 * A reader going back to an earlier text reads its pages again. */
void bl_mapped_reading(const void *p);

/* For a mapping made elsewhere (spool.c), that grows: its slot, len 0
 * (nothing in it let go), or -1 when none is free; its bytes from start
 * that may be let go (they are read again from a file); its slot
 * given back. */
long bl_mapped_register(const void *start);
void bl_mapped_resize(long slot, size_t len);
void bl_mapped_unregister(long slot);

#endif
