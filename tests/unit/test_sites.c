/* test_sites.c - the one pass over a text (bl_sites_find, parsers/anchor.h):
 * the unflattener's literals, the system reader's marks and the long-line
 * flag it gives on small texts, at the edges of its 32- and 64-byte steps, with
 * CRLF line ends, quoted "> " lines and a flattened post; the same from
 * the AVX2 pass and the portable one, and the marks bl_find_marks() finds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ingest/unflatten.h"
#include "../../parsers/anchor.h"
#include "../../parsers/benchlog.h"
#include "../../parsers/system.h"
#include "check.h"

/* The sites of s, found on a copy followed by BL_TEXT_PAD zero bytes (as
 * every message's text is). */
static struct bl_sites *sites_of(const char *s, size_t n)
{
	char *p = calloc(n + BL_TEXT_PAD, 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	struct bl_sites *st = bl_sites_find(bl_parser_sites(), p, n);
	free(p);
	return st;
}

/* The index of the unflattener's literal `lit`. */
static size_t literal(const char *lit)
{
	const struct bl_line_shape *sh;
	for (size_t g = 0; (sh = bl_shape_of_literal(bl_parser_ingest(), g, NULL)); g++)
		if (strcmp(sh->lit, lit) == 0)
			return g;
	return SIZE_MAX;
}

/* Whether the starts of literal `lit` are exactly want[0, n). */
static bool starts_are(const struct bl_sites *st, const char *lit, const size_t *want, size_t n)
{
	size_t g = literal(lit);
	if (!st || g == SIZE_MAX || st->literal[g].n != n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (st->literal[g].v[k] != want[k])
			return false;
	return true;
}

static bool mark_at(const struct bl_sites *st, size_t at)
{
	return st->sys[at / 64] >> (at % 64) & 1;
}

/* The marks as a list of offsets ("3 17 40"). */
static void marks_of(const struct bl_sites *st, char *out, size_t cap)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t at = 0; at < st->len && o + 12 < cap; at++)
		if (mark_at(st, at))
			o += (size_t)snprintf(out + o, cap - o, "%s%zu", o ? " " : "", at);
}

static bool marks_are(const char *s, const char *want)
{
	struct bl_sites *st = sites_of(s, strlen(s));
	char got[512];
	if (!st)
		return false;
	marks_of(st, got, sizeof got);
	bool ok = strcmp(got, want) == 0;
	if (!ok)
		printf("  marks of \"%s\": %s, want %s\n", s, got, want);
	bl_sites_free(st);
	return ok;
}

/* Both passes give the same sites, whose marks are bl_find_marks()'s. */
static bool passes_agree(const char *s, size_t n)
{
	char *p = calloc(n + BL_TEXT_PAD, 1);
	if (!p)
		return false;
	memcpy(p, s, n);
	struct bl_sites *a = bl_sites_find(bl_parser_sites(), p, n);
	bl_sites_set_portable(true);
	struct bl_sites *b = bl_sites_find(bl_parser_sites(), p, n);
	bl_sites_set_portable(false);
	bool ok = a && b && a->n == b->n && a->long_line == b->long_line && a->nsys == b->nsys &&
		  (!a->n || (memcmp(a->q, b->q, a->n * sizeof *a->q) == 0 &&
			     memcmp(a->needle, b->needle, a->n) == 0)) &&
		  (!a->nsys || memcmp(a->sys, b->sys, a->nsys * sizeof *a->sys) == 0);
	for (size_t g = 0; ok && g < BL_SITE_LITERALS_MAX; g++)
		ok = a->literal[g].n == b->literal[g].n &&
		     (!a->literal[g].n || memcmp(a->literal[g].v, b->literal[g].v,
						 a->literal[g].n * sizeof(size_t)) == 0);
	/* the marks, as the system reader found them before */
	uint64_t bits;
	for (size_t next = 0, base; ok && next < n;)
		for (base = bl_find_marks(p, next, n, &bl_system_marks, &bits, &next); ok && bits;
		     bits &= bits - 1)
			ok = mark_at(a, base + (size_t)__builtin_ctzll(bits));
	size_t count = 0, want = 0;
	for (size_t w = 0; a && w < a->nsys; w++)
		count += (size_t)__builtin_popcountll(a->sys[w]);
	for (size_t next = 0, base; ok && next < n;) {
		base = bl_find_marks(p, next, n, &bl_system_marks, &bits, &next);
		(void)base;
		want += (size_t)__builtin_popcountll(bits);
	}
	ok = ok && count == want;
	bl_sites_free(a);
	bl_sites_free(b);
	free(p);
	return ok;
}

/* Whether sites a and b are the same. */
static bool same_sites(const struct bl_sites *a, const struct bl_sites *b)
{
	bool ok = a && b && a->n == b->n && a->long_line == b->long_line && a->nsys == b->nsys &&
		  a->len == b->len &&
		  (!a->n || (memcmp(a->q, b->q, a->n * sizeof *a->q) == 0 &&
			     memcmp(a->needle, b->needle, a->n) == 0)) &&
		  (!a->nsys || memcmp(a->sys, b->sys, a->nsys * sizeof *a->sys) == 0);
	for (size_t g = 0; ok && g < BL_SITE_LITERALS_MAX; g++)
		ok = a->literal[g].n == b->literal[g].n &&
		     (!a->literal[g].n || memcmp(a->literal[g].v, b->literal[g].v,
						 a->literal[g].n * sizeof(size_t)) == 0);
	return ok;
}

/* The sites of s updated for the blanks at at[0, n) turned into newlines
 * are those found on the text so changed. */
static bool update_agrees(const char *s, size_t len, const size_t *at, size_t n)
{
	char *p = calloc(len + BL_TEXT_PAD, 1);
	if (!p)
		return false;
	memcpy(p, s, len);
	struct bl_sites *st = bl_sites_find(bl_parser_sites(), p, len);
	for (size_t k = 0; k < n; k++)
		p[at[k]] = '\n';
	bool ok = st && bl_sites_update(bl_parser_sites(), st, p, len, at, n);
	struct bl_sites *fresh = bl_sites_find(bl_parser_sites(), p, len);
	ok = ok && same_sites(st, fresh);
	bl_sites_free(st);
	bl_sites_free(fresh);
	free(p);
	return ok;
}

static unsigned rnd(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

/* Flattened tool output and prose with some of their blanks made line
 * breaks, as the unflattener does: the finds next to a break (a needle
 * that takes a blank, a then-check over a run of blanks, a line start
 * mark after it) come and go. */
static void updates(void)
{
	static const char *const pieces[] = {
		"200+0 records in",
		"200+0 records out",
		"209715200 bytes transferred in 6.15 secs (34053769 bytes/sec)",
		"real",
		"real    0m1.5s",
		"0m18.40s real     0m00.00s user",
		"user\t0m0.1s",
		"sys 0.5",
		"  ",
		"   \t ",
		"ada0  512  500107862016",
		"# dd if=/dev/zero of=x",
		"FreeBSD 8.0-RELEASE #0:",
		"NAME STATE READ WRITE CKSUM",
		"pool  alloc  free  read  write",
		"capacity     operations    bandwidth",
		"67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s",
		"933232640 bytes (933 MB, 890 MiB) copied, 1 s, 933 MB/s\r2571108352 bytes",
		"\r(2.6 GB, 2.4 GiB) copied, 2 s, 1.3 GB/s\r",
		"0.029u 6.422s 1:07.25 9.5% 26+1531k 0+0io 0pf+0w",
		"Seek times:",
		"Full stroke:\t  250 iter in   5.759155 sec =   23.037 msec",
		"vm.kmem_size=768M",
		"-Sequential Output",
		"1.96,1.96,host,1,1,2G",
		"some words of prose,",
		"really",
		"x",
	};
	unsigned seed = 7;
	for (int round = 0; round < 300; round++) {
		char s[1200];
		size_t len = 0;
		while (len < 900) {
			const char *p = pieces[rnd(&seed) % (sizeof pieces / sizeof *pieces)];
			size_t pl = strlen(p);
			memcpy(s + len, p, pl);
			len += pl;
			unsigned sep = rnd(&seed) % 14;
			s[len++] = sep < 11 ? ' ' : sep == 11 ? '\t' : sep == 12 ? '\n' : '\r';
		}
		/* blanks made breaks, and the '\r's of a progress display
		 * wrapped at them (unflatten.c) */
		size_t at[200], n = 0;
		for (size_t i = 0; i < len && n < 200; i++)
			if ((s[i] == ' ' || s[i] == '\t' || s[i] == '\r') && rnd(&seed) % 5 == 0)
				at[n++] = i;
		CHECK(update_agrees(s, len, at, n));
		CHECK(update_agrees(s, len, at, n ? 1 : 0));
		CHECK(update_agrees(s, len, n ? at + n - 1 : at, n ? 1 : 0));
	}
	/* a blank the last byte, and the first */
	CHECK(update_agrees(" real 0m1.5s ", 13, (size_t[]){0, 12}, 2));
	/* a run of blanks between "real" and its digit, broken in its middle */
	CHECK(update_agrees("real          0m1.5s", 21, (size_t[]){9}, 1));
	/* and a run longer than any needle, broken near its end: the find
	 * of "real" before it goes */
	char run[100];
	memset(run, ' ', sizeof run);
	memcpy(run, "real", 4);
	memcpy(run + 90, "0m1.5s", 6);
	CHECK(update_agrees(run, 96, (size_t[]){85}, 1));
	CHECK(update_agrees(run, 96, (size_t[]){4}, 1));
}

static void literals(void)
{
	/* dd's records, BSD dd's summary, a '+' that is not dd's */
	const char *dd =
		"x 2+0 records in\n2+0 records out\n1 bytes transferred in 1 secs (1 bytes/sec)\n+++++ +++\n";
	struct bl_sites *st = sites_of(dd, strlen(dd));
	CHECK(starts_are(st, "+", (size_t[]){3, 18}, 2));
	CHECK(starts_are(st, "bytes/sec)", (size_t[]){66}, 1));
	CHECK(st && !st->long_line);
	bl_sites_free(st);
	/* "real" before blanks and a digit only, not "really" */
	const char *t = "really nice\nreal\t0m1.597s\nuser 0m0.001s\nsys 0.5\nsystem\n";
	st = sites_of(t, strlen(t));
	CHECK(starts_are(st, "real", (size_t[]){12}, 1));
	CHECK(starts_are(st, "user", (size_t[]){26}, 1));
	CHECK(starts_are(st, "sys", (size_t[]){40}, 1));
	bl_sites_free(st);
	/* GNU dd's ", " before a digit */
	const char *g = "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s\nso, then\n";
	st = sites_of(g, strlen(g));
	CHECK(starts_are(st, ", ", (size_t[]){21, 37, 50}, 3));
	CHECK(starts_are(st, ") copied", (size_t[]){29}, 1));
	bl_sites_free(st);
}

/* A literal and marks across the edges of the passes' steps. */
static void edges(void)
{
	char s[200];
	memset(s, 'a', sizeof s);
	/* "bytes/sec)" from 20 to 30, "+" and its digit at 63 and 64 */
	memcpy(s + 20, "bytes/sec)", 10);
	memcpy(s + 63, "+1", 2);
	/* ':' at 31 and 32, a newline at 95 and a line starting "FreeBSD" at 96 */
	s[31] = ':';
	s[32] = ':';
	s[95] = '\n';
	memcpy(s + 96, "FreeBSD", 7);
	/* the last byte a mark: '=' at 127 */
	s[127] = '=';
	struct bl_sites *st = sites_of(s, 128);
	CHECK(starts_are(st, "bytes/sec)", (size_t[]){20}, 1));
	CHECK(starts_are(st, "+", (size_t[]){63}, 1));
	CHECK(st && mark_at(st, 31) && mark_at(st, 32) && mark_at(st, 96) && mark_at(st, 127));
	CHECK(st && !mark_at(st, 30) && !mark_at(st, 33) && !mark_at(st, 97));
	/* '/' of "bytes/sec)" counts anywhere */
	CHECK(st && mark_at(st, 25) && !mark_at(st, 24));
	bl_sites_free(st);
	/* a literal cut by the end of the text is none */
	st = sites_of(s, 29);
	CHECK(starts_are(st, "bytes/sec)", NULL, 0));
	bl_sites_free(st);
	/* nor a '+' whose digit is past the end */
	st = sites_of(s, 64);
	CHECK(starts_are(st, "+", NULL, 0));
	bl_sites_free(st);
	for (size_t n = 0; n <= sizeof s; n++)
		CHECK(passes_agree(s, n));

	/* across the AVX2 pass's 64-byte steps: a literal over the edge at
	 * 64, a line start right after it at 128, the last byte of a step
	 * and the first of the next one marks, a line of BL_UNFLATTEN_MIN
	 * bytes that ends in the third step */
	char l[400];
	memset(l, 'a', sizeof l);
	memcpy(l + 58, "bytes/sec)", 10);
	l[127] = '\n';
	memcpy(l + 128, "FreeBSD", 7);
	l[191] = ':';
	l[192] = '=';
	st = sites_of(l, sizeof l);
	CHECK(starts_are(st, "bytes/sec)", (size_t[]){58}, 1));
	CHECK(st && mark_at(st, 128) && mark_at(st, 191) && mark_at(st, 192) && !mark_at(st, 127));
	CHECK(st && st->long_line); /* 272 bytes from 128 on */
	bl_sites_free(st);
	l[128 + BL_UNFLATTEN_MIN - 1] = '\n';
	st = sites_of(l, 128 + BL_UNFLATTEN_MIN); /* lines of 127 and 249 bytes */
	CHECK(st && !st->long_line);
	bl_sites_free(st);
	for (size_t n = 0; n <= sizeof l; n++)
		CHECK(passes_agree(l, n));

	/* a release's '-' counts after a digit, the one before it in the
	 * step before (63, 64) or in the same (130, 131); a word's and a
	 * rule's dashes do not */
	memset(l, 'a', sizeof l);
	memcpy(l + 60, "13.2-RELEASE", 12);
	memcpy(l + 127, "8-STABLE", 8);
	memcpy(l + 200, "well-known ------", 17);
	st = sites_of(l, sizeof l);
	CHECK(st && mark_at(st, 64) && mark_at(st, 128));
	for (size_t i = 200; i < 217; i++)
		CHECK(st && !mark_at(st, i));
	bl_sites_free(st);
	for (size_t n = 0; n <= sizeof l; n++)
		CHECK(passes_agree(l, n));
}

static void line_ends(void)
{
	/* CRLF: the line after "\r\n" starts after its '\n'; the release's
	 * '-' and the '#' count anywhere */
	CHECK(marks_are("Proc: x\r\nFreeBSD 8.0-RELEASE #0\r\nso\r\n", "4 9 20 29"));
	const char *crlf = "real 0m1.5s\r\n2+0 records in\r\n";
	struct bl_sites *st = sites_of(crlf, strlen(crlf));
	CHECK(starts_are(st, "real", (size_t[]){0}, 1));
	CHECK(starts_are(st, "+", (size_t[]){14}, 1));
	bl_sites_free(st);
	/* quoted lines: the '>' is a mark of its own, the tool lines are found
	 * after it */
	const char *q = "> 200+0 records in\n>> real 0m1.2s\n> gmirror list\n";
	CHECK(marks_are(q, "0 19 20 34"));
	st = sites_of(q, strlen(q));
	CHECK(starts_are(st, "+", (size_t[]){5}, 1));
	CHECK(starts_are(st, "real", (size_t[]){22}, 1));
	bl_sites_free(st);
	/* offset 0 is no line start: "FreeBSD" there is not marked (the
	 * system reader looks at it on its own), an indented line is */
	CHECK(marks_are("FreeBSD x\n  NAME\nNAME\nzpool\ngeli\n", "10 17 22 28"));
}

static void long_lines(void)
{
	char s[700];
	for (size_t n = 240; n <= 260; n++) {
		/* a line of n bytes between short ones, and at the end without a
		 * newline */
		memset(s, 'w', sizeof s);
		memcpy(s, "short\n", 6);
		s[6 + n] = '\n';
		memcpy(s + 7 + n, "end\n", 4);
		struct bl_sites *st = sites_of(s, 11 + n);
		CHECK(st && st->long_line == (n >= BL_UNFLATTEN_MIN));
		bl_sites_free(st);
		st = sites_of(s, 6 + n);
		CHECK(st && st->long_line == (n >= BL_UNFLATTEN_MIN));
		bl_sites_free(st);
	}
	/* a flattened post: its tool lines' literals, and its one line long */
	const char *flat =
		"Some prose that goes on for a while. Then: # dd if=/dev/zero of=/x bs=1m "
		"count=2 2+0 records in 2+0 records out 2097152 bytes transferred in 0.5 secs "
		"(4194304 bytes/sec) and more text after it, long enough to make this a flattened "
		"line of more than two hundred and fifty characters in all.";
	struct bl_sites *st = sites_of(flat, strlen(flat));
	CHECK(st && st->long_line);
	CHECK(starts_are(st, "+", (size_t[]){82, 97}, 2));
	CHECK(starts_are(st, "bytes/sec)", (size_t[]){159}, 1));
	CHECK(st && mark_at(st, 41) && mark_at(st, 43)); /* "Then:", the prompt's '#' */
	bl_sites_free(st);
	CHECK(passes_agree(flat, strlen(flat)));
}

/* The needle finds: in order, each one its needle at its start. */
/* Whether some needle was found where the pass tested position q. */
static bool find_at(const struct bl_sites *st, size_t q)
{
	for (size_t k = 0; k < st->n; k++)
		if (st->q[k] == q)
			return true;
	return false;
}

static void finds(void)
{
	const char *t =
		"  64+0 records in\n  64+0 records out\n        7.42 real         0.00 user\n"
		"pool        alloc   free   read  write   read  write\n";
	struct bl_sites *st = sites_of(t, strlen(t));
	CHECK(st && st->n >= 4);
	for (size_t k = 0; st && k < st->n; k++)
		CHECK(k == 0 || st->q[k] >= st->q[k - 1]);
	bl_sites_free(st);
	CHECK(passes_agree(t, strlen(t)));
	/* what a needle's branch requires before it: zpool's "write" after
	 * "read" and blanks, bonnie++'s ".96," after a 1 or 2 */
	const char *prose = "I read, then write it; version 7.96, not 1.96,1.96 yet\n";
	st = sites_of(prose, strlen(prose));
	CHECK(st && !find_at(st, (size_t)(strstr(prose, "write") - prose)));
	CHECK(st && !find_at(st, (size_t)(strstr(prose, "7.96") + 1 - prose)));
	CHECK(st && find_at(st, (size_t)(strstr(prose, "1.96,1") + 1 - prose)));
	bl_sites_free(st);
	const char *head = "vdev  used  avail  read\twrite\n";
	st = sites_of(head, strlen(head));
	CHECK(st && find_at(st, (size_t)(strstr(head, "write") - head)));
	bl_sites_free(st);
	CHECK(passes_agree(prose, strlen(prose)) && passes_agree(head, strlen(head)));
}

/* Random mixes of tool lines, marks and prose: both passes agree. */
static void random_texts(void)
{
	static const char *const parts[] = {
		"2+0 records in",
		"real\t0m1.5s",
		"bytes/sec)",
		", 1",
		"+1",
		"FreeBSD 8.0-RELEASE",
		"\n",
		"\r\n",
		"> ",
		":",
		"=",
		"/",
		"-R",
		"# ",
		"  ",
		"\t",
		"512 ",
		"write",
		"user 1",
		"sec = ",
		"% cpu",
		"\xEF\xBC\x9A",
		"NAME",
		"geli ",
		"zpool create ",
		"and so on ",
		"the disk was slow ",
		"Iozone: Performance Test of File I/O",
		"1024",
		"\"Writer report",
	};
	unsigned seed = 17;
	char s[3000];
	for (int round = 0; round < 300; round++) {
		size_t n = 0;
		while (n < sizeof s - 64) {
			seed = seed * 1103515245 + 12345;
			const char *p = parts[(seed >> 16) % (sizeof parts / sizeof parts[0])];
			size_t l = strlen(p);
			memcpy(s + n, p, l);
			n += l;
			if ((seed >> 8) % 97 == 0)
				break;
		}
		CHECK(passes_agree(s, n));
	}
}

int main(void)
{
	updates();
	literals();
	edges();
	line_ends();
	long_lines();
	finds();
	random_texts();
	return CHECK_DONE();
}
