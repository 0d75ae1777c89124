/* fuzz_jsonread.c - the plain JSON reader (base/jsonread.c) against
 * json_loadb: whatever the reader takes must be what json_loadb reads
 * (the same value, printed the same, ending at the same byte), and the
 * reader keeping runs' rows and results as text must take the same, and
 * give the same once each is read back; so must the readers of a run
 * alone (bl_json_read_run_as_text, bl_json_read_run_in_place, and
 * bl_json_read_run_with as chart and table read one, its kept texts
 * copied and some members passed over), its own rows and results kept.
 * The input is read as it is and after a '{', so posts seed it too. A
 * value the two disagree on aborts; crashes and sanitizer reports are
 * findings. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../kept_text.h"

/* text read as one run alone, its kept texts copied or pointing into it,
 * gives a once they are read back. */
static void compare_alone(const char *text, size_t len, json_t *a, size_t used)
{
	json_t *(*readers[])(const char *, size_t, size_t *) = {
		bl_json_read_run_as_text, bl_json_read_run_in_place, read_run_lean};
	for (size_t k = 0; k < 3; k++) {
		size_t rused = 0;
		/* the lean reader's kept texts are copies: its text is gone
		 * before they are read back */
		char *own = k == 2 ? malloc(len ? len : 1) : NULL;
		if (own)
			memcpy(own, text, len);
		json_t *alone = readers[k](own ? own : text, len, &rused);
		if (own)
			memset(own, '#', len);
		free(own);
		if (!a) {
			if (alone)
				abort(); /* takes what the reader does not */
			stash_free();
			continue;
		}
		json_t *want = k == 2 ? without_skipped(a) : json_incref(a);
		json_t *wrap = alone ? json_pack("{s[o]}", "runs", alone) : NULL;
		if (!wrap || rused != used || !restore_kept(wrap) ||
		    !json_equal(json_array_get(json_object_get(wrap, "runs"), 0), want))
			abort();
		json_decref(wrap);
		json_decref(want);
		stash_free();
	}
}

static void compare(const char *text, size_t len)
{
	size_t used = 0;
	json_t *a = bl_json_read(text, len, &used);
	compare_alone(text, len, a, used);
	if (!a) {
		json_t *lazy = bl_json_read_results_as_text(text, len, &used);
		if (lazy)
			abort(); /* takes what the reader does not */
		return;
	}
	json_error_t e;
	json_t *b = json_loadb(text, len, JSON_DISABLE_EOF_CHECK, &e);
	if (!b || used != (size_t)e.position || !json_equal(a, b))
		abort();
	/* rows kept as text: the same value once each row is read back */
	size_t lused = 0;
	json_t *lazy = bl_json_read_results_as_text(text, len, &lused);
	if (!lazy || lused != used || !restore_kept(lazy) || !json_equal(lazy, a))
		abort();
	json_decref(lazy);
	char *x = json_dumps(a, JSON_COMPACT | JSON_REAL_PRECISION(17));
	char *y = json_dumps(b, JSON_COMPACT | JSON_REAL_PRECISION(17));
	if (!x || !y || strcmp(x, y) != 0)
		abort();
	free(x);
	free(y);
	json_decref(a);
	json_decref(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	compare((const char *)data, size);
	char *braced = malloc(size + 1);
	if (!braced)
		return 0;
	braced[0] = '{';
	memcpy(braced + 1, data, size);
	compare(braced, size + 1);
	free(braced);
	return 0;
}
