/* test_name_index.c - a list of names with an index (render/name_index.c):
 * each name once, in the order first met, found again whatever the
 * number of names, and the index rebuilt as it grows. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../render/name_index.h"
#include "check.h"

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static void test_order_and_lookup(void)
{
	char **list = NULL;
	size_t n = 0;
	struct bl_name_index ix = {0};
	CHECK(bl_name_find(list, &ix, "tank") == -1); /* no index yet */
	CHECK(bl_name_intern(&list, &n, &ix, "tank") == 0);
	CHECK(bl_name_intern(&list, &n, &ix, "ada1") == 1);
	CHECK(bl_name_intern(&list, &n, &ix, "tank") == 0);
	CHECK(bl_name_intern(&list, &n, &ix, "") == 2);
	CHECK(bl_name_intern(&list, &n, &ix, "") == 2);
	CHECK(n == 3 && strcmp(list[0], "tank") == 0 && strcmp(list[1], "ada1") == 0);
	/* found, nothing added */
	CHECK(bl_name_find(list, &ix, "ada1") == 1 && bl_name_find(list, &ix, "") == 2);
	CHECK(bl_name_find(list, &ix, "ada2") == -1 && n == 3);
	bl_name_index_free(&ix);
	free_list(list, n);
}

/* The labels of a long log: 20,000 names, each met three times. */
static void test_many(void)
{
	char **list = NULL, buf[32];
	size_t n = 0;
	struct bl_name_index ix = {0};
	bool ok = true;
	for (int round = 0; round < 3; round++)
		for (long i = 0; i < 20000; i++) {
			snprintf(buf, sizeof buf, "run %ld", i * 7919 % 20000);
			long k = bl_name_intern(&list, &n, &ix, buf);
			ok &= k >= 0 && strcmp(list[k], buf) == 0;
			if (round == 0)
				ok &= (size_t)k + 1 == n; /* new names go last */
		}
	CHECK(ok);
	CHECK(n == 20000);
	CHECK(ix.cap >= 2 * n);
	bl_name_index_free(&ix);
	free_list(list, n);
}

/* A list interned before its index existed (or with another one) is
 * indexed whole on first use. */
static void test_index_made_late(void)
{
	char **list = NULL;
	size_t n = 0;
	struct bl_name_index a = {0}, b = {0};
	bl_name_intern(&list, &n, &a, "x");
	bl_name_intern(&list, &n, &a, "y");
	CHECK(bl_name_intern(&list, &n, &b, "y") == 1);
	CHECK(bl_name_intern(&list, &n, &b, "z") == 2 && n == 3);
	bl_name_index_free(&a);
	bl_name_index_free(&b);
	free_list(list, n);
}

int main(void)
{
	test_order_and_lookup();
	test_many();
	test_index_made_late();
	return CHECK_DONE();
}
