/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Rdp: RDP listeners and clients at run time
 * (capture/rdp/rdp.h). Starting a listener in a session that runs no RDP
 * server starts one, owned by the control API.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include "oriel-config.h"
#include "capture/rdp/rdp.h"
#include "compositor/control_private.h"
#include "compositor/control_utf8.h"
#include "compositor/server.h"

#define CONTROL_RDP_MAX_ADDRESS 256
#define CONTROL_RDP_MAX_CLIENTS 1024

#if HAVE_RDP

/* A listener method's argument, from an allowed caller, checked. */
static int read_address(struct control *control, sd_bus_message *msg,
		sd_bus_error *error, const char **address) {
	int r = control_read_checked(control, msg, error, "s", address);
	if (r < 0) {
		return r;
	}
	if ((*address)[0] == '\0' || strlen(*address) > CONTROL_RDP_MAX_ADDRESS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"an RDP address is [ADDR:]PORT");
	}
	return 0;
}

static int method_start_listener(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *address;
	int r = read_address(control, msg, error, &address);
	if (r < 0) {
		return r;
	}
	struct rdp_server *rdp = rdp_server_of(control->server);
	struct rdp_server *created = NULL;
	if (!rdp) {
		rdp = created = rdp_server_create_unlistened(control->server);
		if (!rdp) {
			return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
				"cannot start the RDP server (oriel's log says why)");
		}
	}
	char why[256] = "";
	r = rdp_listen_start(rdp, address, why, sizeof(why));
	if (r < 0) {
		rdp_server_destroy(created);
		const char *name = r == -EPERM ? SD_BUS_ERROR_ACCESS_DENIED :
			r == -EINVAL || r == -EEXIST ? SD_BUS_ERROR_INVALID_ARGS : SD_BUS_ERROR_FAILED;
		return sd_bus_error_setf(error, name, "RDP on '%.*s': %s",
			control_utf8_prefix(address, 64), address, why);
	}
	if (created) {
		control->rdp = created;
	}
	wlr_log(WLR_INFO, "control: RDP listening on %s", address);
	return sd_bus_reply_method_return(msg, "");
}

static int method_stop_listener(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *address;
	int r = read_address(control, msg, error, &address);
	if (r < 0) {
		return r;
	}
	struct rdp_server *rdp = rdp_server_of(control->server);
	r = rdp ? rdp_listen_stop(rdp, address) : -ENOENT;
	if (r < 0) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, r == -EINVAL ?
			"bad RDP address '%.*s' (want [ADDR:]PORT)" :
			"RDP is not listening on '%.*s'", control_utf8_prefix(address, 64), address);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_list_clients(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	struct rdp_server *rdp = rdp_server_of(control->server);
	size_t n = rdp ? rdp_list_clients(rdp, NULL, 0) : 0;
	if (n > CONTROL_RDP_MAX_CLIENTS) {
		n = CONTROL_RDP_MAX_CLIENTS;
	}
	struct rdp_client_info *infos = calloc(n ? n : 1, sizeof(*infos));
	if (!infos) {
		return -ENOMEM;
	}
	if (rdp) {
		n = rdp_list_clients(rdp, infos, n);
	}
	sd_bus_message *reply = NULL;
	int r = sd_bus_message_new_method_return(msg, &reply);
	if (r >= 0) {
		r = sd_bus_message_open_container(reply, 'a', "(tsb)");
	}
	for (size_t i = 0; i < n && r >= 0; i++) {
		r = sd_bus_message_append(reply, "(tsb)", infos[i].id, infos[i].peer,
			(int)infos[i].view_only);
	}
	if (r >= 0) {
		r = sd_bus_message_close_container(reply);
	}
	if (r >= 0) {
		r = sd_bus_send(NULL, reply, NULL);
	}
	sd_bus_message_unref(reply);
	free(infos);
	return r;
}

static int method_disconnect(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	uint64_t id;
	int r = control_read_checked(control, msg, error, "t", &id);
	if (r < 0) {
		return r;
	}
	struct rdp_server *rdp = rdp_server_of(control->server);
	if (!rdp || !rdp_disconnect_client(rdp, id)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no RDP client with id %" PRIu64, id);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_certificate(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	struct rdp_server *rdp = rdp_server_of(control->server);
	if (!rdp) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"no RDP server runs in this session (start one with 'orielctl rdp start')");
	}
	const char *path, *sha256;
	rdp_certificate(rdp, &path, &sha256);
	char *owned;
	const char *shown = control_utf8_sanitize(path, &owned);
	int r = sd_bus_reply_method_return(msg, "ss", shown, sha256);
	free(owned);
	return r;
}

#else

static int not_built(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return sd_bus_error_setf(error, SD_BUS_ERROR_NOT_SUPPORTED,
		"oriel was built without RDP support");
}
#define method_start_listener not_built
#define method_stop_listener not_built
#define method_disconnect not_built
#define method_certificate not_built

static int method_list_clients(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return sd_bus_reply_method_return(msg, "a(tsb)", 0);
}

#endif

void control_rdp_finish(struct control *control) {
#if HAVE_RDP
	rdp_server_destroy(control->rdp);
#endif
	control->rdp = NULL;
}

const sd_bus_vtable control_rdp_vtable[] = {
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
