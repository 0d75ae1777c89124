/* test_numfmt.c - numbers written as jansson writes them (base/numfmt.c):
 * the digits of short decimals against printf's "%.15g" through jansson's
 * own dump, over decimals of every length and scale, random doubles and
 * the edges of the plain notation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../base/numfmt.h"
#include "check.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned long long next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int bad;

/* bl_fmt_real(v) is what jansson's dump writes for json_real(v). */
static void same_as_jansson(double v, int prec)
{
	json_t *j = json_real(v);
	char *want = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(prec));
	char got[BL_NUM_MAX + 1];
	size_t n = bl_fmt_real(v, prec, got);
	got[n] = '\0';
	if (!want || strcmp(want, got) != 0) {
		if (bad++ < 10)
			printf("  %.17g prec %d: got %s, want %s\n", v, prec, got,
			       want ? want : "-");
	}
	free(want);
	json_decref(j);
}

/* bl_round and bl_is_whole against libm, bit for bit (the sign of a
 * zero too), at the edges that matter and on random doubles. */
static bool same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

static size_t rounding_wrong(double v)
{
	size_t wrong = 0;
	if (!same_double(bl_round(v), round(v)))
		wrong++;
	if (bl_is_whole(v) != (v == floor(v) && fabs(v) < 9007199254740992.0))
		wrong++;
	if (wrong && bad++ < 10)
		printf("  %.17g: round %.17g, bl_round %.17g\n", v, round(v), bl_round(v));
	return wrong;
}

static void test_rounding(void)
{
	static const double edges[] = {0.0,
				       -0.0,
				       0.5,
				       -0.5,
				       0.49999999999999994,
				       1.5,
				       2.5,
				       -2.5,
				       0x1p52,
				       0x1p52 - 0.5,
				       0x1p52 + 1,
				       0x1p53,
				       0x1p53 - 1,
				       0x1p53 + 2,
				       0x1p63,
				       -0x1p63,
				       1e300,
				       INFINITY,
				       -INFINITY,
				       NAN,
				       4503599627370495.5,
				       0.3,
				       -0.3,
				       5e-324};
	size_t wrong = 0;
	for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
		wrong += rounding_wrong(edges[i]) + rounding_wrong(-edges[i]);
	for (int i = 0; i < 300000; i++) {
		uint64_t bits = next();
		double v;
		memcpy(&v, &bits, sizeof v);
		wrong += rounding_wrong(v);
		/* numbers as zpool scales them: "1.60K" * 1024 */
		wrong += rounding_wrong((double)(next() % 100000) / 100.0 * 1024.0);
		wrong += rounding_wrong((double)(next() % 1000000) / 10.0 * 0x1p40);
	}
	CHECK(wrong == 0);
}

int main(void)
{
	test_rounding();
	char buf[BL_NUM_MAX + 1];
	buf[bl_fmt_int(-9223372036854775807LL - 1, buf)] = '\0';
	CHECK(strcmp(buf, "-9223372036854775808") == 0);
	buf[bl_fmt_int(0, buf)] = '\0';
	CHECK(strcmp(buf, "0") == 0);
	buf[bl_fmt_u64(18446744073709551615ULL, buf)] = '\0';
	CHECK(strcmp(buf, "18446744073709551615") == 0);
	/* each count of digits, at its edges: 9, 10, 11, 99, 100, 101 ... */
	size_t wrong = 0;
	for (unsigned long long p = 1; p <= 10000000000000000000ULL; p *= 10) {
		for (int d = -1; d <= 1; d++) {
			char want[32];
			snprintf(want, sizeof want, "%llu", p + (unsigned long long)d);
			buf[bl_fmt_u64(p + (unsigned long long)d, buf)] = '\0';
			wrong += strcmp(want, buf) != 0;
		}
		if (p == 10000000000000000000ULL)
			break;
	}
	CHECK(wrong == 0);
	for (int i = 0; i < 100000; i++) {
		long long v = (long long)next() >> (next() % 64);
		char want[32];
		snprintf(want, sizeof want, "%lld", v);
		buf[bl_fmt_int(v, buf)] = '\0';
		if (strcmp(want, buf) != 0 && bad++ < 10)
			printf("  %s: got %s\n", want, buf);
	}
	CHECK(bl_fmt_real(NAN, 15, buf) == 0 && bl_fmt_real(INFINITY, 15, buf) == 0);

	static const double edges[] = {0.0,
				       -0.0,
				       1e-4,
				       9.9999e-5,
				       1e-5,
				       0.00012,
				       1.0,
				       10.0,
				       100000000000000.0,
				       999999999999999.0,
				       1e15,
				       1e16,
				       123456789012345.6,
				       0.1,
				       0.3,
				       67.255574,
				       9.5351e-05,
				       2097152000.0,
				       1.5e300,
				       5e-324,
				       4.4e9,
				       31181832.0,
				       0.029,
				       6.422,
				       1.0 / 3.0,
				       2.0 / 3.0,
				       1e-4 * 3,
				       1e-9,
				       3e-9,
				       6.5535e-05,
				       1.0e-22,
				       1.5e-23,
				       123456789012345e-22,
				       1e14,
				       99999999999999.9,
				       1e-300,
				       2.2250738585072014e-308};
	for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
		for (int prec = 1; prec <= 17; prec++) {
			same_as_jansson(edges[i], prec);
			same_as_jansson(-edges[i], prec);
		}
	/* decimals as tools print them: up to 16 digits, the point anywhere */
	for (int i = 0; i < 400000; i++) {
		int digits = 1 + (int)(next() % 16), point = (int)(next() % 50) - 25;
		unsigned long long m = next() % 10000000000000000ULL;
		for (int d = digits; d < 16; d++)
			m /= 10;
		char s[64];
		snprintf(s, sizeof s, "%llue%d", m, point - digits);
		double v = strtod(s, NULL);
		same_as_jansson(v, 15);
		same_as_jansson(v, 17);
		if (i % 8 == 0)
			same_as_jansson(v, 1 + (int)(next() % 17));
	}
	/* at 15, 17 and any digits, the doubles from 1e-7 to 1e39 that
	 * bl_fmt_real rounds itself: any mantissa, any exponent, and the
	 * halves of integers (ties to even) */
	for (int i = 0; i < 1000000; i++) {
		uint64_t bits = (next() & ((1ULL << 52) - 1)) |
				(uint64_t)(1023 - 24 + (int)(next() % 155)) << 52;
		double v;
		memcpy(&v, &bits, sizeof v);
		same_as_jansson(v, 17);
		same_as_jansson(v, 15);
		same_as_jansson(v, 1 + (int)(next() % 17));
		same_as_jansson((double)(next() >> (next() % 64)) + 0.5, 17);
		same_as_jansson((double)(next() >> (next() % 64)) + 0.5, 1 + (int)(next() % 17));
	}
	/* any double */
	for (int i = 0; i < 200000; i++) {
		uint64_t bits = next();
		double v;
		memcpy(&v, &bits, sizeof v);
		if (isfinite(v)) {
			same_as_jansson(v, 15);
			same_as_jansson(v, 17);
		}
	}
	CHECK(bad == 0);
	return CHECK_DONE();
}
