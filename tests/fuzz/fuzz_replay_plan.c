/* fuzz_replay_plan.c - arbitrary command strings through the replay
 * planner (tokenizer, allowlists, translation, re-rooting, scaling).
 * Besides crashes and sanitizer reports, a finding is any READY plan that
 * names a path outside the scratch directory: the input's first byte picks
 * the tool whose output the command is said to have printed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../replay/replay.h"

#define SCRATCH "/s"

static int confined(const char *v)
{
	return strncmp(v, SCRATCH "/", strlen(SCRATCH) + 1) == 0 || strcmp(v, "/dev/null") == 0 ||
	       strcmp(v, "/dev/zero") == 0 || strcmp(v, "/dev/urandom") == 0;
}

/* The path an argv word names, if any: "of=/x", "/x", "-d/x". */
static const char *path_of(const char *w)
{
	if (w[0] == '/')
		return w;
	/* an option with its value attached ("-d/x"), but not bonnie++'s
	 * machine name (-m), which is only a label */
	if (w[0] == '-' && w[1] && w[1] != 'm' && w[2] == '/')
		return w + 2;
	/* dd's key=value, the key a plain word ("of"): not a path holding
	 * '=', not an option's value ("-mname=/x" is bonnie++'s -m) */
	const char *eq = strchr(w, '=');
	if (w[0] != '-' && eq && eq[1] == '/' && !memchr(w, '/', (size_t)(eq - w)))
		return eq + 1;
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tools[] = {"dd", "bonnie++", "iozone", "zpool-iostat", "time"};
	if (size < 1 || size > 4096)
		return 0;
	const char *tool = tools[data[0] % 5];
	json_t *results =
		json_pack("[{s:s, s:i, s:s}]", "metric", "bytes", "value", 1 << 30, "unit", "B");
	if (data[0] & 0x80) {
		static const char *const vd[] = {"tank", "mirror", "ad4",    "ad6",
						 "logs", "ad8",    "raidz2", "cache"};
		for (size_t i = 0; i < 8; i++)
			json_array_append_new(results,
					      json_pack("{s:s, s:s, s:i, s:i, s:s}", "metric",
							"write", "vdev", vd[(i + data[0]) % 8],
							"sample", 0, "value", 1, "unit", "B/s"));
	}
	json_t *run = json_pack("{s:s, s:s, s:o, s:o, s:{}}", "tool", tool, "variant", "bsd",
				"command", json_stringn_nocheck((const char *)data + 1, size - 1),
				"results", results, "params");
	json_t *doc = json_pack("{s:s, s:[o]}", "schema", "benchlog/1", "runs", run);
	struct bl_replay_opts o = {.scratch = SCRATCH, .max_bytes = 1 << 20, .max_seconds = 5};
	struct bl_plan_set s;
	if (doc && bl_replay_plan(doc, &o, &s) == 0) {
		for (size_t i = 0; i < s.n; i++) {
			const struct bl_plan *p = &s.v[i];
			if (p->status != BL_PLAN_READY)
				continue;
			for (size_t k = 0; k < p->npaths; k++)
				if (!confined(p->paths[k].path))
					abort();
			for (size_t k = 1; k < p->argc; k++) {
				const char *v = path_of(p->argv[k]);
				if (v && !confined(v))
					abort();
			}
			if (p->replay_bytes > o.max_bytes)
				abort();
			json_t *j = bl_plan_to_json(p);
			char *str = json_dumps(j, JSON_COMPACT);
			free(str);
			json_decref(j);
		}
	}
	bl_plan_set_free(&s);
	json_decref(doc);
	return 0;
}
