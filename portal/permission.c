/*
 * Asking the person at the session, when the policy says "ask": oriel
 * draws the prompt (org.oriel.Compositor.Permission.Ask) and answers once
 * the person does, so the portal request stays open meanwhile and is
 * answered from the reply's callback. The prompt names the app by its
 * app_id, or, for an unsandboxed caller (empty app_id), by the executable
 * of the bus connection that made the request: the frontend builds the
 * request handle from that connection's unique name, and the bus daemon
 * tells its pid.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "portal/portal.h"

#define ORIEL_IFACE_PERMISSION "org.oriel.Compositor.Permission"
/* The D-Bus call outlives the prompt's own timeout by this much. */
#define CALL_MARGIN_USEC (15ull * 1000 * 1000)

struct portal_ask {
	struct portal_session *session;
	struct portal_request *request; /* the frontend may Close it meanwhile */
	sd_bus_message *start;          /* answered by fn */
	sd_bus_slot *slot;              /* the pending Ask call */
	portal_ask_fn fn;
	char *app;
};

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

/* The executable of the request's caller, or NULL when it cannot be told. */
static char *caller_executable(struct portal *portal, const char *handle) {
	char name[256];
	if (!sender_of_request(handle, name, sizeof(name))) {
		return NULL;
	}
	sd_bus_creds *creds = NULL;
	pid_t pid = 0;
	if (sd_bus_get_name_creds(portal->bus, name, SD_BUS_CREDS_PID, &creds) < 0) {
		return NULL;
	}
	int r = sd_bus_creds_get_pid(creds, &pid);
	sd_bus_creds_unref(creds);
	if (r < 0 || pid <= 0) {
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

char *portal_app_label(struct portal_session *session, const char *request_handle) {
	if (session->app_id[0]) {
		return strdup(session->app_id);
	}
	char *exe = caller_executable(session->portal, request_handle);
	return exe ? exe : strdup("");
}

static void ask_free(struct portal_ask *ask) {
	if (ask->session && ask->session->ask == ask) {
		ask->session->ask = NULL;
	}
	sd_bus_slot_unref(ask->slot);
	sd_bus_message_unref(ask->start);
	portal_request_destroy(ask->request);
	free(ask->app);
	free(ask);
}

static int handle_reply(sd_bus_message *reply, void *data, sd_bus_error *ret_error) {
	struct portal_ask *ask = data;
	struct portal *portal = ask->session->portal;
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
	if (ask->request && ask->request->closed) {
		portal_log(portal, "the request was closed while the prompt was up");
		allowed = 0;
	}
	portal_log(portal, "session %s: the person %s%s%s", ask->session->handle,
		allowed ? "allowed " : "denied", allowed ? choice : "",
		remember ? " (remember)" : "");
	/* choice lives in reply, which outlives this call. */
	struct portal_answer answer = {
		.allowed = allowed,
		.choice = allowed ? choice : "",
		.remember = allowed && remember,
		.app = ask->app,
	};
	ask->fn(ask->session, ask->start, &answer);
	ask_free(ask);
	return 0;
}

int portal_permission_ask(struct portal_session *session, sd_bus_message *start,
		const char *request_handle, const char *kind, char *const *ids,
		char *const *labels, int n, bool persist_allowed, portal_ask_fn fn) {
	struct portal *portal = session->portal;
	if (session->ask) {
		return -EBUSY;
	}
	char *app = portal_app_label(session, request_handle);
	uint32_t timeout_ms = portal->policy.prompt_timeout_s * 1000u;

	sd_bus_message *call = NULL;
	int r = sd_bus_message_new_method_call(portal->bus, &call, ORIEL_BUS_NAME, ORIEL_PATH,
		ORIEL_IFACE_PERMISSION, "Ask");
	r = r < 0 ? r : sd_bus_message_append(call, "ss", app, kind);
	r = r < 0 ? r : sd_bus_message_open_container(call, 'a', "(ss)");
	for (int i = 0; r >= 0 && i < n; i++) {
		r = sd_bus_message_append(call, "(ss)", ids[i], labels[i]);
	}
	r = r < 0 ? r : sd_bus_message_close_container(call);
	r = r < 0 ? r : sd_bus_message_append(call, "bu", persist_allowed, timeout_ms);

	struct portal_ask *ask = calloc(1, sizeof(*ask));
	if (!ask) {
		r = -ENOMEM;
	}
	if (r >= 0) {
		ask->app = app;
		app = NULL;
		ask->session = session;
		ask->fn = fn;
		ask->start = sd_bus_message_ref(start);
		ask->request = portal_request_create(portal, request_handle);
		r = sd_bus_call_async(portal->bus, &ask->slot, call, handle_reply, ask,
			timeout_ms * 1000ull + CALL_MARGIN_USEC);
	}
	sd_bus_message_unref(call);
	if (r < 0) {
		portal_log(portal, "cannot ask oriel's prompt: %s", strerror(-r));
		if (ask) {
			ask_free(ask);
		}
		free(app);
		return r;
	}
	session->ask = ask;
	portal_log(portal, "session %s: asking the person whether '%s' may %s",
		session->handle, ask->app, kind);
	return 1;
}

void portal_permission_cancel(struct portal_session *session) {
	struct portal_ask *ask = session->ask;
	if (!ask) {
		return;
	}
	/* The Start still waits for its answer: the session is gone, so no. */
	sd_bus_reply_method_return(ask->start, "ua{sv}", (uint32_t)PORTAL_RESPONSE_CANCELLED, 0);
	ask_free(ask);
}
