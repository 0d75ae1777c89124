/* fuzz_html.c - HTML to text: tags, entities, <pre>, script/style,
 * comments, meta charset; and a page cut where stream.c cuts a long one
 * into windows (after a line break inside <pre>, at a tag that breaks a
 * line), its second part decoded from the state bl_html_state_after finds
 * at the cut: the text and map of a whole reading from there on. */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_decoder.h"

/* Where a window may start, by decoded line break p of the whole text:
 * after a line break of the bytes (inside <pre>), or at the tag that
 * made it; false when neither. */
static bool cut_at(const uint8_t *data, size_t size, const struct bl_tbuf *out, struct bl_src *view,
		   size_t p, size_t *cut, size_t *text_from)
{
	if (out->s[p] != '\n')
		return false;
	size_t o = bl_src_origin(view, p);
	if (o >= size || (data[o] != '\n' && data[o] != '<'))
		return false;
	*cut = data[o] == '\n' ? o + 1 : o;
	*text_from = data[o] == '\n' ? p + 1 : p;
	return true;
}

/* The `pick`-th of those cuts (modulo their count); false when none. */
static bool pick_cut(const uint8_t *data, size_t size, const struct bl_tbuf *out, size_t pick,
		     size_t *cut, size_t *text_from)
{
	struct bl_src view;
	bl_src_from_tbuf(&view, out);
	size_t found = 0;
	for (size_t p = 0; p < out->len; p++)
		found += cut_at(data, size, out, &view, p, cut, text_from);
	if (!found)
		return false;
	pick %= found;
	bl_src_from_tbuf(&view, out);
	for (size_t p = 0; p < out->len; p++)
		if (cut_at(data, size, out, &view, p, cut, text_from) && pick-- == 0)
			return true;
	return false;
}

static void check_cut(const uint8_t *data, size_t size, const struct bl_tbuf *out)
{
	size_t cut, from;
	if (!size || !pick_cut(data, size, out, data[size - 1], &cut, &from) || cut >= size)
		return;
	struct bl_html_state st;
	if (!bl_html_state_after((const char *)data, cut, 0, 1, NULL, &st))
		return;
	struct bl_message m2;
	struct bl_tbuf out2;
	struct bl_src in2;
	fuzz_message(&m2, data + cut, size - cut);
	m2.window.on = true;
	m2.window.index = 1;
	m2.window.html = st;
	bl_tbuf_init(&out2);
	bl_src_plain(&in2, (const char *)data + cut, size - cut, cut);
	bl_html_to_text(&m2, &in2, &out2);
	if (out2.failed || out->failed) {
		fuzz_done(&m2, &out2);
		return;
	}
	if (out2.len != out->len - from || memcmp(out2.s, out->s + from, out2.len) != 0) {
		fprintf(stderr, "cut at %zu: the text from there differs from a whole reading\n",
			cut);
		abort();
	}
	struct bl_src v1, v2;
	bl_src_from_tbuf(&v1, out);
	bl_src_from_tbuf(&v2, &out2);
	for (size_t k = 0; k < out2.len; k++)
		if (bl_src_origin(&v2, k) != bl_src_origin(&v1, from + k)) {
			fprintf(stderr, "cut at %zu: text byte %zu maps elsewhere\n", cut, k);
			abort();
		}
	fuzz_done(&m2, &out2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bl_message m;
	struct bl_tbuf out;
	struct bl_src in;
	fuzz_message(&m, data, size);
	bl_tbuf_init(&out);
	bl_src_plain(&in, (const char *)data, size, 0);
	char cs[48];
	bl_html_detect((const char *)data, size);
	bl_html_meta_charset((const char *)data, size, cs, sizeof cs);
	bl_html_to_text(&m, &in, &out);
	fuzz_check_map(&out, size);
	check_cut(data, size, &out);
	fuzz_done(&m, &out);
	return 0;
}
