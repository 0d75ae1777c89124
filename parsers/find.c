/* find.c - the searches of find.h that are not inline. */
#include "find.h"

#include <stdint.h>

typedef unsigned char v16 __attribute__((vector_size(16)));

const char *bl_find_digit(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		v16 v;
		memcpy(&v, s + i, 16);
		v16 d = (v16)((v16)(v - '0') <= 9);
		uint64_t lanes[2];
		memcpy(lanes, &d, sizeof lanes);
		if (!(lanes[0] | lanes[1]))
			continue;
		for (size_t j = 0; j < 16; j++)
			if (d[j])
				return s + i + j;
	}
	for (; i < n; i++)
		if ((unsigned char)(s[i] - '0') <= 9)
			return s + i;
	return NULL;
}

size_t bl_ascii_span(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		v16 v;
		memcpy(&v, s + i, 16);
		/* 1..127 is (x - 1) < 127 */
		v16 bad = (v16)((v16)(v - 1) >= 127);
		uint64_t lanes[2];
		memcpy(lanes, &bad, sizeof lanes);
		if (lanes[0] | lanes[1])
			break;
	}
	while (i < n && (unsigned char)(s[i] - 1) < 127)
		i++;
	return i;
}

size_t bl_count_byte(const char *s, size_t n, char c)
{
	size_t total = 0, i = 0;
	const v16 want = (v16){0} + (unsigned char)c;
	while (i + 16 <= n) {
		/* a count per lane, one byte each: summed every 255 steps */
		v16 acc = {0};
		for (unsigned step = 0; step < 255 && i + 16 <= n; step++, i += 16) {
			v16 v;
			memcpy(&v, s + i, 16);
			acc -= (v16)(v == want); /* a match is 0xFF: -1 */
		}
		for (unsigned j = 0; j < 16; j++)
			total += acc[j];
	}
	for (; i < n; i++)
		total += s[i] == c;
	return total;
}
