/* fuzz_chart.c - arbitrary documents through the chart model, the layout
 * (with a fixed-width text measure, no fonts) and the tables. The input is
 * benchlog JSON when it parses as JSON, else a post parsed through the
 * library (so the corpus posts seed it); the first byte picks options.
 * Any crash, leak, undefined behaviour or sanitizer report is a finding. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../../render/render.h"

static void measure(void *ctx, const char *text, double size, double wrap, bool bold, double *w,
		    double *h)
{
	(void)ctx;
	(void)bold;
	double len = (double)strlen(text) * size * 0.6;
	double lines = wrap > 0 && len > wrap ? len / wrap + 1 : 1;
	*w = wrap > 0 && len > wrap ? wrap : len;
	*h = lines * size * 1.2;
}

static int sink(void *ctx, const unsigned char *data, size_t len)
{
	(void)data;
	*(size_t *)ctx += len;
	return 0;
}

static int each(struct bl_message *m, void *ctx)
{
	json_t *doc = bl_parse_message(m, "fuzz");
	if (doc)
		json_array_append_new(ctx, doc);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t sel = data[0];
	data++;
	size--;
	json_t *docs = json_array();
	json_t *j = json_loadb((const char *)data, size, JSON_DISABLE_EOF_CHECK, NULL);
	if (json_is_object(j))
		json_array_append_new(docs, j);
	else if (json_is_array(j)) {
		json_array_extend(docs, j);
		json_decref(j);
	} else {
		json_decref(j);
		bl_ingest_buffer(bl_parser_ingest(), (const char *)data, size, each, docs);
	}
	static const enum bl_key keys[] = {BL_KEY_NONE, BL_KEY_LABEL,  BL_KEY_RUN,  BL_KEY_SOURCE,
					   BL_KEY_TOOL, BL_KEY_METRIC, BL_KEY_NONE, BL_KEY_NONE};
	struct bl_chart_opts o = {
		.group_by = keys[sel & 7],
		.sort = (enum bl_sort)((sel >> 3) % 3),
		.units = (sel & 0x20) ? BL_UNITS_BINARY : BL_UNITS_DECIMAL,
		.log = (sel & 0x40) != 0,
		.metric = (sel & 0x80) ? "elapsed" : NULL,
	};
	struct bl_charts cs;
	char err[128];
	size_t n = 0;
	if (bl_chart_build(docs, &o, &cs, err, sizeof err) == 0) {
		struct bl_measure m = {measure, NULL};
		for (size_t i = 0; i < cs.n; i++) {
			struct bl_layout l;
			if (bl_layout_chart(&cs.v[i], 960, 0, (enum bl_orient)(sel % 3), &m, &l) ==
			    0)
				bl_layout_free(&l);
			bl_table_chart(&cs.v[i], (sel & 1) ? BL_TABLE_MARKDOWN : BL_TABLE_TEXT,
				       sink, &n);
		}
		bl_charts_free(&cs);
	}
	bl_table_csv(docs, &o, sink, &n);
	json_decref(docs);
	return 0;
}
