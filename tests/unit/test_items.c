/* test_items.c - the list of a view's values (render/items.c): values of
 * one place make one item, its further values beside it in order, its
 * marks joined; a place that differs in any field, an order to the bit
 * included, is an item of its own; and thousands of places keep apart
 * through the slots' growth. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../render/internal.h"
#include "check.h"

/* An item of run `run` of document 0, category and series kept by it. */
static struct bl_item item(struct bl_items *it, const char *cat, const char *ser, size_t run,
			   double value)
{
	struct bl_item x = {0};
	x.cat = bl_items_keep(it, cat);
	x.ser = bl_items_keep(it, ser);
	x.split = bl_items_keep(it, "");
	x.cat_order = x.split_order = x.ser_order = NAN;
	x.value = value;
	x.run_index = run;
	x.command = "zpool iostat -v 1";
	x.source_name = "log";
	return x;
}

static void test_one_place(void)
{
	struct bl_items it = {0};
	const char *vdevs[] = {"tank", "tank/mirror-0", "tank/mirror-0/ada0"};
	/* three samples of three vdevs, read and write: 6 places */
	for (int s = 0; s < 3; s++)
		for (int v = 0; v < 3; v++) {
			struct bl_item r = item(&it, vdevs[v], "read", 0, s * 10 + v);
			struct bl_item w = item(&it, vdevs[v], "write", 0, s == 1 ? NAN : s);
			w.censored = s == 1;
			r.approximate = s == 2 && v == 0;
			CHECK(bl_items_add(&it, &r) == 0);
			CHECK(bl_items_add(&it, &w) == 0);
		}
	CHECK(it.n == 6);
	size_t n;
	const double *more = bl_item_more_values(&it, &it.v[0], &n);
	CHECK(strcmp(it.v[0].cat, "tank") == 0 && strcmp(it.v[0].ser, "read") == 0);
	CHECK(it.v[0].value == 0 && n == 2 && more[0] == 10 && more[1] == 20);
	CHECK(it.v[0].approximate && !it.v[2].approximate);
	more = bl_item_more_values(&it, &it.v[1], &n);
	CHECK(it.v[1].censored && n == 2 && isnan(more[0]) && more[1] == 2);
	CHECK(strcmp(it.v[4].cat, "tank/mirror-0/ada0") == 0);
	bl_items_free(&it);
}

/* A field apart makes an item apart; NAN orders are one order. */
static void test_places_apart(void)
{
	struct bl_items it = {0};
	struct bl_item a = item(&it, "tank", "read", 0, 1);
	struct bl_item variants[7];
	for (int i = 0; i < 7; i++)
		variants[i] = a;
	variants[0].run_index = 1;
	variants[1].cat_order = 4096;
	variants[2].ser_order = -0.0; /* 0 to the eye, not to the bit */
	variants[3].command = "zpool iostat -v 5";
	variants[4].doc = 1;
	variants[5].split = bl_items_keep(&it, "8k");
	variants[6].warning = "zpool.truncated-sample";
	CHECK(bl_items_add(&it, &a) == 0);
	for (int i = 0; i < 7; i++)
		CHECK(bl_items_add(&it, &variants[i]) == 0);
	CHECK(it.n == 8);
	struct bl_item again = item(&it, "tank", "read", 0, 2);
	CHECK(bl_items_add(&it, &again) == 0);
	size_t n;
	bl_item_more_values(&it, &it.v[0], &n);
	CHECK(it.n == 8 && n == 1);
	bl_items_free(&it);
}

/* 5,000 places, each given three values in turns: every value with its
 * place after the slots grew many times. */
static void test_many_places(void)
{
	struct bl_items it = {0};
	char name[32];
	for (int round = 0; round < 3; round++)
		for (int p = 0; p < 5000; p++) {
			snprintf(name, sizeof name, "vdev%d", p);
			struct bl_item x = item(&it, name, "read", (size_t)p % 7, p + round * 0.25);
			CHECK(bl_items_add(&it, &x) == 0);
		}
	CHECK(it.n == 5000);
	size_t bad = 0, n;
	for (size_t i = 0; i < it.n; i++) {
		const double *more = bl_item_more_values(&it, &it.v[i], &n);
		snprintf(name, sizeof name, "vdev%zu", i);
		bad += strcmp(it.v[i].cat, name) != 0 || it.v[i].value != (double)i || n != 2 ||
		       more[0] != i + 0.25 || more[1] != i + 0.5;
	}
	CHECK(bad == 0);
	bl_items_free(&it);
}

int main(void)
{
	test_one_place();
	test_places_apart();
	test_many_places();
	return CHECK_DONE();
}
