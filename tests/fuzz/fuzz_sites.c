/* fuzz_sites.c - the sites pass (parsers/anchor.h): the AVX2 pass, with
 * its 64-byte steps, bucket tables and finds looked up by their window,
 * gives what the portable pass gives, find for find, mark for mark. The
 * text is followed by BL_TEXT_PAD zero bytes, as every message's is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/anchor.h"

static bool same_list(const size_t *a, const size_t *b, size_t n)
{
	return !n || memcmp(a, b, n * sizeof *a) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = calloc(size + BL_TEXT_PAD, 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	struct bl_sites *a = bl_sites_find(text, size);
	bl_anchor_set_portable(true);
	struct bl_sites *b = bl_sites_find(text, size);
	bl_anchor_set_portable(false);
	if (!a || !b)
		abort();
	if (a->n != b->n || !same_list(a->q, b->q, a->n) ||
	    (a->n && memcmp(a->needle, b->needle, a->n) != 0))
		abort();
	if (a->long_line != b->long_line || a->nsys != b->nsys ||
	    memcmp(a->sys, b->sys, a->nsys * sizeof *a->sys) != 0)
		abort();
	for (size_t g = 0; g < BL_TOOL_MAX; g++)
		if (a->tool[g].n != b->tool[g].n || !same_list(a->tool[g].v, b->tool[g].v, a->tool[g].n))
			abort();
	bl_sites_free(a);
	bl_sites_free(b);
	free(text);
	return 0;
}
