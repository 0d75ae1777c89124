/* test_re.c - patterns on subjects that have no padding of their own
 * (base/re.c): bl_re_match_copy finds what bl_re_match finds on the
 * same bytes followed by padding, at the same offsets. Every subject here
 * is a heap block of exactly its length; PCRE2's JIT reads up to 16 bytes
 * past a subject's end, so `make valgrind`, which runs this test too,
 * fails with an invalid read wherever such a subject reaches the JIT
 * without a padded copy. */
#include <stdio.h>
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

static bool in_lead(const struct bl_re_lead *l, unsigned char c)
{
	return l->set[c / 8] >> (c % 8) & 1;
}

/* The bytes of lead l among the printable ones, as a string. */
static const char *lead_text(const struct bl_re_lead *l)
{
	static char t[100];
	size_t n = 0;
	for (unsigned c = 0x20; c < 0x7f; c++)
		if (in_lead(l, (unsigned char)c))
			t[n++] = (char)c;
	t[n] = '\0';
	return t;
}

/* The first bytes read off line patterns (re_lead.c), and the patterns
 * that are left to PCRE2 whole. */
static void test_leads(void)
{
	static const struct {
		const char *pattern, *bytes; /* NULL: no lead */
		bool blanks;
	} cases[] = {
		{"^[ \\t]*Excel output is below:", "E", true},
		{"^[ \\t]*(Children see|Parent sees) throughput", "CP", true},
		{"^[ \\t]*(?:\\^C)?(\\d{1,20})\\+(\\d{1,20}) ", "0123456789^", true},
		{"^[ \\t]*[kK][bB][ \\t]+reclen", "Kk", true},
		{"^(mirror|raidz[123]?|spare)(?:-\\d+)?$", "mrs", false},
		{"^x{0,3}y", "xy", false},
		{"^x{2}y", "x", false},
		{"^x*?y", "xy", false},
		{"^[]a]b", "]a", false},
		{"^[a-c_]", "_abc", false},
		{"^(?:\"|\\$)\\.", "\"$", false},
		{"^[ \\t]*(?:<pre>)?(?:Version +(\\S{1,12})|([12]\\.\\d\\d[a-z]?)) +-", "12<V",
		 true},
		{"^[ \\t]*(?:\\((a|b)\\)|[)(])", "()", true},
		{"^A|B", NULL, false}, /* B is not anchored */
		{"^[ \\t]* x", NULL, false}, /* the blank would be taken */
		{"^[ \\t]*(?:a)?", NULL, false}, /* may match nothing */
		{"^\\s", NULL, false},
		{"^.", NULL, false},
		{"^[^a]", NULL, false},
		{"^(?i)a", NULL, false},
		{"^(?=a)a", NULL, false},
		{"^\\x{2026}", NULL, false},
		{"^(a", NULL, false},
		{"a^", NULL, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct bl_re_lead l;
		bool got = bl_re_lead(cases[i].pattern, false, &l);
		CHECK(got == (cases[i].bytes != NULL));
		if (got && cases[i].bytes) {
			CHECK(strcmp(lead_text(&l), cases[i].bytes) == 0 &&
			      l.blanks == cases[i].blanks);
			if (strcmp(lead_text(&l), cases[i].bytes) != 0)
				printf("  %s: %s\n", cases[i].pattern, lead_text(&l));
		}
	}
	/* caseless: both cases, and whatever a byte past ASCII begins (the
	 * Kelvin sign is a "k") */
	struct bl_re_lead l;
	CHECK(bl_re_lead("^[ \\t]*kb", true, &l) && strcmp(lead_text(&l), "Kk") == 0 &&
	      in_lead(&l, 0xE2));
}

/* The same matches with the leads on as with PCRE2 alone. */
static void test_leads_agree(void)
{
	static struct bl_re res[] = {
		BL_RE("^[ \\t]*Excel output is below:", 0),
		BL_RE("^[ \\t]*(Children see|Parent sees) throughput", 0),
		BL_RE("^[ \\t]*(?:\\^C)?(\\d{1,20})\\+(\\d{1,20}) ", 0),
		BL_RE("^x{0,3}y", 0),
		BL_RE("^[ \\t]*kb", PCRE2_CASELESS),
		BL_RE("^[ \\t]*(?:<pre>)?(?:Version +(\\S{1,12})|([12]\\.\\d\\d[a-z]?)) +-", 0),
	};
	static const char *const subjects[] = {
		"Excel output is below:",
		"  \tExcel output is below:",
		" Excel",
		"",
		"   ",
		"Children see throughput",
		"\tParent sees throughput",
		"^C12+0 records",
		"12+3 ",
		"xxxy",
		"y",
		"xxxxy",
		"KB",
		" \xE2\x84\xAA"
		"b",
		"\xC5\xBF",
		"<pre>1.96 -",
		"Version  1.98 --",
		"e",
		"\n",
		"x\ny",
	};
	for (size_t r = 0; r < sizeof res / sizeof *res; r++)
		for (size_t i = 0; i < sizeof subjects / sizeof *subjects; i++)
			for (size_t start = 0; start <= 1 && start <= strlen(subjects[i]);
			     start++) {
				struct bl_re_match a, b;
				bl_re_set_lead_check(true);
				bool on = bl_re_match_copy(&res[r], subjects[i],
							   strlen(subjects[i]), start, &a);
				bl_re_set_lead_check(false);
				bool off = bl_re_match_copy(&res[r], subjects[i],
							    strlen(subjects[i]), start, &b);
				CHECK(on == off);
			}
	bl_re_set_lead_check(true);
	CHECK(res[0].has_lead && res[4].has_lead);
}

int main(void)
{
	test_leads();
	test_leads_agree();
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
