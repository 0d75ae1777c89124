/* hash.h - hashes for the small tables that find a string or an address
 * again: a stream's rows, names and keys repeat, and each table looked
 * them up by a mix of its own. */
#ifndef BL_HASH_H
#define BL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A hash of s[0, n), eight bytes a step; all its bits are mixed. */
static inline uint64_t bl_hash_bytes(const char *s, size_t n)
{
	uint64_t h = n * 0x9E3779B97F4A7C15ULL, w;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
	return h ^ h >> 32;
}

/* A slot among 2^bits (1 to 63) for an address, such as a string
 * literal's. */
static inline unsigned bl_hash_ptr(const void *p, unsigned bits)
{
	return (unsigned)((uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL >> (64 - bits));
}

#endif
