/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include "remote/client_info.h"
#include "remote/server.h"
#include "control/control_private.h"
#include "control/control_remote_server.h"
#include "control/control_utf8.h"
#include "compositor/server.h"

/* Longer addresses are no address: a Unix socket path fits in 108 bytes. */
#define MAX_ADDRESS 256
#define MAX_CLIENTS 1024

static int not_built(struct control_remote_server *remote, sd_bus_error *error) {
	return sd_bus_error_setf(error, SD_BUS_ERROR_NOT_SUPPORTED,
		"oriel was built without %s support", remote->protocol->name);
}

/* A listener method's argument, from an allowed caller, checked, for a server built in. */
static int read_address(struct control_remote_server *remote, sd_bus_message *msg,
		sd_bus_error *error, const char **address) {
	const struct remote_server *protocol = remote->protocol;
	if (!protocol->built) {
		return not_built(remote, error);
	}
	int r = control_read_checked(remote->control, msg, error, "s", address);
	if (r < 0) {
		return r;
	}
	if ((*address)[0] == '\0' || strlen(*address) > MAX_ADDRESS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"a %s address is %s", protocol->name, protocol->address_form);
	}
	return 0;
}

static int method_start_listener(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control_remote_server *remote = data;
	const struct remote_server *protocol = remote->protocol;
	const char *address;
	int r = read_address(remote, msg, error, &address);
	if (r < 0) {
		return r;
	}
	struct server *server = remote->control->server;
	void *running = protocol->of(server);
	void *created = NULL;
	if (!running) {
		running = created = protocol->create_unlistened(server);
		if (!running) {
			return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
				"cannot start the %s server (oriel's log says why)", protocol->name);
		}
	}
	char why[256] = "";
	r = protocol->listen_start(running, address, why, sizeof(why));
	if (r < 0) {
		if (created) {
			protocol->destroy(created);
		}
		const char *name = r == -EPERM ? SD_BUS_ERROR_ACCESS_DENIED :
			r == -EINVAL || r == -EEXIST ? SD_BUS_ERROR_INVALID_ARGS : SD_BUS_ERROR_FAILED;
		return sd_bus_error_setf(error, name, "%s on '%.*s': %s", protocol->name,
			control_utf8_prefix(address, 64), address, why);
	}
	if (created) {
		remote->owned = created;
	}
	wlr_log(WLR_INFO, "control: %s listening on %s", protocol->name, address);
	return sd_bus_reply_method_return(msg, "");
}

static int method_stop_listener(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control_remote_server *remote = data;
	const struct remote_server *protocol = remote->protocol;
	const char *address;
	int r = read_address(remote, msg, error, &address);
	if (r < 0) {
		return r;
	}
	void *running = protocol->of(remote->control->server);
	r = running ? protocol->listen_stop(running, address) : -ENOENT;
	if (r < 0) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, r == -EINVAL ?
			"bad %s address '%.*s' (want %s)" : "%s is not listening on '%.*s'",
			protocol->name, control_utf8_prefix(address, 64), address,
			protocol->address_form);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_list_clients(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control_remote_server *remote = data;
	const struct remote_server *protocol = remote->protocol;
	void *running = protocol->built ? protocol->of(remote->control->server) : NULL;
	size_t n = running ? protocol->list_clients(running, NULL, 0) : 0;
	n = n > MAX_CLIENTS ? MAX_CLIENTS : n;
	struct remote_client_info *infos = calloc(n ? n : 1, sizeof(*infos));
	if (!infos) {
		return -ENOMEM;
	}
	if (running) {
		n = protocol->list_clients(running, infos, n);
		n = n > MAX_CLIENTS ? MAX_CLIENTS : n;
	}
	sd_bus_message *reply;
	int r = control_array_reply_begin(msg, "(tsb)", &reply);
	for (size_t i = 0; i < n && r >= 0; i++) {
		char *owned;
		const char *peer = control_utf8_sanitize(infos[i].peer, &owned);
		r = sd_bus_message_append(reply, "(tsb)", infos[i].id, peer,
			(int)infos[i].view_only);
		free(owned);
	}
	free(infos);
	return control_array_reply_end(reply, r);
}

static int method_disconnect(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control_remote_server *remote = data;
	const struct remote_server *protocol = remote->protocol;
	if (!protocol->built) {
		return not_built(remote, error);
	}
	uint64_t id;
	int r = control_read_checked(remote->control, msg, error, "t", &id);
	if (r < 0) {
		return r;
	}
	void *running = protocol->of(remote->control->server);
	if (!running || !protocol->disconnect(running, id)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no %s %s with id %" PRIu64, protocol->name, protocol->client_noun, id);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_certificate(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control_remote_server *remote = data;
	const struct remote_server *protocol = remote->protocol;
	if (!protocol->built) {
		return not_built(remote, error);
	}
	void *running = protocol->of(remote->control->server);
	if (!running) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"no %s server runs in this session (start one with 'orielctl %s start')",
			protocol->name, protocol->command);
	}
	const char *path, *sha256;
	protocol->certificate(running, &path, &sha256);
	char *owned;
	const char *shown = control_utf8_sanitize(path, &owned);
	int r = sd_bus_reply_method_return(msg, "ss", shown, sha256);
	free(owned);
	return r;
}

void control_remote_server_init(struct control_remote_server *remote,
		struct control *control, const struct remote_server *protocol) {
	*remote = (struct control_remote_server){
		.control = control,
		.protocol = protocol,
	};
	snprintf(remote->interface, sizeof(remote->interface), "%s.%s",
		CONTROL_BUS_NAME, protocol->interface);
}

void control_remote_server_finish(struct control_remote_server *remote) {
	remote->slot = sd_bus_slot_unref(remote->slot);
	if (remote->owned) {
		remote->protocol->destroy(remote->owned);
		remote->owned = NULL;
	}
}

const sd_bus_vtable control_remote_server_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("StartListener",
		SD_BUS_ARGS("s", address),
		SD_BUS_NO_RESULT,
		method_start_listener, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("StopListener",
		SD_BUS_ARGS("s", address),
		SD_BUS_NO_RESULT,
		method_stop_listener, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("ListClients",
		SD_BUS_NO_ARGS,
		SD_BUS_RESULT("a(tsb)", clients),
		method_list_clients, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Disconnect",
		SD_BUS_ARGS("t", id),
		SD_BUS_NO_RESULT,
		method_disconnect, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Certificate",
		SD_BUS_NO_ARGS,
		SD_BUS_RESULT("s", path, "s", sha256),
		method_certificate, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};
