/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CONTROL_CONTROL_PRIVATE_H
#define ORIEL_CONTROL_CONTROL_PRIVATE_H

/* Shared by the control*.c files only. */

#include <stdarg.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include "control/control_remote_server.h"
#include "remote/remote_servers.h"
#include <wayland-server-core.h>

#define CONTROL_BUS_NAME "org.oriel.Compositor"
#define CONTROL_PATH "/org/oriel/Compositor"
#define CONTROL_IFACE_OUTPUTS CONTROL_BUS_NAME ".Outputs"
#define CONTROL_IFACE_WINDOWS CONTROL_BUS_NAME ".Windows"
#define CONTROL_IFACE_SCREENSHOT CONTROL_BUS_NAME ".Screenshot"
#define CONTROL_IFACE_INPUT CONTROL_BUS_NAME ".Input"
#define CONTROL_IFACE_CASTS CONTROL_BUS_NAME ".Casts"
#define CONTROL_IFACE_PERMISSION CONTROL_BUS_NAME ".Permission"

struct server;
struct control_casts;
struct control_asks;

struct control {
	struct server *server;
	sd_bus *bus;
	struct wl_event_source *bus_source;
	/* Armed only while sd-bus has a finite timeout pending. */
	struct wl_event_source *timer_source;

	sd_bus_slot *outputs_slot;
	sd_bus_slot *windows_slot;
	sd_bus_slot *screenshot_slot;
	sd_bus_slot *input_slot;
	/* The Vnc and Rdp interfaces: one per remote_servers[] (control_remote_server.h). */
	struct control_remote_server remote_servers[REMOTE_SERVERS];
	sd_bus_slot *casts_slot;
	/* control_casts.c: PipeWire casts and their connection, made on first use. */
	struct control_casts *casts;
	sd_bus_slot *permission_slot;
	/* control_prompt.c: permission requests, the first one shown. */
	struct control_asks *asks;
	/* control_remote.c: remote control sessions (Input.OpenSession). */
	struct wl_list remotes;
	uint64_t next_remote_id;
	/* control_share.c: who a screenshot was just taken for, while noticed. */
	char *screenshot_client;
	struct wl_event_source *screenshot_timer;
	/* The pending UpdateActivationEnvironment call, if any. */
	sd_bus_slot *activation_slot;
};

/* One vtable per interface of protocols/org.oriel.Compositor.xml. */
extern const sd_bus_vtable control_outputs_vtable[];
extern const sd_bus_vtable control_windows_vtable[];
extern const sd_bus_vtable control_screenshot_vtable[];
extern const sd_bus_vtable control_input_vtable[];

extern const sd_bus_vtable control_casts_vtable[];
extern const sd_bus_vtable control_permission_vtable[];

/* control_casts.c: ends every cast and disconnects from PipeWire. */
void control_casts_finish(struct control *control);
/* control_casts.c: fn(source, client) for each live cast. */
void control_casts_for_each(struct control *control,
	void (*fn)(const char *source, const char *client, void *data), void *data);
/* Ends every cast, as if each was stopped; Closed says so. */
void control_casts_stop_all(struct control *control, const char *why);
/*
 * control_remote.c: Input.OpenSession and CloseSession; whether the sender
 * of an input call may send it (0, or AccessDenied set and returned: its
 * sessions were stopped from the indicator); fn(client) per live session;
 * stopping them all (SessionClosed says so); freeing them.
 */
int control_remote_open_session(sd_bus_message *msg, void *data, sd_bus_error *error);
int control_remote_close_session(sd_bus_message *msg, void *data, sd_bus_error *error);
int control_remote_check_sender(struct control *control, sd_bus_message *msg,
	sd_bus_error *error);
void control_remote_for_each(struct control *control,
	void (*fn)(const char *client, void *data), void *data);
void control_remote_stop_all(struct control *control);
void control_remote_finish(struct control *control);
/* control_share.c: the sharing indicator follows casts and remote control. */
void control_share_update(struct control *control);
void control_share_finish(struct control *control);
/* Shows for a few seconds that a screenshot was taken for client. */
void control_share_screenshot_taken(struct control *control, const char *client);

/* control_prompt.c: takes the prompt down; pending asks get no answer. */
void control_prompt_finish(struct control *control);

/* Has the event loop send what a handler queued outside sd_bus_process. */
void control_flush(struct control *control);

/*
 * Whether the sender of msg may read the screen, inject input or change
 * windows and outputs: same euid as oriel, executable on the allowlist.
 * Returns 0 when allowed; otherwise sets error (AccessDenied) and returns
 * the negative errno a method handler returns as is.
 */
int control_check_caller(struct control *control, sd_bus_message *msg,
	sd_bus_error *error);
/*
 * Reads a method's arguments (sd_bus_message_read's types and pointers),
 * then checks the caller as control_check_caller does.
 */
int control_read_checked(struct control *control, sd_bus_message *msg,
	sd_bus_error *error, const char *types, ...);
int control_read_checkedv(struct control *control, sd_bus_message *msg,
	sd_bus_error *error, const char *types, va_list args);
/*
 * A method's reply that is one array of contents ("(su)"): begun, then
 * its elements appended while r >= 0, then ended, which closes it, sends
 * it, frees it and returns r or the first error.
 */
int control_array_reply_begin(sd_bus_message *msg, const char *contents,
	sd_bus_message **reply);
int control_array_reply_end(sd_bus_message *reply, int r);
/* The file name of the sender's executable, for people to read; never NULL. */
char *control_caller_name(sd_bus_message *msg);

#endif
