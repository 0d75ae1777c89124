/* fuzz_utf16.c - UTF-16 text to UTF-8 (ingest/utf16.c): the first byte
 * picks the byte order, the rest is the text. The output is UTF-8, its
 * map inside the input, and where the input is well formed (no lone
 * surrogate, no U+0000, an even length) it is what iconv makes of it. */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>

#include "fuzz_decoder.h"

/* iconv's UTF-8 for s, or NULL when it refuses it. */
static char *by_iconv(const char *s, size_t n, bool big, size_t *len)
{
	iconv_t cd = iconv_open("UTF-8", big ? "UTF-16BE" : "UTF-16LE");
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

static bool has_nul_unit(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		if (!s[i] && !s[i + 1])
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	bool big = data[0] & 1;
	const char *text = (const char *)data + 1;
	size_t n = size - 1;
	struct bl_message m;
	struct bl_tbuf out;
	struct bl_src in;
	fuzz_message(&m, data, size);
	bl_tbuf_init(&out);
	bl_src_plain(&in, text, n, 1);
	bl_utf16_to_utf8(&m, &in, &out, big ? BL_UTF16_BE : BL_UTF16_LE);
	if (!bl_utf8_valid(out.s ? out.s : "", out.len))
		abort();
	fuzz_check_map(&out, size);
	size_t skip = bl_utf16_bom(text, n) ? 2 : 0, want_len;
	char *want = NULL;
	if (n % 2 == 0 && !has_nul_unit((const unsigned char *)text + skip, n - skip) &&
	    (want = by_iconv(text + skip, n - skip, big, &want_len)) != NULL &&
	    (want_len != out.len || memcmp(want, out.s, want_len) != 0 || m.diags.n != 0))
		abort();
	free(want);
	fuzz_done(&m, &out);
	return 0;
}
