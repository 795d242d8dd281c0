/* SPDX-License-Identifier: MIT */
/* Unit tests for oriel-gateway's settings (gateway/gateway_config*.c). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gateway/gateway_config.h"
#include "tests/unit/expect.h"

static bool parse(struct gateway_config *config, const char *text, char *error,
		size_t error_size) {
	gateway_config_init(config);
	return gateway_config_parse_string(config, text, strlen(text), "gw.ini", error,
		error_size);
}

static void test_defaults(void) {
	struct gateway_config c;
	char error[256];
	EXPECT(parse(&c, "", error, sizeof(error)), "empty file: %s", error);
	gateway_config_apply_defaults(&c);
	EXPECT(c.n_vnc_listen == 2, "a bare 5900 by default: %d listeners", c.n_vnc_listen);
	EXPECT(c.n_vnc_listen == 2 && strcmp(c.vnc_listen[0], "0.0.0.0:5900") == 0 &&
		strcmp(c.vnc_listen[1], "[::]:5900") == 0, "every address, IPv4 and IPv6");
	EXPECT(strcmp(c.pam_service, "oriel") == 0, "PAM service %s", c.pam_service);
	EXPECT(c.handshake_timeout == 10 && c.max_pending == 64 &&
		c.max_pending_per_address == 4, "oriel's guest limits");
	EXPECT(c.reconnect == GATEWAY_RECONNECT_SHARE, "share by default");
	EXPECT(c.idle_timeout == 0, "no idle timeout by default");
	EXPECT(strcmp(c.session_command, "xterm") == 0, "xterm by default");
	EXPECT(strcmp(c.runtime_dir, "/run/oriel/sessions") == 0, "runtime dir %s",
		c.runtime_dir);
	EXPECT(c.web_dir && strcmp(c.web_dir, "/usr/share/novnc") == 0 && c.n_web_hosts == 0,
		"noVNC's pages by default, no other names");
	gateway_config_finish(&c);
}

static void test_web(void) {
	struct gateway_config c;
	char error[256];
	EXPECT(parse(&c, "[listen]\nweb = /srv/novnc\nweb-hosts = gw.example.org, 192.0.2.7\n"
		"web-hosts = [2001:db8::1]\n", error, sizeof(error)), "web keys: %s", error);
	EXPECT(strcmp(c.web_dir, "/srv/novnc") == 0, "web %s", c.web_dir);
	EXPECT(c.n_web_hosts == 3 && strcmp(c.web_hosts[0], "gw.example.org") == 0 &&
		strcmp(c.web_hosts[1], "192.0.2.7") == 0 &&
		strcmp(c.web_hosts[2], "[2001:db8::1]") == 0, "%d web hosts", c.n_web_hosts);
	gateway_config_finish(&c);
	EXPECT(parse(&c, "[listen]\nweb = off\n", error, sizeof(error)) && !c.web_dir,
		"web = off: no pages");
	gateway_config_finish(&c);
	EXPECT(!parse(&c, "[listen]\nweb = novnc\n", error, sizeof(error)) &&
		strstr(error, "absolute"), "a relative web dir: %s", error);
	gateway_config_finish(&c);
	EXPECT(!parse(&c, "[listen]\nweb-hosts = a/b\n", error, sizeof(error)) &&
		strstr(error, "not a host"), "a web host with a slash: %s", error);
	gateway_config_finish(&c);
}

static void test_full(void) {
	struct gateway_config c;
	char error[256];
	const char *text =
		"# a comment\n"
		"[listen]\n"
		"vnc = 192.0.2.1:5901\n"
		"vnc = [::1]:5902 ; another\n"
		"[login]\n"
		"tls-cert = /etc/oriel/c.pem\n"
		"tls-key = /etc/oriel/k.pem\n"
		"pam-service = remote\n"
		"allow-users = alice bob\n"
		"allow-users = carol\n"
		"allow-groups = staff\n"
		"handshake-timeout = 5\n"
		"max-pending = 10\n"
		"max-pending-per-address = 2\n"
		"[session]\n"
		"command = xterm -fa Mono; xclock\n"
		"oriel = /opt/oriel/bin/oriel\n"
		"runtime-dir = /run/test/sessions\n"
		"output = 1280x720\n"
		"max-output = 2560x1440\n"
		"reconnect = take-over\n"
		"idle-timeout = 600\n";
	EXPECT(parse(&c, text, error, sizeof(error)), "%s", error);
	EXPECT(c.n_vnc_listen == 2 && strcmp(c.vnc_listen[1], "[::1]:5902") == 0,
		"two listeners as given");
	EXPECT(c.n_allowed_users == 3 && strcmp(c.allowed_users[2], "carol") == 0,
		"allow-users adds up: %d", c.n_allowed_users);
	EXPECT(c.n_allowed_groups == 1, "one group");
	EXPECT(strcmp(c.pam_service, "remote") == 0, "pam-service");
	EXPECT(c.handshake_timeout == 5 && c.max_pending == 10 &&
		c.max_pending_per_address == 2, "limits");
	EXPECT(strcmp(c.session_command, "xterm -fa Mono; xclock") == 0,
		"a ';' after no blank is the command's: %s", c.session_command);
	EXPECT(c.output_width == 1280 && c.output_height == 720, "output");
	EXPECT(c.max_width == 2560 && c.max_height == 1440, "max-output");
	EXPECT(c.reconnect == GATEWAY_RECONNECT_TAKE_OVER, "take-over");
	EXPECT(c.idle_timeout == 600, "idle-timeout");
	gateway_config_apply_defaults(&c);
	EXPECT(c.n_vnc_listen == 2, "the defaults do not add to given listeners");
	gateway_config_finish(&c);
}

static void expect_error(const char *text, const char *start) {
	struct gateway_config c;
	char error[256] = "";
	bool ok = parse(&c, text, error, sizeof(error));
	EXPECT(!ok, "'%s' is refused", text);
	EXPECT(strncmp(error, start, strlen(start)) == 0, "'%s': error '%s' starts '%s'",
		text, error, start);
	gateway_config_finish(&c);
}

static void test_errors(void) {
	expect_error("vnc = 5900\n", "gw.ini:1: 'vnc' is outside any [section]");
	expect_error("[listen]\n\nvnc = 70000\n", "gw.ini:3: [listen] vnc:");
	expect_error("[nope]\n", "gw.ini:1: unknown section [nope]");
	expect_error("[session]\nfoo = 1\n", "gw.ini:2: unknown key 'foo' in [session]");
	expect_error("[session]\nreconnect = sometimes\n", "gw.ini:2: [session] reconnect:");
	expect_error("[session]\noutput = 0x10\n", "gw.ini:2: [session] output:");
	expect_error("[session]\noutput = 800x600\noutput = 640x480\n",
		"gw.ini:3: [session] output is already set on line 2");
	expect_error("[session]\noriel = bin/oriel\n", "gw.ini:2: [session] oriel:");
	expect_error("[session]\nidle-timeout = -1\n", "gw.ini:2: [session] idle-timeout:");
	expect_error("[login]\npam-service = ../shadow\n", "gw.ini:2: [login] pam-service:");
	expect_error("[login]\nallow-users = al;ice\n", "gw.ini:2: [login] allow-users:");
	expect_error("[login]\nmax-pending =\n", "gw.ini:2: [login] max-pending has no value");
	expect_error("[login\n", "gw.ini:1: a section header is [NAME]");
	expect_error("[login]\njust words\n", "gw.ini:2: 'just words' is not KEY = VALUE");
}

static void test_args(void) {
	struct gateway_config c;
	struct gateway_command command;
	char error[256] = "";
	char *argv[] = { "oriel-gateway", "--config", "/nonexistent/gateway.ini", NULL };
	gateway_config_init(&c);
	EXPECT(!gateway_config_parse_args(&c, &command, 3, argv, error, sizeof(error)),
		"a missing --config file is an error");
	EXPECT(strstr(error, "/nonexistent/gateway.ini"), "names the file: %s", error);
	gateway_config_finish(&c);

	/* A command-line list replaces the file's; without --config the default
	 * file is read only when it exists, which it may here: give --config. */
	char path[] = "/tmp/oriel-test-gateway-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fputs("[listen]\nvnc = 127.0.0.1:5905\n[login]\nallow-users = alice\n", f);
	fclose(f);
	char *argv2[] = { "oriel-gateway", "--config", path, "--vnc", "6000",
		"--allow-user", "bob", "--reconnect", "new", "--terminate", "bob", NULL };
	gateway_config_init(&c);
	EXPECT(gateway_config_parse_args(&c, &command, 11, argv2, error, sizeof(error)),
		"%s", error);
	EXPECT(c.n_vnc_listen == 2 && strcmp(c.vnc_listen[0], "0.0.0.0:6000") == 0,
		"--vnc replaces the file's listeners");
	EXPECT(c.n_allowed_users == 1 && strcmp(c.allowed_users[0], "bob") == 0,
		"--allow-user replaces the file's users");
	EXPECT(c.reconnect == GATEWAY_RECONNECT_NEW, "--reconnect");
	EXPECT(command.action == GATEWAY_TERMINATE && strcmp(command.user, "bob") == 0,
		"--terminate USER");
	gateway_config_finish(&c);

	char *argv3[] = { "oriel-gateway", "--config", path, "--list", "--start", "x", NULL };
	gateway_config_init(&c);
	EXPECT(!gateway_config_parse_args(&c, &command, 6, argv3, error, sizeof(error)),
		"--list and --start together are refused");
	gateway_config_finish(&c);

	char *argv4[] = { "oriel-gateway", "--config", path, "--idle-timeout", "soon", NULL };
	gateway_config_init(&c);
	EXPECT(!gateway_config_parse_args(&c, &command, 5, argv4, error, sizeof(error)) &&
		strncmp(error, "--idle-timeout: ", 16) == 0, "a bad value names its option: %s",
		error);
	gateway_config_finish(&c);
	remove(path);
}

/* The shipped example parses, commented and uncommented. */
static void test_example(const char *path) {
	struct gateway_config c;
	char error[256] = "";
	gateway_config_init(&c);
	EXPECT(gateway_config_parse_file(&c, path, error, sizeof(error)), "%s", error);
	gateway_config_finish(&c);

	FILE *f = fopen(path, "r");
	EXPECT(f, "cannot read %s", path);
	if (!f) {
		return;
	}
	char text[8192], line[512];
	size_t len = 0;
	while (fgets(line, sizeof(line), f)) {
		/* ";key = value" and ";[section]" are settings; ";;" or "; text" notes. */
		const char *keep = line[0] == ';' && line[1] != ' ' && line[1] != ';' ?
			line + 1 : line;
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", keep);
	}
	fclose(f);
	gateway_config_init(&c);
	EXPECT(gateway_config_parse_string(&c, text, len, "uncommented", error, sizeof(error)),
		"the example, uncommented: %s", error);
	/* Every key of the table shows in it. */
	for (size_t s = 0; gateway_config_section_name(s); s++) {
		for (size_t k = 0; gateway_config_key_name(s, k); k++) {
			char needle[64];
			snprintf(needle, sizeof(needle), "\n%s = ", gateway_config_key_name(s, k));
			EXPECT(strstr(text, needle), "the example lacks [%s] %s",
				gateway_config_section_name(s), gateway_config_key_name(s, k));
		}
	}
	gateway_config_finish(&c);
}

int main(int argc, char *argv[]) {
	test_defaults();
	test_full();
	test_web();
	test_errors();
	test_args();
	if (argc > 1) {
		test_example(argv[1]);
	}
	return failures != 0;
}
