/* test_json_pool.c - the command's jansson allocator (cli/json_pool.c):
 * the free lists (pooled_malloc, pooled_free: alignment, reuse within a
 * size class and not across, the malloc path for large blocks, blocks
 * that keep their bytes while others come and go), and jansson values
 * built on what the command uses (json_pool_malloc, json_pool_free, the
 * free lists or, under AddressSanitizer, malloc behind the header) that
 * dump as on malloc. */
#include "../../cli/json_pool.c"

#include <stdint.h>
#include <stdio.h>

#include "check.h"

#define ALIGN _Alignof(max_align_t)

static void alignment_and_sizes(void)
{
	int misaligned = 0, null = 0;
	for (size_t n = 0; n <= 600; n++) {
		unsigned char *p = pooled_malloc(n);
		if (!p) {
			null++;
			continue;
		}
		if ((uintptr_t)p % ALIGN)
			misaligned++;
		memset(p, 0xA5, n); /* the whole of what was asked for is there */
		pooled_free(p);
	}
	CHECK(null == 0);
	CHECK(misaligned == 0);
	pooled_free(NULL); /* as free(NULL) */
	CHECK(pooled_malloc((size_t)-1) == NULL);
	CHECK(pooled_malloc((size_t)-1 - 8) == NULL);
}

static void reuse(void)
{
	/* 33 to 48 bytes share a class: a freed block comes back for any */
	void *a = pooled_malloc(40);
	pooled_free(a);
	void *b = pooled_malloc(33);
	CHECK(b == a);
	pooled_free(b);
	void *c = pooled_malloc(48);
	CHECK(c == a);
	/* 49 bytes is the next class: not that block */
	void *d = pooled_malloc(49);
	CHECK(d != a);
	pooled_free(c);
	pooled_free(d);
	/* last freed, first given */
	void *e = pooled_malloc(20), *f = pooled_malloc(20);
	pooled_free(e);
	pooled_free(f);
	CHECK(pooled_malloc(17) == f);
	CHECK(pooled_malloc(32) == e);
	pooled_free(e);
	pooled_free(f);
	/* past POOL_MAX: malloc's, never a pool block */
	void *g = pooled_malloc(POOL_MAX + 1);
	CHECK(g != NULL && g != e && g != f);
	memset(g, 1, POOL_MAX + 1);
	pooled_free(g);
}

/* Many blocks of many sizes, each filled with its own byte; half freed and
 * allocated again, several chunks' worth: no block loses a byte. */
static void integrity(void)
{
	enum { N = 20000 };
	static unsigned char *p[N];
	static size_t len[N];
	uint32_t x = 12345;
	for (size_t i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		len[i] = (x >> 8) % 300;
		p[i] = pooled_malloc(len[i]);
		if (p[i])
			memset(p[i], (int)(i & 0xFF), len[i]);
	}
	for (size_t i = 0; i < N; i += 2) {
		pooled_free(p[i]);
		x = x * 1103515245u + 12345u;
		len[i] = (x >> 8) % 300;
		p[i] = pooled_malloc(len[i]);
		if (p[i])
			memset(p[i], (int)(i & 0xFF), len[i]);
	}
	size_t bad = 0, null = 0;
	for (size_t i = 0; i < N; i++) {
		if (!p[i]) {
			null++;
			continue;
		}
		for (size_t k = 0; k < len[i]; k++)
			if (p[i][k] != (unsigned char)(i & 0xFF)) {
				bad++;
				break;
			}
		pooled_free(p[i]);
	}
	CHECK(null == 0);
	CHECK(bad == 0);
}

/* A document of a few thousand members, strings and numbers, built once
 * on malloc and once on the pool: the same bytes when dumped. */
static char *build_and_dump(void)
{
	json_t *root = json_object();
	json_t *runs = json_array();
	for (int i = 0; i < 2000; i++) {
		json_t *r = json_object();
		char key[32], val[300];
		snprintf(key, sizeof key, "metric_%d", i);
		memset(val, 'a' + i % 26, sizeof val - 1);
		val[(size_t)i % (sizeof val - 1)] = '\0';
		json_object_set_new(r, key, json_string(val));
		json_object_set_new(r, "value", json_real(i * 1.5));
		json_object_set_new(r, "count", json_integer(i));
		json_array_append_new(runs, r);
	}
	json_object_set_new(root, "runs", runs);
	/* json_dumpb: a buffer of ours, not one from jansson's allocator */
	size_t n = json_dumpb(root, NULL, 0, JSON_COMPACT);
	char *s = malloc(n + 1);
	if (s) {
		json_dumpb(root, s, n, JSON_COMPACT);
		s[n] = '\0';
	}
	json_decref(root);
	return s;
}

static void jansson_on_pool(void)
{
	char *want = build_and_dump();
	json_set_alloc_funcs(json_pool_malloc, json_pool_free);
	char *got = build_and_dump();
	json_set_alloc_funcs(malloc, free);
	CHECK(want && got && strcmp(want, got) == 0);
	free(want);
	free(got);
}

static void switch_on_off(void)
{
	json_malloc_t m;
	json_free_t f;
	setenv("BENCHLOG_MALLOC", "system", 1);
	CHECK(!json_pool_use());
	json_get_alloc_funcs(&m, &f);
	CHECK(m == malloc && f == free);
	unsetenv("BENCHLOG_MALLOC");
	CHECK(json_pool_use());
	json_get_alloc_funcs(&m, &f);
	CHECK(m == json_pool_malloc && f == json_pool_free);
	json_set_alloc_funcs(malloc, free);
}

#ifdef POOL_ASAN
/* Under AddressSanitizer: the bytes asked for are open, the header and
 * the bytes past the end are not, nor a freed block. */
static void poisoning(void)
{
	char *p = pooled_malloc(24);
	CHECK(!__asan_address_is_poisoned(p) && !__asan_address_is_poisoned(p + 23));
	CHECK(__asan_address_is_poisoned(p + 24));
	CHECK(__asan_address_is_poisoned(p - 1));
	pooled_free(p);
	CHECK(__asan_address_is_poisoned(p));
	char *q = pooled_malloc(32);
	CHECK(q == p && !__asan_address_is_poisoned(q + 31));
	pooled_free(q);
}
#endif

int main(void)
{
	alignment_and_sizes();
	reuse();
	integrity();
	jansson_on_pool();
	switch_on_off();
#ifdef POOL_ASAN
	poisoning();
#endif
	return CHECK_DONE();
}
