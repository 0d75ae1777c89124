/* diag.c - diagnostics list. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bl_diag *drop(struct bl_diags *d, size_t offset)
{
	d->dropped++;
	if (d->own_to && (offset < d->own_from || offset >= d->own_to))
		d->dropped_elsewhere++;
	return NULL;
}

struct bl_diag *bl_diags_add(struct bl_diags *d, enum bl_level level, const char *code, size_t line,
			     size_t offset, const char *fmt, ...)
{
	if (d->n >= BL_DIAGS_MAX)
		return drop(d, offset);
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		struct bl_diag *v = realloc(d->v, cap * sizeof *v);
		if (!v)
			return drop(d, offset);
		d->v = v;
		d->cap = cap;
	}
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	struct bl_diag *e = &d->v[d->n];
	e->message = strdup(buf);
	if (!e->message)
		return drop(d, offset);
	e->level = level;
	snprintf(e->code, sizeof e->code, "%s", code);
	e->line = line;
	e->offset = offset;
	e->run = -1;
	d->n++;
	return e;
}

void bl_diags_free(struct bl_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].message);
	free(d->v);
	memset(d, 0, sizeof *d);
}

const char *bl_level_name(enum bl_level level)
{
	switch (level) {
	case BL_INFO: return "info";
	case BL_WARNING: return "warning";
	case BL_ERROR: return "error";
	}
	return "error";
}
