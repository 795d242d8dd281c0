/* SPDX-License-Identifier: MIT */
/*
 * orielctl: control a running oriel through org.oriel.Compositor on the
 * session bus. This file holds main, the command line and the bus calls;
 * the commands are in orielctl_commands.c and orielctl_input.c.
 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "tools/orielctl.h"

static const char usage_text[] =
	"Usage: orielctl [--json] COMMAND [ARGS...]\n"
	"\n"
	"Control a running oriel compositor through its D-Bus API\n"
	"(org.oriel.Compositor on the session bus).\n"
	"\n"
	"Outputs:\n"
	"  outputs                          list outputs\n"
	"  output-size NAME WxH             resize a headless output\n"
	"\n"
	"Windows (IDs come from 'orielctl windows'):\n"
	"  windows                          list windows, bottom of the stack first\n"
	"  focus ID                         focus and raise a window\n"
	"  move ID X Y                      move a window's content to X,Y\n"
	"  resize ID WIDTH HEIGHT           resize a window's content\n"
	"  close ID                         ask a window to close\n"
	"  maximize ID [on|off]             (default on)\n"
	"  fullscreen ID [on|off]           (default on)\n"
	"  minimize ID [on|off]             (default on)\n"
	"\n"
	"Screenshots (PNG):\n"
	"  screenshot [--output NAME | --window ID | --region X,Y,W,H] FILE\n"
	"                                   default: the first output\n"
	"\n"
	"Input, as a person at the seat:\n"
	"  pointer move X Y                 move the pointer to layout position X,Y\n"
	"  pointer button BUTTON [press|release|click]\n"
	"                                   BUTTON: left, middle, right or an evdev\n"
	"                                   code (272 = BTN_LEFT); default click\n"
	"  pointer scroll DY [DX]           scroll by steps; positive: down, right\n"
	"  key keysym NAME [press|release|tap]\n"
	"                                   an X keysym name (Return, a, F1, 0x41)\n"
	"  key keycode CODE [press|release|tap]\n"
	"                                   an evdev key code (30 = KEY_A)\n"
	"  key type TEXT                    type UTF-8 text ('\\n' is Return)\n"
	"\n"
	"Casts to PipeWire:\n"
	"  cast start --output NAME | --window ID | --region X,Y,W,H | --virtual WxH\n"
	"             [--cursor hidden|embedded|metadata]\n"
	"                                   cast an output, a window, a region or a\n"
	"                                   new output that lives as long as the\n"
	"                                   cast; prints the PipeWire node id and\n"
	"                                   runs until interrupted\n"
	"  cast stop ID                     end a cast\n"
	"  cast list                        list casts\n"
	"\n"
	"VNC (ADDR:PORT, PORT for 127.0.0.1:PORT, or a Unix socket /PATH):\n"
	"  vnc start ADDR:PORT              listen for viewers (non-loopback\n"
	"                                   addresses need accounts)\n"
	"  vnc stop ADDR:PORT               stop listening; viewers stay\n"
	"  vnc clients                      list connected viewers\n"
	"  vnc disconnect ID                disconnect a viewer\n"
	"  vnc fingerprint                  the certificate viewers see (SHA-256)\n"
	"  rdp start ADDR:PORT              listen for RDP clients (non-loopback\n"
	"                                   addresses need accounts)\n"
	"  rdp stop ADDR:PORT               stop listening; clients stay\n"
	"  rdp clients                      list logged-on RDP clients\n"
	"  rdp disconnect ID                disconnect an RDP client\n"
	"  rdp fingerprint                  the certificate RDP clients see\n"
	"\n"
	"Portal grants (no running oriel needed):\n"
	"  grants                           list screen-cast grants that portal\n"
	"                                   restore tokens stand for\n"
	"  revoke ID                        remove a grant: its token asks again\n"
	"\n"
	"Options (anywhere on the line):\n"
	"  --json         print outputs, windows and screenshot results as JSON\n"
	"  -h, --help     show this help\n"
	"  -v, --version  show the version\n"
	"  --             end of options (for text that starts with '-')\n"
	"\n"
	"Exit status: 0 success, 1 the compositor refused or failed, 2 usage error.\n"
	"Screenshots, input, window, output and VNC changes are answered only for\n"
	"allowed executables (orielctl itself, the portal, [control] allow).\n";

int ctl_usage_error(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fputs("orielctl: ", stderr);
	vfprintf(stderr, fmt, args);
	fputs("\nTry 'orielctl --help'.\n", stderr);
	va_end(args);
	return CTL_EXIT_USAGE;
}

int ctl_fail(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fputs("orielctl: ", stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
	va_end(args);
	return CTL_EXIT_FAILURE;
}

int ctl_bad_reply(const char *method, int r) {
	return ctl_fail("unexpected reply to %s: %s", method, strerror(-r));
}

/*
 * No oriel to talk to: either no bus is reachable, or nobody owns
 * org.oriel.Compositor on it. Says which bus was tried and how to point
 * orielctl at the right one, rather than the bus library's errno text.
 */
static void no_oriel(struct ctl *ctl, const char *why) {
	const char *address = NULL;
	if (ctl->bus) {
		sd_bus_get_address(ctl->bus, &address);
	}
	if (!address) {
		address = getenv("DBUS_SESSION_BUS_ADDRESS");
	}
	if (address && address[0]) {
		ctl_fail("no oriel is running on this bus (%s: %s)", address, why);
	} else {
		ctl_fail("no oriel is running on this bus: there is no session bus here "
			"(DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is "
			"missing)");
	}
	fputs("Start one (oriel -- COMMAND), or point orielctl at the bus of a running\n"
		"oriel: run orielctl inside its session, or set DBUS_SESSION_BUS_ADDRESS\n"
		"(and XDG_RUNTIME_DIR) to what the session's programs have.\n", stderr);
}

static bool bus_unreachable(int r) {
	return r == -ENOMEDIUM || r == -ENOENT || r == -ECONNREFUSED ||
		r == -ENOTCONN || r == -ECONNRESET || r == -EACCES;
}

static bool ctl_connect(struct ctl *ctl) {
	if (ctl->bus) {
		return true;
	}
	int r = sd_bus_open_user(&ctl->bus);
	if (r < 0) {
		ctl->bus = NULL;
		if (bus_unreachable(r)) {
			no_oriel(ctl, strerror(-r));
		} else {
			ctl_fail("cannot connect to the session bus: %s", strerror(-r));
		}
		return false;
	}
	return true;
}

bool ctl_call(struct ctl *ctl, const char *interface, const char *method,
		sd_bus_message **reply, const char *types, ...) {
	if (!ctl_connect(ctl)) {
		return false;
	}
	sd_bus_error error = SD_BUS_ERROR_NULL;
	va_list args;
	va_start(args, types);
	int r = sd_bus_call_methodv(ctl->bus, CTL_BUS_NAME, CTL_PATH, interface, method,
		&error, reply, types, args);
	va_end(args);
	if (r < 0) {
		if (sd_bus_error_has_names(&error, SD_BUS_ERROR_SERVICE_UNKNOWN,
				SD_BUS_ERROR_NAME_HAS_NO_OWNER)) {
			no_oriel(ctl, "nobody owns " CTL_BUS_NAME);
		} else if (!sd_bus_error_is_set(&error) && bus_unreachable(r)) {
			no_oriel(ctl, strerror(-r));
		} else if (error.message && error.message[0]) {
			ctl_fail("%s", error.message);
		} else if (error.name) {
			ctl_fail("%s", error.name);
		} else {
			ctl_fail("%s.%s: %s", interface, method, strerror(-r));
		}
		sd_bus_error_free(&error);
		return false;
	}
	sd_bus_error_free(&error);
	return true;
}

/* Numbers: decimal, or hex with 0x; no whitespace, no '+', no trailing junk. */
static bool parse_long_long(const char *s, long long min, long long max,
		long long *out) {
	const char *digits = s[0] == '-' ? s + 1 : s;
	if (digits[0] < '0' || digits[0] > '9') {
		return false;
	}
	/* Never octal: "010" is ten to a person. */
	int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, base);
	if (errno || *end || v < min || v > max) {
		return false;
	}
	*out = v;
	return true;
}

bool ctl_parse_u64(const char *s, uint64_t *out) {
	if (!s[0] || s[0] < '0' || s[0] > '9') {
		return false;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' ||
		s[1] == 'X') ? 16 : 10);
	if (errno || *end) {
		return false;
	}
	*out = v;
	return true;
}

bool ctl_parse_u32(const char *s, uint32_t *out) {
	long long v;
	if (!parse_long_long(s, 0, UINT32_MAX, &v)) {
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

bool ctl_parse_i32(const char *s, int32_t *out) {
	long long v;
	if (!parse_long_long(s, INT32_MIN, INT32_MAX, &v)) {
		return false;
	}
	*out = (int32_t)v;
	return true;
}

bool ctl_parse_double(const char *s, double *out) {
	if (!s[0] || s[0] == ' ' || s[0] == '\t') {
		return false;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v)) {
		return false;
	}
	*out = v;
	return true;
}

bool ctl_parse_on_off(const char *s, bool *out) {
	static const char *const on[] = { "on", "true", "yes", "1" };
	static const char *const off[] = { "off", "false", "no", "0" };
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (strcmp(s, on[i]) == 0) {
			*out = true;
			return true;
		}
		if (strcmp(s, off[i]) == 0) {
			*out = false;
			return true;
		}
	}
	return false;
}

bool ctl_parse_size(const char *s, uint32_t *width, uint32_t *height) {
	const char *x = strchr(s, 'x');
	if (!x || x == s) {
		return false;
	}
	char w[32];
	size_t len = (size_t)(x - s);
	if (len >= sizeof(w)) {
		return false;
	}
	memcpy(w, s, len);
	w[len] = '\0';
	return ctl_parse_u32(w, width) && ctl_parse_u32(x + 1, height) &&
		*width > 0 && *height > 0;
}

struct command {
	const char *name;
	int min_args, max_args;
	int (*run)(struct ctl *ctl);
	const char *usage;
};

static const struct command commands[] = {
	{ "outputs", 0, 0, ctl_cmd_outputs, "outputs" },
	{ "output-size", 2, 2, ctl_cmd_output_size, "output-size NAME WxH" },
	{ "windows", 0, 0, ctl_cmd_windows, "windows" },
	{ "focus", 1, 1, ctl_cmd_focus, "focus ID" },
	{ "move", 3, 3, ctl_cmd_move, "move ID X Y" },
	{ "resize", 3, 3, ctl_cmd_resize, "resize ID WIDTH HEIGHT" },
	{ "close", 1, 1, ctl_cmd_close, "close ID" },
	{ "maximize", 1, 2, ctl_cmd_maximize, "maximize ID [on|off]" },
	{ "fullscreen", 1, 2, ctl_cmd_fullscreen, "fullscreen ID [on|off]" },
	{ "minimize", 1, 2, ctl_cmd_minimize, "minimize ID [on|off]" },
	{ "screenshot", 1, 1, ctl_cmd_screenshot,
		"screenshot [--output NAME | --window ID | --region X,Y,W,H] FILE" },
	{ "pointer", 1, 4, ctl_cmd_pointer,
		"pointer move X Y | pointer button BUTTON [press|release|click] | "
		"pointer scroll DY [DX]" },
	{ "cast", 1, 2, ctl_cmd_cast,
		"cast start --output NAME | --window ID | --region X,Y,W,H | --virtual WxH "
		"[--cursor hidden|embedded|metadata] | cast stop ID | cast list" },
	{ "vnc", 1, 2, ctl_cmd_vnc,
		"vnc start ADDR:PORT | vnc stop ADDR:PORT | vnc clients | vnc disconnect ID | "
		"vnc fingerprint" },
	{ "rdp", 1, 2, ctl_cmd_rdp,
		"rdp start ADDR:PORT | rdp stop ADDR:PORT | rdp clients | rdp disconnect ID | "
		"rdp fingerprint" },
	{ "grants", 0, 0, ctl_cmd_grants, "grants" },
	{ "revoke", 1, 1, ctl_cmd_revoke, "revoke ID" },
	{ "key", 2, 3, ctl_cmd_key,
		"key keysym NAME [press|release|tap] | key keycode CODE "
		"[press|release|tap] | key type TEXT" },
};

/* Whether arg is an option rather than a value such as -5 or -0.5. */
static bool is_option(const char *arg) {
	if (arg[0] != '-' || arg[1] == '\0') {
		return false;
	}
	if (arg[1] == '-') {
		return true;
	}
	return !((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.');
}

/* Matches --name VALUE or --name=VALUE; *value is NULL when it is missing. */
static bool take_value(int argc, char *argv[], int *i, const char *name,
		const char **value) {
	const char *arg = argv[*i];
	size_t len = strlen(name);
	if (strncmp(arg, name, len) != 0) {
		return false;
	}
	if (arg[len] == '=') {
		*value = arg + len + 1;
		return true;
	}
	if (arg[len] != '\0') {
		return false;
	}
	if (*i + 1 >= argc) {
		*value = NULL;
		return true;
	}
	*value = argv[++*i];
	return true;
}

int main(int argc, char *argv[]) {
	struct ctl ctl = {0};
	char **positional = ctl_zalloc((size_t)argc * sizeof(*positional));
	int n_positional = 0;
	int status = CTL_EXIT_USAGE;
	bool options_done = false;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *value;
		if (options_done || !is_option(arg)) {
			positional[n_positional++] = argv[i];
		} else if (strcmp(arg, "--") == 0) {
			options_done = true;
		} else if (strcmp(arg, "--json") == 0) {
			ctl.json = true;
		} else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			fputs(usage_text, stdout);
			status = CTL_EXIT_OK;
			goto out;
		} else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--version") == 0) {
			printf("orielctl %s\n", ORIEL_VERSION);
			status = CTL_EXIT_OK;
			goto out;
		} else if (take_value(argc, argv, &i, "--cursor", &value)) {
			if (!value) {
				status = ctl_usage_error("--cursor needs a value");
				goto out;
			}
			ctl.cast_cursor = value;
		} else if (take_value(argc, argv, &i, "--virtual", &value)) {
			if (!value) {
				status = ctl_usage_error("--virtual needs a value");
				goto out;
			}
			ctl.cast_virtual = value;
		} else if (take_value(argc, argv, &i, "--output", &value) ||
				take_value(argc, argv, &i, "--window", &value) ||
				take_value(argc, argv, &i, "--region", &value)) {
			const char *name = strncmp(arg, "--output", 8) == 0 ? "--output" :
				strncmp(arg, "--window", 8) == 0 ? "--window" : "--region";
			if (!value) {
				status = ctl_usage_error("%s needs a value", name);
				goto out;
			}
			if (ctl.shot_output || ctl.shot_window || ctl.shot_region) {
				status = ctl_usage_error("use only one of --output, --window "
					"and --region");
				goto out;
			}
			if (name[2] == 'o') {
				ctl.shot_output = value;
			} else if (name[2] == 'w') {
				ctl.shot_window = value;
			} else {
				ctl.shot_region = value;
			}
		} else {
			status = ctl_usage_error("unknown option '%s'", arg);
			goto out;
		}
	}

	if (n_positional == 0) {
		status = ctl_usage_error("no command given");
		goto out;
	}
	const struct command *command = NULL;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(positional[0], commands[i].name) == 0) {
			command = &commands[i];
			break;
		}
	}
	if (!command) {
		status = ctl_usage_error("unknown command '%s'", positional[0]);
		goto out;
	}
	ctl.args = positional + 1;
	ctl.n_args = n_positional - 1;
	if (ctl.n_args < command->min_args || ctl.n_args > command->max_args) {
		status = ctl_usage_error("usage: orielctl %s", command->usage);
		goto out;
	}
	if ((ctl.shot_output || ctl.shot_window || ctl.shot_region) &&
			command->run != ctl_cmd_screenshot &&
			command->run != ctl_cmd_cast) {
		status = ctl_usage_error("--output, --window and --region are options "
			"of screenshot");
		goto out;
	}
	if (ctl.cast_cursor && command->run != ctl_cmd_cast) {
		status = ctl_usage_error("--cursor is an option of cast start");
		goto out;
	}
	if (ctl.cast_virtual && command->run != ctl_cmd_cast) {
		status = ctl_usage_error("--virtual is an option of cast start");
		goto out;
	}
	status = command->run(&ctl);
	if (fflush(stdout) != 0 && status == CTL_EXIT_OK) {
		status = ctl_fail("cannot write the output: %s", strerror(errno));
	}

out:
	sd_bus_flush_close_unref(ctl.bus);
	free(positional);
	return status;
}
