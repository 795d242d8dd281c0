/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for oriel-gateway's gateway.ini parser. Besides memory
 * errors it checks what the parser promises: values within their
 * documented ranges, and every error a terminated "FILE:LINE: ..." line.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gateway/gateway_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-gateway-config: invariant broken: %s\n", what);
		abort();
	}
}

static void check_config(const struct gateway_config *c) {
	check(c->n_vnc_listen >= 0 && c->n_vnc_listen <= GATEWAY_MAX_LISTEN, "vnc bound");
	check(c->n_rdp_listen >= 0 && c->n_rdp_listen <= GATEWAY_MAX_LISTEN, "rdp bound");
	check(c->n_allowed_users >= 0 && c->n_allowed_users <= GATEWAY_MAX_ALLOWED,
		"users bound");
	check(c->n_allowed_groups >= 0 && c->n_allowed_groups <= GATEWAY_MAX_ALLOWED,
		"groups bound");
	for (int i = 0; i < c->n_allowed_users; i++) {
		check(!strpbrk(c->allowed_users[i], "/ \t;:"), "a user name is a name");
	}
	check(c->output_width >= 1 && c->output_width <= GATEWAY_MAX_OUTPUT &&
		c->output_height >= 1 && c->output_height <= GATEWAY_MAX_OUTPUT, "output range");
	check(c->max_width >= 1 && c->max_width <= GATEWAY_MAX_OUTPUT &&
		c->max_height >= 1 && c->max_height <= GATEWAY_MAX_OUTPUT, "max-output range");
	check(c->reconnect >= GATEWAY_RECONNECT_SHARE && c->reconnect <= GATEWAY_RECONNECT_NEW,
		"reconnect range");
	check(c->idle_timeout >= 0, "idle-timeout range");
	check(c->handshake_timeout >= 1 && c->max_pending >= 1 &&
		c->max_pending_per_address >= 1, "limits range");
	check(c->oriel && c->oriel[0] == '/', "oriel is absolute");
	check(c->runtime_dir && c->runtime_dir[0] == '/', "runtime-dir is absolute");
	check(c->pam_service && !strchr(c->pam_service, '/'), "pam-service is a name");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	struct gateway_config config;
	char error[256];
	memset(error, 'x', sizeof(error));
	gateway_config_init(&config);
	bool ok = gateway_config_parse_string(&config, (const char *)data, size, "fuzz.ini",
		error, sizeof(error));
	check(memchr(error, '\0', sizeof(error)) != NULL, "error is terminated");
	if (ok) {
		check(error[0] == '\0', "error is empty on success");
	} else {
		check(strncmp(error, "fuzz.ini:", 9) == 0, "error starts with FILE:");
	}
	check_config(&config);
	gateway_config_apply_defaults(&config);
	check(config.n_vnc_listen + config.n_rdp_listen > 0, "something listens");
	gateway_config_finish(&config);
	gateway_config_finish(&config);
	return 0;
}
