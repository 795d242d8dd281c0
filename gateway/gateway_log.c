/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include "gateway/gateway_log.h"

static bool debug_enabled;

static void write_line(const char *format, va_list args) {
	char line[1024];
	vsnprintf(line, sizeof(line), format, args);
	/* One write, so that the lines of several threads do not mix. */
	fprintf(stderr, "oriel-gateway: %s\n", line);
}

void gateway_log(const char *format, ...) {
	va_list args;
	va_start(args, format);
	write_line(format, args);
	va_end(args);
}

void gateway_log_debug(const char *format, ...) {
	if (!debug_enabled) {
		return;
	}
	va_list args;
	va_start(args, format);
	write_line(format, args);
	va_end(args);
}

void gateway_log_set_debug(bool debug) {
	debug_enabled = debug;
}
