/* fuzz_doc_split.c - a document's text taken apart as it is written
 * (cli/doc_split.c), fed the text in two pieces, cut at a place its size
 * picks (the corpus documents seed it: their first byte must stay). Whatever it takes whole, json_loadb must read as it is rejoined:
 * its rest with the runs handed on put back as "runs". A difference
 * aborts; crashes and sanitizer reports are findings. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../cli/doc_split.c"

static int on_run(const char *text, size_t n, void *ctx)
{
	json_t *run = json_loadb(text, n, 0, NULL);
	if (!run)
		return -1;
	return json_array_append_new(ctx, run);
}

static void check_rejoined(struct cli_doc_split *s, json_t *runs, const char *text, size_t len)
{
	json_t *want = json_loadb(text, len, 0, NULL);
	json_t *rest = s->rest.p ? json_loadb(s->rest.p, s->rest.n, 0, NULL) : NULL;
	json_t *have = json_object_get(rest, "runs");
	/* "runs" found as the outermost object's member, once */
	if (json_array_size(runs) && json_is_object(want) && json_is_array(have) &&
	    json_array_size(have) == 0) {
		json_object_set(rest, "runs", runs);
		if (!json_equal(rest, want))
			abort();
	}
	json_decref(rest);
	json_decref(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t len = size, cut = (size_t)(((uint64_t)size * 2654435761u) % (size + 1));
	json_t *runs = json_array();
	struct cli_doc_split s = {.on_run = on_run, .ctx = runs};
	if (cli_doc_split_put(&s, text, cut) == 0 &&
	    cli_doc_split_put(&s, text + cut, len - cut) == 0 && s.depth == 0 && !s.in_string)
		check_rejoined(&s, runs, text, len);
	cli_doc_split_free(&s);
	json_decref(runs);
	return 0;
}
