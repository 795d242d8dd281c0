/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include "compositor/startup_error.h"

static char message[512];

void startup_error(const char *fmt, ...) {
	if (message[0]) {
		return;
	}
	va_list args;
	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
}

bool startup_error_is_set(void) {
	return message[0] != '\0';
}

const char *startup_error_text(void) {
	return message;
}

bool startup_error_print(FILE *out) {
	if (!message[0]) {
		return false;
	}
	fflush(stdout);
	fprintf(out, "oriel: %s\n", message);
	fflush(out);
	return true;
}

void startup_error_clear(void) {
	message[0] = '\0';
}
