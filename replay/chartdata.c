/* chartdata.c - a comparison as two benchlog/1 documents, "archived" and
 * "replay", with the same labels and commands, so that the chart renderer
 * (which reads benchlog/1 documents) draws then and now side by side:
 *   benchlog replay --chart-data both.jsonl post.txt
 *   benchlog chart both.jsonl            (series: the two sources) */
#include <stdio.h>
#include <string.h>

#include "replay.h"

static json_t *source(const char *path)
{
	return json_pack("{s:s, s:[], s:i, s:i}", "path", path, "decoding", "offset", 0, "bytes",
			 0);
}

json_t *bl_replay_chart_docs(json_t *archived, json_t *cmp)
{
	json_t *then = json_deep_copy(archived);
	json_t *now = json_pack("{s:s, s:[], s:[], s:b}", "schema", "benchlog/1", "runs",
				"diagnostics", "partial", 0);
	if (!then || !now) {
		json_decref(then);
		json_decref(now);
		return NULL;
	}
	const char *path =
		json_string_value(json_object_get(json_object_get(archived, "source"), "path"));
	const char *kernel =
		json_string_value(json_object_get(json_object_get(cmp, "environment"), "kernel"));
	char name[512];
	snprintf(name, sizeof name, "%s (archived)", path ? path : "post");
	json_object_set_new(json_object_get(then, "source"), "path", json_string(name));
	/* no '/' in the name: charts show a source path's last component */
	snprintf(name, sizeof name, "replay on %s", kernel ? kernel : "this machine");
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '-';
	json_object_set_new(now, "source", source(name));

	json_t *old_runs = json_object_get(archived, "runs");
	json_t *keep = json_array(), *runs = json_object_get(now, "runs");
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(cmp, "replays"), i, e)
	{
		json_t *rr =
			json_array_get(json_object_get(json_object_get(e, "replayed"), "runs"), 0);
		json_t *run = json_array_get(old_runs,
					     (size_t)json_integer_value(json_object_get(e, "run")));
		if (!rr || !run)
			continue;
		json_array_append(keep, run);
		json_t *copy = json_deep_copy(run);
		json_object_set(copy, "results", json_object_get(rr, "results"));
		json_object_del(copy, "time");
		json_array_append_new(runs, copy);
	}
	json_object_set_new(then, "runs", keep);
	json_object_set_new(then, "diagnostics", json_array());
	return json_pack("[o, o]", then, now);
}
