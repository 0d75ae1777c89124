/* zpool_size.h - the reading of zpool's usual niced numbers ("331",
 * "16K", "1.07T"), inline: a `zpool iostat -v` stream has six of them a
 * row, and a call each cost a fifth of the reading. Other numbers are read
 * by bl_zpool_number_any (zpool_numbers.c). */
#ifndef BL_ZPOOL_SIZE_H
#define BL_ZPOOL_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool bl_zpool_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The shift of a size's unit letter: K is 2^10 ... E 2^60; 0: none. */
static inline unsigned bl_zpool_size_shift(char c)
{
	switch (c) {
	case 'K': return 10;
	case 'M': return 20;
	case 'G': return 30;
	case 'T': return 40;
	case 'P': return 50;
	case 'E': return 60;
	default: return 0;
	}
}

/* round(mant / 10^d * 2^k) as an integer, for zpool's usual sizes ("1.60K",
 * "25.4M", "1.07T"): true, with *count, where it equals what the reading
 * through a double gives (the quotient rounded to a double, times 2^k,
 * rounded). It does below 2^42: the double is then within 2^-11 of the
 * quotient, which is never closer than 1/250 to a half (mant * 2^(k-d) /
 * 5^d with d <= 3). */
static inline bool bl_zpool_scaled_count(uint64_t mant, unsigned k, size_t d, uint64_t *count)
{
	static const uint64_t tens[4] = {1, 10, 100, 1000};
	if (d > 3 || k > 50 || mant >= (UINT64_C(1) << 13))
		return false;
	uint64_t num = mant << k; /* below 2^63 */
	if (d && num >= (UINT64_C(1) << 42) * tens[d])
		return false;
	switch (d) {
	case 0: *count = num; break;
	case 1: *count = num / 10 + (num % 10 >= 5); break;
	case 2: *count = num / 100 + (num % 100 >= 50); break;
	default: *count = num / 1000 + (num % 1000 >= 500); break;
	}
	return true;
}

/* The usual size, count or rate, at most 5 bytes: "331", "16K", "1.07T",
 * "25.4M". True, with *out and *approximate, where it reads as
 * bl_zpool_number_any would; false: that reads it. */
static inline bool bl_zpool_usual_size(const char *s, size_t n, double *out, bool *approximate)
{
	if (n == 0 || n > 5 || !bl_zpool_digit(s[0]))
		return false;
	uint64_t mant = 0;
	size_t i = 0, decimals = 0;
	while (i < n && bl_zpool_digit(s[i]))
		mant = mant * 10 + (uint64_t)(s[i++] - '0');
	if (i < n && s[i] == '.') {
		size_t first = ++i;
		while (i < n && bl_zpool_digit(s[i]))
			mant = mant * 10 + (uint64_t)(s[i++] - '0');
		if (!(decimals = i - first))
			return false;
	}
	unsigned shift = 0;
	if (i < n && (i + 1 != n || !(shift = bl_zpool_size_shift(s[i]))))
		return false;
	uint64_t count = mant;
	if (shift ? !bl_zpool_scaled_count(mant, shift, decimals, &count) : decimals != 0)
		return false;
	*out = (double)count;
	*approximate = decimals != 0;
	return true;
}

/* What bl_zpool_number does not read inline: latencies, -p's exact
 * numbers past 5 digits, decimals without a unit, and what is no number. */
bool bl_zpool_number_any(const char *s, size_t n, bool time, double *out, bool *dash,
			 bool *approximate);

/* A printed number of zpool iostat:
 *   "1.44K" "86.1K" "623M" "16K" "1015" "0"   base 1024 (sizes, ops, bandwidth)
 *   "12ms" "345us" "1s" "20ns"                base 1000 (latency columns)
 *   "-"                                        zero latency, or not applicable
 *   "1638" "123456789"                         -p: exact
 * Sets *dash for "-". *approximate when the text was rounded (a decimal
 * point, or a latency floored to us/ms/s). Returns false when the token is
 * not a number of this kind. */
static inline bool bl_zpool_number(const char *s, size_t n, bool time, double *out, bool *dash,
				   bool *approximate)
{
	if (!time && bl_zpool_usual_size(s, n, out, approximate)) {
		*dash = false;
		return true;
	}
	if (n == 1 && s[0] == '-') {
		*dash = true;
		*approximate = false;
		*out = 0;
		return true;
	}
	return bl_zpool_number_any(s, n, time, out, dash, approximate);
}

#endif
