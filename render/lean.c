/* lean.c - the part of a document beside its runs that chart and table
 * read, copied out of it: its schema, source, system and partial, and of
 * its diagnostics those that mark a run's values as read but not cleanly
 * (run_warnings in select.c), as {"level", "code", "run"}; and what they
 * do not read of a run. A post of
 * 100,000 lines can carry 10,000 notes; these keep the few that show.
 * What this keeps must follow what select.c, model.c, table.c and
 * render_opts.c read. */
#include <string.h>

#include "render.h"

static const char *const doc_keys[] = {"schema", "source", "system", "partial"};

/* Of a run, the time(1) report around its command. */
const char *const bl_render_lean_run_skip[] = {"time", NULL};

/* Of its span, the line a run is named by when it has no other name
 * (select.c, table.c), in the span's place: an object of four numbers
 * cost 750 bytes a run, and an object of one 290, 4.6 MB of a table of
 * 16,000 runs. bl_render_run_line reads either. */
const char *const bl_render_lean_run_lift[] = {"span.line", NULL};

json_t *bl_render_run_line_value(json_t *run)
{
	json_t *span = json_object_get(run, "span");
	return json_is_object(span) ? json_object_get(span, "line") : span;
}

json_int_t bl_render_run_line(json_t *run)
{
	return json_integer_value(bl_render_run_line_value(run));
}

/* A post's runs name a handful of tools and variants, and its repeats
 * share their label, command and parameters: a table of 16,000 runs
 * held 11 MB of parameters as values, 282 of them different. */
const char *const bl_render_lean_run_share[] = {"tool",  "variant", "label", "command",
						"group", "params",  NULL};

/* Copies member key of from into to, when from has it. */
static int copy_member(json_t *to, json_t *from, const char *key)
{
	json_t *v = json_object_get(from, key);
	if (!v)
		return 0;
	json_t *c = json_deep_copy(v);
	return c ? json_object_set_new(to, key, c) : -1;
}

/* The diagnostics about a run that are more than an "info". */
static json_t *lean_diagnostics(json_t *diags)
{
	json_t *kept = json_array(), *d;
	size_t i;
	if (!kept)
		return NULL;
	json_array_foreach(diags, i, d)
	{
		json_t *level = json_object_get(d, "level"), *run = json_object_get(d, "run");
		if (!json_is_string(level) || strcmp(json_string_value(level), "info") == 0 ||
		    !json_is_integer(run))
			continue;
		/* copies: the document's values may be let go another way */
		json_t *l = json_pack("{sssIss?}", "level", json_string_value(level), "run",
				      (json_int_t)json_integer_value(run), "code",
				      json_string_value(json_object_get(d, "code")));
		if (!l || json_array_append_new(kept, l) < 0) {
			json_decref(kept);
			return NULL;
		}
	}
	return kept;
}

json_t *bl_render_lean_doc(json_t *doc, json_t *runs)
{
	json_t *lean = json_object();
	int rc = lean ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < sizeof doc_keys / sizeof doc_keys[0]; i++)
		rc = copy_member(lean, doc, doc_keys[i]);
	json_t *diags = rc == 0 ? lean_diagnostics(json_object_get(doc, "diagnostics")) : NULL;
	/* json_object_set_new lets go of the value it could not set */
	if (!diags || json_object_set_new(lean, "diagnostics", diags) < 0 ||
	    json_object_set_new(lean, "runs", json_incref(runs)) < 0) {
		json_decref(lean);
		return NULL;
	}
	return lean;
}
