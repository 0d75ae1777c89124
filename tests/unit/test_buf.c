/* test_buf.c - the base layer's growable buffer (base/buf.c) and UTF-8
 * checker (base/utf8.c): appends keep a NUL after the bytes, a whole file
 * or pipe read to its end whatever the size hint, and the sequences RFC
 * 3629 forbids refused. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../base/buf.h"
#include "../../base/utf8.h"
#include "check.h"

static void appends(void)
{
	struct bl_buf b = {0};
	CHECK(bl_buf_put(&b, "", 0) && b.n == 0 && b.p && b.p[0] == '\0');
	for (int i = 0; i < 10000; i++)
		CHECK(bl_buf_put(&b, "abc", 3) || (printf("put %d\n", i), 0));
	CHECK(b.n == 30000 && b.p[b.n] == '\0' && memcmp(b.p + 29997, "abc", 3) == 0);
	CHECK(!bl_buf_reserve(&b, (size_t)-1) && b.failed);
	CHECK(!bl_buf_put(&b, "x", 1) && b.n == 30000);
	bl_buf_free(&b);
	CHECK(!b.p && !b.n && !b.failed);
}

/* n bytes through a pipe (a writer child), read with a hint */
static void reads(size_t n, size_t hint)
{
	int fd[2];
	CHECK(pipe(fd) == 0);
	char *want = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		want[i] = (char)('a' + i % 26);
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		for (size_t o = 0; o < n;) {
			ssize_t w = write(fd[1], want + o, n - o);
			if (w <= 0)
				_exit(1);
			o += (size_t)w;
		}
		_exit(0);
	}
	close(fd[1]);
	struct bl_buf b = {0};
	CHECK(bl_buf_read_fd(&b, fd[0], hint) == 0);
	CHECK(b.n == n && memcmp(b.p, want, n) == 0 && b.p[n] == '\0');
	/* a hint that is right leaves no doubled buffer behind */
	if (hint && hint == n)
		CHECK(b.cap <= n + 2);
	close(fd[0]);
	bl_buf_free(&b);
	free(want);
}

static void utf8(void)
{
	const unsigned char ok2[] = {0xC3, 0xA9}, ok4[] = {0xF0, 0x9F, 0x98, 0x80};
	CHECK(bl_utf8_len((const unsigned char *)"a", 1) == 1);
	CHECK(bl_utf8_len((const unsigned char *)"", 1) == 1); /* NUL is a sequence */
	CHECK(bl_utf8_len(ok2, 2) == 2 && bl_utf8_len(ok2, 1) == 0);
	CHECK(bl_utf8_len(ok4, 4) == 4 && bl_utf8_len(ok4, 3) == 0);
	const unsigned char overlong[] = {0xC0, 0xAF}, overlong3[] = {0xE0, 0x80, 0xAF};
	const unsigned char surrogate[] = {0xED, 0xA0, 0x80}, past[] = {0xF4, 0x90, 0x80, 0x80};
	const unsigned char lone[] = {0x80}, f5[] = {0xF5, 0x80, 0x80, 0x80};
	CHECK(bl_utf8_len(overlong, 2) == 0 && bl_utf8_len(overlong3, 3) == 0);
	CHECK(bl_utf8_len(surrogate, 3) == 0 && bl_utf8_len(past, 4) == 0);
	CHECK(bl_utf8_len(lone, 1) == 0 && bl_utf8_len(f5, 4) == 0);
	CHECK(bl_utf8_valid("plain \xC3\xA9t\xC3\xA9", 11));
	CHECK(!bl_utf8_valid("plain \xC3\xA9t\xC3\xA9", 10));
	CHECK(!bl_utf8_valid("nul\0inside", 10));
	CHECK(!bl_utf8_valid("cut \xC3", 5));
}

int main(void)
{
	appends();
	reads(0, 0);
	reads(5, 0);
	reads(100000, 0);
	reads(100000, 100000);
	reads(70000, 10);
	utf8();
	return CHECK_DONE();
}
