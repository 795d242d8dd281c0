/* SPDX-License-Identifier: MIT */
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
#include <sys/types.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include "portal/grants.h"
#include "portal/options.h"
#include "portal/policy.h"

#define PORTAL_BUS_NAME "org.freedesktop.impl.portal.desktop.oriel"
#define PORTAL_OBJECT_PATH "/org/freedesktop/portal/desktop"
#define PORTAL_IFACE_SCREENCAST "org.freedesktop.impl.portal.ScreenCast"
#define PORTAL_IFACE_SCREENSHOT "org.freedesktop.impl.portal.Screenshot"
#define PORTAL_IFACE_REMOTE_DESKTOP "org.freedesktop.impl.portal.RemoteDesktop"
#define PORTAL_IFACE_ACCESS "org.freedesktop.impl.portal.Access"
#define PORTAL_IFACE_SESSION "org.freedesktop.impl.portal.Session"
#define PORTAL_IFACE_REQUEST "org.freedesktop.impl.portal.Request"

#define PORTAL_FRONTEND_NAME "org.freedesktop.portal.Desktop"
#define ORIEL_BUS_NAME "org.oriel.Compositor"
#define ORIEL_PATH "/org/oriel/Compositor"
#define ORIEL_IFACE_OUTPUTS "org.oriel.Compositor.Outputs"
#define ORIEL_IFACE_CASTS "org.oriel.Compositor.Casts"
#define ORIEL_IFACE_SCREENSHOT "org.oriel.Compositor.Screenshot"
#define ORIEL_IFACE_INPUT "org.oriel.Compositor.Input"
#define ORIEL_IFACE_WINDOWS "org.oriel.Compositor.Windows"

/* A virtual screen's size until its consumer fixates another. */
#define PORTAL_VIRTUAL_WIDTH 1280u
#define PORTAL_VIRTUAL_HEIGHT 720u

/* Response codes of org.freedesktop.impl.portal.Request. */
enum portal_response {
	PORTAL_RESPONSE_SUCCESS = 0,
	PORTAL_RESPONSE_CANCELLED = 1,
	PORTAL_RESPONSE_OTHER = 2,
};

struct portal_session;
struct portal_ask;
struct portal_ask;

struct portal {
	sd_event *event;
	sd_bus *bus;
	sd_bus_slot *screencast_slot;
	sd_bus_slot *screenshot_slot;
	sd_bus_slot *remote_desktop_slot;
	sd_bus_slot *access_slot;
	sd_bus_slot *cast_closed_slot;
	sd_bus_slot *remote_closed_slot; /* oriel's Input.SessionClosed */
	sd_bus_slot *name_lost_slot;
	struct portal_session *sessions; /* singly linked */
	struct portal_ask *asks; /* permission.c: questions the prompt shows */
	struct portal_policy policy; /* re-read by portal_decide */
	char *policy_path;
	char *grants_path; /* persistent grants, see grants.h */
	struct portal_grants transient_grants; /* live as long as this process */
	char *oriel_unique_name; /* sender of our casts' and input sessions' replies */
	struct portal_recent {
		char *key, *kind, *choice;
		bool allowed, remember;
		uint64_t at_ms;
	} recent;
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

/* call.c: checks the caller is the frontend, then reads the arguments. */
int portal_begin_call(struct portal *portal, sd_bus_message *msg, sd_bus_error *error,
	const char *types, ...);
/* Replies (response, {}) to an impl method. */
int portal_reply_response(sd_bus_message *msg, uint32_t response);

/* oriel's prompt lists at most this many choices. */
#define PORTAL_PROMPT_MAX_SOURCES 16

/* Sources the prompt offers: ids (sources.c's words), shown as labels. */
struct portal_sources {
	char **ids;
	char **labels;
	int n;
};

/*
 * decide.c: the one place that decides whether an app may do what kind
 * covers: the policy file (re-read at each question) and, where it says
 * "ask", the person at the session in oriel's prompt (permission.c).
 */
struct portal_question {
	enum portal_kind kind;
	const char *app_id;
	/* The frontend's Request: exported while the prompt is up, so Close works. */
	const char *request_handle;
	/* The session the question is for; NULL for one-shot requests (Screenshot). */
	struct portal_session *session;
	bool wants_remember; /* the app asked to persist the grant */
	/* What the person chooses among; may be none. */
	const struct portal_sources *sources;
	/* The prompt's words for the kind when not its own ("window"); may be NULL. */
	const char *prompt_kind;
	/*
	 * The person chooses even where the policy allows (an interactive
	 * screenshot): allow becomes ask; deny still refuses without asking.
	 */
	bool always_ask;
};
struct portal_answer {
	bool allowed;
	bool remember;      /* the grant may be persisted */
	const char *choice; /* the id the person chose, "" when nobody chose */
	const char *app;    /* how the app is named to people */
	/*
	 * The frontend's request, while the person was asked: a callback that
	 * goes on waiting (the region selector) may take it (and set it NULL)
	 * to hear of Close. NULL when the policy decided.
	 */
	struct portal_request **request;
};
/*
 * Answers call (the frontend's method call) once the decision is made:
 * at once when the policy decides, or when the person answers. data is
 * the question's session, or NULL.
 */
typedef void (*portal_decided_fn)(struct portal *portal, sd_bus_message *call,
	const struct portal_answer *answer, void *data);
/*
 * Calls fn, now or later. When the prompt is up and the request is
 * closed, the session goes or the backend stops, call is answered
 * "cancelled" instead and fn is never called. Returns 1, which a method
 * handler returns to say call is (being) answered, or a negative errno
 * when nothing could be decided (fn not called, call unanswered).
 */
int portal_decide(struct portal *portal, const struct portal_question *question,
	sd_bus_message *call, portal_decided_fn fn);

/*
 * permission.c: asks the person through oriel's prompt
 * (org.oriel.Compositor.Permission.Ask) whether app may have what kind
 * names ("screencast", "screenshot", "remote"), with question's sources,
 * in at most timeout_s seconds. fn gets the answer; see portal_decide.
 */
int portal_permission_ask(struct portal *portal, const struct portal_question *question,
	const char *kind, const char *app, const char *key, bool persist_allowed,
	unsigned timeout_s, sd_bus_message *call, portal_decided_fn fn);
/* Answers "cancelled" to the prompts session (NULL: every one) waits for. */
void portal_permission_cancel(struct portal *portal, struct portal_session *session);
/*
 * How people are told about an app: its app_id, or for an unsandboxed
 * caller (empty app_id) the executable of the connection that made the
 * request at request_handle. Never NULL but without memory.
 */
char *portal_app_label(struct portal *portal, const char *app_id,
	const char *request_handle);
/* The pid of the connection that made the request, or 0. */
pid_t portal_caller_pid(struct portal *portal, const char *request_handle);
/* Its executable, or NULL. Free it. */
char *portal_caller_executable(struct portal *portal, const char *request_handle);

/*
 * recent.c: the person's last answer, for the same app (its app_id, or
 * its executable when unsandboxed) asking again about the same kind of
 * source within the policy's same-answer-within: Chromium asks once for
 * its picker's preview and again when the person clicks Share.
 */
void portal_recent_store(struct portal *portal, const char *key, const char *kind,
	const struct portal_answer *answer);
/*
 * Fills out (choice points into the stored answer) when a recent answer
 * fits: same key and kind, not older than within_s, and its choice still
 * among sources (when there are any).
 */
bool portal_recent_find(struct portal *portal, const char *key, const char *kind,
	unsigned within_s, const struct portal_sources *sources, struct portal_answer *out);
void portal_recent_finish(struct portal *portal);

/* outputs.c: org.oriel.Compositor.Outputs.List. */
struct portal_output {
	char *name;
	uint32_t width, height;
	int32_t x, y;
};
int portal_list_outputs(struct portal *portal, struct portal_output **outputs, int *n,
	sd_bus_error *error);
void portal_outputs_free(struct portal_output *outputs, int n);
const struct portal_output *portal_output_find(const struct portal_output *outputs, int n,
	const char *name);
void portal_sources_finish(struct portal_sources *sources);

/* windows.c: org.oriel.Compositor.Windows.List, bottom of the stack first. */
struct portal_window {
	uint64_t id;
	char *title;
	char *app_id;
	int32_t x, y;
	uint32_t width, height;
	bool focused, minimized;
	pid_t pid; /* 0: unknown */
};
int portal_list_windows(struct portal *portal, struct portal_window **windows, int *n,
	sd_bus_error *error);
void portal_windows_free(struct portal_window *windows, int n);

/*
 * sources.c: what a cast may show among the source types the app
 * selected. A source's word is "monitor:OUTPUT", "window:ID" or
 * "virtual": what the prompt answers and a grant stores (grants.h).
 */
struct portal_target {
	enum portal_source_type type;
	char *source; /* its word */
	char *name;   /* the output's name (a virtual one's once cast), the window's title */
	uint64_t window_id;
	int32_t x, y; /* in the layout */
	uint32_t width, height;
};
void portal_target_finish(struct portal_target *target);
void portal_targets_free(struct portal_target *targets, int n);

struct portal_catalog {
	uint32_t types; /* the app's selection */
	pid_t caller_pid; /* its windows are not preselected, and listed last; 0: unknown */
	struct portal_output *outputs;
	int n_outputs;
	struct portal_window *windows;
	int n_windows;
};
/* Lists the outputs and windows, as far as types wants them. */
int portal_catalog_load(struct portal *portal, uint32_t types, struct portal_catalog *cat,
	sd_bus_error *error);
void portal_catalog_finish(struct portal_catalog *cat);
/*
 * The prompt's choices: the outputs, a new virtual screen, then the
 * windows (the focused one first, then top to bottom), at most as many as
 * the prompt shows.
 */
int portal_catalog_sources(const struct portal_catalog *cat, struct portal_sources *sources);
/* "window" when only windows are offered, else "screencast". */
const char *portal_catalog_prompt_kind(const struct portal_catalog *cat);
/* The source that word names, when it exists now; out is set when true. */
bool portal_catalog_target(const struct portal_catalog *cat, const char *word,
	struct portal_target *out);
/*
 * What to cast: the source the person chose (choice), none when it is
 * gone; without a choice, the first output or, with multiple, every one;
 * else the window rule's window (none when it names none); else a
 * virtual screen.
 */
int portal_catalog_pick(const struct portal_catalog *cat, const char *choice, bool multiple,
	enum portal_window_rule rule, struct portal_target **targets, int *n);
/* The words of every source that exists now, NULL-terminated (portal_strv_free). */
char **portal_catalog_existing(const struct portal_catalog *cat);
void portal_strv_free(char **list);

/* request.c: org.freedesktop.impl.portal.Request at a handle. */
struct portal_request {
	struct portal *portal;
	char *handle;
	sd_bus_slot *slot;
	bool closed;
	/* Called once Close is answered; it may destroy the request. */
	void (*on_close)(struct portal_request *request, void *data);
	void *close_data;
};

struct portal_request *portal_request_create(struct portal *portal, const char *handle);
void portal_request_destroy(struct portal_request *request);

/* session.c: org.freedesktop.impl.portal.Session at a session handle. */
struct portal_cast {
	uint64_t cast_id;
	uint32_t node_id;
	struct portal_target target; /* what it shows, in layout coordinates */
};

/* An input held down through a session, released when the session ends. */
struct portal_held {
	enum { PORTAL_HELD_BUTTON, PORTAL_HELD_KEYCODE, PORTAL_HELD_KEYSYM } type;
	uint32_t code;
};

struct portal_session {
	struct portal *portal;
	struct portal_session *next;
	char *handle;
	char *app_id;
	sd_bus_slot *slot;
	bool selected, started;
	struct portal_selection selection;
	/* The grant id a restore token brought back (SelectSources restore_data). */
	char *restore_id;
	struct portal_cast *casts;
	int n_casts;
	/* RemoteDesktop: made by its CreateSession; the devices SelectDevices chose. */
	bool remote;
	uint32_t devices;
	struct portal_held *held;
	int n_held;
	/* oriel's remote control session (Input.OpenSession), once started. */
	uint64_t input_session_id;
	bool input_session_open;
	struct portal_ask *ask; /* permission.c: the prompt Start waits for */
};

struct portal_session *portal_session_create(struct portal *portal, const char *handle,
	const char *app_id);
struct portal_session *portal_session_find(struct portal *portal, const char *handle);
/* Stops the session's casts and frees it; emit_closed sends Session.Closed. */
void portal_session_destroy(struct portal_session *session, bool emit_closed);
void portal_session_stop_casts(struct portal_session *session);

/*
 * casts.c: one oriel cast per target (an output, window or virtual cast,
 * with the session's cursor mode), kept in the session, each named after
 * client (the app, for the sharing indicator); on failure the session's
 * casts are stopped and a negative errno (with error set) is returned.
 */
int portal_session_cast(struct portal_session *session,
	const struct portal_target *targets, int n, const char *client, sd_bus_error *error);
/* Appends "streams" a(ua{sv}) (in an open a{sv}) for the session's casts. */
int portal_append_streams(sd_bus_message *reply, struct portal_session *session);

/*
 * restore.c: restore tokens. The frontend keeps the token the app sees
 * and hands us back our restore_data ("oriel", 1, <grant id>).
 */
#define PORTAL_RESTORE_VENDOR "oriel"
#define PORTAL_RESTORE_VERSION 1u
/*
 * Reads restore_data's variant (suv), msg being at the variant; *id gets
 * our grant id, or stays NULL for data that is not ours (ignored).
 */
int portal_restore_read(sd_bus_message *msg, char **id);
/*
 * The sources session's restore grant names, when it is still usable by
 * this app and each source still exists in cat: in *targets
 * (portal_targets_free). False when there is no usable grant (then ask).
 */
bool portal_restore_targets(struct portal_session *session,
	const struct portal_catalog *cat, struct portal_target **targets, int *n);
/*
 * Remembers the session's casts as a grant (or keeps the restored one)
 * for the persist mode the app asked for, and appends restore_data and
 * persist_mode to the open a{sv}. Nothing is appended when nothing is
 * remembered.
 */
int portal_restore_remember(struct portal_session *session, bool restored,
	sd_bus_message *reply);

/* input.c: org.oriel.Compositor.Input calls for a RemoteDesktop session. */
int portal_input_pointer_position(struct portal *portal, double *x, double *y,
	sd_bus_error *error);
int portal_input_call(struct portal_session *session, const char *method,
	sd_bus_error *error, const char *types, ...);
/* Presses and releases, tracked so that portal_input_release_all can undo them. */
int portal_input_press(struct portal_session *session, int type, uint32_t code,
	bool pressed, sd_bus_error *error);
void portal_input_release_all(struct portal_session *session);
/*
 * oriel's remote control session for a started RemoteDesktop session,
 * shown on the sharing indicator as remote control by client; closing it
 * releases nothing (portal_input_release_all does). When the person stops
 * it from the indicator, the portal session is closed (Closed is emitted).
 */
int portal_input_open_session(struct portal_session *session, const char *client,
	sd_bus_error *error);
void portal_input_close_session(struct portal_session *session);
int portal_input_init(struct portal *portal);
void portal_input_finish(struct portal *portal);
/* Remembers the sender of a reply from oriel: its signals are believed from it only. */
void portal_note_oriel(struct portal *portal, sd_bus_message *reply);

/* One file per portal interface. */
int portal_screencast_init(struct portal *portal);
void portal_screencast_finish(struct portal *portal);
int portal_screenshot_init(struct portal *portal);
void portal_screenshot_finish(struct portal *portal);
int portal_remote_desktop_init(struct portal *portal);
void portal_remote_desktop_finish(struct portal *portal);
int portal_access_init(struct portal *portal);
void portal_access_finish(struct portal *portal);

#endif
