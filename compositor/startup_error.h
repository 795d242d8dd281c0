/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_STARTUP_ERROR_H
#define ORIEL_STARTUP_ERROR_H

/*
 * A failed start ends with one line on stderr, after everything oriel
 * started is stopped: "oriel: WHAT FAILED: WHAT TO DO". The first failure
 * recorded is the one reported: it is the cause, later ones its effects.
 * Pure: no wlroots.
 */

#include <stdbool.h>
#include <stdio.h>

__attribute__((format(printf, 1, 2)))
void startup_error(const char *fmt, ...);
bool startup_error_is_set(void);
const char *startup_error_text(void);
/* Writes "oriel: TEXT\n" to out if an error was recorded; returns whether. */
bool startup_error_print(FILE *out);
/* Forgets the recorded error (for unit tests). */
void startup_error_clear(void);

#endif
