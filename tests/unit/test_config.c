/* SPDX-License-Identifier: MIT */
/* Unit tests for the oriel.ini parser (compositor/config.c). */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compositor/config.h"
#include "expect.h"


#define EXPECT_STR(actual, expected) do { \
	const char *a_ = (actual), *e_ = (expected); \
	EXPECT(a_ && strcmp(a_, e_) == 0, "%s is '%s', expected '%s'", \
		#actual, a_ ? a_ : "(null)", e_); \
} while (0)

static bool parse(struct oriel_config *config, const char *text, char *err,
		size_t err_size) {
	config_init(config);
	return config_parse_string(config, text, strlen(text), "oriel.ini",
		err, err_size);
}

/*
 * text must fail with an error that starts with "oriel.ini:LINE: " and
 * contains every one of the NULL-terminated fragments.
 */
static void expect_error_at(int test_line, const char *text, int line, ...) {
	struct oriel_config config;
	char err[512];
	bool ok = parse(&config, text, err, sizeof(err));
	if (ok) {
		fprintf(stderr, "%s:%d: FAILED: parsing succeeded, expected an error "
			"on line %d for:\n%s\n", __FILE__, test_line, line, text);
		failures++;
		config_finish(&config);
		return;
	}
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "oriel.ini:%d: ", line);
	if (strncmp(err, prefix, strlen(prefix)) != 0) {
		fprintf(stderr, "%s:%d: FAILED: error '%s' does not start with '%s'\n",
			__FILE__, test_line, err, prefix);
		failures++;
	}
	va_list fragments;
	va_start(fragments, line);
	for (const char *f; (f = va_arg(fragments, const char *));) {
		if (!strstr(err, f)) {
			fprintf(stderr, "%s:%d: FAILED: error '%s' does not mention '%s'\n",
				__FILE__, test_line, err, f);
			failures++;
		}
	}
	va_end(fragments);
	config_finish(&config);
}

#define EXPECT_ERROR(text, line, ...) \
	expect_error_at(__LINE__, text, line, __VA_ARGS__, (const char *)NULL)

static void test_init_finish(void) {
	struct oriel_config config;
	config_init(&config);
	EXPECT(config.mode == CONFIG_MODE_UNSET, "mode %d", config.mode);
	EXPECT(config.xwayland == CONFIG_XWAYLAND_UNSET, "xwayland %d", config.xwayland);
	EXPECT(config.n_outputs == 0, "n_outputs %d", config.n_outputs);
	EXPECT(config.repeat_rate == -1, "repeat_rate %d", config.repeat_rate);
	EXPECT(config.repeat_delay == -1, "repeat_delay %d", config.repeat_delay);
	EXPECT(config.cursor_size == 0, "cursor_size %d", config.cursor_size);
	EXPECT(config.screenshot_notice == -1, "screenshot_notice %d", config.screenshot_notice);
	EXPECT(!config.xkb_layout && !config.cursor_theme, "strings not NULL");
	EXPECT(config.n_allowed_exes == 0, "n_allowed_exes %d", config.n_allowed_exes);
	config_finish(&config);
	config_finish(&config);
}

static void test_full_file(void) {
	static const char text[] =
		"# oriel.ini\n"
		"; another comment\n"
		"\n"
		"[session]\n"
		"mode = kiosk\n"
		"  xwayland=eager  \n"
		"[output]            ; repeatable section\n"
		"size = 1920x1080@60 ; WIDTHxHEIGHT[@HZ]\n"
		"[output]\n"
		"size = 800x600@59.94\n"
		"[output]\n"
		"size=1280x720\n"
		"[keyboard]\n"
		"rules = evdev\n"
		"model = pc105\n"
		"layout = us,de\n"
		"variant =\n"
		"options = grp:alt_shift_toggle,compose:ralt\n"
		"repeat-rate = 25\n"
		"repeat-delay = 600\n"
		"[cursor]\n"
		"theme = Adwaita\n"
		"size = 24\n"
		"[indicator]\n"
		"screenshot-notice = 0\n"
		"[control]\n"
		"allow = /usr/bin/some-tool   ; absolute path\n"
		"allow = /usr/libexec/xdg-desktop-portal-oriel\n"
		"\t allow = /opt/a;b#c\r\n";
	struct oriel_config config;
	char err[256] = "";
	bool ok = parse(&config, text, err, sizeof(err));
	EXPECT(ok, "parse failed: %s", err);
	EXPECT(config.mode == CONFIG_MODE_KIOSK, "mode %d", config.mode);
	EXPECT(config.xwayland == CONFIG_XWAYLAND_EAGER, "xwayland %d", config.xwayland);
	EXPECT(config.n_outputs == 3, "n_outputs %d", config.n_outputs);
	EXPECT(config.outputs[0].width == 1920 && config.outputs[0].height == 1080 &&
		config.outputs[0].refresh_mhz == 60000, "output 0 %dx%d@%d",
		config.outputs[0].width, config.outputs[0].height, config.outputs[0].refresh_mhz);
	EXPECT(config.outputs[1].width == 800 && config.outputs[1].height == 600 &&
		config.outputs[1].refresh_mhz == 59940, "output 1 %dx%d@%d",
		config.outputs[1].width, config.outputs[1].height, config.outputs[1].refresh_mhz);
	EXPECT(config.outputs[2].width == 1280 && config.outputs[2].height == 720 &&
		config.outputs[2].refresh_mhz == 0, "output 2 %dx%d@%d",
		config.outputs[2].width, config.outputs[2].height, config.outputs[2].refresh_mhz);
	EXPECT_STR(config.xkb_rules, "evdev");
	EXPECT_STR(config.xkb_model, "pc105");
	EXPECT_STR(config.xkb_layout, "us,de");
	EXPECT_STR(config.xkb_variant, "");
	EXPECT_STR(config.xkb_options, "grp:alt_shift_toggle,compose:ralt");
	EXPECT(config.repeat_rate == 25, "repeat_rate %d", config.repeat_rate);
	EXPECT(config.repeat_delay == 600, "repeat_delay %d", config.repeat_delay);
	EXPECT_STR(config.cursor_theme, "Adwaita");
	EXPECT(config.cursor_size == 24, "cursor_size %d", config.cursor_size);
	EXPECT(config.screenshot_notice == 0, "screenshot_notice %d", config.screenshot_notice);
	EXPECT(config.n_allowed_exes == 3, "n_allowed_exes %d", config.n_allowed_exes);
	EXPECT_STR(config.allowed_exes[0], "/usr/bin/some-tool");
	EXPECT_STR(config.allowed_exes[1], "/usr/libexec/xdg-desktop-portal-oriel");
	/* A ';' or '#' not after whitespace is part of the value. */
	EXPECT_STR(config.allowed_exes[2], "/opt/a;b#c");
	config_finish(&config);
	config_finish(&config);
	EXPECT(config.xkb_layout == NULL && config.n_allowed_exes == 0,
		"finish did not reset the config");
}

static void test_small_valid(void) {
	struct oriel_config config;
	char err[256] = "";

	EXPECT(parse(&config, "", err, sizeof(err)), "empty file: %s", err);
	EXPECT(config.n_outputs == 0 && config.repeat_rate == -1, "empty file set fields");
	config_finish(&config);

	EXPECT(parse(&config, "\n\n   \n# only comments\n\t; here\n", err, sizeof(err)),
		"comments only: %s", err);
	config_finish(&config);

	/* No final newline, CRLF line ends, a byte order mark. */
	EXPECT(parse(&config, "\xef\xbb\xbf[session]\r\nmode = desktop\r\nxwayland = off",
		err, sizeof(err)), "CRLF/BOM: %s", err);
	EXPECT(config.mode == CONFIG_MODE_DESKTOP, "mode %d", config.mode);
	EXPECT(config.xwayland == CONFIG_XWAYLAND_OFF, "xwayland %d", config.xwayland);
	config_finish(&config);

	EXPECT(parse(&config, "[session]\nxwayland = lazy\n", err, sizeof(err)),
		"lazy: %s", err);
	EXPECT(config.xwayland == CONFIG_XWAYLAND_LAZY, "xwayland %d", config.xwayland);
	config_finish(&config);

	/* Range bounds are inclusive; a section may be opened twice. */
	EXPECT(parse(&config,
		"[keyboard]\nrepeat-rate = 0\n[cursor]\nsize = 512\n"
		"[keyboard]\nrepeat-delay = 10000\n[ cursor ]\ntheme = x\n",
		err, sizeof(err)), "bounds: %s", err);
	EXPECT(config.repeat_rate == 0 && config.repeat_delay == 10000 &&
		config.cursor_size == 512, "bounds %d %d %d",
		config.repeat_rate, config.repeat_delay, config.cursor_size);
	config_finish(&config);

	EXPECT(parse(&config, "[keyboard]\nrepeat-rate = 1000\nrepeat-delay = 0\n"
		"[cursor]\nsize = 1\n", err, sizeof(err)), "bounds: %s", err);
	EXPECT(config.repeat_rate == 1000 && config.repeat_delay == 0 &&
		config.cursor_size == 1, "bounds %d %d %d",
		config.repeat_rate, config.repeat_delay, config.cursor_size);
	config_finish(&config);

	/* Keyboard strings may be empty, and a value may hold '='. */
	EXPECT(parse(&config, "[keyboard]\nrules=\nmodel =\nlayout= \noptions = a=b\n",
		err, sizeof(err)), "empty keyboard strings: %s", err);
	EXPECT_STR(config.xkb_rules, "");
	EXPECT_STR(config.xkb_model, "");
	EXPECT_STR(config.xkb_layout, "");
	EXPECT_STR(config.xkb_options, "a=b");
	EXPECT(config.xkb_variant == NULL, "variant set");
	config_finish(&config);

	/* Exactly the maximum of outputs and allows. */
	char text[4096] = "";
	for (int i = 0; i < CONFIG_MAX_OUTPUTS; i++) {
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			"[output]\nsize = %dx100\n", i + 1);
	}
	strcat(text, "[control]\n");
	for (int i = 0; i < CONFIG_MAX_ALLOWED_EXES; i++) {
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			"allow = /bin/tool%d\n", i);
	}
	EXPECT(parse(&config, text, err, sizeof(err)), "maximum: %s", err);
	EXPECT(config.n_outputs == CONFIG_MAX_OUTPUTS, "n_outputs %d", config.n_outputs);
	EXPECT(config.outputs[CONFIG_MAX_OUTPUTS - 1].width == CONFIG_MAX_OUTPUTS,
		"last output width %d", config.outputs[CONFIG_MAX_OUTPUTS - 1].width);
	EXPECT(config.n_allowed_exes == CONFIG_MAX_ALLOWED_EXES,
		"n_allowed_exes %d", config.n_allowed_exes);
	config_finish(&config);

	/* A line of exactly 4096 bytes is fine. */
	char long_line[4200];
	int n = snprintf(long_line, sizeof(long_line), "[cursor]\ntheme = ");
	int theme_len = 4096 - (int)strlen("theme = ");
	memset(long_line + n, 'a', theme_len);
	strcpy(long_line + n + theme_len, "\n");
	EXPECT(parse(&config, long_line, err, sizeof(err)), "4096-byte line: %s", err);
	EXPECT(config.cursor_theme && (int)strlen(config.cursor_theme) == theme_len,
		"long theme not stored");
	config_finish(&config);
}

static void test_errors(void) {
	/* Syntax */
	EXPECT_ERROR("[session\nmode = kiosk\n", 1, "missing ']'");
	EXPECT_ERROR("[session] mode = kiosk\n", 1, "after ']'");
	EXPECT_ERROR("# c\n[display]\n", 2, "unknown section", "[display]");
	EXPECT_ERROR("[]\n", 1, "unknown section", "[]");
	EXPECT_ERROR("[Session]\n", 1, "unknown section", "[Session]");
	EXPECT_ERROR("[session]\nmode = kiosk\nfoo = bar\n", 3, "unknown key", "'foo'",
		"[session]");
	EXPECT_ERROR("[output]\nsize = 1x1\nrefresh = 60\n", 3, "unknown key", "'refresh'",
		"[output]");
	EXPECT_ERROR("mode = kiosk\n[session]\n", 1, "outside", "'mode'");
	EXPECT_ERROR("\n\nmode\n", 3, "missing '='", "'mode'");
	EXPECT_ERROR("[session]\nmode kiosk\n", 2, "missing '='", "'mode kiosk'");
	EXPECT_ERROR("[session]\n = kiosk\n", 2, "missing key");

	/* Values */
	EXPECT_ERROR("[session]\nmode = tablet\n", 2, "mode", "'tablet'", "desktop, kiosk");
	EXPECT_ERROR("[session]\nmode = Kiosk\n", 2, "mode", "'Kiosk'");
	EXPECT_ERROR("[session]\nxwayland = yes\n", 2, "xwayland", "'yes'",
		"lazy, eager, off");
	EXPECT_ERROR("[session]\nmode =\n", 2, "mode", "missing value");
	EXPECT_ERROR("[cursor]\ntheme = \n", 2, "theme", "missing value");
	EXPECT_ERROR("[cursor]\nsize =\n", 2, "size", "missing value");
	EXPECT_ERROR("[control]\nallow =\n", 2, "allow", "missing value");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = 25x\n", 2, "repeat-rate", "'25x'",
		"not a whole number");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = 0x10\n", 2, "repeat-rate", "'0x10'",
		"not a whole number");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = +5\n", 2, "repeat-rate", "'+5'",
		"not a whole number");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = 2 5\n", 2, "repeat-rate", "'2 5'",
		"not a whole number");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = -\n", 2, "repeat-rate", "not a whole number");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = 1001\n", 2, "repeat-rate", "1001",
		"out of range", "0..1000");
	EXPECT_ERROR("[keyboard]\nrepeat-rate = -1\n", 2, "repeat-rate", "-1",
		"out of range");
	EXPECT_ERROR("[keyboard]\nrepeat-delay = 10001\n", 2, "repeat-delay", "10001",
		"out of range", "0..10000");
	EXPECT_ERROR("[keyboard]\nrepeat-delay = 99999999999999999999999\n", 2,
		"repeat-delay", "99999999999999999999999", "out of range");
	EXPECT_ERROR("[keyboard]\nrepeat-delay = -99999999999999999999999\n", 2,
		"repeat-delay", "out of range");
	EXPECT_ERROR("[keyboard]\nrepeat-delay = 4294967896\n", 2,
		"repeat-delay", "out of range");
	EXPECT_ERROR("[cursor]\nsize = 0\n", 2, "size", "out of range", "1..512");
	EXPECT_ERROR("[indicator]\nscreenshot-notice = -1\n", 2, "screenshot-notice",
		"out of range", "0..3600");
	EXPECT_ERROR("[cursor]\nsize = 513\n", 2, "size", "out of range", "1..512");
	EXPECT_ERROR("[output]\nsize = 1280x\n", 2, "size", "'1280x'");
	EXPECT_ERROR("[output]\nsize = 0x0\n", 2, "size", "'0x0'");
	EXPECT_ERROR("[control]\nallow = bin/tool\n", 2, "allow", "'bin/tool'",
		"absolute path");
	EXPECT_ERROR("[control]\nallow = ~/bin/tool\n", 2, "allow", "absolute path");

	/* Repeats */
	EXPECT_ERROR("[session]\nmode = kiosk\nmode = desktop\n", 3, "mode",
		"already set on line 2");
	EXPECT_ERROR("[keyboard]\nlayout = us\n[session]\n[keyboard]\nlayout = de\n", 5,
		"layout", "already set on line 2");
	EXPECT_ERROR("[output]\nsize = 1x1\nsize = 2x2\n", 3, "size",
		"already set on line 2");
	EXPECT_ERROR("[cursor]\nsize = 24\n[output]\nsize = 1x1\n[cursor]\nsize = 32\n", 6,
		"[cursor] size", "already set on line 2");

	/* Limits */
	char text[4096] = "";
	for (int i = 0; i <= CONFIG_MAX_OUTPUTS; i++) {
		strcat(text, "[output]\nsize = 640x480\n");
	}
	EXPECT_ERROR(text, 2 * CONFIG_MAX_OUTPUTS + 1, "too many [output]", "16");
	strcpy(text, "[control]\n");
	for (int i = 0; i <= CONFIG_MAX_ALLOWED_EXES; i++) {
		strcat(text, "allow = /usr/bin/x\n");
	}
	EXPECT_ERROR(text, CONFIG_MAX_ALLOWED_EXES + 2, "allow", "too many", "16");

	/* An [output] without size is reported at its header. */
	EXPECT_ERROR("[output]\n# nothing\n[session]\nmode = kiosk\n", 1,
		"[output]", "no size");
	EXPECT_ERROR("[output]\nsize = 1x1\n\n[output]\n\n", 4, "[output]", "no size");
	EXPECT_ERROR("[output]\nsize = 1x1\n[output]\n[output]\nsize = 1x1\n", 3,
		"[output]", "no size");

	/* Bytes */
	static const char nul_text[] = "[session]\nmode = ki\0sk\n";
	struct oriel_config config;
	char err[256];
	config_init(&config);
	EXPECT(!config_parse_string(&config, nul_text, sizeof(nul_text) - 1, "oriel.ini",
		err, sizeof(err)), "embedded NUL accepted");
	EXPECT(strncmp(err, "oriel.ini:2: ", 13) == 0 && strstr(err, "NUL"),
		"NUL error is '%s'", err);
	config_finish(&config);

	char *long_text = malloc(5000);
	strcpy(long_text, "[cursor]\n\ntheme = ");
	memset(long_text + strlen(long_text), 'a', 4096 - strlen("theme = ") + 1);
	long_text[strlen("[cursor]\n\n") + 4097] = '\0';
	EXPECT(strlen(long_text) == strlen("[cursor]\n\n") + 4097, "test setup");
	EXPECT_ERROR(long_text, 3, "longer than 4096 bytes");
	free(long_text);

	/* Control characters in values are not echoed raw; long ones are cut. */
	config_init(&config);
	bool ok = config_parse_string(&config, "[session]\nmode = \x1b[2J\n",
		strlen("[session]\nmode = \x1b[2J\n"), "oriel.ini", err, sizeof(err));
	EXPECT(!ok && !strchr(err, '\x1b') && strstr(err, "'?[2J'"), "error is '%s'", err);
	config_finish(&config);
	char big[300] = "[session]\nmode = ";
	memset(big + strlen(big), 'k', 200);
	config_init(&config);
	ok = config_parse_string(&config, big, strlen(big), "oriel.ini", err, sizeof(err));
	EXPECT(!ok && strstr(err, "...") && strlen(err) < 200, "error is '%s'", err);
	config_finish(&config);
}

static void test_error_buffer(void) {
	struct oriel_config config;
	/* A tiny buffer is truncated but stays terminated. */
	char small[12];
	memset(small, 'z', sizeof(small));
	EXPECT(!parse(&config, "[nope]\n", small, sizeof(small)), "accepted [nope]");
	EXPECT(memchr(small, '\0', sizeof(small)) != NULL, "error not terminated");
	EXPECT(strncmp(small, "oriel.ini:1", 11) == 0, "small error '%s'", small);
	config_finish(&config);
	/* No buffer at all. */
	EXPECT(!parse(&config, "[nope]\n", NULL, 0), "accepted [nope]");
	config_finish(&config);
	/* Success clears a stale message. */
	char err[64] = "stale";
	EXPECT(parse(&config, "[session]\n", err, sizeof(err)) && err[0] == '\0',
		"err is '%s' after success", err);
	config_finish(&config);
	/* A failed parse keeps what came before and is still finished cleanly. */
	EXPECT(!parse(&config, "[cursor]\ntheme = a\n[keyboard]\nlayout = us\nbad\n",
		err, sizeof(err)), "accepted bad line");
	EXPECT_STR(config.cursor_theme, "a");
	EXPECT_STR(config.xkb_layout, "us");
	config_finish(&config);
}

static void test_parse_file(void) {
	struct oriel_config config;
	char err[512];
	char dir[] = "/tmp/oriel-test-config-XXXXXX";
	EXPECT(mkdtemp(dir) != NULL, "mkdtemp failed");
	char path[600];
	snprintf(path, sizeof(path), "%s/oriel.ini", dir);

	config_init(&config);
	EXPECT(!config_parse_file(&config, path, err, sizeof(err)), "missing file accepted");
	EXPECT(strncmp(err, path, strlen(path)) == 0 && strstr(err, "No such file"),
		"missing file error is '%s'", err);
	config_finish(&config);

	FILE *f = fopen(path, "w");
	EXPECT(f != NULL, "cannot write %s", path);
	if (f) {
		fputs("[cursor]\nsize = 32\n[session]\nmode = desktop\nxwayland = never\n", f);
		fclose(f);
	}
	config_init(&config);
	EXPECT(!config_parse_file(&config, path, err, sizeof(err)), "bad file accepted");
	char expected[700];
	snprintf(expected, sizeof(expected), "%s:5: ", path);
	EXPECT(strncmp(err, expected, strlen(expected)) == 0 && strstr(err, "'never'"),
		"file error is '%s'", err);
	EXPECT(config.cursor_size == 32, "cursor_size %d", config.cursor_size);
	config_finish(&config);

	f = fopen(path, "w");
	if (f) {
		fputs("[output]\nsize = 1024x768@75\n", f);
		fclose(f);
	}
	config_init(&config);
	EXPECT(config_parse_file(&config, path, err, sizeof(err)), "good file: %s", err);
	EXPECT(config.n_outputs == 1 && config.outputs[0].refresh_mhz == 75000,
		"outputs %d", config.n_outputs);
	config_finish(&config);

	/* A directory cannot be read as a file. */
	config_init(&config);
	EXPECT(!config_parse_file(&config, dir, err, sizeof(err)), "directory accepted");
	EXPECT(strncmp(err, dir, strlen(dir)) == 0, "directory error is '%s'", err);
	config_finish(&config);

	unlink(path);
	rmdir(dir);
}

static void expect_mode(int line, const char *s, int width, int height, int mhz) {
	struct config_output_mode mode = {-1, -1, -1};
	if (!config_parse_output_mode(s, &mode)) {
		fprintf(stderr, "%s:%d: FAILED: '%s' was rejected\n", __FILE__, line, s);
		failures++;
	} else if (mode.width != width || mode.height != height || mode.refresh_mhz != mhz) {
		fprintf(stderr, "%s:%d: FAILED: '%s' gave %dx%d@%d mHz, expected %dx%d@%d\n",
			__FILE__, line, s, mode.width, mode.height, mode.refresh_mhz,
			width, height, mhz);
		failures++;
	}
}

static void expect_bad_mode(int line, const char *s) {
	struct config_output_mode mode = {7, 8, 9};
	if (config_parse_output_mode(s, &mode)) {
		fprintf(stderr, "%s:%d: FAILED: '%s' was accepted\n", __FILE__, line,
			s ? s : "(null)");
		failures++;
	}
	if (mode.width != 7 || mode.height != 8 || mode.refresh_mhz != 9) {
		fprintf(stderr, "%s:%d: FAILED: rejecting '%s' changed the mode\n",
			__FILE__, line, s ? s : "(null)");
		failures++;
	}
}

#define EXPECT_MODE(s, w, h, mhz) expect_mode(__LINE__, s, w, h, mhz)
#define EXPECT_BAD_MODE(s) expect_bad_mode(__LINE__, s)

static void test_output_mode(void) {
	EXPECT_MODE("1280x720", 1280, 720, 0);
	EXPECT_MODE("1920x1080@60", 1920, 1080, 60000);
	EXPECT_MODE("800x600@59.94", 800, 600, 59940);
	EXPECT_MODE("800x600@59.9", 800, 600, 59900);
	EXPECT_MODE("800x600@59.940", 800, 600, 59940);
	EXPECT_MODE("800x600@59.9404", 800, 600, 59940);
	EXPECT_MODE("800x600@59.9405", 800, 600, 59941);
	EXPECT_MODE("800x600@59.99999999999999999999", 800, 600, 60000);
	EXPECT_MODE("1x1@1", 1, 1, 1000);
	EXPECT_MODE("16384x16384@1000", 16384, 16384, 1000000);
	EXPECT_MODE("1x1@1000.0", 1, 1, 1000000);
	EXPECT_MODE("1x1@0.9995", 1, 1, 1000);
	EXPECT_MODE("0640x0480", 640, 480, 0);

	EXPECT_BAD_MODE(NULL);
	EXPECT_BAD_MODE("");
	EXPECT_BAD_MODE("x720");
	EXPECT_BAD_MODE("1280x");
	EXPECT_BAD_MODE("1280");
	EXPECT_BAD_MODE("1280x720@");
	EXPECT_BAD_MODE("0x0");
	EXPECT_BAD_MODE("0x720");
	EXPECT_BAD_MODE("1280x0");
	EXPECT_BAD_MODE("16385x100");
	EXPECT_BAD_MODE("100x16385");
	EXPECT_BAD_MODE("99999999999999999999999x1");
	EXPECT_BAD_MODE("1280x720@0");
	EXPECT_BAD_MODE("1280x720@0.5");
	EXPECT_BAD_MODE("1280x720@0.9994");
	EXPECT_BAD_MODE("1280x720@1001");
	EXPECT_BAD_MODE("1280x720@1000.001");
	EXPECT_BAD_MODE("1280x720@60.");
	EXPECT_BAD_MODE("1280x720@.5");
	EXPECT_BAD_MODE("1280x720@60Hz");
	EXPECT_BAD_MODE("1280x720@60.0.0");
	EXPECT_BAD_MODE("1280x720junk");
	EXPECT_BAD_MODE("1280x720 ");
	EXPECT_BAD_MODE(" 1280x720");
	EXPECT_BAD_MODE("1280 x 720");
	EXPECT_BAD_MODE("1280X720");
	EXPECT_BAD_MODE("-1280x720");
	EXPECT_BAD_MODE("+1280x720");
	EXPECT_BAD_MODE("1280x-720");
	EXPECT_BAD_MODE("1280x720@-60");
	EXPECT_BAD_MODE("1280x720@+60");
	EXPECT_BAD_MODE("1280x720@@60");
}

static void test_rdp(void) {
	struct oriel_config config;
	char err[512];
	EXPECT(parse(&config,
		"[rdp]\n"
		"listen = 3389\n"
		"listen = 0.0.0.0:3390\n"
		"tls-cert = /etc/oriel/rdp-cert.pem\n"
		"tls-key = /etc/oriel/rdp-key.pem\n"
		"users = /etc/oriel/rdp-users\n"
		"pam = oriel\n"
		"handshake-timeout = 5\n"
		"max-pending = 32\n"
		"max-pending-per-address = 2\n"
		"max-clients = 3\n"
		"max-fps = 30\n"
		"keyboard = session\n", err, sizeof(err)), "%s", err);
	EXPECT(config.n_rdp_listen == 2, "n_rdp_listen %d", config.n_rdp_listen);
	EXPECT_STR(config.rdp_listen[1], "0.0.0.0:3390");
	EXPECT_STR(config.rdp_tls_cert, "/etc/oriel/rdp-cert.pem");
	EXPECT_STR(config.rdp_users, "/etc/oriel/rdp-users");
	EXPECT_STR(config.rdp_pam, "oriel");
	EXPECT(config.rdp_handshake_timeout == 5 && config.rdp_max_pending == 32 &&
		config.rdp_max_pending_per_address == 2 && config.rdp_max_clients == 3 &&
		config.rdp_max_fps == 30, "[rdp] numbers");
	EXPECT(config.rdp_keyboard == CONFIG_RDP_KEYBOARD_SESSION, "[rdp] keyboard %d",
		config.rdp_keyboard);
	config_finish(&config);
	EXPECT(parse(&config, "[rdp]\nkeyboard = client\n", err, sizeof(err)), "%s", err);
	EXPECT(config.rdp_keyboard == CONFIG_RDP_KEYBOARD_CLIENT, "[rdp] keyboard %d",
		config.rdp_keyboard);
	config_finish(&config);
	EXPECT_ERROR("[rdp]\nkeyboard = de\n", 2, "[rdp] keyboard", "client, session");
	EXPECT(parse(&config, "[rdp]\ncodec = avc444\n", err, sizeof(err)), "%s", err);
	EXPECT(config.rdp_codec == CONFIG_RDP_CODEC_AVC444, "[rdp] codec %d", config.rdp_codec);
	config_finish(&config);
	EXPECT(parse(&config, "[rdp]\ncodec = planar\n", err, sizeof(err)), "%s", err);
	EXPECT(config.rdp_codec == CONFIG_RDP_CODEC_PLANAR, "[rdp] codec %d", config.rdp_codec);
	config_finish(&config);
	EXPECT_ERROR("[rdp]\ncodec = h265\n", 2, "[rdp] codec",
		"auto, avc444, avc420, progressive, planar");
	EXPECT_ERROR("[rdp]\nlisten = 70000\n", 2, "[rdp] listen", "70000");
	EXPECT_ERROR("[rdp]\nmax-fps = 0\n", 2, "[rdp] max-fps");
	EXPECT_ERROR("[rdp]\nvnc-only = 1\n", 2, "vnc-only");
}

static void test_vnc(void) {
	struct oriel_config config;
	char err[512];
	EXPECT(parse(&config,
		"[vnc]\n"
		"listen = 5901\n"
		"listen = 0.0.0.0:5902\n"
		"listen = [::1]:5903\n"
		"unix = /run/user/1000/oriel-vnc\n"
		"output = HEADLESS-1\n"
		"password-file = /etc/oriel/vnc-passwords\n"
		"view-only = yes\n"
		"max-fps = 30\n"
		"max-clients = 4\n"
		"max-cut-text = 65536\n"
		"http = none\n"
		"tls-cert = /etc/oriel/cert.pem\n"
		"tls-key = /etc/oriel/key.pem\n", err, sizeof(err)), "%s", err);
	EXPECT(config.n_vnc_listen == 3, "n_vnc_listen %d", config.n_vnc_listen);
	EXPECT_STR(config.vnc_listen[0], "5901");
	EXPECT_STR(config.vnc_listen[2], "[::1]:5903");
	EXPECT(config.n_vnc_unix == 1, "n_vnc_unix %d", config.n_vnc_unix);
	EXPECT_STR(config.vnc_unix[0], "/run/user/1000/oriel-vnc");
	EXPECT_STR(config.vnc_output, "HEADLESS-1");
	EXPECT_STR(config.vnc_password_file, "/etc/oriel/vnc-passwords");
	EXPECT(config.vnc_view_only == 1, "view-only %d", config.vnc_view_only);
	EXPECT(config.vnc_max_fps == 30, "max-fps %d", config.vnc_max_fps);
	EXPECT(config.vnc_max_clients == 4, "max-clients %d", config.vnc_max_clients);
	EXPECT(config.vnc_max_cut_text == 65536, "max-cut-text %d", config.vnc_max_cut_text);
	EXPECT_STR(config.vnc_http, "none");
	EXPECT_STR(config.vnc_tls_key, "/etc/oriel/key.pem");
	config_finish(&config);

	EXPECT(parse(&config, "[vnc]\nview-only = false\n", err, sizeof(err)), "%s", err);
	EXPECT(config.vnc_view_only == 0, "view-only %d", config.vnc_view_only);
	config_finish(&config);
	EXPECT(parse(&config, "", err, sizeof(err)), "%s", err);
	EXPECT(config.vnc_view_only == -1 && config.n_vnc_listen == 0, "unset");
	config_finish(&config);

	EXPECT_ERROR("[vnc]\nlisten = 70000\n", 2, "[vnc] listen", "70000");
	EXPECT_ERROR("[vnc]\nlisten = ::1:5900\n", 2, "[vnc] listen");
	EXPECT_ERROR("[vnc]\nlisten = [::1]5900\n", 2, "[vnc] listen");
	EXPECT_ERROR("[vnc]\nlisten = host:\n", 2, "[vnc] listen");
	EXPECT_ERROR("[vnc]\nlisten = a b:5900\n", 2, "[vnc] listen");
	EXPECT_ERROR("[vnc]\nlisten = 0\n", 2, "[vnc] listen");
	EXPECT_ERROR("[vnc]\nview-only = maybe\n", 2, "view-only", "maybe");
	EXPECT_ERROR("[vnc]\nmax-fps = 0\n", 2, "max-fps", "out of range");
	EXPECT_ERROR("[vnc]\nmax-clients = many\n", 2, "max-clients", "whole number");
	EXPECT_ERROR("[vnc]\noutput = a\noutput = b\n", 3, "already set on line 2");
	EXPECT_ERROR("[vnc]\nport = 5900\n", 2, "unknown key 'port' in [vnc]");
	EXPECT_ERROR("[vnc]\nlisten = 1\nlisten = 2\nlisten = 3\nlisten = 4\n"
		"listen = 5\nlisten = 6\nlisten = 7\nlisten = 8\nlisten = 9\n", 10,
		"too many entries");

	/* Web pages and names: repeatable, several a line. */
	EXPECT(parse(&config, "[vnc]\nallow-origin = https://app.example, http://b.example:8080\n"
		"allow-origin = https://c.example\nallow-host = vnc.example.org  192.0.2.7,,\n",
		err, sizeof(err)), "%s", err);
	EXPECT(config.n_vnc_allow_origins == 3, "origins %d", config.n_vnc_allow_origins);
	EXPECT_STR(config.vnc_allow_origins[0], "https://app.example");
	EXPECT_STR(config.vnc_allow_origins[1], "http://b.example:8080");
	EXPECT_STR(config.vnc_allow_origins[2], "https://c.example");
	EXPECT(config.n_vnc_allow_hosts == 2, "hosts %d", config.n_vnc_allow_hosts);
	EXPECT_STR(config.vnc_allow_hosts[0], "vnc.example.org");
	EXPECT_STR(config.vnc_allow_hosts[1], "192.0.2.7");
	config_finish(&config);
	EXPECT_ERROR("[vnc]\nallow-origin = ,\n", 2, "[vnc] allow-origin", "missing value");
	EXPECT_ERROR("[vnc]\nallow-host = caf\xc3\xa9.example\n", 2, "[vnc] allow-host",
		"printable ASCII");
	char many[64 * 40] = "[vnc]\n";
	for (int i = 0; i <= CONFIG_MAX_VNC_ALLOW_WEB; i++) {
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "allow-host = h%d\n", i);
	}
	EXPECT_ERROR(many, CONFIG_MAX_VNC_ALLOW_WEB + 2, "[vnc] allow-host", "too many entries");
}

static void test_privileged(void) {
	struct oriel_config config;
	char err[512];
	EXPECT(parse(&config,
		"[privileged]\n"
		"screencopy = /usr/bin/grim /usr/bin/wayvnc\n"
		"screencopy =\t/opt/tool\n"
		"virtual-input = /usr/bin/wayvnc\n"
		"data-control = /usr/bin/wl-paste  ; comment\n"
		"output-management = /usr/bin/wlr-randr\n"
		"gamma = /usr/bin/gammastep\n", err, sizeof(err)), "%s", err);
	EXPECT(config.n_privileged_exes[CONFIG_PRIVILEGE_SCREENCOPY] == 3, "screencopy %d",
		config.n_privileged_exes[CONFIG_PRIVILEGE_SCREENCOPY]);
	EXPECT_STR(config.privileged_exes[CONFIG_PRIVILEGE_SCREENCOPY][0], "/usr/bin/grim");
	EXPECT_STR(config.privileged_exes[CONFIG_PRIVILEGE_SCREENCOPY][1], "/usr/bin/wayvnc");
	EXPECT_STR(config.privileged_exes[CONFIG_PRIVILEGE_SCREENCOPY][2], "/opt/tool");
	EXPECT_STR(config.privileged_exes[CONFIG_PRIVILEGE_VIRTUAL_INPUT][0], "/usr/bin/wayvnc");
	EXPECT(config.n_privileged_exes[CONFIG_PRIVILEGE_DATA_CONTROL] == 1, "data-control %d",
		config.n_privileged_exes[CONFIG_PRIVILEGE_DATA_CONTROL]);
	EXPECT_STR(config.privileged_exes[CONFIG_PRIVILEGE_DATA_CONTROL][0], "/usr/bin/wl-paste");
	EXPECT_STR(config.privileged_exes[CONFIG_PRIVILEGE_OUTPUT_MANAGEMENT][0],
		"/usr/bin/wlr-randr");
	EXPECT_STR(config.privileged_exes[CONFIG_PRIVILEGE_GAMMA][0], "/usr/bin/gammastep");
	config_finish(&config);
	for (int i = 0; i < CONFIG_PRIVILEGE_COUNT; i++) {
		EXPECT(config.n_privileged_exes[i] == 0, "finish clears capability %d", i);
	}

	/* Nobody by default. */
	EXPECT(parse(&config, "[privileged]\n", err, sizeof(err)), "%s", err);
	for (int i = 0; i < CONFIG_PRIVILEGE_COUNT; i++) {
		EXPECT(config.n_privileged_exes[i] == 0, "capability %d unset", i);
	}
	config_finish(&config);

	EXPECT_ERROR("[privileged]\nscreencopy =\n", 2, "[privileged] screencopy",
		"missing value");
	EXPECT_ERROR("[privileged]\nscreencopy = /usr/bin/grim grim\n", 2,
		"[privileged] screencopy", "'grim'", "absolute path");
	EXPECT_ERROR("[privileged]\n\ngamma = ~/bin/g\n", 3, "gamma", "absolute path");
	EXPECT_ERROR("[privileged]\nscreen-copy = /usr/bin/grim\n", 2,
		"unknown key 'screen-copy' in [privileged]");
	EXPECT_ERROR("[privileged]\nvirtual-input = /a /b /c /d /e /f /g /h\n"
		"virtual-input = /i /j /k /l /m /n /o /p\nvirtual-input = /q\n", 4,
		"virtual-input", "too many entries");

	/* The names, as --privileged takes them. */
	for (int i = 0; i < CONFIG_PRIVILEGE_COUNT; i++) {
		enum config_privilege privilege;
		const char *name = config_privilege_name((enum config_privilege)i);
		EXPECT(name && config_privilege_from_name(name, &privilege) &&
			privilege == (enum config_privilege)i, "name of capability %d", i);
	}
	enum config_privilege privilege;
	EXPECT(!config_privilege_from_name("Screencopy", &privilege), "names are exact");
	EXPECT(config_privilege_name(CONFIG_PRIVILEGE_COUNT) == NULL, "no such name");
	config_init(&config);
	EXPECT(!config_add_privileged_exes(&config, CONFIG_PRIVILEGE_GAMMA, " \t ",
		err, sizeof(err)) && strstr(err, "missing value"), "blank list: %s", err);
	EXPECT(config_add_privileged_exes(&config, CONFIG_PRIVILEGE_GAMMA, "/a /b",
		err, sizeof(err)) && config.n_privileged_exes[CONFIG_PRIVILEGE_GAMMA] == 2,
		"list: %s", err);
	config_finish(&config);
}

int main(void) {
	test_init_finish();
	test_full_file();
	test_small_valid();
	test_errors();
	test_error_buffer();
	test_parse_file();
	test_output_mode();
	test_vnc();
	test_rdp();
	test_privileged();
	if (failures) {
		fprintf(stderr, "test-config: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test-config: all checks passed\n");
	return 0;
}
