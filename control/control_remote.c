/* SPDX-License-Identifier: MIT */
/*
 * Remote control sessions on org.oriel.Compositor.Input: a caller that
 * forwards someone else's input (the portal's RemoteDesktop sessions)
 * opens a session naming who it is for, so that the sharing indicator
 * shows it while it lasts. A session ends with CloseSession, when its
 * owner leaves the bus, or when the person stops it from the indicator;
 * then SessionClosed is emitted and, once a caller has no open session
 * left, its motion, scrolling and presses are refused (releases pass, so
 * nothing stays held): stopping remote control from the indicator stops
 * it even if the caller goes on sending.
 * Callers that never open a session (orielctl) are not affected.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include "control/control_private.h"
#include "common/util.h"

#define MAX_REMOTE_SESSIONS 64
#define MAX_CLIENT_NAME 256

struct control_remote {
	struct control *control;
	uint64_t id;
	char *owner; /* the caller's unique bus name */
	char *client; /* who it is for, for the indicator */
	bool stopped; /* by the person: input from its owner is refused */
	sd_bus_track *track;
	struct wl_list link; /* control->remotes */
};

static void remote_free(struct control_remote *remote) {
	remote->track = sd_bus_track_unref(remote->track);
	wl_list_remove(&remote->link);
	free(remote->owner);
	free(remote->client);
	free(remote);
}

static void emit_closed(struct control *control, uint64_t id) {
	if (control->bus && sd_bus_is_open(control->bus) > 0) {
		sd_bus_emit_signal(control->bus, CONTROL_PATH, CONTROL_IFACE_INPUT,
			"SessionClosed", "t", id);
		control_flush(control);
	}
}

static int handle_track(sd_bus_track *track, void *data) {
	struct control_remote *remote = data;
	struct control *control = remote->control;
	wlr_log(WLR_INFO, "control: the owner of remote control session %" PRIu64
		" left the bus", remote->id);
	remote_free(remote);
	control_share_update(control);
	return 0;
}

int control_remote_open_session(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *client;
	int r = control_read_checked(control, msg, error, "s", &client);
	if (r < 0) {
		return r;
	}
	if (strlen(client) > MAX_CLIENT_NAME) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"the client's name must have at most %d bytes", MAX_CLIENT_NAME);
	}
	if (wl_list_length(&control->remotes) >= MAX_REMOTE_SESSIONS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
			"more than %d remote control sessions", MAX_REMOTE_SESSIONS);
	}
	struct control_remote *remote = zalloc(sizeof(*remote));
	remote->control = control;
	remote->id = control->next_remote_id++;
	remote->owner = xstrdup(sd_bus_message_get_sender(msg) ?
		sd_bus_message_get_sender(msg) : "");
	remote->client = xstrdup(client[0] ? client : "an unnamed app");
	wl_list_insert(control->remotes.prev, &remote->link);
	r = sd_bus_track_new(control->bus, &remote->track, handle_track, remote);
	r = r < 0 ? r : sd_bus_track_add_sender(remote->track, msg);
	if (r < 0) {
		remote_free(remote);
		return r;
	}
	wlr_log(WLR_INFO, "control: remote control session %" PRIu64 " for %s",
		remote->id, remote->client);
	control_share_update(control);
	return sd_bus_reply_method_return(msg, "t", remote->id);
}

static struct control_remote *remote_of(struct control *control, sd_bus_message *msg,
		uint64_t id) {
	const char *sender = sd_bus_message_get_sender(msg);
	struct control_remote *remote;
	wl_list_for_each(remote, &control->remotes, link) {
		if (remote->id == id && sender && !strcmp(remote->owner, sender)) {
			return remote;
		}
	}
	return NULL;
}

int control_remote_close_session(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	uint64_t id;
	int r = control_read_checked(control, msg, error, "t", &id);
	if (r < 0) {
		return r;
	}
	struct control_remote *remote = remote_of(control, msg, id);
	if (!remote) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no remote control session %" PRIu64 " of yours", id);
	}
	remote_free(remote);
	control_share_update(control);
	return sd_bus_reply_method_return(msg, "");
}

int control_remote_check_sender(struct control *control, sd_bus_message *msg,
		sd_bus_error *error) {
	const char *sender = sd_bus_message_get_sender(msg);
	bool has_sessions = false;
	struct control_remote *remote;
	wl_list_for_each(remote, &control->remotes, link) {
		if (sender && !strcmp(remote->owner, sender)) {
			if (!remote->stopped) {
				return 0;
			}
			has_sessions = true;
		}
	}
	if (!has_sessions) {
		return 0;
	}
	return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
		"remote control was stopped from the sharing indicator");
}

void control_remote_for_each(struct control *control,
		void (*fn)(const char *client, void *data), void *data) {
	struct control_remote *remote;
	wl_list_for_each(remote, &control->remotes, link) {
		if (!remote->stopped) {
			fn(remote->client, data);
		}
	}
}

void control_remote_stop_all(struct control *control) {
	struct control_remote *remote;
	wl_list_for_each(remote, &control->remotes, link) {
		if (!remote->stopped) {
			remote->stopped = true;
			wlr_log(WLR_INFO, "control: remote control session %" PRIu64
				" stopped from the sharing indicator", remote->id);
			emit_closed(control, remote->id);
		}
	}
	control_share_update(control);
}

void control_remote_finish(struct control *control) {
	struct control_remote *remote, *tmp;
	wl_list_for_each_safe(remote, tmp, &control->remotes, link) {
		remote_free(remote);
	}
}
