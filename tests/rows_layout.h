/* rows_layout.h - the bytes benchlog writes a document as, from
 * jansson's: json_dumps of the document with `flags`, except that each
 * element of a run's "rows" is on one line, as json_dumps writes it
 * without indentation ({"shape": 0, "coords": [...]}, [0, "tank", ...]).
 * Each element is put in the tree as a marker string first, the tree
 * dumped, and the marker's place given the element's own dump. */
#ifndef BL_TESTS_ROWS_LAYOUT_H
#define BL_TESTS_ROWS_LAYOUT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* A tag for the markers, "\u0001rl<x>_" once dumped, that starts no
 * string of the document as dumped (`orig`). */
static unsigned rl_tag(const char *orig)
{
	char b[32];
	unsigned x = 0;
	do
		snprintf(b, sizeof b, "\"\\u0001rl%u_", x);
	while (orig && strstr(orig, b) && ++x);
	return x;
}

static char *rows_layout_dump(const json_t *doc, size_t flags)
{
	char *orig = json_dumps(doc, flags);
	unsigned tag = rl_tag(orig);
	free(orig);
	json_t *copy = json_deep_copy(doc);
	json_t *runs = json_object_get(copy, "runs");
	char **one = NULL;
	size_t n = 0, cap = 0, i, j;
	json_t *run, *el;
	char mark[64];
	json_array_foreach(runs, i, run)
	{
		json_t *rows = json_object_get(run, "rows");
		json_array_foreach(rows, j, el)
		{
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				one = realloc(one, cap * sizeof *one);
			}
			one[n] = json_dumps(el,
					    (flags & ~(size_t)JSON_MAX_INDENT) | JSON_ENCODE_ANY);
			snprintf(mark, sizeof mark, "\x01rl%u_%zu.", tag, n++);
			json_array_set_new(rows, j, json_string(mark));
		}
	}
	char *dumped = json_dumps(copy, flags);
	json_decref(copy);
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	const char *at = dumped;
	for (size_t k = 0; k < n && at && out; k++) {
		char quoted[80];
		snprintf(quoted, sizeof quoted, "\"\\u0001rl%u_%zu.\"", tag, k);
		const char *m = strstr(at, quoted);
		if (!m || !one[k])
			break;
		fwrite(at, 1, (size_t)(m - at), out);
		fputs(one[k], out);
		at = m + strlen(quoted);
	}
	if (out) {
		if (at)
			fputs(at, out);
		fclose(out);
	}
	for (size_t k = 0; k < n; k++)
		free(one[k]);
	free(one);
	free(dumped);
	return text;
}

#endif
