/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_UTIL_H
#define ORIEL_UTIL_H

#include <stddef.h>

/* The one OOM policy: allocation failure aborts with a message. */
void *zalloc(size_t size);
char *xstrdup(const char *s);

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
