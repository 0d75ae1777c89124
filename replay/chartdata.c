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

/* "now: 16 MiB a run on ext2-3-4": the largest size a run moved and the
 * scratch file system, what a reader needs to judge the new bars. No '/'
 * in it: charts show a source path's last component. */
static void now_name(json_t *cmp, char *buf, size_t len)
{
	json_t *env = json_object_get(cmp, "environment");
	const char *fs =
		json_string_value(json_object_get(json_object_get(env, "scratch"), "type"));
	double most = 0;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(cmp, "replays"), i, e)
	{
		json_t *b = json_object_get(json_object_get(e, "plan"), "replay_bytes");
		if (json_is_number(b) && json_number_value(b) > most)
			most = json_number_value(b);
	}
	char size[48] = "";
	if (most > 0) {
		static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
		int u = 0;
		while (u < 4 && most >= 1024) {
			most /= 1024;
			u++;
		}
		snprintf(size, sizeof size, "%.3g %s a run", most, units[u]);
	}
	snprintf(buf, len, "now: %s%s%s", size, *size && fs ? " on " : "", fs ? fs : "");
	if (!*size && !fs)
		snprintf(buf, len, "now: this machine");
	for (char *c = buf; *c; c++)
		if (*c == '/')
			*c = '-';
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
	const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char name[512];
	snprintf(name, sizeof name, "then: %s", base && *base ? base : "the post");
	json_object_set_new(json_object_get(then, "source"), "path", json_string(name));
	now_name(cmp, name, sizeof name);
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
