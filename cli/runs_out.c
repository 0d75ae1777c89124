/* runs_out.c - `parse --runs`: one run per line, for jq, pandas, DuckDB
 * and Spark, each run with where it came from:
 *   {"source":"list.mbox","message_index":3,"message_id":"<m4@x>",
 *    "tool":"dd","label":...,"results":[...]}
 * A document is written whole first (to memory), then cut into its runs:
 * one message's runs are held at a time. */
#include <stdio.h>

#include "cli.h"

int cli_runs_write(FILE *out, const char *doc, size_t len, bool pretty)
{
	json_error_t e;
	json_t *d = json_loadb(doc, len, 0, &e);
	if (!d)
		return -1;
	json_t *src = json_object_get(d, "source");
	json_t *msg = json_object_get(src, "message");
	json_t *path = json_object_get(src, "path");
	json_t *index = json_object_get(msg, "index");
	json_t *id = json_object_get(msg, "message_id");
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) |
		       (pretty ? JSON_INDENT(2) : JSON_COMPACT);
	int rc = 0;
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(d, "runs"), i, run)
	{
		json_t *line = json_pack("{s:O, s:O, s:O}", "source", path ? path : json_null(),
					 "message_index", index ? index : json_null(), "message_id",
					 id ? id : json_null());
		if (!line || json_object_update(line, run) < 0 ||
		    json_dumpf(line, out, flags) < 0 || fputc('\n', out) == EOF)
			rc = -1;
		json_decref(line);
		if (rc)
			break;
	}
	json_decref(d);
	return rc;
}
