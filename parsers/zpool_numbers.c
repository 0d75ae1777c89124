/* zpool_numbers.c - the numbers of zpool iostat and the bucket labels of its
 * -w (latency) and -r (request size) histograms.
 *
 * zpool prints numbers "nicely" in at most 5 characters: an exact multiple
 * of a unit without decimals ("16K"), anything else with as many decimals
 * as fit ("1.44K", "86.1K", "623M"); sizes, bandwidth and operation counts
 * in powers of 1024 (K M G T P E, no "B"); latencies in powers of 1000
 * (ns us ms s) floored to an integer; a zero latency as "-". With -p every
 * number is printed exact. */
#include "zpool_iostat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/numfmt.h"
#include "../base/units.h"

bool bl_zpool_number_any(const char *s, size_t n, bool time, double *out, bool *dash,
			 bool *approximate)
{
	*dash = false; /* "-" is read inline */
	*approximate = false;
	size_t i = 0, decimals = 0;
	bool dot = false;
	uint64_t mant = 0; /* the digits, while there are 18 at most */
	while (i < n && (bl_zpool_digit(s[i]) || (s[i] == '.' && !dot && i > 0))) {
		if (s[i] == '.')
			dot = true;
		else {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			decimals += dot;
		}
		i++;
	}
	if (i == 0 || s[i - 1] == '.' || i > 24)
		return false;
	uint64_t count;
	unsigned shift = !time && n - i == 1 ? bl_zpool_size_shift(s[i]) : 0;
	if (shift && i - dot <= 18 && bl_zpool_scaled_count(mant, shift, decimals, &count)) {
		*out = (double)count;
		*approximate = dot;
		return true;
	}
	/* as bl_parse_double reads it: the digits over a power of ten */
	double v = (double)mant;
	if (i - dot > 18) {
		if (!bl_parse_double(s, i, false, &v, NULL))
			return false;
	} else if (decimals) {
		v /= bl_pow10((int)decimals);
	}
	const char *u = s + i;
	size_t ul = n - i;
	if (time) {
		/* "-p" prints latencies as exact nanoseconds */
		double mult = 1e-9;
		if (ul == 0 || (ul == 2 && memcmp(u, "ns", 2) == 0))
			mult = 1e-9;
		else if (ul == 2 && memcmp(u, "us", 2) == 0)
			mult = 1e-6;
		else if (ul == 2 && memcmp(u, "ms", 2) == 0)
			mult = 1e-3;
		else if (ul == 1 && u[0] == 's')
			mult = 1;
		else
			return false;
		*out = v * mult;
		/* zpool floors to an integer of the unit: 1999us prints "1ms" */
		*approximate = dot || (ul > 0 && mult > 1e-9);
		return true;
	}
	double mult = 1;
	if (ul == 1) {
		if (!shift)
			return false;
		mult = (double)(UINT64_C(1) << shift); /* exact */
	} else if (ul != 0) {
		return false;
	}
	/* the counts behind these numbers are integers: "1.60K" is 1638 */
	*out = mult > 1 ? bl_round(v * mult) : v;
	*approximate = dot;
	return true;
}

/* zpool's own label of a latency bucket: its upper end, 2^(j+1) - 1 ns,
 * in ns/us/ms/s floored ("1023" ns prints "1us"). */
static size_t latency_label(int j, char *buf)
{
	uint64_t n = (UINT64_C(1) << (j + 1)) - 1;
	static const char *const u[] = {"ns", "us", "ms", "s"};
	int k = 0;
	while (n >= 1000 && k < 3) {
		n /= 1000;
		k++;
	}
	size_t len = bl_fmt_int((long long)n, buf);
	size_t ul = strlen(u[k]);
	memcpy(buf + len, u[k], ul);
	return len + ul;
}

/* ... and of a request-size bucket: its lower end, 2^j bytes, niced. */
static size_t size_label(int j, char *buf)
{
	static const char units[] = " KMGTPE";
	int k = j / 10;
	if (k > 6)
		k = 6;
	uint64_t n = (UINT64_C(1) << j) >> (10 * k);
	size_t len = bl_fmt_int((long long)n, buf);
	if (k > 0)
		buf[len++] = units[k];
	return len;
}

/* The 62 labels of one kind of bucket, made once a thread: a histogram's
 * every row looked its label up among them. */
struct bucket_labels {
	bool made;
	unsigned char n[62];
	char s[62][BL_NUM_MAX + 4];
};
static _Thread_local struct bucket_labels latency_labels, size_labels;

static int bucket(const char *s, size_t n, size_t (*label)(int, char *), struct bucket_labels *L,
		  bool upper)
{
	if (n == 0 || n >= 32)
		return -1;
	if (!L->made) {
		for (int j = 0; j < 62; j++)
			L->n[j] = (unsigned char)label(j, L->s[j]);
		L->made = true;
	}
	for (int j = 0; j < 62; j++)
		if (L->n[j] == n && memcmp(L->s[j], s, n) == 0)
			return j;
	/* -H prints the exact bound */
	uint64_t v;
	if (!bl_parse_u64(s, n, &v, NULL))
		return -1;
	for (int j = 0; j < 62; j++) {
		uint64_t b = upper ? (UINT64_C(1) << (j + 1)) - 1 : UINT64_C(1) << j;
		if (b == v)
			return j;
	}
	return -1;
}

int bl_zpool_latency_bucket(const char *s, size_t n)
{
	return bucket(s, n, latency_label, &latency_labels, true);
}

int bl_zpool_size_bucket(const char *s, size_t n)
{
	return bucket(s, n, size_label, &size_labels, false);
}
