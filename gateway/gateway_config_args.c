/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gateway/gateway_config.h"
#include "common/x_display.h"

const char gateway_usage[] =
	"Usage: oriel-gateway [options]\n"
	"       oriel-gateway --list | --start USER | --terminate USER\n"
	"\n"
	"Logs people in over VNC or RDP with their system accounts and hands each\n"
	"connection to that user's own oriel session, started on first login.\n"
	"\n"
	"  --config FILE                          settings (" GATEWAY_CONFIG_PATH ")\n"
	"  --vnc [ADDR:]PORT                      serve VNC (repeatable; a bare port is\n"
	"                                         every address; default 5900)\n"
	"  --rdp [ADDR:]PORT                      serve RDP (repeatable; TLS, logins\n"
	"                                         redirected to the user's session)\n"
	"  --web DIR|off                          what https:// on the VNC port serves\n"
	"                                         (" GATEWAY_WEB_DIR ", noVNC)\n"
	"  --web-host NAME                        a name browsers reach the gateway by\n"
	"                                         (repeatable; its own are known)\n"
	"  --tls-cert FILE --tls-key FILE         the certificate VeNCrypt and RDP show\n"
	"                                         (default: made on first use)\n"
	"  --pam-service NAME                     PAM service (oriel)\n"
	"  --allow-user NAME                      who may log in (repeatable; default:\n"
	"                                         everyone with an account but root)\n"
	"  --allow-group NAME                     members of NAME may log in (repeatable)\n"
	"  --handshake-timeout SECONDS            time to log in (10)\n"
	"  --max-pending N                        connections still logging in (64)\n"
	"  --max-pending-per-address N            of them from one address (4)\n"
	"  --rdp-handover auto|redirect|relay     how an RDP client reaches its\n"
	"                                         session (auto: relayed when it\n"
	"                                         cannot follow a redirection)\n"
	"  --session-command COMMAND              what a session runs when the user has\n"
	"                                         no ~/.config/oriel/session (xterm)\n"
	"  --oriel PATH                           the compositor to run\n"
	"  --runtime-dir DIR                      sessions' runtime dirs\n"
	"                                         (" GATEWAY_RUNTIME_DIR ")\n"
	"  --output WIDTHxHEIGHT                  a new session's output (1920x1080)\n"
	"  --max-output WIDTHxHEIGHT              the largest output (3840x2160)\n"
	"  --reconnect share|take-over|new        a user's next connection (share)\n"
	"  --idle-timeout SECONDS                 end sessions this long without a\n"
	"                                         client (0: never)\n"
	"  --x-display N                          sessions' X displays: the first\n"
	"                                         free from :N (10)\n"
	"  --list                                 show the running sessions\n"
	"  --start USER                           start USER's session unless it runs\n"
	"  --terminate USER                       end USER's sessions\n"
	"  -d, --debug                            debug logging\n"
	"  -h, --help                             show this help\n"
	"  -v, --version                          show the version\n";

enum {
	OPT_CONFIG = 256, OPT_VNC, OPT_RDP, OPT_TLS_CERT, OPT_TLS_KEY, OPT_PAM_SERVICE,
	OPT_ALLOW_USER, OPT_ALLOW_GROUP, OPT_HANDSHAKE_TIMEOUT, OPT_MAX_PENDING,
	OPT_MAX_PENDING_PER_ADDRESS, OPT_SESSION_COMMAND, OPT_ORIEL, OPT_RUNTIME_DIR,
	OPT_OUTPUT, OPT_MAX_OUTPUT, OPT_RECONNECT, OPT_RDP_HANDOVER, OPT_IDLE_TIMEOUT, OPT_X_DISPLAY, OPT_LIST,
	OPT_START, OPT_TERMINATE, OPT_WEB, OPT_WEB_HOST,
};

static const struct option options[] = {
	{"config", required_argument, NULL, OPT_CONFIG},
	{"vnc", required_argument, NULL, OPT_VNC},
	{"rdp", required_argument, NULL, OPT_RDP},
	{"web", required_argument, NULL, OPT_WEB},
	{"web-host", required_argument, NULL, OPT_WEB_HOST},
	{"tls-cert", required_argument, NULL, OPT_TLS_CERT},
	{"tls-key", required_argument, NULL, OPT_TLS_KEY},
	{"pam-service", required_argument, NULL, OPT_PAM_SERVICE},
	{"allow-user", required_argument, NULL, OPT_ALLOW_USER},
	{"allow-group", required_argument, NULL, OPT_ALLOW_GROUP},
	{"handshake-timeout", required_argument, NULL, OPT_HANDSHAKE_TIMEOUT},
	{"max-pending", required_argument, NULL, OPT_MAX_PENDING},
	{"max-pending-per-address", required_argument, NULL, OPT_MAX_PENDING_PER_ADDRESS},
	{"session-command", required_argument, NULL, OPT_SESSION_COMMAND},
	{"oriel", required_argument, NULL, OPT_ORIEL},
	{"runtime-dir", required_argument, NULL, OPT_RUNTIME_DIR},
	{"output", required_argument, NULL, OPT_OUTPUT},
	{"max-output", required_argument, NULL, OPT_MAX_OUTPUT},
	{"reconnect", required_argument, NULL, OPT_RECONNECT},
	{"rdp-handover", required_argument, NULL, OPT_RDP_HANDOVER},
	{"idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT},
	{"x-display", required_argument, NULL, OPT_X_DISPLAY},
	{"list", no_argument, NULL, OPT_LIST},
	{"start", required_argument, NULL, OPT_START},
	{"terminate", required_argument, NULL, OPT_TERMINATE},
	{"debug", no_argument, NULL, 'd'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'v'},
	{0},
};

/* Lists given on the command line replace the file's rather than add to it. */
struct replaced {
	bool vnc, rdp, users, groups, web_hosts;
};

static void replace_once(bool *done, char **list, int *n) {
	if (!*done) {
		gateway_config_clear_list(list, n);
		*done = true;
	}
}

static bool set_absolute(char **out, const char *value, char *error, size_t error_size) {
	if (value[0] != '/') {
		snprintf(error, error_size, "'%s' is not an absolute path", value);
		return false;
	}
	gateway_config_set_string(out, value);
	return true;
}

static bool set_action(struct gateway_command *command, enum gateway_action action,
		const char *user, char *error, size_t error_size) {
	if (command->action != GATEWAY_SERVE) {
		snprintf(error, error_size, "give one of --list, --start and --terminate");
		return false;
	}
	command->action = action;
	command->user = user;
	return true;
}

static bool apply(struct gateway_config *c, struct gateway_command *command,
		struct replaced *replaced, int opt, const char *v, char *e, size_t n) {
	switch (opt) {
	case OPT_VNC:
		replace_once(&replaced->vnc, c->vnc_listen, &c->n_vnc_listen);
		return gateway_config_add_listen(c->vnc_listen, &c->n_vnc_listen, v, e, n);
	case OPT_RDP:
		replace_once(&replaced->rdp, c->rdp_listen, &c->n_rdp_listen);
		return gateway_config_add_listen(c->rdp_listen, &c->n_rdp_listen, v, e, n);
	case OPT_WEB:
		return gateway_config_set_web(c, v, e, n);
	case OPT_WEB_HOST:
		replace_once(&replaced->web_hosts, c->web_hosts, &c->n_web_hosts);
		return gateway_config_add_web_host(c, v, e, n);
	case OPT_TLS_CERT:
		return set_absolute(&c->tls_cert, v, e, n);
	case OPT_TLS_KEY:
		return set_absolute(&c->tls_key, v, e, n);
	case OPT_PAM_SERVICE:
		if (strchr(v, '/') || !v[0]) {
			snprintf(e, n, "'%s' is not a PAM service name", v);
			return false;
		}
		gateway_config_set_string(&c->pam_service, v);
		return true;
	case OPT_ALLOW_USER:
		replace_once(&replaced->users, c->allowed_users, &c->n_allowed_users);
		return gateway_config_add_name(c->allowed_users, &c->n_allowed_users, v, e, n);
	case OPT_ALLOW_GROUP:
		replace_once(&replaced->groups, c->allowed_groups, &c->n_allowed_groups);
		return gateway_config_add_name(c->allowed_groups, &c->n_allowed_groups, v, e, n);
	case OPT_HANDSHAKE_TIMEOUT:
		return gateway_config_set_seconds(&c->handshake_timeout, v, 1, 3600, e, n);
	case OPT_MAX_PENDING:
		return gateway_config_set_seconds(&c->max_pending, v, 1, 4096, e, n);
	case OPT_MAX_PENDING_PER_ADDRESS:
		return gateway_config_set_seconds(&c->max_pending_per_address, v, 1, 4096, e, n);
	case OPT_SESSION_COMMAND:
		gateway_config_set_string(&c->session_command, v);
		return true;
	case OPT_ORIEL:
		return set_absolute(&c->oriel, v, e, n);
	case OPT_RUNTIME_DIR:
		return set_absolute(&c->runtime_dir, v, e, n);
	case OPT_OUTPUT:
		return gateway_config_set_size(&c->output_width, &c->output_height, v, e, n);
	case OPT_MAX_OUTPUT:
		return gateway_config_set_size(&c->max_width, &c->max_height, v, e, n);
	case OPT_RECONNECT:
		return gateway_config_set_reconnect(&c->reconnect, v, e, n);
	case OPT_RDP_HANDOVER:
		return gateway_config_set_rdp_handover(&c->rdp_handover, v, e, n);
	case OPT_IDLE_TIMEOUT:
		return gateway_config_set_seconds(&c->idle_timeout, v, 0, 365 * 24 * 3600, e, n);
	case OPT_X_DISPLAY:
		return gateway_config_set_seconds(&c->x_display, v[0] == ':' ? v + 1 : v, 0,
			X_DISPLAY_MAX, e, n);
	case OPT_LIST:
		return set_action(command, GATEWAY_LIST, NULL, e, n);
	case OPT_START:
		return set_action(command, GATEWAY_START, v, e, n);
	case OPT_TERMINATE:
		return set_action(command, GATEWAY_TERMINATE, v, e, n);
	case 'd':
		command->debug = true;
		return true;
	case 'h':
		command->action = GATEWAY_HELP;
		return true;
	case 'v':
		command->action = GATEWAY_VERSION;
		return true;
	}
	snprintf(e, n, "unknown option (see --help)");
	return false;
}

static const char *option_name(int opt) {
	for (const struct option *o = options; o->name; o++) {
		if (o->val == opt) {
			return o->name;
		}
	}
	return "?";
}

bool gateway_config_parse_args(struct gateway_config *config, struct gateway_command *command,
		int argc, char *argv[], char *error, size_t error_size) {
	memset(command, 0, sizeof(*command));
	/* First the file, which the other options override. */
	const char *path = NULL;
	int opt;
	opterr = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "dhv", options, NULL)) != -1) {
		if (opt == OPT_CONFIG) {
			path = optarg;
		}
	}
	if (path || access(GATEWAY_CONFIG_PATH, F_OK) == 0) {
		if (!gateway_config_parse_file(config, path ? path : GATEWAY_CONFIG_PATH,
				error, error_size)) {
			return false;
		}
	}

	struct replaced replaced = {0};
	optind = 0;
	while ((opt = getopt_long(argc, argv, "dhv", options, NULL)) != -1) {
		if (opt == OPT_CONFIG) {
			continue;
		}
		if (opt == '?' || opt == ':') {
			snprintf(error, error_size, "unknown option or missing value: %s (see --help)",
				argv[optind - 1]);
			return false;
		}
		char why[256] = "";
		if (!apply(config, command, &replaced, opt, optarg, why, sizeof(why))) {
			snprintf(error, error_size, "--%s: %s", option_name(opt), why);
			return false;
		}
	}
	if (optind < argc) {
		snprintf(error, error_size, "unexpected argument '%s' (see --help)", argv[optind]);
		return false;
	}
	gateway_config_apply_defaults(config);
	return true;
}
