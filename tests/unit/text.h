/* text.h - a growing NUL-terminated text that tests build inputs in. */
#ifndef BL_TEST_TEXT_H
#define BL_TEST_TEXT_H

#include <stdlib.h>
#include <string.h>

struct text {
	char *s;
	size_t n, cap;
};

/* Appends s (the text stays NUL-terminated). */
static void put(struct text *t, const char *s)
{
	size_t n = strlen(s);
	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
	}
	memcpy(t->s + t->n, s, n + 1);
	t->n += n;
}

#endif
