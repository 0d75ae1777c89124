/* parse.c - one message to one document, as a JSON tree or written out
 * run by run (write.c). */
#include "benchlog.h"

#include "../base/re.h"
#include "system.h"

static int append_run(void *ctx, struct bl_doc *doc, struct bl_run *run, size_t index)
{
	json_t *o = bl_doc_run_json(doc, run, index);
	if (!o || json_array_append_new(ctx, o) < 0)
		return -1;
	return 0;
}

/* Copies the members of `from` into `to` (order kept). */
static void merge(json_t *to, json_t *from)
{
	const char *k;
	json_t *v;
	json_object_foreach(from, k, v) json_object_set(to, k, v);
}

json_t *bl_parse_message(struct bl_message *m, const char *path)
{
	struct bl_doc doc;
	if (bl_doc_init(&doc, m, path) < 0)
		return NULL;
	/* the head of the document comes before its runs; read with whole
	 * lines, as the scan reads them (a scan before may have left some of
	 * their prefixes out) */
	bl_message_prefix_clear(m);
	doc.system = bl_system_extract(m);
	json_t *runs = json_array();
	doc.sink = append_run;
	doc.sink_ctx = runs;
	json_t *root = NULL, *tail = NULL;
	if (runs && bl_scan_message_into(m, &doc) == 0 && !doc.sink_rc &&
	    (root = bl_doc_head_json(&doc)) && (tail = bl_doc_tail_json(&doc)) &&
	    json_object_set(root, "runs", runs) == 0) {
		merge(root, tail);
	} else {
		json_decref(root);
		root = NULL;
	}
	json_decref(tail);
	json_decref(runs);
	bl_doc_free(&doc);
	return root;
}

void bl_cleanup(void)
{
	bl_re_free_all();
	bl_results_cleanup();
	bl_write_cleanup();
}
