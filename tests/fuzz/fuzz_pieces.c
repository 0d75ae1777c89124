/* fuzz_pieces.c - an mbox cut into pieces for `parse --jobs`: the cuts
 * (bl_mbox_cuts, targets taken from the first bytes) must be message
 * starts, and the pieces read on their own (bl_ingest_mbox_piece) must
 * give the messages of the whole reading, at the same offsets, lines and
 * indexes, with the same decoded text length. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../feed.h"
#include "fuzz_mbox_input.h"

struct msg {
	size_t index, offset, line, raw_len, len;
};

struct msgs {
	struct msg m[4096];
	size_t n;
};

static int each(struct bl_message *m, void *ctx)
{
	struct msgs *s = ctx;
	if (s->n == sizeof s->m / sizeof s->m[0])
		return 1; /* enough: both readings stop at the same message */
	s->m[s->n++] = (struct msg){m->index, m->raw_offset, m->raw_line, m->raw_len, m->len};
	return 0;
}

static struct msgs whole, parts;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	char *buf = as_mbox(data, size, &n);
	if (!buf)
		return 0;
	whole.n = parts.n = 0;
	struct feed f = {buf, n, 0, size ? data[0] + 1u : 1, 0};
	int rw = bl_ingest_stream(bl_parser_ingest(), feed_read, &f, BL_INPUT_MBOX, each, &whole);
	/* up to 4 ascending targets from the first bytes */
	size_t targets[4], k = 0;
	for (size_t i = 1; i < 5 && i < size; i++, k++)
		targets[k] = (k ? targets[k - 1] : 0) + (size_t)data[i] * (n / 512 + 1);
	struct bl_mbox_cut cuts[4];
	struct feed c = {buf, n, 0, size > 5 ? data[5] + 1u : 7, 0};
	if (bl_mbox_cuts(feed_read, &c, &bl_mbox_start, targets, k, cuts) < 0)
		abort();
	struct bl_mbox_cut at = bl_mbox_start;
	int rp = 0;
	for (size_t i = 0; i <= k && rp == 0; i++) {
		size_t end = i < k ? cuts[i].offset : n;
		if (i < k && (end < at.offset || end > n))
			abort(); /* cuts ascend and lie inside the input */
		/* read on to the input's end: the piece ends by itself */
		size_t until = i < k ? targets[i] : SIZE_MAX;
		struct feed p = {buf + at.offset, n - at.offset, 0, (size_t)i * 31 + 5, 0};
		rp = bl_ingest_mbox_piece(bl_parser_ingest(), feed_read, &p, &at, until, each,
					  &parts);
		if (i < k)
			at = cuts[i];
	}
	if ((rw < 0) != (rp < 0) || whole.n != parts.n)
		abort();
	for (size_t i = 0; i < whole.n; i++)
		if (memcmp(&whole.m[i], &parts.m[i], sizeof whole.m[i]) != 0)
			abort();
	/* every cut inside the input starts a message of the whole reading */
	for (size_t i = 0; i < k && rw == 0 && whole.n < 4096; i++) {
		if (cuts[i].offset == n)
			continue;
		size_t j = 0;
		while (j < whole.n && whole.m[j].offset != cuts[i].offset)
			j++;
		if (j == whole.n || whole.m[j].line != cuts[i].line ||
		    whole.m[j].index != cuts[i].index)
			abort();
	}
	free(buf);
	return 0;
}
