/* diag.c - diagnostics list. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bl_diag *drop(struct bl_diags *d, enum bl_level level, size_t offset)
{
	d->dropped++;
	d->last_warning = level >= BL_WARNING;
	d->dropped_warnings += d->last_warning;
	d->last_elsewhere = d->own_to && (offset < d->own_from || offset >= d->own_to);
	d->dropped_elsewhere += d->last_elsewhere;
	return NULL;
}

struct bl_diag *bl_diags_add(struct bl_diags *d, enum bl_level level, const char *code, size_t line,
			     size_t offset, const char *fmt, ...)
{
	if (d->n >= BL_DIAGS_MAX ||
	    (level < BL_WARNING && d->n >= BL_DIAGS_MAX - BL_DIAGS_WARN_ROOM))
		return drop(d, level, offset);
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		struct bl_diag *v = realloc(d->v, cap * sizeof *v);
		if (!v)
			return drop(d, level, offset);
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
		return drop(d, level, offset);
	e->level = level;
	snprintf(e->code, sizeof e->code, "%s", code);
	e->line = line;
	e->offset = offset;
	e->run = -1;
	d->n++;
	return e;
}

void bl_diags_held_drop(struct bl_diags *d, long run, const char *code)
{
	if (run < 0)
		return;
	struct bl_diags_held *h = d->nheld ? &d->held[(d->nheld - 1) % BL_DIAGS_HELD] : NULL;
	if (!h || h->run != run || strcmp(h->code, code) != 0) {
		h = &d->held[d->nheld++ % BL_DIAGS_HELD];
		h->run = run;
		snprintf(h->code, sizeof h->code, "%s", code);
		h->n = h->elsewhere = h->warnings = 0;
	}
	h->n++;
	h->elsewhere += d->last_elsewhere;
	h->warnings += d->last_warning;
}

void bl_diags_retract(struct bl_diags *d, long run, const char *code, size_t *dropped,
		      size_t *elsewhere)
{
	*dropped = *elsewhere = 0;
	size_t o = 0;
	for (size_t i = 0; i < d->n; i++) {
		struct bl_diag *e = &d->v[i];
		if (e->run == run && strcmp(e->code, code) == 0) {
			free(e->message);
			continue;
		}
		d->v[o++] = *e;
	}
	d->n = o;
	size_t kept = d->nheld < BL_DIAGS_HELD ? d->nheld : BL_DIAGS_HELD;
	for (size_t i = 0; i < kept; i++) {
		struct bl_diags_held *h = &d->held[i];
		if (h->n && h->run == run && strcmp(h->code, code) == 0) {
			d->dropped -= h->n;
			d->dropped_elsewhere -= h->elsewhere;
			d->dropped_warnings -= h->warnings;
			*dropped += h->n;
			*elsewhere += h->elsewhere;
			h->n = h->elsewhere = h->warnings = 0;
		}
	}
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
