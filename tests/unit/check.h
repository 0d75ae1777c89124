/* check.h - a minimal unit-test harness: CHECK(cond) records a pass or a
 * failure with its line; main ends with CHECK_DONE(), which prints
 * "N passed, N failed" and returns non-zero on any failure. */
#ifndef BL_CHECK_H
#define BL_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_pass, check_fail;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (cond) {                                                                        \
			check_pass++;                                                              \
		} else {                                                                           \
			check_fail++;                                                              \
			printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);            \
		}                                                                                  \
	} while (0)

#define CHECK_NEAR(a, b, eps) CHECK(fabs((double)(a) - (double)(b)) <= (eps))

#define CHECK_DONE()                                                                               \
	(printf("%s: %d passed, %d failed\n", __FILE__, check_pass, check_fail), check_fail ? 1 : 0)

#endif
