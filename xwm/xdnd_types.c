/* SPDX-License-Identifier: MIT */
/* See xdnd_types.h. */
#include <string.h>
#include "xwm/xdnd_types.h"

const char *xdnd_mime_type_for_target(const char *target) {
	if (strcmp(target, "UTF8_STRING") == 0) {
		return "text/plain;charset=utf-8";
	}
	if (strcmp(target, "STRING") == 0) {
		return "text/plain";
	}
	/* X drag sources name most targets by MIME type already (text/uri-list, ...). */
	const char *slash = strchr(target, '/');
	if (slash && slash != target && slash[1] != '\0' && !strchr(target, ' ')) {
		return target;
	}
	return NULL; /* TARGETS, TIMESTAMP, TEXT, and private X types */
}
