/* buf.c - see buf.h. */
#include "buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool bl_buf_reserve(struct bl_buf *b, size_t more)
{
	if (b->failed)
		return false;
	if (more > (size_t)-1 / 2 - b->n) {
		b->failed = true;
		return false;
	}
	size_t need = b->n + more + 1;
	if (need <= b->cap)
		return true;
	/* at least double: appends cost linear time; a first large reserve
	 * (a file's size) takes what it asks, not the next power of two */
	size_t cap = b->cap ? b->cap * 2 : 4096;
	if (cap < need)
		cap = need;
	char *p = realloc(b->p, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	p[b->n] = '\0';
	b->p = p;
	b->cap = cap;
	return true;
}

bool bl_buf_put(struct bl_buf *b, const void *s, size_t n)
{
	if (!bl_buf_reserve(b, n))
		return false;
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
	return true;
}

void bl_buf_free(struct bl_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

int bl_buf_read_fd(struct bl_buf *b, int fd, size_t hint)
{
	/* a byte past the hint: the read that finds the end needs room */
	if (!bl_buf_reserve(b, (hint ? hint : 65535) + 1)) {
		errno = ENOMEM;
		return -1;
	}
	for (;;) {
		if (b->cap - b->n - 1 == 0 && !bl_buf_reserve(b, b->cap)) {
			errno = ENOMEM;
			return -1;
		}
		ssize_t r = read(fd, b->p + b->n, b->cap - b->n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		b->n += (size_t)r;
		b->p[b->n] = '\0';
	}
}

size_t bl_write_fd(int fd, const void *p, size_t n)
{
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, (const char *)p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	return done;
}
