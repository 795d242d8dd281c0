/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_TESTS_EXPECT_H
#define ORIEL_TESTS_EXPECT_H

/*
 * The unit tests' check: reports a failed condition with a printf-style
 * explanation and goes on, so one run shows every failure. main returns
 * failures != 0.
 */

#include <stdio.h>

static int failures;

#define EXPECT(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		failures++; \
	} \
} while (0)

/* The end of main: how the checks went, and the exit status that says it. */
static inline int expect_report(void) {
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}

#endif
