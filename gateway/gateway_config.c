/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/address_spec.h"
#include "common/util.h"
#include "gateway/gateway_config.h"
#include "common/x_display.h"

#ifndef ORIEL_BINDIR
#define ORIEL_BINDIR "/usr/bin" /* meson says where it installs oriel */
#endif
#define LINE_MAX_BYTES 4096
#define SHOWN_MAX 48

struct gateway_parser {
	struct gateway_config *config;
	const char *filename;
	int line;
	int section; /* index in sections, -1 before the first header */
	char *error;
	size_t error_size;
	/* The line each single-valued key was set on, to refuse repeats. */
	int set_on[4][16];
};

typedef bool (*key_setter)(struct gateway_config *config, const char *value,
	char *error, size_t error_size);

struct gateway_key {
	const char *section;
	const char *name;
	key_setter set;
	bool repeatable;
};

/* The setters of the table: each takes one key's value. */

static bool set_vnc(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_add_listen(c->vnc_listen, &c->n_vnc_listen, v, e, n);
}

static bool set_rdp(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_add_listen(c->rdp_listen, &c->n_rdp_listen, v, e, n);
}

static bool is_absolute(const char *v, char *e, size_t n) {
	if (v[0] != '/') {
		snprintf(e, n, "'%.*s' is not an absolute path", SHOWN_MAX, v);
		return false;
	}
	return true;
}

bool gateway_config_set_web(struct gateway_config *c, const char *v, char *e, size_t n) {
	if (strcmp(v, "off") == 0) {
		free(c->web_dir);
		c->web_dir = NULL;
		return true;
	}
	if (!is_absolute(v, e, n)) {
		return false;
	}
	gateway_config_set_string(&c->web_dir, v);
	return true;
}

bool gateway_config_add_web_host(struct gateway_config *c, const char *v, char *e,
		size_t n) {
	if (!v[0] || strlen(v) > 253 || strcspn(v, " \t,/@") != strlen(v)) {
		snprintf(e, n, "'%.*s' is not a host name or address", SHOWN_MAX, v);
		return false;
	}
	if (c->n_web_hosts == GATEWAY_MAX_ALLOWED) {
		snprintf(e, n, "too many web hosts (at most %d)", GATEWAY_MAX_ALLOWED);
		return false;
	}
	c->web_hosts[c->n_web_hosts++] = xstrdup(v);
	return true;
}

static bool set_web(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_web(c, v, e, n);
}

static bool set_web_hosts(struct gateway_config *c, const char *v, char *e, size_t n) {
	char word[256];
	for (const char *p = v + strspn(v, " \t,"); *p; p += strspn(p, " \t,")) {
		size_t len = strcspn(p, " \t,");
		if (len >= sizeof(word)) {
			snprintf(e, n, "'%.*s' is not a host name or address", SHOWN_MAX, p);
			return false;
		}
		memcpy(word, p, len);
		word[len] = '\0';
		if (!gateway_config_add_web_host(c, word, e, n)) {
			return false;
		}
		p += len;
	}
	return true;
}

static bool set_cert(struct gateway_config *c, const char *v, char *e, size_t n) {
	if (!is_absolute(v, e, n)) {
		return false;
	}
	gateway_config_set_string(&c->tls_cert, v);
	return true;
}

static bool set_key(struct gateway_config *c, const char *v, char *e, size_t n) {
	if (!is_absolute(v, e, n)) {
		return false;
	}
	gateway_config_set_string(&c->tls_key, v);
	return true;
}

static bool set_pam_service(struct gateway_config *c, const char *v, char *e, size_t n) {
	/* PAM reads /etc/pam.d/SERVICE: a file name, never a path. */
	if (strchr(v, '/') || strcmp(v, ".") == 0 || strcmp(v, "..") == 0) {
		snprintf(e, n, "'%.*s' is not a PAM service name", SHOWN_MAX, v);
		return false;
	}
	gateway_config_set_string(&c->pam_service, v);
	return true;
}

static bool set_worker_user(struct gateway_config *c, const char *v, char *e, size_t n) {
	gateway_config_set_string(&c->worker_user, v);
	return true;
}

/* A whitespace-separated list of names. */
static bool add_names(char **list, int *count, const char *value, char *e, size_t n) {
	char word[256];
	const char *p = value;
	while (*p) {
		size_t skip = strspn(p, " \t,");
		p += skip;
		size_t len = strcspn(p, " \t,");
		if (len == 0) {
			break;
		}
		if (len >= sizeof(word)) {
			snprintf(e, n, "the name '%.*s...' is too long", SHOWN_MAX, p);
			return false;
		}
		memcpy(word, p, len);
		word[len] = '\0';
		if (!gateway_config_add_name(list, count, word, e, n)) {
			return false;
		}
		p += len;
	}
	return true;
}

static bool set_allow_users(struct gateway_config *c, const char *v, char *e, size_t n) {
	return add_names(c->allowed_users, &c->n_allowed_users, v, e, n);
}

static bool set_allow_groups(struct gateway_config *c, const char *v, char *e, size_t n) {
	return add_names(c->allowed_groups, &c->n_allowed_groups, v, e, n);
}

static bool set_handshake_timeout(struct gateway_config *c, const char *v, char *e,
		size_t n) {
	return gateway_config_set_seconds(&c->handshake_timeout, v, 1, 3600, e, n);
}

static bool set_max_pending(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_seconds(&c->max_pending, v, 1, 4096, e, n);
}

static bool set_max_pending_per_address(struct gateway_config *c, const char *v, char *e,
		size_t n) {
	return gateway_config_set_seconds(&c->max_pending_per_address, v, 1, 4096, e, n);
}

static bool set_command(struct gateway_config *c, const char *v, char *e, size_t n) {
	gateway_config_set_string(&c->session_command, v);
	return true;
}

static bool set_oriel(struct gateway_config *c, const char *v, char *e, size_t n) {
	if (!is_absolute(v, e, n)) {
		return false;
	}
	gateway_config_set_string(&c->oriel, v);
	return true;
}

static bool set_runtime_dir(struct gateway_config *c, const char *v, char *e, size_t n) {
	if (!is_absolute(v, e, n)) {
		return false;
	}
	gateway_config_set_string(&c->runtime_dir, v);
	return true;
}

static bool set_output(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_size(&c->output_width, &c->output_height, v, e, n);
}

static bool set_max_output(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_size(&c->max_width, &c->max_height, v, e, n);
}

static bool set_reconnect(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_reconnect(&c->reconnect, v, e, n);
}

static bool set_rdp_handover(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_rdp_handover(&c->rdp_handover, v, e, n);
}

static bool set_idle_timeout(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_seconds(&c->idle_timeout, v, 0, 365 * 24 * 3600, e, n);
}

static bool set_x_display(struct gateway_config *c, const char *v, char *e, size_t n) {
	return gateway_config_set_seconds(&c->x_display, v, 0, X_DISPLAY_MAX, e, n);
}

static const char *const sections[] = { "listen", "login", "session" };

static const struct gateway_key keys[] = {
	{ "listen", "vnc", set_vnc, true },
	{ "listen", "rdp", set_rdp, true },
	{ "listen", "web", set_web, false },
	{ "listen", "web-hosts", set_web_hosts, true },
	{ "login", "tls-cert", set_cert, false },
	{ "login", "tls-key", set_key, false },
	{ "login", "pam-service", set_pam_service, false },
	{ "login", "allow-users", set_allow_users, true },
	{ "login", "allow-groups", set_allow_groups, true },
	{ "login", "handshake-timeout", set_handshake_timeout, false },
	{ "login", "max-pending", set_max_pending, false },
	{ "login", "max-pending-per-address", set_max_pending_per_address, false },
	{ "login", "worker-user", set_worker_user, false },
	{ "login", "rdp-handover", set_rdp_handover, false },
	{ "session", "command", set_command, false },
	{ "session", "oriel", set_oriel, false },
	{ "session", "runtime-dir", set_runtime_dir, false },
	{ "session", "output", set_output, false },
	{ "session", "max-output", set_max_output, false },
	{ "session", "reconnect", set_reconnect, false },
	{ "session", "idle-timeout", set_idle_timeout, false },
	{ "session", "x-display", set_x_display, false },
};

/* Shared setters. */

bool gateway_config_add_listen(char **list, int *n, const char *value,
		char *error, size_t error_size) {
	struct address_spec address;
	if (!address_spec_parse(value, &address)) {
		snprintf(error, error_size, "'%.*s' is not [ADDR:]PORT (IPv6 as [ADDR]:PORT)",
			SHOWN_MAX, value);
		return false;
	}
	/* A bare port is every address, IPv4 and IPv6, as Xvnc and xrdp listen. */
	bool bare = strspn(value, "0123456789") == strlen(value);
	if (*n + (bare ? 2 : 1) > GATEWAY_MAX_LISTEN) {
		snprintf(error, error_size, "too many listen addresses (at most %d)",
			GATEWAY_MAX_LISTEN);
		return false;
	}
	if (bare) {
		char spec[32];
		snprintf(spec, sizeof(spec), "0.0.0.0:%d", address.port);
		list[(*n)++] = xstrdup(spec);
		snprintf(spec, sizeof(spec), "[::]:%d", address.port);
		list[(*n)++] = xstrdup(spec);
	} else {
		list[(*n)++] = xstrdup(value);
	}
	return true;
}

/* Login and group names as useradd takes them (and no shell or path characters). */
static bool is_account_name(const char *s) {
	if (!s[0] || s[0] == '-' || strlen(s) > 32) {
		return false;
	}
	for (const char *p = s; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
			(c == '$' && p[1] == '\0');
		if (!ok) {
			return false;
		}
	}
	return true;
}

bool gateway_config_add_name(char **list, int *n, const char *value,
		char *error, size_t error_size) {
	if (!is_account_name(value)) {
		snprintf(error, error_size, "'%.*s' is not a user or group name", SHOWN_MAX, value);
		return false;
	}
	if (*n >= GATEWAY_MAX_ALLOWED) {
		snprintf(error, error_size, "too many names (at most %d)", GATEWAY_MAX_ALLOWED);
		return false;
	}
	list[(*n)++] = xstrdup(value);
	return true;
}

static bool parse_number(const char *s, long min, long max, long *out) {
	if (s[0] < '0' || s[0] > '9') {
		return false;
	}
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max) {
		return false;
	}
	*out = v;
	return true;
}

bool gateway_config_set_size(int *width, int *height, const char *value,
		char *error, size_t error_size) {
	char buf[32];
	const char *x = strchr(value, 'x');
	long w, h;
	size_t len = x ? (size_t)(x - value) : 0;
	bool ok = x && len > 0 && len < sizeof(buf);
	if (ok) {
		memcpy(buf, value, len);
		buf[len] = '\0';
		ok = parse_number(buf, 1, GATEWAY_MAX_OUTPUT, &w) &&
			parse_number(x + 1, 1, GATEWAY_MAX_OUTPUT, &h);
	}
	if (!ok) {
		snprintf(error, error_size, "'%.*s' is not WIDTHxHEIGHT (1 to %d each)",
			SHOWN_MAX, value, GATEWAY_MAX_OUTPUT);
		return false;
	}
	*width = (int)w;
	*height = (int)h;
	return true;
}

static const char *const reconnect_names[] = {
	[GATEWAY_RECONNECT_SHARE] = "share",
	[GATEWAY_RECONNECT_TAKE_OVER] = "take-over",
	[GATEWAY_RECONNECT_NEW] = "new",
};

const char *gateway_reconnect_name(enum gateway_reconnect reconnect) {
	return reconnect_names[reconnect];
}

bool gateway_config_set_reconnect(enum gateway_reconnect *reconnect, const char *value,
		char *error, size_t error_size) {
	for (size_t i = 0; i < ARRAY_LEN(reconnect_names); i++) {
		if (strcmp(value, reconnect_names[i]) == 0) {
			*reconnect = (enum gateway_reconnect)i;
			return true;
		}
	}
	snprintf(error, error_size, "'%.*s' is not share, take-over or new", SHOWN_MAX, value);
	return false;
}

static const char *const rdp_handover_names[] = {
	[GATEWAY_RDP_AUTO] = "auto",
	[GATEWAY_RDP_REDIRECT] = "redirect",
	[GATEWAY_RDP_RELAY] = "relay",
};

const char *gateway_rdp_handover_name(enum gateway_rdp_handover handover) {
	return rdp_handover_names[handover];
}

bool gateway_config_set_rdp_handover(enum gateway_rdp_handover *handover,
		const char *value, char *error, size_t error_size) {
	for (size_t i = 0; i < ARRAY_LEN(rdp_handover_names); i++) {
		if (strcmp(value, rdp_handover_names[i]) == 0) {
			*handover = (enum gateway_rdp_handover)i;
			return true;
		}
	}
	snprintf(error, error_size, "'%.*s' is not auto, redirect or relay", SHOWN_MAX, value);
	return false;
}

bool gateway_config_set_seconds(int *out, const char *value, int min, int max,
		char *error, size_t error_size) {
	long v;
	if (!parse_number(value, min, max, &v)) {
		snprintf(error, error_size, "'%.*s' is not a whole number from %d to %d",
			SHOWN_MAX, value, min, max);
		return false;
	}
	*out = (int)v;
	return true;
}

void gateway_config_set_string(char **out, const char *value) {
	free(*out);
	*out = xstrdup(value);
}

void gateway_config_clear_list(char **list, int *n) {
	for (int i = 0; i < *n; i++) {
		free(list[i]);
		list[i] = NULL;
	}
	*n = 0;
}

/* The file. */

static bool fail(struct gateway_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(struct gateway_parser *p, const char *fmt, ...) {
	if (p->error_size == 0) {
		return false;
	}
	int n = snprintf(p->error, p->error_size, "%s:%d: ", p->filename, p->line);
	if (n >= 0 && (size_t)n < p->error_size) {
		va_list args;
		va_start(args, fmt);
		vsnprintf(p->error + n, p->error_size - (size_t)n, fmt, args);
		va_end(args);
	}
	return false;
}

static char *trim(char *s) {
	while (*s == ' ' || *s == '\t') {
		s++;
	}
	size_t len = strlen(s);
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r')) {
		s[--len] = '\0';
	}
	return s;
}

/* A comment starts a line or follows a blank, so "a;b" keeps its ';'. */
static void strip_comment(char *s) {
	for (size_t i = 0; s[i]; i++) {
		if ((s[i] == '#' || s[i] == ';') && (i == 0 || s[i - 1] == ' ' ||
				s[i - 1] == '\t')) {
			s[i] = '\0';
			return;
		}
	}
}

static bool parse_header(struct gateway_parser *p, char *line) {
	size_t len = strlen(line);
	if (line[len - 1] != ']') {
		return fail(p, "a section header is [NAME]");
	}
	line[len - 1] = '\0';
	char *name = trim(line + 1);
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		if (strcmp(name, sections[i]) == 0) {
			p->section = (int)i;
			return true;
		}
	}
	return fail(p, "unknown section [%.*s] (listen, login or session)", SHOWN_MAX, name);
}

static bool parse_assignment(struct gateway_parser *p, char *line) {
	char *eq = strchr(line, '=');
	if (!eq) {
		return fail(p, "'%.*s' is not KEY = VALUE", SHOWN_MAX, line);
	}
	*eq = '\0';
	char *name = trim(line);
	char *value = trim(eq + 1);
	if (p->section < 0) {
		return fail(p, "'%.*s' is outside any [section]", SHOWN_MAX, name);
	}
	const char *section = sections[p->section];
	int index_in_section = 0;
	for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
		if (strcmp(keys[i].section, section) != 0) {
			continue;
		}
		if (strcmp(keys[i].name, name) != 0) {
			index_in_section++;
			continue;
		}
		int *set_on = &p->set_on[p->section][index_in_section];
		if (*set_on && !keys[i].repeatable) {
			return fail(p, "[%s] %s is already set on line %d", section, name, *set_on);
		}
		if (!value[0]) {
			return fail(p, "[%s] %s has no value", section, name);
		}
		char why[256] = "";
		if (!keys[i].set(p->config, value, why, sizeof(why))) {
			return fail(p, "[%s] %s: %s", section, name, why);
		}
		*set_on = p->line;
		return true;
	}
	return fail(p, "unknown key '%.*s' in [%s]", SHOWN_MAX, name, section);
}

static bool parse_line(struct gateway_parser *p, const char *start, size_t len) {
	if (len > LINE_MAX_BYTES) {
		return fail(p, "the line is longer than %d bytes", LINE_MAX_BYTES);
	}
	if (memchr(start, '\0', len)) {
		return fail(p, "the line holds a NUL byte");
	}
	char buf[LINE_MAX_BYTES + 1];
	memcpy(buf, start, len);
	buf[len] = '\0';
	strip_comment(buf);
	char *line = trim(buf);
	if (!line[0]) {
		return true;
	}
	return line[0] == '[' ? parse_header(p, line) : parse_assignment(p, line);
}

bool gateway_config_parse_string(struct gateway_config *config, const char *text,
		size_t size, const char *filename, char *error, size_t error_size) {
	_Static_assert(ARRAY_LEN(sections) <= 4, "struct gateway_parser.set_on");
	struct gateway_parser p = {
		.config = config, .filename = filename, .section = -1,
		.error = error, .error_size = error_size,
	};
	if (error_size > 0) {
		error[0] = '\0';
	}
	size_t pos = 0;
	while (pos < size) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - start) : size - pos;
		p.line++;
		if (!parse_line(&p, start, len)) {
			return false;
		}
		pos += len + (nl ? 1 : 0);
	}
	return true;
}

bool gateway_config_parse_file(struct gateway_config *config, const char *path,
		char *error, size_t error_size) {
	FILE *f = fopen(path, "re");
	if (!f) {
		snprintf(error, error_size, "%s: %s", path, strerror(errno));
		return false;
	}
	char *text = NULL;
	size_t size = 0;
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (size + got > 1024 * 1024) {
			snprintf(error, error_size, "%s: larger than 1 MiB", path);
			free(text);
			fclose(f);
			return false;
		}
		char *grown = realloc(text, size + got);
		if (!grown) {
			abort();
		}
		text = grown;
		memcpy(text + size, chunk, got);
		size += got;
	}
	bool read_error = ferror(f);
	fclose(f);
	if (read_error) {
		snprintf(error, error_size, "%s: read error", path);
		free(text);
		return false;
	}
	bool ok = gateway_config_parse_string(config, text ? text : "", size, path,
		error, error_size);
	free(text);
	return ok;
}

const char *gateway_config_section_name(size_t section) {
	return section < ARRAY_LEN(sections) ? sections[section] : NULL;
}

const char *gateway_config_key_name(size_t section, size_t key) {
	const char *name = gateway_config_section_name(section);
	if (!name) {
		return NULL;
	}
	for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
		if (strcmp(keys[i].section, name) == 0 && key-- == 0) {
			return keys[i].name;
		}
	}
	return NULL;
}

void gateway_config_init(struct gateway_config *config) {
	memset(config, 0, sizeof(*config));
	config->pam_service = xstrdup("oriel");
	config->worker_user = xstrdup(GATEWAY_WORKER_USER);
	config->handshake_timeout = 10;
	config->max_pending = 64;
	config->max_pending_per_address = 4;
	config->rdp_handover = GATEWAY_RDP_AUTO;
	config->session_command = xstrdup("xterm");
	config->oriel = xstrdup(ORIEL_BINDIR "/oriel");
	config->runtime_dir = xstrdup(GATEWAY_RUNTIME_DIR);
	config->output_width = 1920;
	config->output_height = 1080;
	config->max_width = 3840;
	config->max_height = 2160;
	config->reconnect = GATEWAY_RECONNECT_SHARE;
	config->idle_timeout = 0;
	config->x_display = GATEWAY_X_DISPLAY;
	config->web_dir = xstrdup(GATEWAY_WEB_DIR);
}

void gateway_config_apply_defaults(struct gateway_config *config) {
	if (config->n_vnc_listen == 0 && config->n_rdp_listen == 0) {
		char unused[8];
		gateway_config_add_listen(config->vnc_listen, &config->n_vnc_listen, "5900",
			unused, sizeof(unused));
	}
}

void gateway_config_finish(struct gateway_config *config) {
	gateway_config_clear_list(config->vnc_listen, &config->n_vnc_listen);
	gateway_config_clear_list(config->rdp_listen, &config->n_rdp_listen);
	gateway_config_clear_list(config->allowed_users, &config->n_allowed_users);
	gateway_config_clear_list(config->allowed_groups, &config->n_allowed_groups);
	gateway_config_clear_list(config->web_hosts, &config->n_web_hosts);
	char **strings[] = { &config->web_dir, &config->tls_cert, &config->tls_key, &config->pam_service,
		&config->session_command, &config->oriel, &config->runtime_dir,
		&config->worker_user };
	for (size_t i = 0; i < ARRAY_LEN(strings); i++) {
		free(*strings[i]);
		*strings[i] = NULL;
	}
}
