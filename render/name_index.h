/* name_index.h - a list of names (a chart's categories, series, splits)
 * with an index by hash, so that finding or adding a name costs the same
 * with ten names as with the thousands of labels of a long log. */
#ifndef BL_NAME_INDEX_H
#define BL_NAME_INDEX_H

#include <stddef.h>

struct bl_name_index {
	size_t *slot; /* a name's index in the list + 1; 0: an empty slot */
	size_t cap; /* a power of two, at least twice the names */
};

/* The index of s in list[0, *n), appended (a copy) when absent; ix
 * indexes the list and is kept up to date. -1 on out of memory. */
long bl_name_intern(char ***list, size_t *n, struct bl_name_index *ix, const char *s);
void bl_name_index_free(struct bl_name_index *ix);

#endif
