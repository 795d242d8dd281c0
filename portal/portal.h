/*
 * xdg-desktop-portal-oriel: shared state of the backend process.
 * portal/ is a separate process that only talks D-Bus: to the
 * xdg-desktop-portal frontend (org.freedesktop.impl.portal.*) and to
 * oriel's control API (protocols/org.oriel.Compositor.xml).
 */
#ifndef ORIEL_PORTAL_H
#define ORIEL_PORTAL_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include "portal/options.h"

#define PORTAL_BUS_NAME "org.freedesktop.impl.portal.desktop.oriel"
#define PORTAL_OBJECT_PATH "/org/freedesktop/portal/desktop"
#define PORTAL_IFACE_SCREENCAST "org.freedesktop.impl.portal.ScreenCast"
#define PORTAL_IFACE_SESSION "org.freedesktop.impl.portal.Session"
#define PORTAL_IFACE_REQUEST "org.freedesktop.impl.portal.Request"

#define PORTAL_FRONTEND_NAME "org.freedesktop.portal.Desktop"
#define ORIEL_BUS_NAME "org.oriel.Compositor"
#define ORIEL_PATH "/org/oriel/Compositor"
#define ORIEL_IFACE_OUTPUTS "org.oriel.Compositor.Outputs"
#define ORIEL_IFACE_CASTS "org.oriel.Compositor.Casts"

/* Response codes of org.freedesktop.impl.portal.Request. */
enum portal_response {
	PORTAL_RESPONSE_SUCCESS = 0,
	PORTAL_RESPONSE_CANCELLED = 1,
	PORTAL_RESPONSE_OTHER = 2,
};

struct portal_session;
struct portal_ask;

struct portal {
	sd_event *event;
	sd_bus *bus;
	sd_bus_slot *screencast_slot;
	sd_bus_slot *cast_closed_slot;
	sd_bus_slot *name_lost_slot;
	struct portal_session *sessions; /* singly linked */
	struct portal_policy policy;
	char *policy_path;
	char *oriel_unique_name; /* sender of our casts' replies */
	bool verbose;
};

void portal_log(struct portal *portal, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Whether msg comes from the owner of org.freedesktop.portal.Desktop. Only
 * the frontend may call the backend: it identifies the app (sandbox,
 * app_id) and owns the public API; anyone else could claim any app_id.
 */
bool portal_caller_is_frontend(struct portal *portal, sd_bus_message *msg);

/* request.c: org.freedesktop.impl.portal.Request at a handle. */
struct portal_request {
	struct portal *portal;
	char *handle;
	sd_bus_slot *slot;
	bool closed;
};

struct portal_request *portal_request_create(struct portal *portal, const char *handle);
void portal_request_destroy(struct portal_request *request);

/* session.c: org.freedesktop.impl.portal.Session at a session handle. */
struct portal_cast {
	uint64_t cast_id;
	uint32_t node_id;
};

struct portal_session {
	struct portal *portal;
	struct portal_session *next;
	char *handle;
	char *app_id;
	sd_bus_slot *slot;
	bool selected, started;
	struct portal_selection selection;
	struct portal_cast *casts;
	int n_casts;
	struct portal_ask *ask; /* permission.c: the prompt Start waits for */
};

struct portal_session *portal_session_create(struct portal *portal, const char *handle,
	const char *app_id);
struct portal_session *portal_session_find(struct portal *portal, const char *handle);
/* Stops the session's casts and frees it; emit_closed sends Session.Closed. */
void portal_session_destroy(struct portal_session *session, bool emit_closed);
void portal_session_stop_casts(struct portal_session *session);

/*
 * permission.c: asks the person through oriel's prompt
 * (org.oriel.Compositor.Permission.Ask) whether session's app may have
 * what kind names ("screencast", "window", "screenshot", "remote"),
 * choosing among the sources ids (shown as labels). The request at
 * request_handle stays open; fn answers start once the person did (choice
 * is "" when denied, and a closed request counts as denied). Returns 1, or
 * a negative errno when the question could not be asked (fn is not called).
 */
struct portal_answer {
	bool allowed;
	const char *choice; /* "" when denied */
	bool remember;
	const char *app;    /* as the prompt named it */
};
typedef void (*portal_ask_fn)(struct portal_session *session, sd_bus_message *start,
	const struct portal_answer *answer);
int portal_permission_ask(struct portal_session *session, sd_bus_message *start,
	const char *request_handle, const char *kind, char *const *ids,
	char *const *labels, int n, bool persist_allowed, portal_ask_fn fn);
/* The session goes while its prompt is up: its Start answers "cancelled". */
void portal_permission_cancel(struct portal_session *session);
/*
 * How people are told about session's app: its app_id, or the executable
 * of the caller whose request is at request_handle. Never NULL.
 */
char *portal_app_label(struct portal_session *session, const char *request_handle);

/* screencast.c */
int portal_screencast_init(struct portal *portal);
void portal_screencast_finish(struct portal *portal);

#endif
