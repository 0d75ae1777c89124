/* slurp.h - a whole test input file in memory. */
#ifndef BL_TEST_SLURP_H
#define BL_TEST_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of path (*len of them), malloc'd; NULL when it cannot be read
 * or memory runs out. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	char *b = malloc(cap);
	while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		char *nb = realloc(b, cap *= 2);
		if (!nb)
			free(b);
		b = nb;
	}
	fclose(f);
	*len = n;
	return b;
}

#endif
