/* SPDX-License-Identifier: MIT */
/* orielctl's output: JSON values and aligned text tables. */

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "common/utf8.h"
#include "tools/orielctl.h"

void *ctl_zalloc(size_t size) {
	void *p = calloc(1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "orielctl: out of memory\n");
		abort();
	}
	return p;
}

char *ctl_strdup(const char *s) {
	size_t len = strlen(s);
	char *copy = ctl_zalloc(len + 1);
	memcpy(copy, s, len);
	return copy;
}

char *ctl_asprintf(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	int len = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	if (len < 0) {
		return ctl_strdup("");
	}
	char *s = ctl_zalloc((size_t)len + 1);
	va_start(args, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, args);
	va_end(args);
	return s;
}

void ctl_json_string(FILE *f, const char *s) {
	size_t len = strlen(s);
	fputc('"', f);
	while (len > 0) {
		unsigned char c = (unsigned char)*s;
		uint32_t cp;
		size_t n = 1;
		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else if ((n = utf8_decode(s, len, &cp)) > 0) {
				fwrite(s, 1, n, f);
			} else {
				fputs("\\ufffd", f);
				n = 1;
			}
		}
		s += n;
		len -= n;
	}
	fputc('"', f);
}

void ctl_json_double(FILE *f, double value) {
	if (!isfinite(value)) {
		fputs("null", f);
		return;
	}
	char buf[64];
	/* The shortest of %.15g and %.17g that reads back as the same value. */
	snprintf(buf, sizeof(buf), "%.15g", value);
	if (strtod(buf, NULL) != value) {
		snprintf(buf, sizeof(buf), "%.17g", value);
	}
	fputs(buf, f);
	if (!strpbrk(buf, ".eE")) {
		fputs(".0", f);
	}
}

void ctl_json_bool(FILE *f, bool value) {
	fputs(value ? "true" : "false", f);
}

void ctl_table_init(struct ctl_table *table, int n_columns) {
	table->n_columns = n_columns;
	table->n_rows = 0;
	table->cells = NULL;
}

static char *printable_cell(const char *s) {
	char *copy = ctl_strdup(s);
	for (char *p = copy; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*p = '?';
		}
	}
	return copy;
}

void ctl_table_add_row(struct ctl_table *table, ...) {
	size_t n = (size_t)(table->n_rows + 1) * table->n_columns;
	char **cells = realloc(table->cells, n * sizeof(*cells));
	if (!cells) {
		fprintf(stderr, "orielctl: out of memory\n");
		abort();
	}
	table->cells = cells;
	va_list args;
	va_start(args, table);
	for (int i = 0; i < table->n_columns; i++) {
		const char *cell = va_arg(args, const char *);
		cells[table->n_rows * table->n_columns + i] = printable_cell(cell ? cell : "");
	}
	va_end(args);
	table->n_rows++;
}

/* Width on a terminal, roughly: code points, not bytes. */
static size_t text_width(const char *s) {
	size_t width = 0;
	for (; *s; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80) {
			width++;
		}
	}
	return width;
}

void ctl_table_print(struct ctl_table *table, FILE *f) {
	size_t *widths = ctl_zalloc(table->n_columns * sizeof(*widths));
	for (int row = 0; row < table->n_rows; row++) {
		for (int col = 0; col < table->n_columns; col++) {
			size_t w = text_width(table->cells[row * table->n_columns + col]);
			if (w > widths[col]) {
				widths[col] = w;
			}
		}
	}
	for (int row = 0; row < table->n_rows; row++) {
		for (int col = 0; col < table->n_columns; col++) {
			const char *cell = table->cells[row * table->n_columns + col];
			fputs(cell, f);
			if (col + 1 < table->n_columns) {
				for (size_t w = text_width(cell); w < widths[col] + 2; w++) {
					fputc(' ', f);
				}
			}
			free(table->cells[row * table->n_columns + col]);
		}
		fputc('\n', f);
	}
	free(widths);
	free(table->cells);
	table->cells = NULL;
	table->n_rows = 0;
}
