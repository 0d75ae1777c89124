/* test_pieces.c - an mbox cut into pieces (bl_mbox_cuts) and each piece
 * read on its own (bl_ingest_mbox_piece) gives the messages of a whole
 * reading: the same bytes, offsets, lines, indexes and decoded text, none
 * lost and none twice, wherever the targets fall and however the reads
 * are sized. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ingest/ingest.h"
#include "../../parsers/parser.h"
#include "../feed.h"
#include "check.h"
#include "text.h"

/* ------------------------------------------------------- the archive */

/* Messages of every shape the framing meets: a preamble before the first
 * separator, CRLF lines, a body line "From here ..." (no separator: no
 * time of day), a quoted ">From " line, empty bodies, one long message. */
static struct text archive(unsigned seed)
{
	struct text t = {0};
	put(&t, "stray bytes before the first separator\n\n");
	for (unsigned i = 0; i < 300; i++) {
		unsigned r = (seed + i * 2654435761u) >> 7;
		char line[200];
		snprintf(line, sizeof line,
			 "From user%u@example.org Mon Nov 30 %02u:%02u:07 2026%s\n", i, r % 24,
			 i % 60, r % 5 == 0 ? "\r" : "");
		put(&t, line);
		snprintf(line, sizeof line,
			 "Subject: numbers %u\nMessage-ID: <m%u@example.org>\n\n", i, i);
		put(&t, line);
		switch (r % 6) {
		case 0: put(&t, ""); break;
		case 1:
			put(&t,
			    "From here on the numbers are mine:\n"
			    "2000+0 records in\n2000+0 records out\n"
			    "2097152000 bytes transferred in 92.451346 secs (22683845 bytes/sec)\n");
			break;
		case 2:
			put(&t, ">From bob@example.org Mon Jan 11 11:30:00 2010\nquoted above\n");
			break;
		case 3:
			for (unsigned k = 0; k < 400; k++)
				put(&t, "a long message with many lines of prose in it\n");
			break;
		case 4:
			put(&t, "no trailing line break");
			put(&t, "\n");
			break;
		default: put(&t, "real\t0m1.020s\nuser\t0m0.100s\nsys\t0m0.900s\n\n"); break;
		}
	}
	return t;
}

/* ------------------------------------------------------- the readings */

struct msg {
	size_t index, offset, line, raw_len, len;
	uint64_t hash; /* of the decoded text */
};

struct msgs {
	struct msg *m;
	size_t n, cap;
};

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static int collect(struct bl_message *m, void *ctx)
{
	struct msgs *ms = ctx;
	if (ms->n == ms->cap) {
		ms->cap = ms->cap ? 2 * ms->cap : 64;
		ms->m = realloc(ms->m, ms->cap * sizeof *ms->m);
	}
	ms->m[ms->n++] = (struct msg){m->index,   m->raw_offset, m->raw_line,
				      m->raw_len, m->len,        fnv(m->text, m->len)};
	return 0;
}

static bool same(const struct msg *a, const struct msg *b)
{
	return a->index == b->index && a->offset == b->offset && a->line == b->line &&
	       a->raw_len == b->raw_len && a->len == b->len && a->hash == b->hash;
}

/* Cuts t at the n targets, reads every piece, and compares with whole. */
static void check_pieces(const struct text *t, const struct msgs *whole, const size_t *targets,
			 size_t n, size_t step)
{
	struct bl_mbox_cut cuts[16];
	struct feed f = {t->s, t->n, 0, step, 9973};
	CHECK(bl_mbox_cuts(feed_read, &f, &bl_mbox_start, targets, n, cuts) == 0);
	/* each cut is the first message at or after its target */
	for (size_t k = 0; k < n; k++) {
		size_t i = 0;
		while (i < whole->n && whole->m[i].offset < targets[k])
			i++;
		if (i == whole->n) {
			CHECK(cuts[k].offset == t->n);
			continue;
		}
		CHECK(cuts[k].offset == whole->m[i].offset && cuts[k].line == whole->m[i].line &&
		      cuts[k].index == whole->m[i].index);
	}
	/* found one at a time, each from the one before (--jobs finds the
	 * next while the pieces before it are read): the same cuts */
	struct bl_mbox_cut from = bl_mbox_start;
	for (size_t k = 0; k < n; k++) {
		struct bl_mbox_cut c;
		struct feed g = {t->s + from.offset, t->n - from.offset, 0, step + k, 9973};
		CHECK(bl_mbox_cuts(feed_read, &g, &from, &targets[k], 1, &c) == 0);
		CHECK(c.offset == cuts[k].offset && c.line == cuts[k].line &&
		      c.index == cuts[k].index);
		if (c.offset < t->n)
			from = c;
	}
	/* the pieces, as a parallel run reads them: each from its start on,
	 * ending by itself at its target (an empty one, whose start is at or
	 * past it, gives nothing) */
	struct msgs parts = {0};
	struct bl_mbox_cut at = bl_mbox_start;
	for (size_t k = 0; k <= n; k++) {
		size_t until = k < n ? targets[k] : SIZE_MAX;
		struct feed p = {t->s + at.offset, t->n - at.offset, 0, step + k, 9973};
		CHECK(bl_ingest_mbox_piece(bl_parser_ingest(), feed_read, &p, &at, until, collect,
					   &parts) == 0);
		if (k < n)
			at = cuts[k];
	}
	bool all = parts.n == whole->n;
	for (size_t i = 0; all && i < parts.n; i++)
		all = same(&parts.m[i], &whole->m[i]);
	CHECK(all);
	if (!all)
		printf("  %zu targets from %zu: %zu messages in pieces, %zu whole\n", n, targets[0],
		       parts.n, whole->n);
	free(parts.m);
}

int main(void)
{
	for (unsigned seed = 1; seed <= 3; seed++) {
		struct text t = archive(seed);
		struct msgs whole = {0};
		struct feed f = {t.s, t.n, 0, 4096, 9973};
		CHECK(bl_ingest_stream(bl_parser_ingest(), feed_read, &f, BL_INPUT_MBOX, collect,
				       &whole) == 0);
		CHECK(whole.n == 301); /* the preamble, then 300 messages */
		/* targets anywhere: at a separator, inside a line, at the end */
		for (size_t n = 1; n <= 8; n++) {
			for (size_t step = 1; step < 5000; step += 1237) {
				size_t targets[16];
				for (size_t k = 0; k < n; k++)
					targets[k] = t.n / (n + 1) * (k + 1) + step % 97;
				check_pieces(&t, &whole, targets, n, step);
			}
		}
		/* every separator as a target, and the byte after it */
		for (size_t i = 1; i < whole.n; i += 7) {
			size_t targets[2] = {whole.m[i].offset, whole.m[i].offset + 1};
			check_pieces(&t, &whole, targets, 2, 100 + i);
		}
		/* past the end: no piece after the last message */
		size_t beyond[2] = {t.n - 1, t.n + 10};
		check_pieces(&t, &whole, beyond, 2, 999);
		free(whole.m);
		free(t.s);
	}
	/* an empty input: no cut, one empty message read whole */
	struct bl_mbox_cut c;
	size_t target = 0;
	struct feed e = {"", 0, 0, 1, 0};
	CHECK(bl_mbox_cuts(feed_read, &e, &bl_mbox_start, &target, 1, &c) == 0 && c.offset == 0);
	return CHECK_DONE();
}
