/* test_lines.c - bl_line_at / next / prev: ordinary lines, "\r\n", long
 * lines handed out in pieces of at most BL_LINE_MAX bytes at character
 * starts, the same pieces whichever way they are reached, and the lines of
 * a block read without their prefix. */
#include <stdlib.h>
#include <string.h>

#include "../../base/message.h"
#include "check.h"

/* Walks forward from 0 and checks that the lines tile the text, that each
 * is short and starts on a character, and that bl_line_at and bl_line_prev
 * give back the same pieces. Returns the number of lines. */
static size_t walk(struct bl_message *m)
{
	struct bl_line cur, nx, back;
	size_t n = 1, pos = 0;
	bl_line_at(m, 0, &cur);
	for (;;) {
		CHECK(cur.off == pos);
		CHECK(cur.len <= BL_LINE_MAX + 3);
		CHECK(cur.off == m->len || ((unsigned char)m->text[cur.off] & 0xC0) != 0x80);
		CHECK(cur.next > cur.off || cur.next == m->len);
		/* every offset inside the piece leads back to it */
		size_t probes[3] = {cur.off, cur.off + cur.len / 2,
				    cur.next > cur.off ? cur.next - 1 : cur.off};
		for (int i = 0; i < 3; i++) {
			bl_line_at(m, probes[i], &back);
			CHECK(back.off == cur.off && back.len == cur.len && back.next == cur.next);
		}
		if (!bl_line_next(m, &cur, &nx))
			break;
		CHECK(bl_line_prev(m, &nx, &back));
		CHECK(back.off == cur.off && back.next == cur.next);
		pos = cur.next;
		cur = nx;
		n++;
		if (n > m->len + 2)
			break; /* no progress: the checks above have failed */
	}
	CHECK(cur.next == m->len);
	return n;
}

static void text_message(struct bl_message *m, const char *s, size_t len)
{
	CHECK(bl_message_from_text(m, s, len, 0, 1) == 0);
}

/* A block whose lines begin with "node1: " (after blanks, or not at all on
 * a line wrapped) is read without it; the lines around it are whole. */
static void prefix_block(void)
{
	const char *t = "above\n"
			"node1: \tChildren see throughput\n"
			"\t=  302980.50 kB/sec\n"
			" node1: \tParent sees throughput\n"
			"node2: \tChildren see throughput\n";
	struct bl_message m;
	struct bl_line l, nx, back;
	text_message(&m, t, strlen(t));
	size_t from = 6, to = (size_t)(strstr(t, "node2") - t);
	CHECK(bl_message_prefix_add(&m, from, to, from, 7));
	CHECK(!bl_message_prefix_add(&m, from, to, from, 7)); /* out of order */
	bl_line_at(&m, from + 2, &l);
	CHECK(l.cut == 7 && l.off == from + 7 && l.len == strlen("\tChildren see throughput"));
	CHECK(bl_line_prev(&m, &l, &back) && back.off == 0 && back.len == 5 && !back.cut);
	CHECK(bl_line_next(&m, &l, &nx) && !nx.cut && nx.s[0] == '\t' && nx.s[1] == '=');
	CHECK(bl_line_next(&m, &nx, &l) && l.cut == 8 && memcmp(l.s, "\tParent", 7) == 0);
	CHECK(bl_line_prev(&m, &l, &back) && back.off == nx.off);
	CHECK(bl_line_next(&m, &l, &nx) && !nx.cut && memcmp(nx.s, "node2", 5) == 0);
	/* a scan of the message again starts without it */
	bl_message_prefix_drop(&m);
	bl_line_at(&m, from, &l);
	CHECK(!l.cut && l.off == from);
	bl_message_free(&m);
}

/* bl_line_whole: from any piece of a long line, the line entire; cut by
 * a floor inside it, or by a window that starts inside it. */
static void whole_lines(void)
{
	size_t n = 3 * BL_LINE_MAX + 500;
	char *t = malloc(n + 64);
	CHECK(t != NULL);
	if (!t)
		return;
	memcpy(t, "above\n", 6);
	size_t o = 6, nl;
	for (; o < n; o++)
		t[o] = o % 61 ? 'x' : '\r';
	nl = o;
	memcpy(t + o, "\r\nbelow\n", 9);
	o += 9;
	struct bl_message m;
	struct bl_line piece, w, nx;
	text_message(&m, t, o);
	size_t probes[] = {6, 6 + BL_LINE_MAX + 7, nl - 1};
	for (size_t i = 0; i < 3; i++) {
		bl_line_at(&m, probes[i], &piece);
		CHECK(piece.len <= BL_LINE_MAX + 3);
		CHECK(bl_line_whole(&m, &piece, 0, &w));
		/* the line's bytes, without the '\r' of its "\r\n" */
		CHECK(w.off == 6 && w.len == nl - 6 && w.next == nl + 2 && w.s == m.text + 6 &&
		      !w.cut);
		CHECK(bl_line_next(&m, &w, &nx) && nx.off == nl + 2 && nx.len == 5);
	}
	/* a floor inside the line: cut there */
	bl_line_at(&m, nl - 1, &piece);
	CHECK(!bl_line_whole(&m, &piece, 100, &w) && w.off == 100 && w.len == nl - 100);
	/* a floor at its start is no cut */
	CHECK(bl_line_whole(&m, &piece, 6, &w) && w.off == 6);
	/* a short line is itself */
	bl_line_at(&m, 2, &piece);
	CHECK(bl_line_whole(&m, &piece, 0, &w) && w.off == 0 && w.len == 5 && w.next == 6);
	bl_message_free(&m);
	/* a window's text that begins inside a line */
	text_message(&m, t + 100, o - 100);
	m.window.mid_line = true;
	bl_line_at(&m, nl - 200, &piece);
	CHECK(!bl_line_whole(&m, &piece, 0, &w) && w.off == 0 && w.len == nl - 100);
	bl_message_free(&m);
	free(t);
}

/* bl_line_prev gives every field of the line bl_line_at gives for the
 * byte before the line it stands on: texts of short lines, empty lines,
 * "\r\n" and lines longer than BL_LINE_MAX, at random. */
static void prev_as_at(void)
{
	srand(17);
	for (int round = 0; round < 300; round++) {
		size_t cap = 4 * BL_LINE_MAX + 4096, n = 0;
		char *t = malloc(cap);
		CHECK(t != NULL);
		if (!t)
			return;
		while (n + 8 < cap) {
			int kind = rand() % 10;
			size_t len = kind == 0   ? BL_LINE_MAX - 2 + (size_t)(rand() % 5)
				     : kind == 1 ? 0
						 : (size_t)(rand() % 80);
			if (kind == 2)
				len = BL_LINE_MAX + (size_t)(rand() % 300);
			for (size_t i = 0; i < len && n + 8 < cap; i++)
				t[n++] = (char)('a' + rand() % 26);
			if (rand() % 4 == 0)
				t[n++] = '\r';
			t[n++] = '\n';
		}
		struct bl_message m;
		text_message(&m, t, n);
		struct bl_line cur, nx, back, at;
		bl_line_at(&m, 0, &cur);
		while (bl_line_next(&m, &cur, &nx)) {
			CHECK(bl_line_prev(&m, &nx, &back));
			bl_line_at(&m, nx.off - nx.cut - 1, &at);
			CHECK(back.s == at.s && back.off == at.off && back.len == at.len &&
			      back.next == at.next && back.cut == at.cut);
			cur = nx;
		}
		bl_message_free(&m);
		free(t);
	}
}

int main(void)
{
	prev_as_at();
	prefix_block();
	whole_lines();

	struct bl_message m;
	struct bl_line l;

	const char *small = "a\r\nbb\n\nccc";
	text_message(&m, small, strlen(small));
	CHECK(walk(&m) == 4);
	bl_line_at(&m, 0, &l);
	CHECK(l.len == 1 && l.next == 3);
	bl_line_at(&m, 4, &l);
	CHECK(l.off == 3 && l.len == 2);
	bl_line_at(&m, m.len, &l);
	CHECK(l.off == 7 && l.len == 3);
	bl_message_free(&m);

	/* one long line of 3-byte characters between two short lines: the
	 * pieces must start on a character, never inside one */
	size_t n = 5 * BL_LINE_MAX + 1000;
	char *big = malloc(n + 32);
	CHECK(big != NULL);
	if (!big)
		return CHECK_DONE();
	size_t o = 0;
	memcpy(big, "first\n", 6);
	o = 6;
	while (o + 3 <= n) {
		memcpy(big + o, "\xE2\x82\xAC", 3); /* EURO SIGN */
		o += 3;
	}
	memcpy(big + o, "\nlast\n", 6);
	o += 6;
	text_message(&m, big, o);
	size_t lines = walk(&m);
	CHECK(lines == 1 + ((n - 6) / BL_LINE_MAX + 1) + 1);
	/* random access in any order gives the same pieces */
	for (size_t off = m.len; off-- > 0; off = off > 997 ? off - 997 : 0) {
		bl_line_at(&m, off, &l);
		CHECK(l.off <= off && (off < l.next || l.next == m.len || m.text[off] == '\n'));
		if (!off)
			break;
	}
	bl_message_free(&m);

	/* a long line at the very end, without a newline */
	memset(big, 'x', n);
	text_message(&m, big, n);
	CHECK(walk(&m) == n / BL_LINE_MAX + 1);
	bl_message_free(&m);
	free(big);
	return CHECK_DONE();
}
