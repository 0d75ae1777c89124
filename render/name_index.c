/* name_index.c - a list of names with an index by hash (name_index.h). */
#include "name_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/hash.h"

static size_t slot_of(const struct bl_name_index *ix, char *const *list, const char *s, size_t len)
{
	size_t mask = ix->cap - 1, i = (size_t)bl_hash_bytes(s, len) & mask;
	while (ix->slot[i] && strcmp(list[ix->slot[i] - 1], s) != 0)
		i = (i + 1) & mask;
	return i;
}

/* Room for n + 1 names at most half the slots: the index made anew. */
static int grow(struct bl_name_index *ix, char *const *list, size_t n)
{
	if (2 * (n + 1) <= ix->cap)
		return 0;
	size_t cap = ix->cap ? ix->cap : 16;
	while (2 * (n + 1) > cap)
		cap *= 2;
	size_t *slot = calloc(cap, sizeof *slot);
	if (!slot)
		return -1;
	free(ix->slot);
	ix->slot = slot;
	ix->cap = cap;
	for (size_t k = 0; k < n; k++)
		ix->slot[slot_of(ix, list, list[k], strlen(list[k]))] = k + 1;
	return 0;
}

long bl_name_intern(char ***list, size_t *n, struct bl_name_index *ix, const char *s)
{
	if (grow(ix, *list, *n) < 0)
		return -1;
	size_t i = slot_of(ix, *list, s, strlen(s));
	if (ix->slot[i])
		return (long)(ix->slot[i] - 1);
	char **v = realloc(*list, (*n + 1) * sizeof *v);
	if (!v)
		return -1;
	*list = v;
	if (!(v[*n] = strdup(s)))
		return -1;
	ix->slot[i] = ++*n;
	return (long)(*n - 1);
}

long bl_name_find(char *const *list, const struct bl_name_index *ix, const char *s)
{
	if (!ix->cap)
		return -1;
	size_t i = slot_of(ix, list, s, strlen(s));
	return ix->slot[i] ? (long)(ix->slot[i] - 1) : -1;
}

void bl_name_index_free(struct bl_name_index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
	ix->cap = 0;
}

long bl_name_number(char *const *texts, size_t n, size_t *num)
{
	struct bl_name_index ix = {0};
	char **names = NULL;
	size_t nn = 0;
	long rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		long k = bl_name_intern(&names, &nn, &ix, texts[i]);
		if (k < 0)
			rc = -1;
		else
			num[i] = (size_t)k;
	}
	for (size_t k = 0; k < nn; k++)
		free(names[k]);
	free(names);
	bl_name_index_free(&ix);
	return rc < 0 ? -1 : (long)nn;
}

size_t *bl_name_groups(const size_t *num, size_t n, size_t count, size_t *members)
{
	size_t *from = calloc(count + 1, sizeof *from);
	size_t *at = malloc((count ? count : 1) * sizeof *at);
	if (!from || !at) {
		free(from);
		free(at);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		from[num[i] + 1]++;
	for (size_t k = 0; k < count; k++)
		from[k + 1] += from[k];
	memcpy(at, from, count * sizeof *at);
	for (size_t i = 0; i < n; i++)
		members[at[num[i]]++] = i;
	free(at);
	return from;
}
