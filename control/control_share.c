/* SPDX-License-Identifier: MIT */
/*
 * The sharing indicator follows the control API's casts and remote
 * control sessions: while any is live, the badge (share_indicator.h) says
 * what is shared with whom, and a click on it ends them all, as
 * Casts.Stop would (Closed and SessionClosed are emitted, so the portal
 * closes its sessions). A screenshot taken for an app shows for a few
 * seconds (it is over once taken; the notice says it happened).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "control/control_private.h"
#include "compositor/server.h"
#include "compositor/share_indicator.h"
#include "common/util.h"
#include "compositor/view.h"

#define TEXT_MAX 512
#define DEFAULT_SCREENSHOT_NOTICE_S 3

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

static void clear_screenshot_notice(struct control *control) {
	free(control->screenshot_client);
	control->screenshot_client = NULL;
	if (control->screenshot_timer) {
		wl_event_source_remove(control->screenshot_timer);
		control->screenshot_timer = NULL;
	}
}

static int handle_screenshot_notice_over(void *data) {
	struct control *control = data;
	clear_screenshot_notice(control);
	control_share_update(control);
	return 0;
}

void control_share_screenshot_taken(struct control *control, const char *client) {
	int seconds = control->server->options->config.screenshot_notice;
	seconds = seconds < 0 ? DEFAULT_SCREENSHOT_NOTICE_S : seconds;
	if (seconds == 0) {
		return;
	}
	free(control->screenshot_client);
	control->screenshot_client = xstrdup(client);
	if (!control->screenshot_timer) {
		control->screenshot_timer = wl_event_loop_add_timer(control->server->loop,
			handle_screenshot_notice_over, control);
	}
	if (control->screenshot_timer) {
		wl_event_source_timer_update(control->screenshot_timer, seconds * 1000);
	}
	control_share_update(control);
}

static void handle_stop(void *data) {
	struct control *control = data;
	clear_screenshot_notice(control);
	control_casts_stop_all(control, "stopped from the sharing indicator");
	control_remote_stop_all(control);
}

void control_share_update(struct control *control) {
	struct share_text t = { .control = control };
	control_casts_for_each(control, add_cast, &t);
	control_remote_for_each(control, add_remote, &t);
	bool stoppable = t.n > 0;
	if (control->screenshot_client) {
		size_t used = strlen(t.text);
		snprintf(t.text + used, sizeof(t.text) - used, "%sScreenshot taken by %s",
			t.n == 0 ? "" : "; ", control->screenshot_client);
		t.n++;
	}
	if (t.n == 0 && !control->server->share_indicator) {
		return;
	}
	if (!control->server->share_indicator) {
		share_indicator_create(control->server, handle_stop, control);
	}
	/* The hint stays whole: what is shared, and with whom, is shortened. */
	share_indicator_set_text(control->server->share_indicator, t.n > 0 ? t.text : NULL,
		stoppable ? "click to stop" : NULL);
}

void control_share_finish(struct control *control) {
	clear_screenshot_notice(control);
	share_indicator_destroy(control->server->share_indicator);
}
