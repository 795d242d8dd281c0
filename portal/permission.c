/* SPDX-License-Identifier: MIT */
/*
 * Asking the person at the session, when the policy says "ask" (decide.c):
 * oriel draws the prompt (org.oriel.Compositor.Permission.Ask) and
 * answers once the person does, so the portal request stays open
 * meanwhile and the frontend's call is answered from the reply's
 * callback. A request closed, a session gone or the backend stopping
 * meanwhile answers "cancelled" at once. A closed request or a gone
 * session also withdraws the question (Permission.Withdraw, naming the
 * Ask call by its cookie), so oriel takes the prompt down at once; when
 * the backend stops, oriel withdraws it on its own as the backend leaves
 * the bus.
 *
 * The prompt names the app by its app_id, or, for an unsandboxed caller
 * (empty app_id), by the executable of the bus connection that made the
 * request: the frontend builds the request handle from that connection's
 * unique name, and the bus daemon tells its pid.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "portal/app_name.h"
#include "portal/portal.h"

#define ORIEL_IFACE_PERMISSION "org.oriel.Compositor.Permission"
/* The D-Bus call outlives the prompt's own timeout by this much. */
#define CALL_MARGIN_USEC (15ull * 1000 * 1000)

struct portal_ask {
	struct portal *portal;
	struct portal_ask *next;        /* portal->asks */
	struct portal_session *session; /* NULL for one-shot requests */
	struct portal_request *request; /* the frontend may Close it meanwhile */
	sd_bus_message *call;           /* answered by fn */
	sd_bus_slot *slot;              /* the pending Ask call */
	uint64_t cookie;                /* of the Ask call, for Withdraw */
	portal_decided_fn fn;
	bool persist_allowed;
	char *app;
	char *key;  /* who asked, for portal_recent (recent.c) */
	char *kind; /* what the prompt asked about */
	/* When oriel denies by itself: the Ask's timeout, from when it was sent. */
	uint64_t deadline_ms;
};

/* oriel's default for a timeout of 0 (org.oriel.Compositor.xml). */
#define ORIEL_DEFAULT_TIMEOUT_MS 30000u
/* A deny this close to the deadline is oriel's, not the person's. */
#define DEADLINE_SLACK_MS 100u

static uint64_t monotonic_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * ":1.42" from "/org/freedesktop/portal/desktop/request/1_42/TOKEN": the
 * frontend's encoding of the caller's unique name.
 */
static bool sender_of_request(const char *handle, char *out, size_t size) {
	const char *p = strstr(handle, "/request/");
	if (!p) {
		return false;
	}
	p += strlen("/request/");
	const char *end = strchr(p, '/');
	size_t n = end ? (size_t)(end - p) : 0;
	if (n == 0 || n + 2 > size) {
		return false;
	}
	out[0] = ':';
	for (size_t i = 0; i < n; i++) {
		out[i + 1] = p[i] == '_' ? '.' : p[i];
	}
	out[n + 1] = '\0';
	return true;
}

pid_t portal_caller_pid(struct portal *portal, const char *request_handle) {
	char name[256];
	if (!request_handle || !sender_of_request(request_handle, name, sizeof(name))) {
		return 0;
	}
	sd_bus_creds *creds = NULL;
	pid_t pid = 0;
	if (sd_bus_get_name_creds(portal->bus, name, SD_BUS_CREDS_PID, &creds) < 0) {
		return 0;
	}
	int r = sd_bus_creds_get_pid(creds, &pid);
	sd_bus_creds_unref(creds);
	return r < 0 ? 0 : pid;
}

char *portal_caller_executable(struct portal *portal, const char *request_handle) {
	pid_t pid = portal_caller_pid(portal, request_handle);
	if (pid <= 0) {
		return NULL;
	}
	char proc[64], exe[PATH_MAX];
	snprintf(proc, sizeof(proc), "/proc/%d/exe", (int)pid);
	ssize_t len = readlink(proc, exe, sizeof(exe) - 1);
	if (len <= 0) {
		return NULL;
	}
	exe[len] = '\0';
	return strdup(exe);
}

char *portal_app_label(struct portal *portal, const char *app_id,
		const char *request_handle) {
	if (app_id && app_id[0]) {
		char *name = portal_app_name_for_id(app_id);
		return name ? name : strdup(app_id);
	}
	char *exe = portal_caller_executable(portal, request_handle);
	if (!exe) {
		return strdup("");
	}
	char *name = portal_app_name_for_exe(exe);
	if (name) {
		free(exe);
		return name;
	}
	return exe;
}

static void ask_free(struct portal_ask *ask) {
	for (struct portal_ask **p = &ask->portal->asks; *p; p = &(*p)->next) {
		if (*p == ask) {
			*p = ask->next;
			break;
		}
	}
	if (ask->session && ask->session->ask == ask) {
		ask->session->ask = NULL;
	}
	sd_bus_slot_unref(ask->slot);
	sd_bus_message_unref(ask->call);
	portal_request_destroy(ask->request);
	free(ask->app);
	free(ask->key);
	free(ask->kind);
	free(ask);
}

static int handle_withdraw_reply(sd_bus_message *reply, void *data, sd_bus_error *ret_error) {
	const sd_bus_error *error = sd_bus_message_get_error(reply);
	if (error) {
		/* It was answered meanwhile: that answer is dropped. */
		portal_log(data, "oriel did not withdraw the prompt: %s",
			error->message ? error->message : error->name);
	}
	return 0;
}

/* Has oriel take the question down: its prompt, or its place in the queue. */
static void ask_withdraw(struct portal_ask *ask) {
	if (!ask->slot || ask->cookie == 0) {
		return;
	}
	/* A floating slot: the reply only logs, and the ask is gone by then. */
	int r = sd_bus_call_method_async(ask->portal->bus, NULL, ORIEL_BUS_NAME, ORIEL_PATH,
		ORIEL_IFACE_PERMISSION, "Withdraw", handle_withdraw_reply, ask->portal, "t",
		ask->cookie);
	if (r < 0) {
		portal_log(ask->portal, "cannot withdraw the prompt for '%s': %s", ask->app,
			strerror(-r));
	}
}

/*
 * Nobody waits for the answer any more: the frontend's call is cancelled,
 * and when withdraw, oriel's prompt goes too.
 */
static void ask_cancel(struct portal_ask *ask, const char *why, bool withdraw) {
	portal_log(ask->portal, "%s while the prompt for '%s' was up: cancelled", why,
		ask->app);
	portal_reply_response(ask->call, PORTAL_RESPONSE_CANCELLED);
	if (withdraw) {
		ask_withdraw(ask);
	}
	ask_free(ask);
}

static void handle_request_close(struct portal_request *request, void *data) {
	ask_cancel(data, "the request was closed", true);
}

static int handle_reply(sd_bus_message *reply, void *data, sd_bus_error *ret_error) {
	struct portal_ask *ask = data;
	struct portal *portal = ask->portal;
	int allowed = 0, remember = 0;
	const char *choice = "";
	const sd_bus_error *error = sd_bus_message_get_error(reply);
	if (error) {
		portal_log(portal, "the prompt failed, so it is a deny: %s",
			error->message ? error->message : error->name);
	} else if (sd_bus_message_read(reply, "bsb", &allowed, &choice, &remember) < 0) {
		portal_log(portal, "the prompt's answer is malformed, so it is a deny");
		allowed = 0;
		choice = "";
	}
	bool answered = false;
	if (!error && !allowed && monotonic_ms() + DEADLINE_SLACK_MS >= ask->deadline_ms) {
		portal_log(portal, "nobody answered the prompt for '%s' in time: denied",
			ask->app);
	} else if (!error) {
		portal_log(portal, "the person %s '%s'%s%s", allowed ? "allowed" : "denied",
			ask->app, allowed && choice[0] ? " with " : "", allowed ? choice : "");
		answered = true;
	}
	if (remember) {
		portal_log(portal, "the person asked to remember it%s",
			ask->persist_allowed ? "" : ", which was not offered: ignored");
	}
	/* choice lives in reply, which outlives this call. */
	struct portal_answer answer = {
		.allowed = allowed,
		.choice = allowed ? choice : "",
		.remember = allowed && remember && ask->persist_allowed,
		.app = ask->app,
		.request = &ask->request,
	};
	if (answered) {
		portal_recent_store(portal, ask->key, ask->kind, &answer);
	}
	/* Unlinked first: fn may destroy the session, which cancels its asks. */
	struct portal_session *session = ask->session;
	if (session) {
		session->ask = NULL;
		ask->session = NULL;
	}
	ask->fn(portal, ask->call, &answer, session);
	ask_free(ask);
	return 0;
}

int portal_permission_ask(struct portal *portal, const struct portal_question *q,
		const char *kind, const char *app, const char *key, bool persist_allowed,
		unsigned timeout_s, sd_bus_message *call, portal_decided_fn fn) {
	if (q->session && q->session->ask) {
		return -EBUSY;
	}
	uint32_t timeout_ms = timeout_s * 1000u;
	sd_bus_message *msg = NULL;
	int r = sd_bus_message_new_method_call(portal->bus, &msg, ORIEL_BUS_NAME, ORIEL_PATH,
		ORIEL_IFACE_PERMISSION, "Ask");
	r = r < 0 ? r : sd_bus_message_append(msg, "ss", app, kind);
	r = r < 0 ? r : sd_bus_message_open_container(msg, 'a', "(ss)");
	for (int i = 0; r >= 0 && q->sources && i < q->sources->n; i++) {
		r = sd_bus_message_append(msg, "(ss)", q->sources->ids[i], q->sources->labels[i]);
		portal_log(portal, "offering %s: %s", q->sources->ids[i], q->sources->labels[i]);
	}
	r = r < 0 ? r : sd_bus_message_close_container(msg);
	r = r < 0 ? r : sd_bus_message_append(msg, "bu", persist_allowed, timeout_ms);

	struct portal_ask *ask = calloc(1, sizeof(*ask));
	if (!ask) {
		r = -ENOMEM;
	}
	if (r >= 0) {
		ask->portal = portal;
		ask->next = portal->asks;
		portal->asks = ask;
		ask->app = strdup(app);
		ask->key = strdup(key);
		ask->kind = strdup(kind);
		ask->fn = fn;
		ask->persist_allowed = persist_allowed;
		ask->deadline_ms = monotonic_ms() +
			(timeout_ms ? timeout_ms : ORIEL_DEFAULT_TIMEOUT_MS);
		ask->call = sd_bus_message_ref(call);
		ask->request = portal_request_create(portal, q->request_handle);
		if (ask->request) {
			ask->request->on_close = handle_request_close;
			ask->request->close_data = ask;
		}
		r = ask->app && ask->key && ask->kind ? 0 : -ENOMEM;
	}
	if (r >= 0) {
		r = sd_bus_call_async(portal->bus, &ask->slot, msg, handle_reply, ask,
			timeout_ms * 1000ull + CALL_MARGIN_USEC);
	}
	if (r >= 0 && sd_bus_message_get_cookie(msg, &ask->cookie) < 0) {
		ask->cookie = 0; /* sent, but it cannot be withdrawn */
	}
	sd_bus_message_unref(msg);
	if (r < 0) {
		portal_log(portal, "cannot ask oriel's prompt: %s", strerror(-r));
		if (ask) {
			ask_free(ask);
		}
		return r;
	}
	if (q->session) {
		ask->session = q->session;
		q->session->ask = ask;
	}
	portal_log(portal, "%s%s: asking the person whether '%s' may %s",
		q->session ? "session " : "request ", q->session ? q->session->handle :
		q->request_handle, app, kind);
	return 0;
}

void portal_permission_cancel(struct portal *portal, struct portal_session *session) {
	struct portal_ask **p = &portal->asks;
	while (*p) {
		if (session && (*p)->session != session) {
			p = &(*p)->next;
			continue;
		}
		ask_cancel(*p, session ? "the session went" : "the backend stops",
			session != NULL);
	}
}
