/* shapes.c - the tools' shapes handed to the unflattener and the
 * rewrapper (see shapes.h). */
#include "shapes.h"

#include <string.h>

#include "decode.h"

/* Shape g of the literal order: the lines' of every tool, then the ends'. */
const struct bl_line_shape *bl_shape_of_literal(const struct bl_ingest_plan *p, size_t g, bool *end)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t t = 0; t < p->ntools; t++) {
			const struct bl_tool_shapes *ts = p->tools[t];
			if (!ts)
				continue;
			const struct bl_line_shape *v = pass ? ts->ends : ts->lines;
			size_t n = pass ? ts->nends : ts->nlines;
			for (size_t i = 0; i < n; i++) {
				if (!v[i].lit)
					continue;
				if (g-- == 0) {
					if (end)
						*end = pass == 1;
					return &v[i];
				}
			}
		}
	return NULL;
}

size_t bl_shape_literals(const struct bl_ingest_plan *p, struct bl_site_literal *out, size_t max)
{
	size_t n = 0;
	for (const struct bl_line_shape *s; (s = bl_shape_of_literal(p, n, NULL)); n++)
		if (n < max)
			out[n] = (struct bl_site_literal){s->lit, s->digit_after, s->next};
	return n;
}

bool bl_shapes_use(const struct bl_ingest_plan *p)
{
	static const struct bl_ingest_plan *current;
	static bool made;
	if (made && p == current)
		return true;
	made = bl_unflatten_compose(p) && bl_rewrap_compose(p);
	current = p;
	return made;
}

bool bl_shapes_cat(char *buf, size_t cap, size_t *n, const char *s)
{
	size_t l = strlen(s);
	if (*n + l >= cap)
		return false;
	memcpy(buf + *n, s, l + 1);
	*n += l;
	return true;
}
