/* test_units.c - number, size and duration parsing (base/units.c). */
#include <string.h>

#include "../../base/units.h"
#include "check.h"

static bool size_of(const char *s, uint64_t *v)
{
	return bl_parse_size(s, strlen(s), v);
}
static bool dur_of(const char *s, double *v)
{
	return bl_parse_duration(s, strlen(s), v);
}
static bool rate_of(const char *s, double *v)
{
	return bl_parse_rate(s, strlen(s), true, v);
}

static void test_u64(void)
{
	uint64_t v;
	size_t end;
	CHECK(bl_parse_u64("2097152000 bytes", 16, &v, &end) && v == 2097152000ULL && end == 10);
	CHECK(bl_parse_u64("18446744073709551615", 20, &v, NULL) && v == UINT64_MAX);
	CHECK(!bl_parse_u64("18446744073709551616", 20, &v, NULL)); /* overflow */
	CHECK(!bl_parse_u64("x1", 2, &v, NULL));
	CHECK(!bl_parse_u64("", 0, &v, NULL));
	/* stops at len even if more digits follow in memory */
	CHECK(bl_parse_u64("12345", 3, &v, NULL) && v == 123);
}

static void test_double(void)
{
	double d;
	size_t end;
	CHECK(bl_parse_double("67.255574", 9, false, &d, NULL) && d == 67.255574);
	CHECK(bl_parse_double("9.5351e-05 s", 12, false, &d, &end) && end == 10);
	CHECK_NEAR(d, 9.5351e-05, 1e-15);
	CHECK(bl_parse_double("0,0153913", 9, true, &d, NULL));
	CHECK_NEAR(d, 0.0153913, 1e-12);
	/* without comma_ok the comma ends the number */
	CHECK(bl_parse_double("0,5", 3, false, &d, &end) && d == 0 && end == 1);
	CHECK(bl_parse_double("-1.5", 4, false, &d, NULL) && d == -1.5);
	CHECK(!bl_parse_double(".", 1, false, &d, NULL));
	CHECK(!bl_parse_double("e5", 2, false, &d, NULL));
	CHECK(!bl_parse_double("1e999", 5, false, &d, NULL)); /* infinite */
	/* "5." is 5 with the dot left over (a sentence end) */
	CHECK(bl_parse_double("5.", 2, false, &d, &end) && d == 5 && end == 1);
	/* many digits: no overflow of the mantissa */
	CHECK(bl_parse_double("123456789012345678901234567890", 30, false, &d, NULL));
	CHECK_NEAR(d / 1.2345678901234568e29, 1.0, 1e-12);
}

static void test_size(void)
{
	uint64_t v;
	CHECK(size_of("1m", &v) && v == 1048576);
	CHECK(size_of("1M", &v) && v == 1048576);
	CHECK(size_of("64k", &v) && v == 65536);
	CHECK(size_of("32k", &v) && v == 32768);
	CHECK(size_of("8k", &v) && v == 8192);
	CHECK(size_of("512", &v) && v == 512);
	CHECK(size_of("1MB", &v) && v == 1000000);
	CHECK(size_of("1kB", &v) && v == 1000);
	CHECK(size_of("1KiB", &v) && v == 1024);
	CHECK(size_of("1G", &v) && v == 1073741824ULL);
	CHECK(size_of("2x512", &v) && v == 1024);
	CHECK(size_of("4b", &v) && v == 2048);
	CHECK(size_of("1w", &v) && v == 2);
	CHECK(size_of("10c", &v) && v == 10);
	CHECK(!size_of("", &v));
	CHECK(!size_of("m", &v));
	CHECK(!size_of("1q", &v));
	CHECK(!size_of("1x", &v));
	CHECK(!size_of("99999999999E", &v)); /* overflow */
}

static void test_duration(void)
{
	double d;
	CHECK(dur_of("1:32.46", &d));
	CHECK_NEAR(d, 92.46, 1e-9);
	CHECK(dur_of("1:02:03.5", &d));
	CHECK_NEAR(d, 3723.5, 1e-9);
	CHECK(dur_of("4m37.724s", &d));
	CHECK_NEAR(d, 277.724, 1e-9);
	CHECK(dur_of("0m1.597s", &d));
	CHECK_NEAR(d, 1.597, 1e-9);
	CHECK(dur_of("2h3m4s", &d));
	CHECK_NEAR(d, 7384, 1e-9);
	CHECK(dur_of("0.220", &d));
	CHECK_NEAR(d, 0.22, 1e-12);
	CHECK(dur_of("250ms", &d));
	CHECK_NEAR(d, 0.25, 1e-12);
	CHECK(!dur_of("", &d));
	CHECK(!dur_of("1:", &d));
	CHECK(!dur_of("abc", &d));
	CHECK(!dur_of("1:2:3:4", &d));
	CHECK(!dur_of("5q", &d));
}

static void test_rate(void)
{
	double d;
	CHECK(rate_of("4.4 GB/s", &d));
	CHECK_NEAR(d, 4.4e9, 1);
	CHECK(rate_of("989 MB/s", &d));
	CHECK_NEAR(d, 989e6, 1);
	CHECK(rate_of("0.0 kB/s", &d) && d == 0);
	CHECK(rate_of("22683845 bytes/sec", &d) && d == 22683845);
	CHECK(rate_of("96118 kbytes/sec", &d) && d == 96118.0 * 1024);
	CHECK(rate_of("4,4 GB/s", &d));
	CHECK_NEAR(d, 4.4e9, 1);
	CHECK(rate_of("236.2MB/s", &d));
	CHECK_NEAR(d, 236.2e6, 1);
	CHECK(rate_of("98 KiB/s", &d) && d == 98 * 1024);
	CHECK(!rate_of("4.4 GB", &d));
	CHECK(!rate_of("4.4 furlongs/s", &d));
	CHECK(!rate_of("fast", &d));
}

int main(void)
{
	test_u64();
	test_double();
	test_size();
	test_duration();
	test_rate();
	CHECK(bl_is_blank(" \t\r\n", 4));
	CHECK(!bl_is_blank(" x", 2));
	return CHECK_DONE();
}
