/* test_cuts.c - where the pieces of a large mbox end (cli/cuts.c), found
 * in the mapped file: the cuts a reading with read() finds, wherever the
 * targets fall; and the same when the file is shorter than planned (cut
 * short after it was measured: its mapped pages past the end fault). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cli/cuts.c"
#include "../../cli/io.c"
#include "../feed.h"
#include "check.h"

/* An mbox of short mails, with a mail of `long_body` bytes (past the
 * bytes the framing holds: read by skipping) at its middle. */
static char *archive(size_t long_body, size_t *len)
{
	size_t cap = long_body + 400 * 300, l = 0;
	char *s = malloc(cap);
	for (unsigned i = 0; i < 400; i++) {
		l += (size_t)snprintf(s + l, cap - l,
				      "From u%u@example.org Mon Nov 30 10:%02u:07 2026\n"
				      "Subject: numbers %u\n\nFrom here on: %u\n",
				      i, i % 60, i, i * 7);
		if (i == 200)
			for (size_t k = 0; k < long_body; k += 64)
				l += (size_t)snprintf(s + l, cap - l, "%063zu\n", k);
	}
	*len = l;
	return s;
}

static char *write_temp(const char *s, size_t len)
{
	char *path = strdup("/tmp/test_cuts.XXXXXX");
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, s, len) == (ssize_t)len);
	close(fd);
	return path;
}

static bool same_cut(struct bl_mbox_cut a, struct bl_mbox_cut b)
{
	return a.offset == b.offset && a.line == b.line && a.index == b.index;
}

/* The cut read() finds from `at` for target. */
static struct bl_mbox_cut read_cut(const char *s, size_t len, struct bl_mbox_cut at, size_t target)
{
	struct feed f = {s + at.offset, len - at.offset, 0, 65536, 100003};
	struct bl_mbox_cut c;
	CHECK(bl_mbox_cuts(feed_read, &f, &at, &target, 1, &c) == 0);
	return c;
}

static void test_like_read(void)
{
	size_t len;
	char *s = archive((size_t)3 << 20, &len);
	char *path = write_temp(s, len);
	/* cut after cut, from the start to past the end, as the pieces are */
	struct bl_mbox_cut at = bl_mbox_start;
	size_t steps = 0, bad = 0;
	for (size_t target = 1; at.offset < len; target += 1013, steps++) {
		if (target <= at.offset)
			target = at.offset + 1;
		struct bl_mbox_cut got, want = read_cut(s, len, at, target);
		CHECK(cli_find_cut(path, &at, target, len, &got) == 0);
		bad += !same_cut(got, want);
		if (got.offset <= at.offset)
			break;
		at = got;
	}
	CHECK(steps > 20);
	CHECK(bad == 0);
	unlink(path);
	free(path);
	free(s);
}

static void test_file_cut_short(void)
{
	size_t len;
	char *s = archive(0, &len);
	char *path = write_temp(s, len);
	/* measured at 64 KB more than it now holds: the mapping's pages past
	 * the end fault, and the search is made again with read() */
	struct bl_mbox_cut got, want = read_cut(s, len, bl_mbox_start, len + 1);
	CHECK(cli_find_cut(path, &bl_mbox_start, len + 1, len + 65536, &got) == 0);
	CHECK(same_cut(got, want));
	CHECK(cli_find_cut("/nonexistent/archive", &bl_mbox_start, 1, len, &got) == -2);
	unlink(path);
	free(path);
	free(s);
}

int main(void)
{
	test_like_read();
	test_file_cut_short();
	return CHECK_DONE();
}
