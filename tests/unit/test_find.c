/* test_find.c - the prefilters' searches (base/find.h) against plain
 * reference loops: every needle position, every rare byte, every
 * alignment of the 16-byte steps, and the ends of the text. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/find.h"
#include "check.h"

static const char *ref_find(const char *s, size_t n, const char *nd, size_t nl)
{
	if (nl > n)
		return NULL;
	for (size_t i = 0; i + nl <= n; i++)
		if (memcmp(s + i, nd, nl) == 0)
			return s + i;
	return NULL;
}

static const char *ref_digit(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] >= '0' && s[i] <= '9')
			return s + i;
	return NULL;
}

static size_t ref_ascii(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] > 0 && (unsigned char)s[i] < 0x80)
		i++;
	return i;
}

static size_t ref_count(const char *s, size_t n, char c)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == c;
	return k;
}

/* Counts over more than 255 steps of 16 (the lanes' limit) and every
 * alignment of the ends. */
static void test_count(void)
{
	static char big[16 * 600 + 40];
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (char)(i % 3 == 0 ? '\n' : i % 7 == 0 ? '\xff' : 'a');
	for (size_t from = 0; from < 20; from++)
		for (size_t cut = 0; cut < 20; cut++) {
			size_t n = sizeof big - from - cut;
			CHECK(bl_count_byte(big + from, n, '\n') == ref_count(big + from, n, '\n'));
			CHECK(bl_count_byte(big + from, n, '\xff') ==
			      ref_count(big + from, n, '\xff'));
		}
	/* every byte the same: 255 matches a lane before the sum */
	memset(big, '\n', sizeof big);
	CHECK(bl_count_byte(big, sizeof big, '\n') == sizeof big);
	CHECK(bl_count_byte(big, sizeof big, 'x') == 0);
	CHECK(bl_count_byte("", 0, '\n') == 0);
}

/* Whether s[i] is a mark of the reference: a byte of a group's
 * rectangle, at a line start for the groups that count only there, after
 * a digit for those that count only there. */
static bool ref_mark(const struct bl_marks *mk, const char *const *groups,
		     const enum bl_mark_where *where, size_t ng, const char *s, size_t i)
{
	unsigned char c = (unsigned char)s[i];
	char before = i > 0 ? s[i - 1] : 0;
	for (size_t g = 0; g < ng; g++) {
		bool lo = false, hi = false;
		for (const unsigned char *p = (const unsigned char *)groups[g]; *p; p++) {
			lo |= (*p & 15) == (c & 15);
			hi |= (*p >> 4) == (c >> 4);
		}
		bool placed = where[g] == BL_MARK_ANYWHERE ||
			      (where[g] == BL_MARK_LINE_START && before == '\n') ||
			      (where[g] == BL_MARK_AFTER_DIGIT && before >= '0' && before <= '9');
		if (lo && hi && placed)
			return true;
	}
	(void)mk;
	return false;
}

/* bl_find_mark against the reference over random bytes, every start and
 * end; the groups system.c spells out are the ones bl_marks_add builds. */
static void test_marks(void)
{
	static const char *const groups[] = {"#$%/", ":=>", "\xEF", "DFLNO", "S", "gz", "-", " \t"};
	static const enum bl_mark_where where[] = {
		BL_MARK_ANYWHERE,   BL_MARK_ANYWHERE,   BL_MARK_ANYWHERE,    BL_MARK_LINE_START,
		BL_MARK_LINE_START, BL_MARK_LINE_START, BL_MARK_AFTER_DIGIT, BL_MARK_LINE_START};
	struct bl_marks mk;
	bl_marks_init(&mk);
	for (size_t g = 0; g < 8; g++)
		CHECK(bl_marks_add(&mk, groups[g], where[g]));
	CHECK(!bl_marks_add(&mk, "q", BL_MARK_ANYWHERE));
	static const struct bl_marks spelled = {
		.lo = {0x80, 0, 0, 0x11, 0x09, 0x01, 0x08, 0x20, 0, 0x80, 0x22, 0, 0x08, 0x42, 0x0A,
		       0x0D},
		.hi = {0x80, 0, 0xC1, 0x02, 0x08, 0x10, 0x20, 0x20, 0, 0, 0, 0, 0, 0, 0x04, 0},
		.line = 0xB8,
		.groups = 8,
		.digit = 0x40,
	};
	CHECK(memcmp(&spelled, &mk, sizeof mk) == 0);
	static const char alphabet[] = "aSDzg \t\n\n\n:/-#x)\xEF\xBC\x9A"
				       "eNOFLq\x80--09\xE3wj";
	char buf[200];
	unsigned seed = 3;
	for (int round = 0; round < 300; round++) {
		for (size_t i = 0; i < sizeof buf; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = (seed >> 16) & 0x7fff;
			/* sparse marks in some rounds, dense in others */
			buf[i] = round % 3 == 0 && r % 40 ? 'a'
							  : alphabet[r % (sizeof alphabet - 1)];
		}
		for (size_t from = 0; from < 70; from++) {
			size_t n = sizeof buf - (size_t)round % 90;
			if (from > n)
				break;
			size_t want = n;
			for (size_t i = from; i < n; i++)
				if (ref_mark(&mk, groups, where, 8, buf, i)) {
					want = i;
					break;
				}
			CHECK(bl_find_mark(buf, from, n, &mk) == want);
		}
	}
	CHECK(bl_find_mark("", 0, 0, &mk) == 0);
	CHECK(bl_find_mark("S", 0, 1, &mk) == 1); /* offset 0 is no line start */
	CHECK(bl_find_mark("\nS", 1, 2, &mk) == 1); /* the byte before from is read */
	CHECK(bl_find_mark("x:", 0, 2, &mk) == 1);
	CHECK(bl_find_mark(":", 0, 1, &mk) == 0);
	CHECK(bl_find_mark("8.0-R", 0, 5, &mk) == 3); /* a release's dash */
	CHECK(bl_find_mark("a-b --", 0, 6, &mk) == 6); /* a word's and a rule's */
	CHECK(bl_find_mark("-", 0, 1, &mk) == 1); /* offset 0: no digit before */
}

/* bl_find_lit2_line: either needle before the line's end, every position,
 * length and newline place. */
static void test_lit2(void)
{
	char big[150];
	for (size_t at = 0; at + 4 <= sizeof big; at++)
		for (int which = 0; which < 4; which++) {
			memset(big, 'x', sizeof big);
			/* near misses: the ends right, the middle not */
			for (size_t k = 0; k + 4 < at; k += 9)
				memcpy(big + k, k % 2 ? "mxxy" : "MPTy", 4);
			memcpy(big + at, which == 1 ? "MPTY" : which == 2 ? "mPTY" : "mpty", 4);
			size_t nl =
				which == 3 ? at + 4 + (at % 40) : sizeof big; /* the line's end */
			if (nl < sizeof big)
				big[nl] = '\n';
			for (size_t n = at; n <= sizeof big; n += n < at + 45 ? 1 : 13) {
				size_t line = 12345;
				const char *got =
					bl_find_lit2_line(big, n, "mpty", "MPTY", 4, &line);
				CHECK(got == (which != 2 && n >= at + 4 ? big + at : NULL));
				if (!got)
					CHECK(line == (nl < n ? nl : n));
			}
			/* a newline before it hides it (the near misses hold none) */
			if (at > 0) {
				big[at - 1] = '\n';
				size_t line = 0;
				CHECK(bl_find_lit2_line(big, sizeof big, "mpty", "MPTY", 4,
							&line) == NULL &&
				      line == at - 1);
			}
		}
	size_t line;
	CHECK(bl_find_lit2_line("ab", 2, "ab", "cd", 2, &line) != NULL);
	CHECK(bl_find_lit2_line("a", 1, "ab", "cd", 2, &line) == NULL && line == 1);
	CHECK(bl_find_lit2_line("xcd", 3, "ab", "cd", 2, &line) != NULL);
	CHECK(bl_find_lit2_line("x\ncd", 4, "ab", "cd", 2, &line) == NULL && line == 1);
}

/* bl_str_append and bl_str_join3 cut as snprintf cuts */
static void test_str(void)
{
	static const char *const parts[] = {"",         "a",    "records_",  "in",
					    "_partial", "x\0y", "0123456789"};
	for (size_t cap = 1; cap < 24; cap++)
		for (size_t i = 0; i < 7; i++)
			for (size_t j = 0; j < 7; j++)
				for (size_t k = 0; k < 7; k++) {
					char want[32], got[32];
					memset(got, '#', sizeof got);
					snprintf(want, cap, "%s%s%s", parts[i], parts[j], parts[k]);
					size_t n = bl_str_join3(got, cap, parts[i], parts[j],
								parts[k]);
					CHECK(strcmp(want, got) == 0 && n == strlen(got) &&
					      got[cap] == '#');
				}
	char b[8];
	size_t n = bl_str_append(b, sizeof b, 0, "ab\0cd", 5);
	CHECK(n == 2 && strcmp(b, "ab") == 0);
	n = bl_str_append(b, sizeof b, n, "0123456789", 10);
	CHECK(n == 7 && strcmp(b, "ab01234") == 0);
}

int main(void)
{
	test_str();
	test_count();
	test_marks();
	test_lit2();
	/* a literal found by each of its bytes, wherever it sits */
	static const char *const needles[] = {"\nFrom ", "geli ",  "% cpu ", "+",
					      ", ",      "sec = ", "MPTY"};
	char text[200];
	for (size_t k = 0; k < sizeof needles / sizeof *needles; k++) {
		size_t nl = strlen(needles[k]);
		for (size_t at = 0; at + nl <= sizeof text; at += 7) {
			memset(text, 'x', sizeof text);
			memcpy(text + at, needles[k], nl);
			for (size_t rare = 0; rare < nl; rare++) {
				const char *got =
					bl_find_by(text, sizeof text, needles[k], nl, rare);
				CHECK(got == ref_find(text, sizeof text, needles[k], nl));
				/* the text cut before the literal ends: not found */
				CHECK(bl_find_by(text, at + nl - 1, needles[k], nl, rare) ==
				      ref_find(text, at + nl - 1, needles[k], nl));
			}
		}
	}
	/* bl_find_lit: every position, every cut, and 32-byte steps */
	static const char *const words[] = {"real",          "sys",    "geli ", "gmirror ",
					    "zpool create ", "/boot/", "ab"};
	char big[300];
	for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
		size_t nl = strlen(words[k]);
		for (size_t at = 0; at + nl <= sizeof big; at++) {
			memset(big, 'x', sizeof big);
			/* near misses before it: the ends right, the middle not */
			if (at >= nl + 1 && nl > 2) {
				memcpy(big + at - nl - 1, words[k], nl);
				big[at - nl] = '#';
			}
			memcpy(big + at, words[k], nl);
			for (size_t from = 0; from < 3; from++) {
				CHECK(bl_find_lit(big + from, sizeof big - from, words[k], nl) ==
				      ref_find(big + from, sizeof big - from, words[k], nl));
				CHECK(bl_find_lit(big + from,
						  at + nl - 1 - (from <= at + nl - 1 ? from : 0),
						  words[k], nl) ==
				      ref_find(big + from,
					       at + nl - 1 - (from <= at + nl - 1 ? from : 0),
					       words[k], nl));
			}
		}
	}
	/* bl_find_lit_digit: ", " with a digit after it, among ", " without */
	for (size_t at = 0; at + 3 <= sizeof big; at++) {
		memset(big, 'x', sizeof big);
		for (size_t k = 0; k + 2 < at; k += 5)
			memcpy(big + k, ", a", 3);
		memcpy(big + at, ", 7", 3);
		for (size_t from = 0; from < 3 && from <= at; from++) {
			CHECK(bl_find_lit_digit(big + from, sizeof big - from, ", ", 2) ==
			      big + at);
			/* the digit cut off: not found */
			CHECK(bl_find_lit_digit(big + from, at + 2 - from, ", ", 2) == NULL);
		}
	}
	CHECK(bl_find_lit_digit("+5", 2, "+", 1) != NULL);
	CHECK(bl_find_lit_digit("+", 1, "+", 1) == NULL);
	CHECK(bl_find_lit("abc", 3, "abcd", 4) == NULL);
	CHECK(bl_find_lit("abc", 3, "", 0) == NULL);
	CHECK(bl_find_lit("abc", 3, "c", 1) == ref_find("abc", 3, "c", 1));

	/* bl_find_line_start: a line start after a newline whose first byte
	 * is in the set; not the first line; every place */
	struct bl_byteset set;
	bl_byteset_init(&set, "0123456789 \t");
	static const char starts[] = "07 \t";
	for (size_t k = 0; k < 4; k++)
		for (size_t at = 1; at + 1 < sizeof big; at++) {
			memset(big, 'w', sizeof big);
			big[0] = '5'; /* the first line is not looked at */
			for (size_t j = 3; j + 1 < at; j += 9)
				memcpy(big + j, "\nx", 2); /* lines starting otherwise */
			big[at] = '\n';
			big[at + 1] = starts[k];
			for (size_t from = 0; from < 3 && from <= at; from++) {
				CHECK(bl_find_line_start(big + from, sizeof big - from, &set) ==
				      at + 1 - from);
				/* the newline last: no line after it */
				CHECK(bl_find_line_start(big + from, at + 1 - from, &set) ==
				      at + 1 - from);
			}
		}
	/* the set rewrap.c spells out is this one */
	static const struct bl_byteset spelled = {
		{0x0C, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x09, 0, 0, 0, 0, 0, 0}};
	CHECK(memcmp(&spelled, &set, sizeof set) == 0);
	CHECK(bl_find_line_start("", 0, &set) == 0);
	CHECK(bl_find_line_start("1\n", 2, &set) == 2);
	CHECK(bl_find_line_start("a\nb\n\n9", 6, &set) == 5);
	/* bytes past 0x7F are in no set; every ASCII byte is in its own */
	CHECK(bl_find_line_start("a\n\xc6\n\x86", 5, &set) == 5);
	for (unsigned c = 1; c < 0x80; c++) {
		char one[2] = {(char)c, 0}, t[40];
		struct bl_byteset only;
		bl_byteset_init(&only, one);
		memset(t, c == 'z' ? 'y' : 'z', sizeof t);
		t[33] = '\n';
		t[34] = (char)c;
		CHECK(bl_find_line_start(t, sizeof t, &only) == 34);
		t[34] = (char)(c == 'z' ? 'y' : 'z');
		CHECK(bl_find_line_start(t, sizeof t, &only) == sizeof t);
	}

	/* bl_count_byte: every length and start, and runs long enough to fill
	 * the counters of the vector steps many times */
	static char lines[40000];
	for (size_t i = 0; i < sizeof lines; i++)
		lines[i] = i % 3 == 0 || (i > 20000 && i < 30000) ? '\n' : 'a';
	for (size_t from = 0; from < 70; from++)
		for (size_t n = 0; n + from <= sizeof lines; n += n < 300 ? 1 : 997) {
			size_t want = 0;
			for (size_t i = 0; i < n; i++)
				want += lines[from + i] == '\n';
			CHECK(bl_count_byte(lines + from, n, '\n') == want);
		}

	/* ASCII spans past 64 bytes: a bad byte at each place */
	for (size_t bad = 0; bad < 200; bad++) {
		memset(big, 'q', sizeof big);
		big[bad] = bad % 2 ? (char)0x80 : 0;
		CHECK(bl_ascii_span(big, sizeof big) == bad);
		CHECK(bl_ascii_span(big, bad) == bad);
	}

	/* a near miss at every place the rare byte occurs */
	CHECK(bl_find_by("geligelxgeli geli ", 18, "geli ", 5, 0) ==
	      ref_find("geligelxgeli geli ", 18, "geli ", 5));
	CHECK(bl_find_by("abc", 3, "abcd", 4, 1) == NULL);
	CHECK(bl_find_by("abc", 3, "", 0, 0) == NULL);
	CHECK(bl_find_by("abc", 3, "bc", 2, 5) == NULL);

	/* digits and ASCII spans over random text, every start offset */
	char buf[300];
	unsigned seed = 7;
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < sizeof buf; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = (seed >> 16) & 0xff;
			/* mostly letters, a few digits, NULs and high bytes */
			buf[i] = (char)(r < 230   ? 'a' + r % 26
					: r < 240 ? '0' + r % 10
					: r < 245 ? 0
						  : r);
		}
		for (size_t from = 0; from < 40; from++) {
			size_t n = sizeof buf - from - (size_t)round % 17;
			CHECK(bl_find_digit(buf + from, n) == ref_digit(buf + from, n));
			CHECK(bl_ascii_span(buf + from, n) == ref_ascii(buf + from, n));
		}
	}
	CHECK(bl_find_digit("", 0) == NULL);
	CHECK(bl_ascii_span("", 0) == 0);
	CHECK(bl_ascii_span("abcdefghijklmnopqrstuvwxyz", 26) == 26);
	CHECK(bl_ascii_span("abcdefghijklmnop\x80", 17) == 16);
	CHECK(bl_ascii_span("abc\0def", 7) == 3);
	return CHECK_DONE();
}
