/*
 * The sharing indicator follows the control API's casts and remote
 * control sessions: while any is live, the badge (share_indicator.h) says
 * what is shared with whom, and a click on it ends them all, as
 * Casts.Stop would (Closed and SessionClosed are emitted, so the portal
 * closes its sessions).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compositor/control_private.h"
#include "compositor/server.h"
#include "compositor/share_indicator.h"
#include "compositor/util.h"
#include "compositor/view.h"

#define TEXT_MAX 512

struct share_text {
	struct control *control;
	char text[TEXT_MAX];
	int n;
};

/* "HEADLESS-1", the window's title for "window:ID", or the region as is. */
static void describe_source(struct control *control, const char *source, char *out,
		size_t size) {
	uint64_t id;
	if (sscanf(source, "window:%" SCNu64, &id) == 1) {
		struct view *view = view_from_id(control->server, id);
		const char *title = view && view->impl->get_title ?
			view->impl->get_title(view) : NULL;
		if (title && title[0]) {
			snprintf(out, size, "the window \"%s\"", title);
			return;
		}
	}
	snprintf(out, size, "%s", source);
}

static void add_cast(const char *source, const char *client, void *data) {
	struct share_text *t = data;
	char what[128];
	describe_source(t->control, source, what, sizeof(what));
	size_t used = strlen(t->text);
	snprintf(t->text + used, sizeof(t->text) - used, "%s%s with %s",
		t->n == 0 ? "Sharing " : ", ", what, client);
	t->n++;
}

static void add_remote(const char *client, void *data) {
	struct share_text *t = data;
	size_t used = strlen(t->text);
	snprintf(t->text + used, sizeof(t->text) - used, "%s%s", t->n == 0 ?
		"Remote control by " : ", remote control by ", client);
	t->n++;
}

static void handle_stop(void *data) {
	struct control *control = data;
	control_casts_stop_all(control, "stopped from the sharing indicator");
	control_remote_stop_all(control);
}

void control_share_update(struct control *control) {
	struct share_text t = { .control = control };
	control_casts_for_each(control, add_cast, &t);
	control_remote_for_each(control, add_remote, &t);
	if (t.n == 0 && !control->server->share_indicator) {
		return;
	}
	if (!control->server->share_indicator) {
		share_indicator_create(control->server, handle_stop, control);
	}
	if (t.n > 0) {
		size_t used = strlen(t.text);
		snprintf(t.text + used, sizeof(t.text) - used, " - click to stop");
	}
	share_indicator_set_text(control->server->share_indicator, t.n > 0 ? t.text : NULL);
}

void control_share_finish(struct control *control) {
	share_indicator_destroy(control->server->share_indicator);
}
