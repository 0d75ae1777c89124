/* parse.c - one message to one document. */
#include "benchlog.h"

#include "re.h"
#include "system.h"

json_t *bl_parse_message(struct bl_message *m, const char *path)
{
	struct bl_doc doc;
	if (bl_doc_init(&doc, m, path) < 0)
		return NULL;
	if (bl_scan_message_into(m, &doc) < 0) {
		bl_doc_free(&doc);
		return NULL;
	}
	doc.system = bl_system_extract(m);
	json_t *j = bl_doc_to_json(&doc);
	bl_doc_free(&doc);
	return j;
}

void bl_cleanup(void)
{
	bl_re_free_all();
}
