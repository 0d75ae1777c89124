/* fuzz_utf16.c - UTF-16 or UTF-32 text to UTF-8 (ingest/utf16.c): the
 * first byte picks the encoding and byte order, the rest is the text. The
 * output is UTF-8, its map inside the input, and where the input is well
 * formed (no lone surrogate, no U+0000, whole units) it is what iconv
 * makes of it. */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>

#include "fuzz_decoder.h"

/* iconv's UTF-8 for s, or NULL when it refuses it. */
static char *by_iconv(const char *s, size_t n, int order, size_t *len)
{
	static const char *const names[] = {"", "UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"};
	iconv_t cd = iconv_open("UTF-8", names[order]);
	if (cd == (iconv_t)-1)
		abort();
	size_t cap = n * 2 + 4, ol = cap, il = n;
	char *out = malloc(cap), *op = out, *ip = (char *)s;
	if (!out || iconv(cd, &ip, &il, &op, &ol) == (size_t)-1) {
		free(out);
		out = NULL;
	}
	*len = cap - ol;
	iconv_close(cd);
	return out;
}

static bool has_nul_unit(const char *s, size_t n, int order)
{
	size_t us = bl_wide_size(order);
	for (size_t i = 0; i + us <= n; i += us)
		if (!bl_wide_value(s + i, order))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	int order = BL_UTF16_LE + data[0] % 4;
	size_t us = bl_wide_size(order);
	const char *text = (const char *)data + 1;
	size_t n = size - 1;
	struct bl_message m;
	struct bl_tbuf out;
	struct bl_src in;
	fuzz_message(&m, data, size);
	bl_tbuf_init(&out);
	bl_src_plain(&in, text, n, 1);
	bl_wide_to_utf8(&m, &in, &out, order);
	if (!bl_utf8_valid(out.s ? out.s : "", out.len))
		abort();
	fuzz_check_map(&out, size);
	size_t skip = n >= us && bl_wide_value(text, order) == 0xFEFF ? us : 0, want_len;
	char *want = NULL;
	if (n % us == 0 && !has_nul_unit(text + skip, n - skip, order) &&
	    (want = by_iconv(text + skip, n - skip, order, &want_len)) != NULL &&
	    (want_len != out.len || memcmp(want, out.s, want_len) != 0 || m.diags.n != 0))
		abort();
	free(want);
	fuzz_done(&m, &out);
	return 0;
}
