/* fuzz_doc_split.c - a document's text taken apart as it is written
 * (cli/doc_split.c), fed the text in two pieces, cut at a place its size
 * picks (the corpus documents seed it: their first byte must stay).
 * Whatever it takes whole, json_loadb must read as it is rejoined: its
 * rest with the runs handed on put back as "runs". Fed as a stream of
 * documents (cli_doc_split_feed), a text that is one value and blanks
 * must stop at the value's end with the same runs and rest. A
 * difference aborts; crashes and sanitizer reports are findings. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static bool blanks_only(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!blank(p[i]))
			return false;
	return true;
}

/* text fed as a stream in the same two pieces: where put took it whole
 * (put_rest and put_runs), feed ends at its value's last byte with the
 * same runs and the same rest, but for the blanks after it. */
static void check_fed(const char *text, size_t len, size_t cut, const struct bl_buf *put_rest,
		      json_t *put_runs)
{
	json_t *runs = json_array();
	struct cli_doc_split s = {.on_run = on_run, .ctx = runs};
	long a = cli_doc_split_feed(&s, text, cut), b = 0;
	if (a > (long)cut)
		abort();
	if (a >= 0 && !s.ended &&
	    (b = cli_doc_split_feed(&s, text + cut, len - cut)) > (long)(len - cut))
		abort();
	size_t used = a >= 0 && b >= 0 ? (size_t)a + (size_t)b : 0;
	if (s.ended && (s.depth != 0 || used > len))
		abort();
	if (s.ended && blanks_only(text + used, len - used)) {
		size_t n = put_rest->n;
		while (n && blank(put_rest->p[n - 1]))
			n--;
		if (s.rest.n != n || memcmp(s.rest.p, put_rest->p, n) != 0 ||
		    !json_equal(runs, put_runs))
			abort();
	}
	cli_doc_split_free(&s);
	json_decref(runs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t len = size, cut = (size_t)(((uint64_t)size * 2654435761u) % (size + 1));
	json_t *runs = json_array();
	struct cli_doc_split s = {.on_run = on_run, .ctx = runs};
	if (cli_doc_split_put(&s, text, cut) == 0 &&
	    cli_doc_split_put(&s, text + cut, len - cut) == 0 && s.depth == 0 && !s.in_string) {
		check_rejoined(&s, runs, text, len);
		check_fed(text, len, cut, &s.rest, runs);
	}
	cli_doc_split_free(&s);
	json_decref(runs);
	return 0;
}
