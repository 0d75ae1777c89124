/* fuzz_charset.c - charset conversion to UTF-8: the first byte picks a charset, the rest is text. */
#include <stdint.h>

#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bl_message m;
	struct bl_tbuf out;
	struct bl_src in;
	fuzz_message(&m, data, size);
	bl_tbuf_init(&out);
	bl_src_plain(&in, (const char *)data, size, 0);
	static const char *const cs[] = {NULL,     "utf-8",       "iso-8859-2", "windows-1251",
					 "koi8-r", "big5",        "gb2312",     "shift_jis",
					 "euc-jp", "iso-2022-jp", "utf-16",     "x-bogus"};
	if (size) {
		bl_src_plain(&in, (const char *)data + 1, size - 1, 1);
		bl_charset_to_utf8(&m, &in, &out, cs[data[0] % (sizeof cs / sizeof cs[0])]);
		if (!bl_utf8_valid(out.s ? out.s : "", out.len))
			abort();
	}
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
