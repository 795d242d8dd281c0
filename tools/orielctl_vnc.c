/* SPDX-License-Identifier: MIT */
/*
 * orielctl vnc and orielctl rdp: the org.oriel.Compositor.Vnc and .Rdp
 * interfaces, which have the same methods.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/orielctl.h"

/* Which server: its interface, its name in usage and errors, its clients' name. */
struct remote {
	const char *iface, *name, *client;
};

static const struct remote vnc = { CTL_IFACE_VNC, "vnc", "viewer" };
static const struct remote rdp = { CTL_IFACE_RDP, "rdp", "client" };

static int cmd_clients(struct ctl *ctl, const struct remote *remote) {
	sd_bus_message *reply = NULL;
	if (!ctl_call(ctl, remote->iface, "ListClients", &reply, "")) {
		return CTL_EXIT_FAILURE;
	}
	int r = sd_bus_message_enter_container(reply, 'a', "(tsb)");
	struct ctl_table table;
	ctl_table_init(&table, 3);
	if (ctl->json) {
		putchar('[');
	} else {
		ctl_table_add_row(&table, "ID", "ACCESS", "PEER");
	}
	bool first = true;
	uint64_t id;
	const char *peer;
	int view_only;
	while (r >= 0 && (r = sd_bus_message_read(reply, "(tsb)", &id, &peer, &view_only)) > 0) {
		if (ctl->json) {
			printf("%s{\"id\":%" PRIu64 ",\"peer\":", first ? "" : ",", id);
			ctl_json_string(stdout, peer);
			printf(",\"view_only\":");
			ctl_json_bool(stdout, view_only);
			putchar('}');
		} else {
			char *id_text = ctl_asprintf("%" PRIu64, id);
			ctl_table_add_row(&table, id_text, view_only ? "view-only" : "full", peer);
			free(id_text);
		}
		first = false;
	}
	if (ctl->json) {
		puts("]");
	}
	ctl_table_print(&table, stdout);
	sd_bus_message_unref(reply);
	return r < 0 ? ctl_bad_reply("ListClients", r) : CTL_EXIT_OK;
}

static int cmd_fingerprint(struct ctl *ctl, const struct remote *remote) {
	sd_bus_message *reply = NULL;
	if (!ctl_call(ctl, remote->iface, "Certificate", &reply, "")) {
		return CTL_EXIT_FAILURE;
	}
	const char *path, *sha256;
	int r = sd_bus_message_read(reply, "ss", &path, &sha256);
	if (r >= 0 && ctl->json) {
		printf("{\"path\":");
		ctl_json_string(stdout, path);
		printf(",\"sha256\":");
		ctl_json_string(stdout, sha256);
		puts("}");
	} else if (r >= 0) {
		printf("SHA-256 %s\n%s\n", sha256, path);
	}
	sd_bus_message_unref(reply);
	return r < 0 ? ctl_bad_reply("Certificate", r) : CTL_EXIT_OK;
}

static int cmd_remote(struct ctl *ctl, const struct remote *remote) {
	const char *sub = ctl->args[0];
	const char *name = remote->name;
	if (strcmp(sub, "fingerprint") == 0) {
		if (ctl->n_args != 1) {
			return ctl_usage_error("usage: %s fingerprint", name);
		}
		return cmd_fingerprint(ctl, remote);
	}
	if (strcmp(sub, "clients") == 0) {
		if (ctl->n_args != 1) {
			return ctl_usage_error("usage: %s clients", name);
		}
		return cmd_clients(ctl, remote);
	}
	if (strcmp(sub, "start") == 0 || strcmp(sub, "stop") == 0) {
		if (ctl->n_args != 2) {
			return ctl_usage_error("usage: %s %s ADDR:PORT|PORT%s", name, sub,
				remote == &vnc ? "|/SOCKET-PATH" : "");
		}
		return ctl_call(ctl, remote->iface, sub[2] == 'a' ? "StartListener" :
			"StopListener", NULL, "s", ctl->args[1]) ? CTL_EXIT_OK : CTL_EXIT_FAILURE;
	}
	if (strcmp(sub, "disconnect") == 0) {
		uint64_t id;
		if (ctl->n_args != 2) {
			return ctl_usage_error("usage: %s disconnect ID", name);
		}
		if (!ctl_parse_u64(ctl->args[1], &id)) {
			return ctl_usage_error("'%s' is not a %s id (see 'orielctl %s clients')",
				ctl->args[1], remote->client, name);
		}
		return ctl_call(ctl, remote->iface, "Disconnect", NULL, "t", id) ?
			CTL_EXIT_OK : CTL_EXIT_FAILURE;
	}
	return ctl_usage_error("unknown %s command '%s' (start, stop, clients, disconnect, "
		"fingerprint)", name, sub);
}

int ctl_cmd_vnc(struct ctl *ctl) {
	return cmd_remote(ctl, &vnc);
}

int ctl_cmd_rdp(struct ctl *ctl) {
	return cmd_remote(ctl, &rdp);
}
