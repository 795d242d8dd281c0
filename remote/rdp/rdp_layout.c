/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "remote/desktop_size.h"
#include "remote/monitor_layout.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/virtual_output.h"

/*
 * A client's monitors as outputs. A client with several monitors (Client
 * Monitor Data at connection, Display Control later) gets one output per
 * monitor: the served (primary) output takes the primary monitor's size,
 * and headless outputs RDP-N, made here, take the others', each placed in
 * the layout where the client has the monitor, relative to the primary;
 * the layout's top left corner is where the desktop's was (a monitor
 * left of the primary moves the primary right).
 * The rules are remote_monitor_layout_plan's: a client with one monitor
 * only sizes the primary output, as before; the outputs made stay when
 * their client goes (a client that comes back finds the session as it
 * left it), and the next layout of several monitors reuses, resizes and
 * moves them, or removes those it does not need. Only the headless
 * backend makes outputs; on others a client gets the single output. A
 * layout that breaks the limits (remote_monitor_layout_make) is refused
 * for that client, which gets the desktop as it is.
 */

/* Forgets the outputs made for monitors that went away by other means. */
static int made_outputs(struct rdp_server *rdp) {
	int n = 0;
	for (int i = 0; i < rdp->n_monitor_outputs; i++) {
		if (virtual_output_get(rdp->monitor_outputs[i])) {
			rdp->monitor_outputs[n++] = rdp->monitor_outputs[i];
		} else {
			virtual_output_destroy(rdp->monitor_outputs[i]);
		}
	}
	rdp->n_monitor_outputs = n;
	return n;
}

/* The single-output behaviour: the primary output takes the size. */
static void resize_primary(struct rdp_server *rdp, struct rdp_peer *peer, int width,
		int height, bool at_logon) {
	struct output *primary = rdp->primary;
	if (!primary || width <= 0 || height <= 0 ||
			(width == primary->wlr_output->width && height == primary->wlr_output->height)) {
		return;
	}
	if (!remote_desktop_size_allowed(width, height)) {
		wlr_log(WLR_INFO, "RDP: %s asked for %dx%d: refused", peer->host, width, height);
		return;
	}
	if (at_logon) {
		if (output_set_size(primary, width, height)) {
			wlr_log(WLR_INFO, "RDP: %s asked for %dx%d: the output follows", peer->host,
				width, height);
		}
		return;
	}
	wlr_log(WLR_INFO, "RDP: %s resizes %s to %dx%d", peer->host,
		primary->wlr_output->name, width, height);
	/* The new size reaches every client through outputs_changed. */
	output_set_size(primary, width, height);
}

static void describe(struct rdp_server *rdp, char *text, size_t size) {
	size_t used = 0;
	text[0] = '\0';
	for (int i = 0; i < rdp->n_screens && used < size; i++) {
		const struct rdp_screen *screen = rdp->screens[i];
		int n = snprintf(text + used, size - used, "%s%s %dx%d%+d%+d", i ? ", " : "",
			screen->output->wlr_output->name, screen->width, screen->height,
			screen->layout_x, screen->layout_y);
		used += n > 0 ? (size_t)n : 0;
	}
}

/* One output per monitor, the primary output where it is. */
static void apply_outputs(struct rdp_server *rdp, struct rdp_peer *peer,
		const struct remote_monitor_layout *layout, const struct remote_layout_plan *plan,
		const char *via) {
	struct output *primary = rdp->primary;
	/*
	 * The layout's top left corner goes where the desktop's is, so that
	 * monitors left of or above the primary do not lie at negative
	 * coordinates, beyond what X apps reach (the root window starts at 0,0).
	 */
	int base_x = rdp->desktop_x - layout->x, base_y = rdp->desktop_y - layout->y;
	rdp->applying_layout = true;
	/* Placed, not automatic: the outputs made are placed against it. */
	output_place(primary, base_x, base_y);
	output_set_size(primary, layout->monitors[0].width, layout->monitors[0].height);
	int used = plan->reuse;
	for (int i = 0; i < plan->create; i++) {
		const struct remote_monitor *m = &layout->monitors[1 + used];
		struct virtual_output *made = virtual_output_create_named(rdp->server, "RDP",
			m->width, m->height);
		if (!made) {
			wlr_log(WLR_ERROR, "RDP: %s: cannot make an output for monitor %d",
				peer->host, 2 + used);
			break;
		}
		/* New ones only when all made before are reused: they go last. */
		rdp->monitor_outputs[rdp->n_monitor_outputs++] = made;
		used++;
	}
	for (int i = 0; i < used; i++) {
		const struct remote_monitor *m = &layout->monitors[1 + i];
		struct output *output = virtual_output_get(rdp->monitor_outputs[i]);
		output_set_size(output, m->width, m->height);
		output_place(output, base_x + m->x, base_y + m->y);
	}
	/* Last: the windows on them gather onto outputs already in place. */
	while (rdp->n_monitor_outputs > used) {
		virtual_output_destroy(rdp->monitor_outputs[--rdp->n_monitor_outputs]);
	}
	rdp->applying_layout = false;
	rdp_server_update_desktop(rdp);
	char outputs[512];
	describe(rdp, outputs, sizeof(outputs));
	wlr_log(WLR_INFO, "RDP: %s has %d monitors (%s): %s", peer->host, layout->count, via,
		outputs);
}

/*
 * A client's layout: count monitors as it gives them. single_width and
 * single_height: the size the primary output takes in the single-output
 * behaviour.
 */
static void apply(struct rdp_server *rdp, struct rdp_peer *peer,
		const struct remote_monitor *monitors, int count, int single_width,
		int single_height, bool at_logon) {
	const char *via = at_logon ? "at logon" : "Display Control";
	struct remote_monitor_layout layout;
	char why[128];
	if (!remote_monitor_layout_make(&layout, monitors, count, why, sizeof(why))) {
		wlr_log(WLR_INFO, "RDP: %s: monitor layout refused (%s): %s; it gets the desktop "
			"as it is", peer->host, via, why);
		return;
	}
	bool possible = rdp->server->headless && rdp->primary && !peer->view_only;
	struct remote_layout_plan plan = remote_monitor_layout_plan(&layout, peer->multimon,
		possible, made_outputs(rdp));
	if (plan.action == REMOTE_LAYOUT_PRIMARY_ONLY) {
		if (layout.count > 1) {
			wlr_log(WLR_INFO, "RDP: %s has %d monitors (%s): %s, so it gets one output",
				peer->host, layout.count, via, peer->view_only ? "it is view-only" :
				"outputs for monitors need the headless backend");
		}
		resize_primary(rdp, peer, single_width, single_height, at_logon);
		return;
	}
	peer->multimon = true;
	apply_outputs(rdp, peer, &layout, &plan, via);
}

void rdp_layout_offer(const struct rdp_peer *peer, uint32_t *width, uint32_t *height) {
	const rdpSettings *settings = peer->client->settings;
	*width = peer->offered_width;
	*height = peer->offered_height;
	if (!peer->first_session) {
		return;
	}
	UINT32 count = settings->MonitorCount;
	if (count > 1 && count <= REMOTE_MONITORS_MAX && settings->MonitorDefArray &&
			peer->outputs_possible) {
		struct remote_monitor monitors[REMOTE_MONITORS_MAX];
		for (UINT32 i = 0; i < count; i++) {
			const rdpMonitor *m = &settings->MonitorDefArray[i];
			monitors[i] = (struct remote_monitor){ m->x, m->y, m->width, m->height,
				m->is_primary != 0 };
		}
		struct remote_monitor_layout layout;
		char why[128];
		if (remote_monitor_layout_make(&layout, monitors, (int)count, why, sizeof(why))) {
			*width = (uint32_t)layout.width;
			*height = (uint32_t)layout.height;
		}
		return;
	}
	int w = (int)peer->requested_width, h = (int)peer->requested_height;
	if (w > 0 && h > 0 && remote_desktop_size_allowed(w, h)) {
		*width = (uint32_t)w;
		*height = (uint32_t)h;
	}
}

void rdp_server_session_started(struct rdp_server *rdp, struct rdp_peer *peer) {
	rdpSettings *settings = peer->client->settings;
	/* The first client sizes the outputs; later ones see them as they are. */
	if (rdp->n_sessions > 1) {
		if (settings->MonitorCount > 1) {
			wlr_log(WLR_INFO, "RDP: %s has %u monitors, but another session has the "
				"outputs: it gets the desktop as it is", peer->host,
				settings->MonitorCount);
		}
		return;
	}
	int width = (int)peer->requested_width, height = (int)peer->requested_height;
	struct remote_monitor monitors[REMOTE_MONITORS_MAX + 1];
	UINT32 count = settings->MonitorCount;
	if (count <= 1 || !settings->MonitorDefArray) {
		monitors[0] = (struct remote_monitor){ 0, 0, width, height, true };
		count = 1;
	} else {
		/* FreeRDP keeps at most 16 (more fail the connection). */
		count = count > REMOTE_MONITORS_MAX + 1 ? REMOTE_MONITORS_MAX + 1 : count;
		for (UINT32 i = 0; i < count; i++) {
			const rdpMonitor *m = &settings->MonitorDefArray[i];
			monitors[i] = (struct remote_monitor){ m->x, m->y, m->width, m->height,
				m->is_primary != 0 };
		}
	}
	apply(rdp, peer, monitors, (int)count, width, height, true);
}

void rdp_layout_requested(struct rdp_peer *peer, const struct remote_monitor *monitors,
		int count) {
	if (peer->view_only || count < 1) {
		return;
	}
	const struct remote_monitor *primary = &monitors[0];
	for (int i = count - 1; i >= 0; i--) {
		if (monitors[i].primary) {
			primary = &monitors[i];
		}
	}
	apply(peer->rdp, peer, monitors, count, primary->width, primary->height, false);
}

void rdp_layout_finish(struct rdp_server *rdp) {
	while (rdp->n_monitor_outputs > 0) {
		virtual_output_destroy(rdp->monitor_outputs[--rdp->n_monitor_outputs]);
	}
}
