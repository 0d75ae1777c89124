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
			for (size_t e = 0; e < json_array_size(list); e++) {
				json_t *t = json_array_get(list, e);
				if (!bl_json_is_kept(t))
					continue;
				json_t *back = bl_json_read_kept(t);
				if (!back || json_array_set_new(list, e, back) < 0)
					return false;
			}
		}
	}
	return true;
}

#endif
