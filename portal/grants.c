/* SPDX-License-Identifier: MIT */
/*
 * The grants file: parsing, formatting, atomic replacement. See grants.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "portal/grants.h"
#include "portal/paths.h"

#define GRANTS_FILE_MAX (4u << 20)

void portal_grants_init(struct portal_grants *grants) {
	grants->items = NULL;
	grants->n = 0;
}

static void grant_free(struct portal_grant *g) {
	free(g->app_id);
	free(g->kind);
	free(g->sources);
}

void portal_grants_finish(struct portal_grants *grants) {
	for (int i = 0; i < grants->n; i++) {
		grant_free(&grants->items[i]);
	}
	free(grants->items);
	portal_grants_init(grants);
}

char *portal_grants_path(void) {
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char *path = NULL;
	int r = -1;
	if (state && state[0] == '/') {
		r = asprintf(&path, "%s/oriel/portal-grants", state);
	} else if (home && *home) {
		r = asprintf(&path, "%s/.local/state/oriel/portal-grants", home);
	}
	return r < 0 ? NULL : path;
}

bool portal_grant_field_valid(const char *s) {
	if (!s || strlen(s) > 4096) {
		return false;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			return false;
		}
	}
	return true;
}

bool portal_grant_id_valid(const char *id) {
	if (!id || strlen(id) != PORTAL_GRANT_ID_LEN) {
		return false;
	}
	for (int i = 0; i < PORTAL_GRANT_ID_LEN; i++) {
		char c = id[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
			return false;
		}
	}
	return true;
}

static int append(struct portal_grants *grants, const char *id, const char *app_id,
		const char *kind, int64_t created, const char *sources) {
	if (grants->n >= PORTAL_GRANTS_MAX) {
		return -ENOSPC;
	}
	struct portal_grant *items = realloc(grants->items,
		(grants->n + 1) * sizeof(*items));
	if (!items) {
		return -ENOMEM;
	}
	grants->items = items;
	struct portal_grant *g = &items[grants->n];
	memset(g, 0, sizeof(*g));
	memcpy(g->id, id, PORTAL_GRANT_ID_LEN + 1);
	g->app_id = strdup(app_id);
	g->kind = strdup(kind);
	g->sources = strdup(sources);
	g->created = created;
	if (!g->app_id || !g->kind || !g->sources) {
		grant_free(g);
		return -ENOMEM;
	}
	grants->n++;
	return 0;
}

static int warn(FILE *f, int line, const char *what) {
	if (f) {
		fprintf(f, "portal-grants:%d: %s, line ignored\n", line, what);
	}
	return 1;
}

/* Splits line at tabs into exactly n fields; false otherwise. */
static bool split_fields(char *line, char **fields, int n) {
	for (int i = 0; i < n; i++) {
		fields[i] = line;
		char *tab = strchr(line, '\t');
		if (i == n - 1) {
			return tab == NULL;
		}
		if (!tab) {
			return false;
		}
		*tab = '\0';
		line = tab + 1;
	}
	return false;
}

static bool parse_created(const char *s, int64_t *out) {
	char *end = NULL;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0) {
		return false;
	}
	*out = v;
	return true;
}

int portal_grants_parse(struct portal_grants *grants, const char *text, FILE *warnings) {
	char *buf = strdup(text ? text : "");
	if (!buf) {
		return warn(warnings, 0, "out of memory");
	}
	int warned = 0, line_no = 0;
	char *p = buf;
	while (p && *p) {
		char *nl = strchr(p, '\n');
		if (nl) {
			*nl = '\0';
		}
		char *line = p;
		p = nl ? nl + 1 : NULL;
		line_no++;
		if (!*line || *line == '#') {
			continue;
		}
		char *f[5];
		int64_t created;
		if (!split_fields(line, f, 5)) {
			warned += warn(warnings, line_no, "expected 5 tab-separated fields");
		} else if (!portal_grant_id_valid(f[0])) {
			warned += warn(warnings, line_no, "malformed grant id");
		} else if (portal_grants_find(grants, f[0])) {
			warned += warn(warnings, line_no, "duplicate grant id");
		} else if (!portal_grant_field_valid(f[1]) || !*f[2] ||
				!portal_grant_field_valid(f[2]) || !portal_grant_field_valid(f[4]) ||
				!*f[4]) {
			warned += warn(warnings, line_no, "malformed field");
		} else if (!parse_created(f[3], &created)) {
			warned += warn(warnings, line_no, "malformed creation time");
		} else if (append(grants, f[0], f[1], f[2], created, f[4]) < 0) {
			warned += warn(warnings, line_no, "too many grants or out of memory");
		}
	}
	free(buf);
	return warned;
}

char *portal_grants_format(const struct portal_grants *grants) {
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		return NULL;
	}
	fputs("# oriel portal grants: id, app_id, kind, created, sources (tab-separated)\n"
		"# Managed by xdg-desktop-portal-oriel; list with `orielctl grants`,\n"
		"# remove with `orielctl revoke ID`.\n", f);
	for (int i = 0; i < grants->n; i++) {
		const struct portal_grant *g = &grants->items[i];
		fprintf(f, "%s\t%s\t%s\t%" PRId64 "\t%s\n", g->id, g->app_id, g->kind,
			g->created, g->sources);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int read_all(int fd, char **out) {
	char *text = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			if (cap > GRANTS_FILE_MAX) {
				free(text);
				return -EFBIG;
			}
			char *t = realloc(text, cap);
			if (!t) {
				free(text);
				return -ENOMEM;
			}
			text = t;
		}
		ssize_t n = read(fd, text + len, cap - len - 1);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			int err = errno;
			free(text);
			return -err;
		}
		if (n == 0) {
			break;
		}
		len += n;
	}
	text[len] = '\0';
	*out = text;
	return 0;
}

/* mkdir -p of path's folder. */
static int make_parent_dirs(const char *path) {
	char *dir = strdup(path);
	if (!dir) {
		return -ENOMEM;
	}
	char *slash = strrchr(dir, '/');
	int r = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		r = portal_make_dirs(dir);
	}
	free(dir);
	return r;
}

int portal_grants_lock_load(struct portal_grants *grants, const char *path, FILE *warnings) {
	int r = make_parent_dirs(path);
	if (r < 0) {
		return r;
	}
	char *lock_path = NULL;
	if (asprintf(&lock_path, "%s.lock", path) < 0) {
		return -ENOMEM;
	}
	int lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(lock_path);
	if (lock_fd < 0) {
		return -errno;
	}
	while (flock(lock_fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			r = -errno;
			close(lock_fd);
			return r;
		}
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			return lock_fd;
		}
		r = -errno;
		close(lock_fd);
		return r;
	}
	char *text = NULL;
	r = read_all(fd, &text);
	close(fd);
	if (r < 0) {
		close(lock_fd);
		return r;
	}
	portal_grants_parse(grants, text, warnings);
	free(text);
	return lock_fd;
}

void portal_grants_unlock(int lock_fd) {
	if (lock_fd >= 0) {
		close(lock_fd);
	}
}

int portal_grants_save(const struct portal_grants *grants, const char *path) {
	char *text = portal_grants_format(grants);
	char *tmp = NULL;
	if (!text || asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		free(text);
		return -ENOMEM;
	}
	int r = 0;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	size_t len = strlen(text), done = 0;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			r = -errno;
			break;
		}
		done += n;
	}
	if (r == 0 && fsync(fd) < 0) {
		r = -errno;
	}
	if (close(fd) < 0 && r == 0) {
		r = -errno;
	}
	if (r == 0 && rename(tmp, path) < 0) {
		r = -errno;
	}
	if (r < 0) {
		unlink(tmp);
	}
out:
	free(tmp);
	free(text);
	return r;
}

int portal_grants_add(struct portal_grants *grants, const char *app_id, const char *kind,
		int64_t created, const char *sources, char id_out[PORTAL_GRANT_ID_LEN + 1]) {
	if (!portal_grant_field_valid(app_id) || !portal_grant_field_valid(kind) || !*kind ||
			!portal_grant_field_valid(sources) || !*sources || created < 0) {
		return -EINVAL;
	}
	uint8_t bytes[PORTAL_GRANT_ID_LEN / 2];
	char id[PORTAL_GRANT_ID_LEN + 1];
	do {
		size_t got = 0;
		while (got < sizeof(bytes)) {
			ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);
			if (n < 0 && errno == EINTR) {
				continue;
			}
			if (n < 0) {
				return -errno;
			}
			got += n;
		}
		for (size_t i = 0; i < sizeof(bytes); i++) {
			snprintf(id + 2 * i, 3, "%02x", bytes[i]);
		}
	} while (portal_grants_find(grants, id));
	int r = append(grants, id, app_id, kind, created, sources);
	if (r == 0 && id_out) {
		memcpy(id_out, id, sizeof(id));
	}
	return r;
}

int portal_grants_copy(struct portal_grants *grants, const struct portal_grant *grant) {
	return append(grants, grant->id, grant->app_id, grant->kind, grant->created,
		grant->sources);
}

const struct portal_grant *portal_grants_find(const struct portal_grants *grants,
		const char *id) {
	for (int i = 0; id && i < grants->n; i++) {
		if (!strcmp(grants->items[i].id, id)) {
			return &grants->items[i];
		}
	}
	return NULL;
}

bool portal_grants_remove(struct portal_grants *grants, const char *id) {
	for (int i = 0; id && i < grants->n; i++) {
		if (!strcmp(grants->items[i].id, id)) {
			grant_free(&grants->items[i]);
			memmove(&grants->items[i], &grants->items[i + 1],
				(grants->n - i - 1) * sizeof(grants->items[0]));
			grants->n--;
			return true;
		}
	}
	return false;
}

static bool source_exists(const char *source, size_t len,
		const char *const *existing) {
	for (int i = 0; existing && existing[i]; i++) {
		if (strlen(existing[i]) == len && !strncmp(existing[i], source, len)) {
			return true;
		}
	}
	return false;
}

bool portal_grant_usable(const struct portal_grant *grant, const char *app_id,
		const char *kind, const char *const *existing_sources) {
	if (!grant || strcmp(grant->app_id, app_id ? app_id : "") != 0 ||
			strcmp(grant->kind, kind) != 0) {
		return false;
	}
	int n = 0;
	for (const char *s = grant->sources; *s;) {
		size_t len = strcspn(s, " ");
		if (len > 0) {
			if (!source_exists(s, len, existing_sources)) {
				return false;
			}
			n++;
		}
		s += len;
		s += strspn(s, " ");
	}
	return n > 0;
}
