/* buf.h - the one growable byte buffer: appends, reserves, and a whole
 * file read into it. (tbuf.h builds on the same idea for decoded text,
 * with each byte's origin beside it.) */
#ifndef BL_BUF_H
#define BL_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct bl_buf {
	char *p; /* NUL-terminated once something was put; NULL before */
	size_t n; /* bytes held, the NUL not counted */
	size_t cap;
	bool failed; /* memory ran out: later puts do nothing */
};

/* Room for `more` bytes after the n held, and a NUL; false when memory
 * ran out (then `failed` stays set). */
bool bl_buf_reserve(struct bl_buf *b, size_t more);
/* Appends s[0, n); false when memory ran out. */
bool bl_buf_put(struct bl_buf *b, const void *s, size_t n);
void bl_buf_free(struct bl_buf *b);
/* Appends everything fd holds up to its end (reads retried on EINTR);
 * `hint`: the size expected, or 0. 0, or -1 with errno set (ENOMEM when
 * memory ran out); what was read stays in b either way. */
int bl_buf_read_fd(struct bl_buf *b, int fd, size_t hint);
/* Writes p[0, n) to fd, retried when cut short or interrupted: the bytes
 * written, n unless a write failed (errno set). */
size_t bl_write_fd(int fd, const void *p, size_t n);

#endif
