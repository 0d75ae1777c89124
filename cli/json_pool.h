/* json_pool.h - jansson's small blocks from free lists (json_pool.c). */
#ifndef BENCHLOG_JSON_POOL_H
#define BENCHLOG_JSON_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* Hands jansson's allocations to the pool; call before any jansson value
 * exists. False (jansson stays on malloc) with BENCHLOG_MALLOC=system in
 * the environment. */
bool json_pool_use(void);

/* The pool's malloc and free, as jansson calls them. A block is aligned
 * as malloc's are; json_pool_free takes only what json_pool_malloc gave. */
void *json_pool_malloc(size_t size);
void json_pool_free(void *p);

#endif
