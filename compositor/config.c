/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/address_spec.h"
#include "compositor/config.h"
#include "common/util.h"
#include "common/x_display.h"

/*
 * The parser is a table: sections, each with its keys, each key with a
 * setter. A new section ([vnc], [portal]) is a key table plus an entry in
 * `sections`; the generic setters cover plain strings and ranged ints.
 */

#define LINE_MAX_BYTES 4096
/* The file is ours to read, but a runaway path (/dev/zero) must not OOM us. */
#define FILE_MAX_BYTES (1024 * 1024)
#define MAX_SECTIONS 16
#define MAX_SECTION_KEYS 24
/* Values are quoted in errors, shortened so the message stays readable. */
#define QUOTE_MAX 64
/* Output modes: the limits of WIDTHxHEIGHT[@HZ]. */
#define MODE_MAX_PIXELS 16384
#define MODE_MIN_MHZ 1000
#define MODE_MAX_MHZ 1000000

struct parser;
struct config_key;

typedef bool (*config_setter)(struct parser *p, const struct config_key *key,
	const char *value);

enum config_key_flags {
	KEY_REPEATABLE = 1 << 0, /* each occurrence adds, rather than sets */
	KEY_EMPTY_OK = 1 << 1,
};

struct config_key {
	const char *name;
	config_setter set;
	unsigned flags;
	/* For the generic setters: the field's offset in struct oriel_config. */
	size_t offset;
	int min, max; /* set_int's range */
};

struct config_section {
	const char *name;
	const struct config_key *keys;
	size_t n_keys;
	/* Repeatable sections start a new instance on each header. */
	bool repeatable;
	bool (*begin)(struct parser *p); /* optional */
	bool (*end)(struct parser *p);   /* optional: checks the finished section */
};

struct parser {
	struct oriel_config *config;
	const char *filename;
	int line;
	char *err;
	size_t err_size;
	const struct config_section *section; /* NULL before the first header */
	int section_line;
	/* Line on which each key was set (0: not yet), to refuse repeats. */
	int seen[MAX_SECTIONS][MAX_SECTION_KEYS];
};

static bool fail_at(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool fail_at(struct parser *p, int line, const char *fmt, ...) {
	if (!p->err || p->err_size == 0) {
		return false;
	}
	int n = snprintf(p->err, p->err_size, "%s:%d: ", p->filename, line);
	if (n < 0 || (size_t)n >= p->err_size) {
		return false;
	}
	va_list args;
	va_start(args, fmt);
	vsnprintf(p->err + n, p->err_size - n, fmt, args);
	va_end(args);
	return false;
}

#define fail(p, ...) fail_at((p), (p)->line, __VA_ARGS__)

/* A printable, bounded copy of value for error messages. */
static const char *quote(const char *value, char out[QUOTE_MAX + 4]) {
	size_t i = 0;
	for (; value[i] && i < QUOTE_MAX; i++) {
		unsigned char c = value[i];
		out[i] = c >= 0x20 && c != 0x7f ? (char)c : '?';
	}
	strcpy(out + i, value[i] ? "..." : "");
	return out;
}

static bool is_space(char c) {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c) {
	return c >= '0' && c <= '9';
}

static char *trim(char *s) {
	while (is_space(*s)) {
		s++;
	}
	size_t len = strlen(s);
	while (len > 0 && is_space(s[len - 1])) {
		s[--len] = '\0';
	}
	return s;
}

/*
 * A comment starts a line, or follows whitespace inside it, so that
 * "size = 800x600  ; note" works but "allow = /opt/a;b" keeps its ';'.
 */
static void strip_comment(char *s) {
	for (size_t i = 0; s[i]; i++) {
		if ((s[i] == '#' || s[i] == ';') && (i == 0 || is_space(s[i - 1]))) {
			s[i] = '\0';
			return;
		}
	}
}

enum number_result { NUMBER_OK, NUMBER_INVALID, NUMBER_OUT_OF_RANGE };

/* Strict: digits with an optional '-', the whole string, no overflow. */
static enum number_result parse_int(const char *s, int min, int max, int *out) {
	const char *digits = s[0] == '-' ? s + 1 : s;
	if (!is_digit(digits[0])) {
		return NUMBER_INVALID;
	}
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end != '\0') {
		return NUMBER_INVALID;
	}
	if (errno == ERANGE || v < min || v > max) {
		return NUMBER_OUT_OF_RANGE;
	}
	*out = (int)v;
	return NUMBER_OK;
}

/* Reads a run of digits, at most max; leaves *s after them. */
static bool parse_digits(const char **s, long max, long *out) {
	const char *c = *s;
	long v = 0;
	if (!is_digit(*c)) {
		return false;
	}
	for (; is_digit(*c); c++) {
		v = v * 10 + (*c - '0');
		if (v > max) {
			return false;
		}
	}
	*s = c;
	*out = v;
	return true;
}

bool config_parse_output_mode(const char *s, struct config_output_mode *mode) {
	long width, height, mhz = 0;
	if (!s || !parse_digits(&s, MODE_MAX_PIXELS, &width) || *s++ != 'x' ||
			!parse_digits(&s, MODE_MAX_PIXELS, &height)) {
		return false;
	}
	if (*s == '@') {
		s++;
		long hz;
		if (!parse_digits(&s, MODE_MAX_MHZ / 1000, &hz)) {
			return false;
		}
		mhz = hz * 1000;
		if (*s == '.') {
			s++;
			if (!is_digit(*s)) {
				return false;
			}
			/* Millihertz precision; a fourth decimal rounds. */
			long scale = 100;
			for (; is_digit(*s); s++) {
				if (scale > 0) {
					mhz += (*s - '0') * scale;
					scale /= 10;
				} else if (scale == 0) {
					mhz += *s >= '5';
					scale = -1;
				}
			}
		}
		if (mhz < MODE_MIN_MHZ || mhz > MODE_MAX_MHZ) {
			return false;
		}
	}
	if (*s != '\0' || width < 1 || height < 1) {
		return false;
	}
	mode->width = (int)width;
	mode->height = (int)height;
	mode->refresh_mhz = (int)mhz;
	return true;
}

/* Generic setters */

static bool set_string(struct parser *p, const struct config_key *key,
		const char *value) {
	char **field = (char **)((char *)p->config + key->offset);
	free(*field);
	*field = xstrdup(value);
	return true;
}

static bool set_int(struct parser *p, const struct config_key *key,
		const char *value) {
	char q[QUOTE_MAX + 4];
	int *field = (int *)((char *)p->config + key->offset);
	switch (parse_int(value, key->min, key->max, field)) {
	case NUMBER_OK:
		return true;
	case NUMBER_INVALID:
		return fail(p, "[%s] %s: '%s' is not a whole number",
			p->section->name, key->name, quote(value, q));
	case NUMBER_OUT_OF_RANGE:
		break;
	}
	return fail(p, "[%s] %s: %s is out of range (%d..%d)",
		p->section->name, key->name, quote(value, q), key->min, key->max);
}

/* names[i] is the value for enum value i + 1 (0 is always UNSET). */
static bool parse_enum(struct parser *p, const struct config_key *key,
		const char *value, const char *const names[], size_t n, int *out) {
	for (size_t i = 0; i < n; i++) {
		if (strcmp(value, names[i]) == 0) {
			*out = (int)i + 1;
			return true;
		}
	}
	char choices[128] = "";
	for (size_t i = 0; i < n; i++) {
		strncat(choices, i ? ", " : "", sizeof(choices) - strlen(choices) - 1);
		strncat(choices, names[i], sizeof(choices) - strlen(choices) - 1);
	}
	char q[QUOTE_MAX + 4];
	return fail(p, "[%s] %s: '%s' is not one of %s",
		p->section->name, key->name, quote(value, q), choices);
}

/* [session] */

static bool set_mode(struct parser *p, const struct config_key *key,
		const char *value) {
	static const char *const names[] = {"desktop", "kiosk"};
	int v = 0;
	if (!parse_enum(p, key, value, names, ARRAY_LEN(names), &v)) {
		return false;
	}
	p->config->mode = (enum config_mode)v;
	return true;
}

static bool set_xwayland(struct parser *p, const struct config_key *key,
		const char *value) {
	static const char *const names[] = {"lazy", "eager", "off"};
	int v = 0;
	if (!parse_enum(p, key, value, names, ARRAY_LEN(names), &v)) {
		return false;
	}
	p->config->xwayland = (enum config_xwayland)v;
	return true;
}

static bool set_sound_server(struct parser *p, const struct config_key *key,
		const char *value) {
	static const char *const names[] = {"auto", "off"};
	int v = 0;
	if (!parse_enum(p, key, value, names, ARRAY_LEN(names), &v)) {
		return false;
	}
	p->config->sound_server = (enum config_sound_server)v;
	return true;
}

static const struct config_key session_keys[] = {
	{ .name = "mode", .set = set_mode },
	{ .name = "xwayland", .set = set_xwayland },
	{ .name = "sound-server", .set = set_sound_server },
	{ .name = "x-display", .set = set_int,
		.offset = offsetof(struct oriel_config, x_display), .min = 0, .max = X_DISPLAY_MAX },
};

/* [output] */

static bool output_begin(struct parser *p) {
	if (p->config->n_outputs >= CONFIG_MAX_OUTPUTS) {
		return fail(p, "too many [output] sections (at most %d)",
			CONFIG_MAX_OUTPUTS);
	}
	return true;
}

static bool set_output_size(struct parser *p, const struct config_key *key,
		const char *value) {
	struct config_output_mode mode;
	if (!config_parse_output_mode(value, &mode)) {
		char q[QUOTE_MAX + 4];
		return fail(p, "[output] %s: '%s' is not WIDTHxHEIGHT[@HZ] "
			"(1..%d pixels, %d..%d Hz)", key->name, quote(value, q),
			MODE_MAX_PIXELS, MODE_MIN_MHZ / 1000, MODE_MAX_MHZ / 1000);
	}
	/* output_begin made room; size is set once per section. */
	p->config->outputs[p->config->n_outputs++] = mode;
	return true;
}

static const struct config_key output_keys[] = {
	{ .name = "size", .set = set_output_size },
};

static bool output_end(struct parser *p);

/* [keyboard] */

#define KEYBOARD_STRING(key, field) { .name = key, .set = set_string, \
	.flags = KEY_EMPTY_OK, .offset = offsetof(struct oriel_config, field) }

static const struct config_key keyboard_keys[] = {
	KEYBOARD_STRING("rules", xkb_rules),
	KEYBOARD_STRING("model", xkb_model),
	KEYBOARD_STRING("layout", xkb_layout),
	KEYBOARD_STRING("variant", xkb_variant),
	KEYBOARD_STRING("options", xkb_options),
	{ .name = "repeat-rate", .set = set_int,
		.offset = offsetof(struct oriel_config, repeat_rate), .min = 0, .max = 1000 },
	{ .name = "repeat-delay", .set = set_int,
		.offset = offsetof(struct oriel_config, repeat_delay), .min = 0, .max = 10000 },
};

/* [cursor] */

static const struct config_key cursor_keys[] = {
	{ .name = "theme", .set = set_string,
		.offset = offsetof(struct oriel_config, cursor_theme) },
	{ .name = "size", .set = set_int,
		.offset = offsetof(struct oriel_config, cursor_size), .min = 1, .max = 512 },
};

/* [indicator] */

static const struct config_key indicator_keys[] = {
	{ .name = "screenshot-notice", .set = set_int,
		.offset = offsetof(struct oriel_config, screenshot_notice), .min = 0,
		.max = 3600 },
};

/* [control] */

static bool add_allowed_exe(struct parser *p, const struct config_key *key,
		const char *value) {
	char q[QUOTE_MAX + 4];
	if (value[0] != '/') {
		/* The peer check compares against /proc/PID/exe, always absolute. */
		return fail(p, "[control] %s: '%s' is not an absolute path",
			key->name, quote(value, q));
	}
	struct oriel_config *config = p->config;
	if (config->n_allowed_exes >= CONFIG_MAX_ALLOWED_EXES) {
		return fail(p, "[control] %s: too many entries (at most %d)",
			key->name, CONFIG_MAX_ALLOWED_EXES);
	}
	config->allowed_exes[config->n_allowed_exes++] = xstrdup(value);
	return true;
}

static const struct config_key control_keys[] = {
	{ .name = "allow", .set = add_allowed_exe, .flags = KEY_REPEATABLE },
};

/* [privileged] */

static const char *const privilege_names[CONFIG_PRIVILEGE_COUNT] = {
	[CONFIG_PRIVILEGE_SCREENCOPY] = "screencopy",
	[CONFIG_PRIVILEGE_VIRTUAL_INPUT] = "virtual-input",
	[CONFIG_PRIVILEGE_DATA_CONTROL] = "data-control",
	[CONFIG_PRIVILEGE_OUTPUT_MANAGEMENT] = "output-management",
	[CONFIG_PRIVILEGE_GAMMA] = "gamma",
};

const char *config_privilege_name(enum config_privilege privilege) {
	return privilege < CONFIG_PRIVILEGE_COUNT ? privilege_names[privilege] : NULL;
}

bool config_privilege_from_name(const char *name, enum config_privilege *out) {
	for (int i = 0; i < CONFIG_PRIVILEGE_COUNT; i++) {
		if (strcmp(name, privilege_names[i]) == 0) {
			*out = (enum config_privilege)i;
			return true;
		}
	}
	return false;
}

bool config_add_privileged_exes(struct oriel_config *config,
		enum config_privilege privilege, const char *list, char *err, size_t err_size) {
	char q[QUOTE_MAX + 4];
	int *n = &config->n_privileged_exes[privilege];
	const char *s = list;
	bool any = false;
	while (*s) {
		if (is_space(*s)) {
			s++;
			continue;
		}
		size_t len = 0;
		while (s[len] && !is_space(s[len])) {
			len++;
		}
		char *path = zalloc(len + 1);
		memcpy(path, s, len);
		s += len;
		if (path[0] != '/') {
			/* Clients are matched by /proc/PID/exe, always absolute. */
			snprintf(err, err_size, "'%s' is not an absolute path", quote(path, q));
			free(path);
			return false;
		}
		if (*n >= CONFIG_MAX_PRIVILEGED_EXES) {
			snprintf(err, err_size, "too many entries (at most %d)",
				CONFIG_MAX_PRIVILEGED_EXES);
			free(path);
			return false;
		}
		config->privileged_exes[privilege][(*n)++] = path;
		any = true;
	}
	if (!any) {
		snprintf(err, err_size, "missing value");
	}
	return any;
}

static bool add_privileged(struct parser *p, const struct config_key *key,
		const char *value) {
	enum config_privilege privilege = (enum config_privilege)key->min;
	char why[QUOTE_MAX + 64];
	if (!config_add_privileged_exes(p->config, privilege, value, why, sizeof(why))) {
		return fail(p, "[privileged] %s: %s", key->name, why);
	}
	return true;
}

/* The key's min carries its capability, for add_privileged. */
#define PRIVILEGED_KEY(key, privilege) { .name = key, .set = add_privileged, \
	.flags = KEY_REPEATABLE, .min = privilege }

static const struct config_key privileged_keys[] = {
	PRIVILEGED_KEY("screencopy", CONFIG_PRIVILEGE_SCREENCOPY),
	PRIVILEGED_KEY("virtual-input", CONFIG_PRIVILEGE_VIRTUAL_INPUT),
	PRIVILEGED_KEY("data-control", CONFIG_PRIVILEGE_DATA_CONTROL),
	PRIVILEGED_KEY("output-management", CONFIG_PRIVILEGE_OUTPUT_MANAGEMENT),
	PRIVILEGED_KEY("gamma", CONFIG_PRIVILEGE_GAMMA),
};

/* [vnc] */

static bool add_vnc_listen(struct parser *p, const struct config_key *key,
		const char *value) {
	char q[QUOTE_MAX + 4];
	struct address_spec address;
	if (!address_spec_parse(value, &address)) {
		return fail(p, "[vnc] %s: '%s' is not [ADDR:]PORT (IPv6 as [ADDR]:PORT)",
			key->name, quote(value, q));
	}
	struct oriel_config *config = p->config;
	if (config->n_vnc_listen >= CONFIG_MAX_VNC_LISTEN) {
		return fail(p, "[vnc] %s: too many entries (at most %d)",
			key->name, CONFIG_MAX_VNC_LISTEN);
	}
	config->vnc_listen[config->n_vnc_listen++] = xstrdup(value);
	return true;
}

static bool add_rdp_listen(struct parser *p, const struct config_key *key,
		const char *value) {
	char q[QUOTE_MAX + 4];
	struct address_spec address;
	if (!address_spec_parse(value, &address)) {
		return fail(p, "[rdp] %s: '%s' is not [ADDR:]PORT (IPv6 as [ADDR]:PORT)",
			key->name, quote(value, q));
	}
	struct oriel_config *config = p->config;
	if (config->n_rdp_listen >= CONFIG_MAX_VNC_LISTEN) {
		return fail(p, "[rdp] %s: too many entries (at most %d)",
			key->name, CONFIG_MAX_VNC_LISTEN);
	}
	config->rdp_listen[config->n_rdp_listen++] = xstrdup(value);
	return true;
}

static bool add_vnc_unix(struct parser *p, const struct config_key *key,
		const char *value) {
	char q[QUOTE_MAX + 4];
	struct oriel_config *config = p->config;
	/* sockaddr_un.sun_path holds 108 bytes with the NUL. */
	if (strlen(value) >= 108) {
		return fail(p, "[vnc] %s: '%s' is longer than 107 bytes",
			key->name, quote(value, q));
	}
	if (config->n_vnc_unix >= CONFIG_MAX_VNC_LISTEN) {
		return fail(p, "[vnc] %s: too many entries (at most %d)",
			key->name, CONFIG_MAX_VNC_LISTEN);
	}
	config->vnc_unix[config->n_vnc_unix++] = xstrdup(value);
	return true;
}

static bool add_vnc_allow_user(struct parser *p, const struct config_key *key,
		const char *value) {
	struct oriel_config *config = p->config;
	if (config->n_vnc_allow_users >= CONFIG_MAX_VNC_ALLOW_USERS) {
		return fail(p, "[vnc] %s: too many entries (at most %d)",
			key->name, CONFIG_MAX_VNC_ALLOW_USERS);
	}
	config->vnc_allow_users[config->n_vnc_allow_users++] = xstrdup(value);
	return true;
}

/*
 * Words separated by spaces or commas, each added to list. Their form is
 * checked where they are used (remote/vnc/vnc_http_origin.c).
 */
static bool add_vnc_words(struct parser *p, const struct config_key *key,
		const char *value, char **list, int *n) {
	char q[QUOTE_MAX + 4];
	bool any = false;
	for (const char *s = value; *s; ) {
		if (is_space(*s) || *s == ',') {
			s++;
			continue;
		}
		size_t len = strcspn(s, " \t,");
		for (size_t i = 0; i < len; i++) {
			if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e) {
				return fail(p, "[vnc] %s: '%s' has a character that is not printable "
					"ASCII", key->name, quote(value, q));
			}
		}
		if (*n >= CONFIG_MAX_VNC_ALLOW_WEB) {
			return fail(p, "[vnc] %s: too many entries (at most %d)",
				key->name, CONFIG_MAX_VNC_ALLOW_WEB);
		}
		char *word = zalloc(len + 1);
		memcpy(word, s, len);
		list[(*n)++] = word;
		s += len;
		any = true;
	}
	return any || fail(p, "[vnc] %s: missing value", key->name);
}

static bool add_vnc_allow_origin(struct parser *p, const struct config_key *key,
		const char *value) {
	struct oriel_config *config = p->config;
	return add_vnc_words(p, key, value, config->vnc_allow_origins,
		&config->n_vnc_allow_origins);
}

static bool add_vnc_allow_host(struct parser *p, const struct config_key *key,
		const char *value) {
	struct oriel_config *config = p->config;
	return add_vnc_words(p, key, value, config->vnc_allow_hosts,
		&config->n_vnc_allow_hosts);
}

static bool set_bool(struct parser *p, const struct config_key *key,
		const char *value) {
	static const char *const names[] = {"false", "true", "no", "yes", "off", "on"};
	int v = 0;
	if (!parse_enum(p, key, value, names, ARRAY_LEN(names), &v)) {
		return false;
	}
	int *field = (int *)((char *)p->config + key->offset);
	*field = (v - 1) % 2;
	return true;
}

#define VNC_STRING(key, field) { .name = key, .set = set_string, \
	.offset = offsetof(struct oriel_config, field) }
#define VNC_INT(key, field, lo, hi) { .name = key, .set = set_int, \
	.offset = offsetof(struct oriel_config, field), .min = lo, .max = hi }

static const struct config_key vnc_keys[] = {
	{ .name = "listen", .set = add_vnc_listen, .flags = KEY_REPEATABLE },
	{ .name = "unix", .set = add_vnc_unix, .flags = KEY_REPEATABLE },
	VNC_STRING("output", vnc_output),
	VNC_STRING("password-file", vnc_password_file),
	{ .name = "view-only", .set = set_bool,
		.offset = offsetof(struct oriel_config, vnc_view_only) },
	VNC_INT("max-fps", vnc_max_fps, 1, 1000),
	VNC_INT("max-clients", vnc_max_clients, 1, 1024),
	VNC_INT("max-cut-text", vnc_max_cut_text, 1, 64 * 1024 * 1024),
	VNC_STRING("http", vnc_http),
	VNC_STRING("tls-cert", vnc_tls_cert),
	VNC_STRING("tls-key", vnc_tls_key),
	VNC_STRING("users", vnc_users),
	VNC_STRING("pam", vnc_pam),
	{ .name = "allow-user", .set = add_vnc_allow_user, .flags = KEY_REPEATABLE },
	{ .name = "allow-origin", .set = add_vnc_allow_origin, .flags = KEY_REPEATABLE },
	{ .name = "allow-host", .set = add_vnc_allow_host, .flags = KEY_REPEATABLE },
	{ .name = "insecure", .set = set_bool,
		.offset = offsetof(struct oriel_config, vnc_insecure) },
	{ .name = "anonymous-tls", .set = set_bool,
		.offset = offsetof(struct oriel_config, vnc_anonymous_tls) },
	VNC_INT("handshake-timeout", vnc_handshake_timeout, 1, 3600),
	VNC_INT("max-pending", vnc_max_pending, 1, 4096),
	VNC_INT("max-pending-per-address", vnc_max_pending_per_address, 1, 4096),
	VNC_INT("idle-timeout", vnc_idle_timeout, 0, 7 * 24 * 3600),
};

static bool set_rdp_keyboard(struct parser *p, const struct config_key *key,
		const char *value) {
	static const char *const names[] = {"client", "session"};
	int v = 0;
	if (!parse_enum(p, key, value, names, ARRAY_LEN(names), &v)) {
		return false;
	}
	p->config->rdp_keyboard = (enum config_rdp_keyboard)v;
	return true;
}

static bool set_rdp_audio(struct parser *p, const struct config_key *key,
		const char *value) {
	static const char *const names[] = {"on", "off", "playback"};
	int v = 0;
	if (!parse_enum(p, key, value, names, ARRAY_LEN(names), &v)) {
		return false;
	}
	p->config->rdp_audio = (enum config_rdp_audio)v;
	return true;
}

const char *const config_rdp_codec_names[5] = {
	"auto", "avc444", "avc420", "progressive", "planar",
};

static bool set_rdp_codec(struct parser *p, const struct config_key *key,
		const char *value) {
	int v = 0;
	if (!parse_enum(p, key, value, config_rdp_codec_names,
			ARRAY_LEN(config_rdp_codec_names), &v)) {
		return false;
	}
	p->config->rdp_codec = (enum config_rdp_codec)v;
	return true;
}

static const struct config_key rdp_keys[] = {
	{ .name = "listen", .set = add_rdp_listen, .flags = KEY_REPEATABLE },
	VNC_STRING("tls-cert", rdp_tls_cert),
	VNC_STRING("tls-key", rdp_tls_key),
	VNC_STRING("users", rdp_users),
	VNC_STRING("pam", rdp_pam),
	VNC_STRING("sam", rdp_sam),
	VNC_INT("handshake-timeout", rdp_handshake_timeout, 1, 3600),
	VNC_INT("max-pending", rdp_max_pending, 1, 4096),
	VNC_INT("max-pending-per-address", rdp_max_pending_per_address, 1, 4096),
	VNC_INT("max-clients", rdp_max_clients, 1, 1024),
	VNC_INT("max-fps", rdp_max_fps, 1, 1000),
	{ .name = "keyboard", .set = set_rdp_keyboard },
	{ .name = "audio", .set = set_rdp_audio },
	{ .name = "codec", .set = set_rdp_codec },
};

#define SECTION_KEYS(table) .keys = table, .n_keys = ARRAY_LEN(table)

static const struct config_section sections[] = {
	{ .name = "session", SECTION_KEYS(session_keys) },
	{ .name = "output", SECTION_KEYS(output_keys), .repeatable = true,
		.begin = output_begin, .end = output_end },
	{ .name = "keyboard", SECTION_KEYS(keyboard_keys) },
	{ .name = "cursor", SECTION_KEYS(cursor_keys) },
	{ .name = "indicator", SECTION_KEYS(indicator_keys) },
	{ .name = "control", SECTION_KEYS(control_keys) },
	{ .name = "vnc", SECTION_KEYS(vnc_keys) },
	{ .name = "rdp", SECTION_KEYS(rdp_keys) },
	{ .name = "privileged", SECTION_KEYS(privileged_keys) },
};

_Static_assert(ARRAY_LEN(sections) <= MAX_SECTIONS, "raise MAX_SECTIONS");
_Static_assert(ARRAY_LEN(session_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");
_Static_assert(ARRAY_LEN(output_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");
_Static_assert(ARRAY_LEN(keyboard_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");
_Static_assert(ARRAY_LEN(cursor_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");
_Static_assert(ARRAY_LEN(control_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");
_Static_assert(ARRAY_LEN(vnc_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");
_Static_assert(ARRAY_LEN(rdp_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");
_Static_assert(ARRAY_LEN(privileged_keys) <= MAX_SECTION_KEYS, "raise MAX_SECTION_KEYS");

static int *seen_line(struct parser *p, const struct config_key *key) {
	return &p->seen[p->section - sections][key - p->section->keys];
}

static bool output_end(struct parser *p) {
	if (*seen_line(p, &output_keys[0]) == 0) {
		return fail_at(p, p->section_line, "[output] section has no size");
	}
	return true;
}

static bool end_section(struct parser *p) {
	if (p->section && p->section->end) {
		return p->section->end(p);
	}
	return true;
}

static bool parse_header(struct parser *p, char *line) {
	char *close = strchr(line, ']');
	if (!close) {
		return fail(p, "missing ']' in section header");
	}
	if (close[1] != '\0') {
		return fail(p, "unexpected text after ']' in section header");
	}
	*close = '\0';
	char *name = trim(line + 1);

	const struct config_section *section = NULL;
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		if (strcmp(name, sections[i].name) == 0) {
			section = &sections[i];
			break;
		}
	}
	if (!section) {
		char q[QUOTE_MAX + 4];
		return fail(p, "unknown section [%s]", quote(name, q));
	}
	if (!end_section(p)) {
		return false;
	}
	p->section = section;
	p->section_line = p->line;
	if (section->repeatable) {
		memset(p->seen[section - sections], 0, sizeof(p->seen[0]));
	}
	return !section->begin || section->begin(p);
}

static bool parse_assignment(struct parser *p, char *line) {
	char q[QUOTE_MAX + 4];
	char *eq = strchr(line, '=');
	if (!eq) {
		return fail(p, "missing '=' in '%s'", quote(line, q));
	}
	*eq = '\0';
	char *name = trim(line);
	char *value = trim(eq + 1);
	if (name[0] == '\0') {
		return fail(p, "missing key name before '='");
	}
	if (!p->section) {
		return fail(p, "key '%s' is outside any [section]", quote(name, q));
	}

	const struct config_section *section = p->section;
	const struct config_key *key = NULL;
	for (size_t i = 0; i < section->n_keys; i++) {
		if (strcmp(name, section->keys[i].name) == 0) {
			key = &section->keys[i];
			break;
		}
	}
	if (!key) {
		return fail(p, "unknown key '%s' in [%s]", quote(name, q), section->name);
	}
	if (value[0] == '\0' && !(key->flags & KEY_EMPTY_OK)) {
		return fail(p, "[%s] %s: missing value", section->name, key->name);
	}
	int *seen = seen_line(p, key);
	if (*seen && !(key->flags & KEY_REPEATABLE)) {
		return fail(p, "[%s] %s is already set on line %d",
			section->name, key->name, *seen);
	}
	if (!key->set(p, key, value)) {
		return false;
	}
	*seen = p->line;
	return true;
}

static bool parse_line(struct parser *p, const char *start, size_t len) {
	if (len > LINE_MAX_BYTES) {
		return fail(p, "line is longer than %d bytes", LINE_MAX_BYTES);
	}
	if (memchr(start, '\0', len)) {
		return fail(p, "line contains a NUL byte");
	}
	char buf[LINE_MAX_BYTES + 1];
	memcpy(buf, start, len);
	buf[len] = '\0';

	char *line = trim(buf);
	strip_comment(line);
	line = trim(line);
	if (line[0] == '\0') {
		return true;
	}
	if (line[0] == '[') {
		return parse_header(p, line);
	}
	return parse_assignment(p, line);
}

const char *config_section_name(size_t section) {
	return section < ARRAY_LEN(sections) ? sections[section].name : NULL;
}

const char *config_key_name(size_t section, size_t key) {
	if (section >= ARRAY_LEN(sections) || key >= sections[section].n_keys) {
		return NULL;
	}
	return sections[section].keys[key].name;
}

void config_init(struct oriel_config *config) {
	memset(config, 0, sizeof(*config));
	config->x_display = -1;
	config->repeat_rate = -1;
	config->repeat_delay = -1;
	config->vnc_view_only = -1;
	config->vnc_insecure = -1;
	config->vnc_anonymous_tls = -1;
	config->vnc_idle_timeout = -1;
	config->screenshot_notice = -1;
}

void config_finish(struct oriel_config *config) {
	free(config->xkb_rules);
	free(config->xkb_model);
	free(config->xkb_layout);
	free(config->xkb_variant);
	free(config->xkb_options);
	free(config->cursor_theme);
	for (int i = 0; i < config->n_allowed_exes; i++) {
		free(config->allowed_exes[i]);
	}
	for (int i = 0; i < config->n_vnc_listen; i++) {
		free(config->vnc_listen[i]);
	}
	for (int i = 0; i < config->n_vnc_unix; i++) {
		free(config->vnc_unix[i]);
	}
	for (int i = 0; i < CONFIG_PRIVILEGE_COUNT; i++) {
		for (int j = 0; j < config->n_privileged_exes[i]; j++) {
			free(config->privileged_exes[i][j]);
		}
	}
	free(config->vnc_output);
	free(config->vnc_password_file);
	free(config->vnc_http);
	free(config->vnc_tls_cert);
	free(config->vnc_tls_key);
	free(config->vnc_users);
	free(config->vnc_pam);
	for (int i = 0; i < config->n_vnc_allow_users; i++) {
		free(config->vnc_allow_users[i]);
	}
	for (int i = 0; i < config->n_vnc_allow_origins; i++) {
		free(config->vnc_allow_origins[i]);
	}
	for (int i = 0; i < config->n_vnc_allow_hosts; i++) {
		free(config->vnc_allow_hosts[i]);
	}
	for (int i = 0; i < config->n_rdp_listen; i++) {
		free(config->rdp_listen[i]);
	}
	free(config->rdp_tls_cert);
	free(config->rdp_tls_key);
	free(config->rdp_users);
	free(config->rdp_pam);
	free(config->rdp_sam);
	/* Back to the initial state, so finishing twice is harmless. */
	config_init(config);
}

bool config_parse_string(struct oriel_config *config, const char *text,
		size_t len, const char *filename, char *err, size_t err_size) {
	struct parser p = {
		.config = config,
		.filename = filename ? filename : "<string>",
		.err = err,
		.err_size = err_size,
	};
	if (err && err_size > 0) {
		err[0] = '\0';
	}
	if (!text) {
		len = 0;
	}
	/* Some editors start UTF-8 files with a byte order mark. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}

	size_t pos = 0;
	while (pos < len) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - start) : len - pos;
		pos += line_len + (nl ? 1 : 0);
		p.line++;
		if (!parse_line(&p, start, line_len)) {
			return false;
		}
	}
	return end_section(&p);
}

bool config_parse_file(struct oriel_config *config, const char *path,
		char *err, size_t err_size) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (err && err_size > 0) {
			snprintf(err, err_size, "%s: %s", path, strerror(errno));
		}
		return false;
	}
	/* One byte more than the limit tells a full file from a too big one. */
	char *text = zalloc(FILE_MAX_BYTES + 1);
	size_t len = fread(text, 1, FILE_MAX_BYTES + 1, f);
	bool read_error = ferror(f);
	int read_errno = errno;
	fclose(f);

	bool ok = false;
	if (read_error) {
		if (err && err_size > 0) {
			snprintf(err, err_size, "%s: %s", path, strerror(read_errno));
		}
	} else if (len > FILE_MAX_BYTES) {
		if (err && err_size > 0) {
			snprintf(err, err_size, "%s: file is larger than %d bytes",
				path, FILE_MAX_BYTES);
		}
	} else {
		ok = config_parse_string(config, text, len, path, err, err_size);
	}
	free(text);
	return ok;
}
