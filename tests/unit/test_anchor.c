/* test_anchor.c - anchors reduced to needles, and the needle scan finds
 * exactly what the plain alternation finds, on the corpus, the seed posts
 * and random mixes of block lines and prose. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/anchor.h"
#include "../../parsers/benchlog.h"
#include "check.h"

/* A needle as text: digits as \d. */
static void show(const struct bl_needle *n, char *buf, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < n->ntok && o + 3 < cap; i++) {
		if (n->tok[i] == BL_NEEDLE_DIGIT) {
			buf[o++] = '\\';
			buf[o++] = 'd';
		} else {
			buf[o++] = (char)n->tok[i];
		}
	}
	buf[o] = '\0';
}

static bool needles_are(const char *anchor, const char *const *want)
{
	struct bl_needle n[16];
	int k = bl_pattern_needles(anchor, n, 16);
	int w = 0;
	while (want[w])
		w++;
	if (k != w) {
		printf("  %s: %d needles, want %d\n", anchor, k, w);
		return false;
	}
	for (int i = 0; i < k; i++) {
		char buf[128];
		show(&n[i], buf, sizeof buf);
		if (strcmp(buf, want[i]) != 0) {
			printf("  %s: needle %d is '%s', want '%s'\n", anchor, i, buf, want[i]);
			return false;
		}
	}
	return true;
}

/* Every hit offered in order, as the scanner would if no parser claimed. */
static size_t hits(struct bl_message *m, size_t *out, size_t max)
{
	struct bl_anchor_scan *s = bl_anchor_scan_new(m);
	if (!s)
		return (size_t)-1;
	size_t n = 0, pos = 0;
	struct bl_anchor_hit h;
	while (pos <= m->len && bl_anchor_next(s, pos, &h)) {
		if (n + 3 <= max) {
			out[n++] = h.start;
			out[n++] = h.end;
			out[n++] = h.parser;
		}
		pos = h.end > h.start ? h.end : h.start + 1;
		while (pos < m->len && ((unsigned char)m->text[pos] & 0xC0) == 0x80)
			pos++;
	}
	bl_anchor_scan_free(s);
	return n;
}

#define MAXH 30000
static size_t ha[MAXH], hb[MAXH];

/* The same hits and the same document with and without the prefilter. */
static bool same(const char *text, size_t len, const char *what)
{
	struct bl_message m;
	if (bl_message_from_text(&m, text, len, 0, 1) < 0)
		return false;
	bl_anchor_set_prefilter(true);
	size_t na = hits(&m, ha, MAXH);
	json_t *da = bl_parse_message(&m, "x");
	bl_anchor_set_prefilter(false);
	size_t nb = hits(&m, hb, MAXH);
	json_t *db = bl_parse_message(&m, "x");
	bl_anchor_set_prefilter(true);
	bool ok = na == nb && memcmp(ha, hb, na * sizeof ha[0]) == 0 && da && db &&
		  json_equal(da, db);
	if (!ok) {
		printf("  %s: prefilter %zu hit fields, plain %zu\n", what, na, nb);
		for (size_t i = 0; i < na || i < nb; i += 3) {
			size_t at = i < nb ? hb[i] : ha[i];
			if (i < na && i < nb && ha[i] == hb[i] && ha[i + 1] == hb[i + 1])
				continue;
			size_t a = at > 30 ? at - 30 : 0;
			printf("  first difference near %zu: prefilter %zu, plain %zu: \"%.60s\"\n",
			       at, i < na ? ha[i] : 0, i < nb ? hb[i] : 0, text + a);
			break;
		}
	}
	json_decref(da);
	json_decref(db);
	bl_message_free(&m);
	return ok;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Pieces of block lines and prose that come close to the anchors. */
static const char *const pieces[] = {
	"2000+0 records in\n",
	"2000+0 records out\n",
	"1+0 records in\n",
	"2097152000 bytes transferred in 92.451346 secs (22683845 bytes/sec)\n",
	"67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s\n",
	"512 bytes copied, 9.5351e-05 s, 5.4 MB/s\n",
	"0.068u 10.386s 1:32.46 11.2% 26+1497k 63+16066io 0pf+0w\n",
	"real\t0m1.597s\n",
	"user\t0m0.001s\n",
	"sys\t0m10.720s\n",
	"real 1.23\n",
	"        1.23 real         0.00 user         0.01 sys\n",
	"dd if=/dev/zero of=x  0.00s user 0.21s system 95% cpu 0.220 total\n",
	"0.00user 0.00system 0:00.00elapsed 100%CPU (0avgtext+0avgdata 1920maxresident)k\n",
	"\tCommand being timed: \"dd if=/dev/zero of=x\"\n",
	"srebrny# time dd if=/dev/zero of=/data02/test01 bs=1m count=2000\n",
	"It is really real, 3 disks in a mirror; real numbers, 10 of them.\n",
	"We got 5+ MB/s, which is 2% cpu at best; you know 4u 5s.\n",
	"\n",
	"*** (mirror hdd) zfs:\n",
	"  ",
	"\t",
	"\xc3\xa9t\xc3\xa9 r\xc3\xa9"
	"el\n",
	/* what the then-checks and the line starts turn down, and what not */
	"ada0\t512\t500107862016\t976773168\t0\t0\t969021\t16\t63\n",
	"ada1    512     500107862016    976773168\n",
	"da1 512 9\n",
	"da1 512  x\n",
	"we read the 512 numbers, 512\n",
	" 512\t\t7\n",
	"sda 512\n",
	"/dev/da2 4096 \t 12\n",
	"pool        alloc   free   read  write   read  write\n",
	"  vdev  used  avail  read  write\n",
	"we write and read\n",
	"   write\n",
	"p write\n",
	"\tpool alloc free read write\n",
	"vdev alloc free read write\n",
	"  67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s\n",
	"Copied 5 bytes, 3 s, 4 MB/s, \n",
	"7 x, 3 s, 4 z, \n",
	"  real 5\n",
	"real  \t 0m1s\n",
	"reality 5\n",
	"real x\n",
	"really, 5\n",
	"real\n",
};

int main(void)
{
	/* the needles of today's anchors */
	const char *dd[] = {
		"\\d+\\d", "bytes transferred in ", ") transferred \\d", ", \\d", ", \\d", NULL};
	CHECK(needles_are(bl_parser_find("dd")->anchor, dd));
	const char *tm[] = {"\\du \\d",
			    "real",
			    "\\d real",
			    "\\ds real",
			    "\\dsystem \\d",
			    "\\d% cpu",
			    "Command being timed:",
			    NULL};
	CHECK(needles_are(bl_parser_find("time")->anchor, tm));
	const char *q[] = {"a+b", "b", NULL};
	CHECK(needles_are("a\\+b|x?b", q));
	const char *r[] = {"-Sequential Output-", "Seek times:", NULL};
	CHECK(needles_are("-+Sequential Output-+|^Seek times:", r));
	const char *cls[] = {"abc", NULL};
	CHECK(needles_are("[xy]z*abc(?:d|e)f?", cls));
	/* where the branch goes on after the needle: its then-check */
	struct bl_needle nd[4];
	const char *after = "^[ \\t]*x[ \\t]+512[ \\t]+\\d";
	CHECK(bl_pattern_needles(after, nd, 4) == 1 && nd[0].after_at != SIZE_MAX &&
	      strcmp(after + nd[0].branch_off + nd[0].after_at, "[ \\t]+\\d") == 0);
	const char *two = "foo|xqb+a";
	CHECK(bl_pattern_needles(two, nd, 4) == 2 && nd[0].after_at == 3 &&
	      nd[1].after_at == SIZE_MAX); /* "xqb": its b repeats */
	/* what the reduction must refuse: the regex then runs alone */
	struct bl_needle n[4];
	CHECK(bl_pattern_needles("(?i)records in", n, 4) == -1);
	CHECK(bl_pattern_needles("\\x41BC", n, 4) == -1);
	CHECK(bl_pattern_needles("\\d+|foo", n, 4) == -1);
	CHECK(bl_pattern_needles("foo|", n, 4) == -1);
	CHECK(bl_pattern_needles("(*MARK:x)foo", n, 4) == -1);
	CHECK(bl_pattern_needles("a{2,", n, 4) == -1);

	/* the corpus and the seeds */
	const char *files[] = {
		"corpus/dd/seed000-geli-mirror-csh-time/input",
		"corpus/dd/seed001-raidz-captions/input",
		"corpus/dd/seed004-ufs-zfs-repeats/input",
		"../shared/seeds/000_685ae968180fe8cf.txt",
		"../shared/seeds/001_be41c488cab8d385.txt",
		"../shared/seeds/002_50d0b089762c6fc0.txt",
		"../shared/seeds/003_d289a051de81852b.txt",
		"../shared/seeds/004_91afe6cf66ff7535.txt",
		"../shared/samples/gnu-dd.txt",
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		size_t len;
		char *t = slurp(files[i], &len);
		if (!t)
			continue; /* ../shared is not everywhere */
		CHECK(same(t, len, files[i]));
		free(t);
	}

	/* random mixes */
	unsigned seed = 12345;
	char *buf = malloc(1 << 16);
	if (!buf)
		return CHECK_DONE();
	for (int round = 0; round < 300; round++) {
		size_t o = 0;
		for (int k = 0; k < 60; k++) {
			seed = seed * 1103515245u + 12345u;
			const char *p = pieces[(seed >> 8) % (sizeof pieces / sizeof pieces[0])];
			size_t l = strlen(p);
			/* sometimes a piece loses its newline or its head */
			if ((seed >> 20) % 7 == 0 && l > 1)
				l--;
			size_t skip = (seed >> 24) % 11 == 0 ? (seed >> 4) % l : 0;
			while (skip < l && ((unsigned char)p[skip] & 0xC0) == 0x80)
				skip++;
			memcpy(buf + o, p + skip, l - skip);
			o += l - skip;
		}
		char what[32];
		snprintf(what, sizeof what, "mix %d", round);
		CHECK(same(buf, o, what));
	}
	free(buf);
	bl_cleanup();
	return CHECK_DONE();
}
