/* test_spool.c - texts kept where they were put (base/spool.c): every
 * byte read back as written, across chunks written to the file; only
 * the chunk being filled resident while writing; the pages a reader
 * moves past let go (bl_mapped_reading), and read again when it comes
 * back; without a file, the chunks kept in memory. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../base/spool.h"
#include "check.h"

/* A field of /proc/self/status, in KB ("RssAnon", "RssFile"). */
static long status_kb(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	size_t n = strlen(field);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, field, n) == 0 && line[n] == ':' &&
		    sscanf(line + n + 1, "%ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* Text k: its length and its bytes, from k alone. */
static size_t text_len(size_t k)
{
	return 1 + (k * 2654435761u) % 3000;
}

static char text_byte(size_t k, size_t i)
{
	return (char)('a' + (k * 31 + i) % 26);
}

enum { TEXTS = 9000 }; /* about 13 MB: a dozen chunks */

static bool reads_back(char *const *at, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++)
		for (size_t i = 0; i < text_len(k); i++)
			if (at[k][i] != text_byte(k, i))
				return false;
	return true;
}

/* Fills a spool with TEXTS texts; false when one could not be had. */
static bool fill(struct bl_spool *s, char **at)
{
	for (size_t k = 0; k < TEXTS; k++) {
		if (!(at[k] = bl_spool_alloc(s, text_len(k))))
			return false;
		for (size_t i = 0; i < text_len(k); i++)
			at[k][i] = text_byte(k, i);
	}
	return true;
}

static void test_on_file(void)
{
	struct bl_spool s;
	CHECK(bl_spool_init(&s) == 0);
	CHECK(s.fd >= 0);
	char **at = malloc(TEXTS * sizeof *at);
	long anon0 = status_kb("RssAnon");
	CHECK(at && fill(&s, at));
	long anon1 = status_kb("RssAnon"), file1 = status_kb("RssFile");
	/* written: only the chunk being filled is in memory */
	CHECK(s.sealed >= 10 * BL_SPOOL_CHUNK);
	CHECK(anon1 - anon0 < 3 * 1024);
	CHECK(reads_back(at, 0, TEXTS));
	long file2 = status_kb("RssFile");
	CHECK(file2 - file1 >= 9 * 1024); /* read: the file's pages in */
	/* a reader passing from the first text past the chunk being filled:
	 * only pages read from the file are let go, that chunk's kept */
	bl_mapped_passed(at[0], s.base + s.end + BL_MAPPED_BLOCK);
	CHECK(reads_back(at, 0, TEXTS));
	/* a reader going through them in order lets go what it passed */
	for (size_t k = 0; k < TEXTS; k++)
		bl_mapped_reading(at[k]);
	long file3 = status_kb("RssFile");
	printf("RssAnon +%ld kB written; RssFile %ld kB read, %ld after a reader passed\n",
	       anon1 - anon0, file2, file3);
	CHECK(file2 - file3 >= 9 * 1024);
	/* and back at the start, it reads them again */
	bl_mapped_reading(at[0]);
	CHECK(reads_back(at, 0, TEXTS));
	CHECK(bl_spool_alloc(&s, BL_SPOOL_CHUNK + 1) == NULL);
	bl_spool_free(&s);
	free(at);
}

/* No file can be made: every text stays in memory, read back whole. */
static void test_without_file(void)
{
	const char *was = getenv("TMPDIR");
	char *keep = was ? strdup(was) : NULL;
	setenv("TMPDIR", "/nonexistent/benchlog-test", 1);
	struct bl_spool s;
	CHECK(bl_spool_init(&s) == 0);
	if (keep)
		setenv("TMPDIR", keep, 1);
	else
		unsetenv("TMPDIR");
	free(keep);
	CHECK(s.fd < 0);
	char **at = malloc(TEXTS * sizeof *at);
	CHECK(at && fill(&s, at));
	CHECK(s.sealed == 0);
	for (size_t k = 0; at && k < TEXTS; k++)
		bl_mapped_reading(at[k]); /* nothing to let go */
	CHECK(at && reads_back(at, 0, TEXTS));
	bl_spool_free(&s);
	free(at);
}

/* The file stops growing (a full disk, here a limit on its size) after
 * three chunks: those are read from it, the rest stays in memory, and
 * every text reads back. */
static void test_file_fills(void)
{
	struct rlimit was, small = {3 * BL_SPOOL_CHUNK, 0};
	CHECK(getrlimit(RLIMIT_FSIZE, &was) == 0);
	small.rlim_max = was.rlim_max;
	void (*sig)(int) = signal(SIGXFSZ, SIG_IGN);
	CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
	struct bl_spool s;
	CHECK(bl_spool_init(&s) == 0);
	char **at = malloc(TEXTS * sizeof *at);
	CHECK(at && fill(&s, at));
	setrlimit(RLIMIT_FSIZE, &was);
	signal(SIGXFSZ, sig);
	CHECK(s.sealed == 3 * BL_SPOOL_CHUNK && s.fd < 0);
	for (size_t k = 0; at && k < TEXTS; k++)
		bl_mapped_reading(at[k]);
	CHECK(at && reads_back(at, 0, TEXTS));
	bl_spool_free(&s);
	free(at);
}

/* The reservation used up (16 chunks): NULL, then NULL for the smallest
 * text too, never room in a chunk already written to the file; every
 * text handed out reads back. */
static void test_reservation_used_up(void)
{
	struct bl_spool s;
	CHECK(bl_spool_init_within(&s, 16 * BL_SPOOL_CHUNK) == 0);
	enum { MOST = 200 };
	char *at[MOST];
	size_t n = 0, len = 200000;
	for (; n < MOST && (at[n] = bl_spool_alloc(&s, len)); n++)
		memset(at[n], 'a' + (int)(n % 26), len);
	CHECK(n > 60 && n < MOST); /* 5 texts a chunk, 16 chunks */
	CHECK(bl_spool_alloc(&s, 100) == NULL);
	CHECK(bl_spool_alloc(&s, 1) == NULL);
	bool same = true;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < len; i += 4096)
			same &= at[k][i] == 'a' + (int)(k % 26);
	CHECK(same);
	bl_spool_free(&s);
}

int main(void)
{
	test_on_file();
	test_without_file();
	test_file_fills();
	test_reservation_used_up();
	return CHECK_DONE();
}
