/* fuzz_unflatten.c - flattened posts split into lines. */
#include <stdint.h>

#include "../../parsers/anchor.h"
#include "../../parsers/parser.h"
#include "fuzz_decoder.h"

static bool same_sites(const struct bl_sites *a, const struct bl_sites *b)
{
	if (a->n != b->n || a->long_line != b->long_line || a->nsys != b->nsys ||
	    (a->n && (memcmp(a->q, b->q, a->n * sizeof *a->q) != 0 ||
		      memcmp(a->needle, b->needle, a->n) != 0)) ||
	    memcmp(a->sys, b->sys, a->nsys * sizeof *a->sys) != 0)
		return false;
	for (size_t g = 0; g < BL_SITE_LITERALS_MAX; g++)
		if (a->literal[g].n != b->literal[g].n ||
		    (a->literal[g].n && memcmp(a->literal[g].v, b->literal[g].v,
					       a->literal[g].n * sizeof(size_t)) != 0))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Unflattening runs after the UTF-8 repair (ingest.c), on a text
	 * followed by BL_TEXT_PAD zero bytes: its patterns run with
	 * PCRE2_NO_UTF_CHECK, and the JIT reads a lead byte's continuation
	 * bytes even past the end of the text. The target gives it the same
	 * (raw bytes ending in a lead byte at a page end crashed the JIT). */
	char *fixed = bl_charset_string((const char *)data, size, NULL);
	if (!fixed)
		return 0;
	size_t n = strlen(fixed);
	char *text = calloc(n + BL_TEXT_PAD, 1);
	if (!text) {
		free(fixed);
		return 0;
	}
	memcpy(text, fixed, n);
	free(fixed);

	struct bl_message m;
	struct bl_tbuf out;
	struct bl_src in;
	fuzz_message(&m, (const uint8_t *)text, n);
	bl_tbuf_init(&out);
	bl_src_plain(&in, text, n, 0);
	/* as ingest does: the sites of the text first, and the unflattener
	 * reads its literals there; searching them itself must agree */
	struct bl_sites *sites = bl_sites_find(bl_parser_sites(), text, n);
	if (!sites)
		abort();
	bool flat = bl_unflatten_detect(text, n, sites);
	if (flat != bl_unflatten_detect(text, n, NULL))
		abort();
	bl_unflatten(&m, &in, &out, sites);
	if (out.len && out.len != n)
		abort(); /* a break replaces a blank: the length never changes */
	struct bl_tbuf ref;
	struct bl_message m2;
	fuzz_message(&m2, (const uint8_t *)text, n);
	bl_tbuf_init(&ref);
	bl_src_plain(&in, text, n, 0);
	/* the reference: no literal searched by the sites pass, and every
	 * regex run where it would run without the prefilters */
	bl_unflatten_set_prefilter(false);
	if (flat != bl_unflatten_detect(text, n, NULL))
		abort();
	bl_unflatten(&m2, &in, &ref, NULL);
	bl_unflatten_set_prefilter(true);
	if (ref.len != out.len || (out.len && memcmp(ref.s, out.s, out.len) != 0))
		abort();
	bl_tbuf_free(&ref);
	bl_message_free(&m2);
	bl_sites_free(sites);
	/* as ingest does, the sites made those of the text written: the same
	 * as found on it */
	struct bl_sites *kept = bl_sites_find(bl_parser_sites(), text, n);
	struct bl_tbuf o3;
	struct bl_message m3;
	size_t *at = NULL, nat = 0;
	fuzz_message(&m3, (const uint8_t *)text, n);
	bl_tbuf_init(&o3);
	bl_src_plain(&in, text, n, 0);
	if (!kept)
		abort();
	bool changed = bl_unflatten_breaks(&m3, &in, &o3, kept, &at, &nat);
	/* in place, as ingest does on a text of its own: the same text and
	 * breaks as the copy's */
	char *own = calloc(n + BL_TEXT_PAD, 1);
	if (!own)
		abort();
	memcpy(own, text, n);
	struct bl_message m4;
	struct bl_src own_in;
	size_t *at4 = NULL, nat4 = 0;
	fuzz_message(&m4, (const uint8_t *)text, n);
	bl_src_plain(&own_in, own, n, 0);
	struct bl_sites *s4 = bl_sites_find(bl_parser_sites(), own, n);
	if (!s4)
		abort();
	if (bl_unflatten_breaks_in_place(&m4, &own_in, own, s4, &at4, &nat4) != changed ||
	    nat4 != nat || (nat && memcmp(at4, at, nat * sizeof *at) != 0) ||
	    (changed && !o3.failed && memcmp(own, o3.s, n) != 0))
		abort();
	free(at4);
	bl_sites_free(s4);
	bl_message_free(&m4);
	free(own);
	if (changed && !o3.failed) {
		struct bl_src probe;
		bl_src_from_tbuf(&probe, &o3); /* the zero bytes after the text */
		struct bl_sites *fresh = bl_sites_find(bl_parser_sites(), o3.s, o3.len);
		if (!fresh || !bl_sites_update(bl_parser_sites(), kept, o3.s, o3.len, at, nat) ||
		    !same_sites(kept, fresh))
			abort();
		bl_sites_free(fresh);
	}
	free(at);
	bl_sites_free(kept);
	bl_tbuf_free(&o3);
	bl_message_free(&m3);
	fuzz_check_map(&out, n);
	fuzz_done(&m, &out);
	free(text);
	return 0;
}
