/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_UTIL_H
#define ORIEL_COMMON_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The one OOM policy: allocation failure aborts with a message. */
void *zalloc(size_t size);
char *xstrdup(const char *s);

/* CLOCK_MONOTONIC in milliseconds: deadlines and quiet spells. */
int64_t monotonic_ms(void);

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
