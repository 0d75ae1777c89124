/* test_re.c - patterns on subjects that have no padding of their own
 * (base/re.c): bl_re_match_copy finds what bl_re_match finds on the
 * same bytes followed by padding, at the same offsets. Every subject here
 * is a heap block of exactly its length; PCRE2's JIT reads up to 16 bytes
 * past a subject's end, so `make valgrind`, which runs this test too,
 * fails with an invalid read wherever such a subject reaches the JIT
 * without a padded copy. */
#include <stdlib.h>
#include <string.h>

#include "../../base/re.h"
#include "check.h"

/* unanchored, starting with a literal: the JIT searches for it a vector
 * at a time */
static struct bl_re rate_re = BL_RE("(\\d+(?:\\.\\d+)?) ?kB/sec", 0);
static struct bl_re vtype_re = BL_RE("^(mirror|raidz[123]?|spare)(?:-\\d+)?$", 0);
static struct bl_re word_re = BL_RE("throughput", 0);

/* s as a heap block of exactly its length, no NUL after it */
static char *exact(const char *s, size_t n)
{
	char *b = malloc(n ? n : 1);
	memcpy(b, s, n);
	return b;
}

/* The same match, from bl_re_match on a padded copy and bl_re_match_copy
 * on an exact block. */
static bool agree(struct bl_re *re, const char *s, size_t start)
{
	size_t n = strlen(s);
	char *padded = malloc(n + BL_RE_PAD);
	memcpy(padded, s, n);
	bl_re_pad(padded, n);
	char *bare = exact(s, n);
	struct bl_re_match a, b;
	bool ma = bl_re_match(re, padded, n, start, &a);
	bool mb = bl_re_match_copy(re, bare, n, start, &b);
	bool same = ma == mb;
	for (int g = 0; same && ma && g < a.ngroups; g++)
		same = a.ov[2 * g] == b.ov[2 * g] && a.ov[2 * g + 1] == b.ov[2 * g + 1];
	free(padded);
	free(bare);
	return same;
}

int main(void)
{
	static const char *const subjects[] = {
		"Children see throughput for  4 initial writers  =  1060986.54 kB/sec",
		"Children see throughput for  4 initial writers  =  1060986.54",
		"1060986.54 kB/se",
		"kB/sec",
		"",
		"mirror-0",
		"raidz2",
		"ada0",
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxthroughpu",
	};
	struct bl_re *const res[] = {&rate_re, &vtype_re, &word_re};
	for (size_t i = 0; i < sizeof subjects / sizeof *subjects; i++)
		for (size_t r = 0; r < sizeof res / sizeof *res; r++)
			for (size_t start = 0; start <= strlen(subjects[i]); start += 7)
				CHECK(agree(res[r], subjects[i], start));

	/* a match's groups are the subject's offsets */
	const char *line = "writers  =  583914.45 kB/sec";
	char *b = exact(line, strlen(line));
	struct bl_re_match m;
	CHECK(bl_re_match_copy(&rate_re, b, strlen(line), 0, &m));
	CHECK(m.ov[2] == 12 && bl_re_glen(&m, 1) == 9);
	free(b);

	/* subjects longer than any copy before them, and every length up to
	 * a few vectors: the copy grows, and no length reads past its block */
	for (size_t n = 0; n < 200; n++) {
		char *s = malloc(n + 1);
		memset(s, 'x', n);
		if (n >= 6)
			memcpy(s + n - 6, "kB/sec", 6);
		s[n] = '\0';
		CHECK(agree(&rate_re, s, 0) && agree(&word_re, s, 0));
		free(s);
	}
	size_t big = 1 << 20;
	char *s = malloc(big);
	memset(s, 'y', big);
	memcpy(s + big - 13, "123.5 kB/sec", 12);
	CHECK(bl_re_match_copy(&rate_re, s, big - 1, 0, &m) && m.ov[2] == big - 13);
	free(s);

	bl_re_free_all();
	return CHECK_DONE();
}
