/* kept_text.h - a document read by bl_json_read_results_as_text made whole
 * again, to hold it against bl_json_read's reading. Shared by the unit
 * tests and the fuzz targets. */
#ifndef BL_TEST_KEPT_TEXT_H
#define BL_TEST_KEPT_TEXT_H

#include <stdbool.h>

#include "../base/jsonread.h"

/* The runs' rows and results kept as text in doc, read back in their
 * place: false when one does not read. */
static bool restore_kept(json_t *doc)
{
	static const char *const lists[] = {"rows", "results"};
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(doc, "runs"), i, run)
	{
		for (size_t k = 0; k < 2; k++) {
			json_t *list = json_object_get(run, lists[k]);
			if (!list)
				continue;
			/* each kept text read in its place: one or more elements */
			json_t *whole = json_array(), *t;
			size_t e;
			json_array_foreach(list, e, t)
			{
				size_t at = 0, n = 0;
				json_t *back;
				if (!bl_json_is_kept(t))
					json_array_append(whole, t);
				for (; bl_json_is_kept(t) && (back = bl_json_kept_next(t, &at));
				     n++)
					json_array_append_new(whole, back);
				if (bl_json_is_kept(t) && (!n || at == BL_JSON_KEPT_BAD)) {
					json_decref(whole);
					return false;
				}
			}
			json_array_clear(list);
			json_array_extend(list, whole);
			json_decref(whole);
		}
	}
	return true;
}

#endif
