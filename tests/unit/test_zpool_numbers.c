/* test_zpool_numbers.c - zpool iostat's numbers and histogram bucket labels
 * (parsers/zpool_numbers.c). */
#include <math.h>
#include <string.h>

#include "../../base/units.h"
#include "../../parsers/zpool_iostat.h"
#include "check.h"

static double v;
static bool dash, approx;

static bool num(const char *s)
{
	return bl_zpool_number(s, strlen(s), false, &v, &dash, &approx);
}
static bool tim(const char *s)
{
	return bl_zpool_number(s, strlen(s), true, &v, &dash, &approx);
}
static int lat(const char *s)
{
	return bl_zpool_latency_bucket(s, strlen(s));
}
static int req(const char *s)
{
	return bl_zpool_size_bucket(s, strlen(s));
}

static void test_sizes(void)
{
	/* niced, base 1024, rounded to the integer count behind them */
	CHECK(num("1.60K") && v == 1638 && approx && !dash);
	CHECK(num("1.44K") && v == 1475 && approx);
	CHECK(num("86.1K") && v == 88166 && approx);
	CHECK(num("98.9M") && v == 103704166 && approx);
	CHECK(num("3.40T") && v == 3738339534438.0 && approx);
	CHECK(num("1.00E") && v == 1152921504606846976.0 && approx);
	/* exact multiples print without decimals: exact */
	CHECK(num("16K") && v == 16384 && !approx);
	CHECK(num("1K") && v == 1024 && !approx);
	CHECK(num("623M") && v == 623.0 * 1048576 && !approx);
	/* below 1024 and -p: plain integers */
	CHECK(num("1015") && v == 1015 && !approx);
	CHECK(num("0") && v == 0 && !approx);
	CHECK(num("1099635084565") && v == 1099635084565.0 && !approx);
	/* not applicable / zero */
	CHECK(num("-") && dash && v == 0);
	/* not numbers of zpool */
	CHECK(!num("12X"));
	CHECK(!num("1.2.3"));
	CHECK(!num(".5"));
	CHECK(!num("5."));
	CHECK(!num("12KB"));
	CHECK(!num("12ms"));
	CHECK(!num(""));
	CHECK(!num("--"));
}

/* Every number as bl_parse_double reads it, to the bit: up to 24
 * characters of digits with a point anywhere inside, with each unit. */
static void test_same_as_parse_double(void)
{
	unsigned long long seed = 12345;
	size_t wrong = 0;
	for (int t = 0; t < 200000; t++) {
		char s[32];
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t len = 1 + (size_t)(seed >> 59) % 24, dot = (size_t)(seed >> 40) % (len + 8);
		for (size_t i = 0; i < len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			/* leading zeros and nines, which round up, more often */
			unsigned d = (unsigned)(seed >> 60);
			s[i] = (char)('0' + (d >= 10 ? (d & 1) * 9 : d));
		}
		if (dot > 0 && dot < len - 1)
			s[dot] = '.';
		double want, got, mult = 1;
		if (!bl_parse_double(s, len, false, &want, NULL))
			continue;
		const char *units = " KMGTPE";
		size_t u = (size_t)(seed >> 33) % 7;
		if (u) {
			s[len++] = units[u];
			mult = ldexp(1.0, 10 * (int)u);
			want = round(want * mult);
		}
		s[len] = '\0';
		if (!bl_zpool_number(s, len, false, &got, &dash, &approx) ||
		    memcmp(&got, &want, sizeof got) != 0)
			wrong++;
	}
	CHECK(wrong == 0);
}

/* Every size of up to four digits with up to three decimals, in every
 * unit, as the reading through a double gives it: the digits over 10^d,
 * times the unit, rounded. */
static void test_sizes_every_short(void)
{
	size_t wrong = 0, n = 0;
	const char *units = "KMGTPE";
	for (unsigned m = 0; m < 10000; m++)
		for (int d = 0; d <= 3; d++)
			for (int u = 0; u < 6; u++) {
				char digits[8], s[16];
				int nd = snprintf(digits, sizeof digits, "%0*u", d + 1, m);
				/* the point d digits from the end: "25.4", "0.07" */
				int len = d ? snprintf(s, sizeof s, "%.*s.%s%c", nd - d, digits,
						       digits + nd - d, units[u])
					    : snprintf(s, sizeof s, "%s%c", digits, units[u]);
				double want =
					round((double)m / pow(10, d) * ldexp(1.0, 10 * (u + 1)));
				double got;
				if (!bl_zpool_number(s, (size_t)len, false, &got, &dash, &approx) ||
				    memcmp(&got, &want, sizeof got) != 0 || approx != (d > 0))
					wrong++;
				n++;
			}
	CHECK(n == 240000 && wrong == 0);
}

static void test_times(void)
{
	/* base 1000, floored to an integer of the unit */
	CHECK(tim("12ms") && fabs(v - 0.012) < 1e-15 && approx);
	CHECK(tim("345us") && fabs(v - 345e-6) < 1e-15 && approx);
	CHECK(tim("1s") && v == 1 && approx);
	CHECK(tim("20ns") && fabs(v - 20e-9) < 1e-20 && !approx);
	/* -p: exact nanoseconds */
	CHECK(tim("6500000") && fabs(v - 0.0065) < 1e-15 && !approx);
	/* a zero latency */
	CHECK(tim("-") && dash && v == 0);
	CHECK(!tim("12K"));
	CHECK(!tim("3h"));
}

static void test_buckets(void)
{
	/* -w labels: the upper end 2^(j+1)-1 ns, floored */
	CHECK(lat("1ns") == 0);
	CHECK(lat("3ns") == 1);
	CHECK(lat("511ns") == 8);
	CHECK(lat("1us") == 9);
	CHECK(lat("2us") == 10);
	CHECK(lat("65us") == 15);
	CHECK(lat("1ms") == 19);
	CHECK(lat("33ms") == 24);
	CHECK(lat("1s") == 29);
	CHECK(lat("137s") == 36);
	CHECK(lat("2ns") == -1);
	/* -H: exact */
	CHECK(lat("1") == 0);
	CHECK(lat("1023") == 9);
	CHECK(lat("1024") == -1);
	/* -r labels: the lower end 2^j bytes */
	CHECK(req("512") == 9);
	CHECK(req("1K") == 10);
	CHECK(req("128K") == 17);
	CHECK(req("16M") == 24);
	CHECK(req("2048") == 11);
	CHECK(req("513") == -1);
	CHECK(req("") == -1);
}

int main(void)
{
	test_sizes();
	test_same_as_parse_double();
	test_sizes_every_short();
	test_times();
	test_buckets();
	return CHECK_DONE();
}
