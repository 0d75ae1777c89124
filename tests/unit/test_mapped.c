/* test_mapped.c - a text read through a mapping of its file
 * (base/mapped.c): whole and NUL-terminated, its pages let go behind a
 * reader and read again when needed, and memory of malloc's never
 * touched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../base/mapped.h"
#include "../../base/tmp.h"
#include "check.h"

/* The process's resident pages of files, in KB (/proc/self/status). */
static long rss_file_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "RssFile: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static char pattern(size_t i)
{
	return (char)('a' + (i * 7 + i / 4096) % 26);
}

/* A file of n bytes of pattern, then its NUL. */
static int text_file(size_t n)
{
	int fd = bl_temp_fd("test");
	char *buf = malloc(n + 1);
	if (fd < 0 || !buf) {
		free(buf);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = pattern(i);
	buf[n] = '\0';
	bool ok = write(fd, buf, n + 1) == (ssize_t)(n + 1);
	free(buf);
	return ok ? fd : -1;
}

static bool reads_pattern(const char *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] != pattern(i))
			return false;
	return t[n] == '\0';
}

static void test_text_and_pages(void)
{
	size_t n = 12 * BL_MAPPED_BLOCK + 123;
	int fd = text_file(n);
	CHECK(fd >= 0);
	char *t = fd >= 0 ? bl_mapped_fd(fd, n, 1) : NULL;
	if (fd >= 0)
		close(fd);
	CHECK(t != NULL);
	if (!t)
		return;
	long before = rss_file_kb();
	CHECK(reads_pattern(t, n)); /* every page read: resident */
	long read = rss_file_kb();
	/* a reader one byte on: no block passed, nothing let go */
	bl_mapped_passed(t + 10, t + 11);
	CHECK(rss_file_kb() >= read);
	/* read to the end: all but the last block let go */
	bl_mapped_passed(t, t + n);
	long after = rss_file_kb();
	printf("RssFile: %ld kB before, %ld read, %ld after\n", before, read, after);
	CHECK(before >= 0 && read - before >= 11 * 1024 && read - after >= 10 * 1024);
	CHECK(reads_pattern(t, n)); /* read again from the file */
	/* a reader passing part of it, from one block's middle */
	bl_mapped_passed(t + BL_MAPPED_BLOCK / 2, t + 5 * BL_MAPPED_BLOCK + 7);
	CHECK(reads_pattern(t, n));
	CHECK(bl_mapped_free(t));
	CHECK(!bl_mapped_free(t)); /* let go once */
}

/* A file of whole pages, and one of none, mapped with 64 zeros after:
 * they are read where no page of the file is. */
static void test_pad_past_the_file(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), sizes[] = {3 * page, 1, 0};
	for (size_t k = 0; k < 3; k++) {
		size_t n = sizes[k];
		int fd = bl_temp_fd("test");
		char *buf = calloc(1, n + 1);
		for (size_t i = 0; i < n; i++)
			buf[i] = pattern(i);
		CHECK(fd >= 0 && write(fd, buf, n) == (ssize_t)n);
		char *t = bl_mapped_fd(fd, n, 64);
		close(fd);
		CHECK(t != NULL);
		bool ok = t && memcmp(t, buf, n) == 0;
		for (size_t i = n; t && i < n + 64; i++)
			ok &= t[i] == '\0';
		CHECK(ok);
		CHECK(t && bl_mapped_free(t));
		free(buf);
	}
}

/* Memory that is no mapping of this module is left as it is. */
static void test_malloc_untouched(void)
{
	size_t n = 6 * BL_MAPPED_BLOCK;
	char *m = malloc(n + 1);
	CHECK(m != NULL);
	if (!m)
		return;
	for (size_t i = 0; i < n; i++)
		m[i] = pattern(i);
	m[n] = '\0';
	bl_mapped_passed(m, m + n);
	CHECK(reads_pattern(m, n));
	CHECK(!bl_mapped_free(m));
	CHECK(!bl_mapped_free(NULL));
	free(m);
}

/* Many mappings at once, each its own, each let go. */
static void test_many(void)
{
	enum { N = 40 };
	char *t[N];
	size_t n = 3000;
	int fd = text_file(n);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	for (int i = 0; i < N; i++)
		t[i] = bl_mapped_fd(fd, n, 1);
	close(fd);
	bool all = true;
	for (int i = 0; i < N; i++)
		all &= t[i] && reads_pattern(t[i], n);
	CHECK(all);
	for (int i = N - 1; i >= 0; i--)
		all &= bl_mapped_free(t[i]);
	CHECK(all);
}

int main(void)
{
	test_text_and_pages();
	test_pad_past_the_file();
	test_malloc_untouched();
	test_many();
	return CHECK_DONE();
}
