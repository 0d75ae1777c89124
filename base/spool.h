/* spool.h - many small texts kept where they were put, for as long as a
 * command runs, but resident only while written or read.
 *
 * A post of 16,000 runs keeps the text of each run's rows to read them
 * later (a chart reads them several times over): 17 MB for 8 MB of
 * tool output, resident for the whole command. A spool hands out room
 * a chunk at a time, in one reservation of address space; a chunk that
 * fills is written to a temporary file and read from there through a
 * mapping at the same addresses, so its pages leave memory until they
 * are read, and a reader moving on lets them go again (mapped.h,
 * bl_mapped_reading).
 *
 *   struct bl_spool s;
 *   bl_spool_init(&s);                  -1: no address space, use malloc
 *   char *p = bl_spool_alloc(&s, n);    NULL: full, use malloc
 *   memcpy(p, text, n);                 written before the next alloc
 *   ...                                 p readable until bl_spool_free
 *   bl_spool_free(&s);
 *
 * Where no file can be written (no TMPDIR, a full disk), the chunks stay
 * in memory as malloc's would. A file limited in size (`ulimit -f`)
 * raises SIGXFSZ, as every temporary file does. One thread uses a spool;
 * others may read what it handed out. */
#ifndef BL_SPOOL_H
#define BL_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "mapped.h"

/* The chunk filled at a time, and the most one alloc takes. */
#define BL_SPOOL_CHUNK BL_MAPPED_BLOCK
/* The address space reserved (none of it memory until used), at most:
 * under a limit on address space (RLIMIT_AS, `ulimit -v`) an eighth of
 * it, and less where even that cannot be had. */
#define BL_SPOOL_RESERVE ((size_t)1 << (sizeof(size_t) > 4 ? 36 : 28))

struct bl_spool {
	char *base; /* the reservation */
	size_t reserved; /* its bytes */
	size_t at, end; /* the chunk being filled: its next free byte, its end */
	bool open; /* that chunk takes texts (not sealed yet) */
	size_t sealed; /* base[0, sealed) is read from the file */
	int fd; /* the file, -1 when none could be made or written */
	long slot; /* the mapping's in mapped.c, -1: none */
};

/* 0, or -1 with errno set when no address space could be reserved. */
int bl_spool_init(struct bl_spool *s);
/* The same, reserving at most `most` bytes (for tests). */
int bl_spool_init_within(struct bl_spool *s, size_t most);
/* Room for n bytes (n <= BL_SPOOL_CHUNK), to be written before the next
 * call, readable until bl_spool_free; NULL, errno set, when the
 * reservation is used up or memory ran out. */
void *bl_spool_alloc(struct bl_spool *s, size_t n);
void bl_spool_free(struct bl_spool *s);

#endif
