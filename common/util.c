/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/util.h"

static void die_oom(size_t size) {
	fprintf(stderr, "oriel: out of memory allocating %zu bytes\n", size);
	abort();
}

void *zalloc(size_t size) {
	void *p = calloc(1, size ? size : 1);
	if (!p) {
		die_oom(size);
	}
	return p;
}

char *xstrdup(const char *s) {
	if (!s) {
		return NULL;
	}
	char *copy = strdup(s);
	if (!copy) {
		die_oom(strlen(s) + 1);
	}
	return copy;
}

int64_t monotonic_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
