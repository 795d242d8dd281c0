/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Vnc: VNC listeners and viewers at run time
 * (capture/vnc.h). Starting a listener in a session that runs no VNC
 * server starts one, owned by the control API.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include "oriel-config.h"
#include "capture/vnc/vnc.h"
#include "compositor/control_private.h"
#include "compositor/control_utf8.h"
#include "compositor/server.h"

/* Longer addresses are no address: a Unix socket path fits in 108 bytes. */
#define CONTROL_VNC_MAX_ADDRESS 256
#define CONTROL_VNC_MAX_CLIENTS 1024

#if HAVE_VNC

static int check_address(const char *address, sd_bus_error *error) {
	if (address[0] == '\0' || strlen(address) > CONTROL_VNC_MAX_ADDRESS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"a VNC address is [ADDR:]PORT or a Unix socket /PATH");
	}
	return 0;
}

/* A listener method's argument, from an allowed caller, checked. */
static int read_address(struct control *control, sd_bus_message *msg,
		sd_bus_error *error, const char **address) {
	int r = control_read_checked(control, msg, error, "s", address);
	if (r < 0) {
		return r;
	}
	return check_address(*address, error);
}

static int method_start_listener(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *address;
	int r = read_address(control, msg, error, &address);
	if (r < 0) {
		return r;
	}
	struct vnc_server *vnc = vnc_server_of(control->server);
	bool created = false;
	if (!vnc) {
		vnc = vnc_server_create_unlistened(control->server);
		if (!vnc) {
			return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
				"cannot start the VNC server (oriel's log says why)");
		}
		created = true;
	}
	char why[256] = "";
	r = vnc_listen_start(vnc, address, why, sizeof(why));
	if (r < 0) {
		if (created) {
			vnc_server_destroy(vnc);
		}
		const char *name = r == -EPERM ? SD_BUS_ERROR_ACCESS_DENIED :
			r == -EINVAL || r == -EEXIST ? SD_BUS_ERROR_INVALID_ARGS : SD_BUS_ERROR_FAILED;
		return sd_bus_error_setf(error, name, "VNC on '%.*s': %s",
			control_utf8_prefix(address, 64), address, why);
	}
	if (created) {
		control->vnc = vnc;
	}
	wlr_log(WLR_INFO, "control: VNC listening on %s", address);
	return sd_bus_reply_method_return(msg, "");
}

static int method_stop_listener(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *address;
	int r = read_address(control, msg, error, &address);
	if (r < 0) {
		return r;
	}
	struct vnc_server *vnc = vnc_server_of(control->server);
	r = vnc ? vnc_listen_stop(vnc, address) : -ENOENT;
	if (r == -EINVAL) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"bad VNC address '%.*s' (want [ADDR:]PORT or /PATH)",
			control_utf8_prefix(address, 64), address);
	} else if (r < 0) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"VNC is not listening on '%.*s'", control_utf8_prefix(address, 64), address);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_list_clients(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	struct vnc_server *vnc = vnc_server_of(control->server);
	struct vnc_client_info *infos = NULL;
	size_t n = 0;
	if (vnc) {
		n = vnc_list_clients(vnc, NULL, 0);
		if (n > CONTROL_VNC_MAX_CLIENTS) {
			n = CONTROL_VNC_MAX_CLIENTS;
		}
		infos = calloc(n ? n : 1, sizeof(*infos));
		if (!infos) {
			return -ENOMEM;
		}
		n = vnc_list_clients(vnc, infos, n);
	}
	sd_bus_message *reply = NULL;
	int r = sd_bus_message_new_method_return(msg, &reply);
	if (r >= 0) {
		r = sd_bus_message_open_container(reply, 'a', "(tsb)");
	}
	for (size_t i = 0; i < n && r >= 0; i++) {
		char *owned;
		const char *peer = control_utf8_sanitize(infos[i].peer, &owned);
		r = sd_bus_message_append(reply, "(tsb)", infos[i].id, peer,
			(int)infos[i].view_only);
		free(owned);
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
	struct vnc_server *vnc = vnc_server_of(control->server);
	if (!vnc || !vnc_disconnect_client(vnc, id)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no VNC viewer with id %" PRIu64, id);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_certificate(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	struct vnc_server *vnc = vnc_server_of(control->server);
	if (!vnc) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"no VNC server runs in this session (start one with 'orielctl vnc start')");
	}
	const char *path, *sha256;
	vnc_certificate(vnc, &path, &sha256);
	char *owned;
	const char *shown = control_utf8_sanitize(path, &owned);
	int r = sd_bus_reply_method_return(msg, "ss", shown, sha256);
	free(owned);
	return r;
}

#else

static int not_built(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return sd_bus_error_setf(error, SD_BUS_ERROR_NOT_SUPPORTED,
		"oriel was built without VNC support");
}
#define method_start_listener not_built
#define method_stop_listener not_built
#define method_disconnect not_built
#define method_certificate not_built

static int method_list_clients(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return sd_bus_reply_method_return(msg, "a(tsb)", 0);
}

#endif

void control_vnc_finish(struct control *control) {
#if HAVE_VNC
	vnc_server_destroy(control->vnc);
#endif
	control->vnc = NULL;
}

const sd_bus_vtable control_vnc_vtable[] = {
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
