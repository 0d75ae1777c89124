/* fuzz_sites.c - the sites pass (parsers/anchor.h): the AVX2 pass, with
 * its 64-byte steps, bucket tables and finds looked up by their window,
 * gives what the portable pass gives, find for find, mark for mark; and
 * the sites updated for blanks made line breaks (bl_sites_update) are
 * those found again. The text is followed by BL_TEXT_PAD zero bytes, as
 * every message's is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/anchor.h"
#include "../../parsers/parser.h"

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
	struct bl_sites *a = bl_sites_find(bl_parser_sites(), text, size);
	bl_sites_set_portable(true);
	struct bl_sites *b = bl_sites_find(bl_parser_sites(), text, size);
	bl_sites_set_portable(false);
	if (!a || !b)
		abort();
	if (a->n != b->n || !same_list(a->q, b->q, a->n) ||
	    (a->n && memcmp(a->needle, b->needle, a->n) != 0))
		abort();
	if (a->long_line != b->long_line || a->nsys != b->nsys ||
	    memcmp(a->sys, b->sys, a->nsys * sizeof *a->sys) != 0)
		abort();
	for (size_t g = 0; g < BL_SITE_LITERALS_MAX; g++)
		if (a->literal[g].n != b->literal[g].n ||
		    !same_list(a->literal[g].v, b->literal[g].v, a->literal[g].n))
			abort();
	bl_sites_free(b);

	/* some blanks made line breaks, as the unflattener makes them (which
	 * ones, the first byte says): the sites updated are those found on
	 * the text so changed */
	size_t *at = malloc((size ? size : 1) * sizeof *at), n = 0;
	if (!at)
		abort();
	unsigned pick = size ? data[0] : 0;
	for (size_t i = 0; i < size; i++)
		if ((text[i] == ' ' || text[i] == '\t') &&
		    (((i + pick) * 40503u) >> 4) % (1 + pick % 5) == 0)
			at[n++] = i;
	for (size_t k = 0; k < n; k++)
		text[at[k]] = '\n';
	if (!bl_sites_update(bl_parser_sites(), a, text, size, at, n))
		abort();
	b = bl_sites_find(bl_parser_sites(), text, size);
	if (!b || a->n != b->n || !same_list(a->q, b->q, a->n) ||
	    (a->n && memcmp(a->needle, b->needle, a->n) != 0) || a->long_line != b->long_line ||
	    memcmp(a->sys, b->sys, a->nsys * sizeof *a->sys) != 0)
		abort();
	for (size_t g = 0; g < BL_SITE_LITERALS_MAX; g++)
		if (a->literal[g].n != b->literal[g].n ||
		    !same_list(a->literal[g].v, b->literal[g].v, a->literal[g].n))
			abort();
	free(at);
	bl_sites_free(a);
	bl_sites_free(b);
	free(text);
	return 0;
}
