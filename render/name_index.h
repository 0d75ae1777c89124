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
/* The index of s in list (indexed by ix), or -1 when absent. */
long bl_name_find(char *const *list, const struct bl_name_index *ix, const char *s);
void bl_name_index_free(struct bl_name_index *ix);

/* Numbers n texts: num[i] is text i's number among the distinct ones,
 * in the order first met. How many are distinct, or -1 on out of memory. */
long bl_name_number(char *const *texts, size_t n, size_t *num);
/* 0 to n - 1 grouped by their numbers (num[i] < count), in order within
 * a group: members[from[k], from[k + 1]) are number k's. Returns from
 * (count + 1 entries, new), or NULL on out of memory. */
size_t *bl_name_groups(const size_t *num, size_t n, size_t count, size_t *members);

#endif
