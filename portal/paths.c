/* SPDX-License-Identifier: MIT */
/* See paths.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "portal/paths.h"

int portal_make_dirs(const char *dir) {
	char *copy = strdup(dir);
	if (!copy) {
		return -ENOMEM;
	}
	int r = 0;
	for (char *s = copy + 1; ; s++) {
		if (*s != '/' && *s != '\0') {
			continue;
		}
		char c = *s;
		*s = '\0';
		if (mkdir(copy, 0700) < 0 && errno != EEXIST) {
			r = -errno;
			break;
		}
		*s = c;
		if (c == '\0') {
			break;
		}
	}
	free(copy);
	return r;
}

static int unreserved(unsigned char c) {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

char *portal_file_uri(const char *path) {
	if (!path || path[0] != '/') {
		return NULL;
	}
	size_t len = strlen(path);
	char *uri = malloc(strlen("file://") + 3 * len + 1);
	if (!uri) {
		return NULL;
	}
	char *out = uri + sprintf(uri, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (unreserved(*p)) {
			*out++ = (char)*p;
		} else {
			out += sprintf(out, "%%%02X", *p);
		}
	}
	*out = '\0';
	return uri;
}
