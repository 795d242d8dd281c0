/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include "remote/desktop_size.h"
#include "remote/monitor_layout.h"

/* Coordinates further out than this are refused before any arithmetic. */
#define MAX_COORDINATE (4 * REMOTE_DESKTOP_MAX_SIZE)

static bool overlap(const struct remote_monitor *a, const struct remote_monitor *b) {
	return a->x < b->x + b->width && b->x < a->x + a->width &&
		a->y < b->y + b->height && b->y < a->y + a->height;
}

bool remote_monitor_layout_make(struct remote_monitor_layout *layout,
		const struct remote_monitor *monitors, int count, char *why, size_t why_size) {
	if (count < 1 || count > REMOTE_MONITORS_MAX) {
		snprintf(why, why_size, "%d monitors (1 to %d may be)", count, REMOTE_MONITORS_MAX);
		return false;
	}
	int primary = 0;
	for (int i = count - 1; i >= 0; i--) {
		if (monitors[i].primary) {
			primary = i;
		}
	}
	for (int i = 0; i < count; i++) {
		const struct remote_monitor *m = &monitors[i];
		if (!remote_desktop_size_allowed(m->width, m->height)) {
			snprintf(why, why_size, "monitor %d is %dx%d (1 to %d a side may be)", i + 1,
				m->width, m->height, REMOTE_DESKTOP_MAX_SIZE);
			return false;
		}
		if (m->x < -MAX_COORDINATE || m->x > MAX_COORDINATE ||
				m->y < -MAX_COORDINATE || m->y > MAX_COORDINATE) {
			snprintf(why, why_size, "monitor %d is at %d,%d, too far out", i + 1, m->x, m->y);
			return false;
		}
		for (int j = 0; j < i; j++) {
			if (overlap(m, &monitors[j])) {
				snprintf(why, why_size, "monitors %d and %d overlap", j + 1, i + 1);
				return false;
			}
		}
	}
	/* The primary first, then the others in the client's order. */
	const struct remote_monitor *base = &monitors[primary];
	layout->count = 0;
	int boxes[4 * REMOTE_MONITORS_MAX];
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < count; i++) {
			if ((i == primary) != (pass == 0)) {
				continue;
			}
			struct remote_monitor *m = &layout->monitors[layout->count];
			*m = monitors[i];
			m->x -= base->x;
			m->y -= base->y;
			m->primary = i == primary;
			int *box = &boxes[4 * layout->count++];
			box[0] = m->x;
			box[1] = m->y;
			box[2] = m->width;
			box[3] = m->height;
		}
	}
	remote_monitor_bounds(boxes, layout->count, &layout->x, &layout->y, &layout->width,
		&layout->height);
	int64_t area = (int64_t)layout->width * layout->height;
	if (layout->width > 2 * REMOTE_DESKTOP_MAX_SIZE ||
			layout->height > 2 * REMOTE_DESKTOP_MAX_SIZE ||
			area > (int64_t)REMOTE_DESKTOP_MAX_SIZE * REMOTE_DESKTOP_MAX_SIZE) {
		snprintf(why, why_size, "the monitors span %dx%d (at most %dx%d pixels, %d a side)",
			layout->width, layout->height, REMOTE_DESKTOP_MAX_SIZE,
			REMOTE_DESKTOP_MAX_SIZE, 2 * REMOTE_DESKTOP_MAX_SIZE);
		return false;
	}
	return true;
}

bool remote_monitor_layout_equal(const struct remote_monitor_layout *a,
		const struct remote_monitor_layout *b) {
	if (a->count != b->count) {
		return false;
	}
	for (int i = 0; i < a->count; i++) {
		const struct remote_monitor *m = &a->monitors[i], *n = &b->monitors[i];
		if (m->x != n->x || m->y != n->y || m->width != n->width ||
				m->height != n->height) {
			return false;
		}
	}
	return true;
}

struct remote_layout_plan remote_monitor_layout_plan(const struct remote_monitor_layout *layout,
		bool multi_client, bool outputs_possible, int made) {
	struct remote_layout_plan plan = { .action = REMOTE_LAYOUT_PRIMARY_ONLY };
	if (!outputs_possible || (layout->count == 1 && !multi_client)) {
		return plan;
	}
	int others = layout->count - 1;
	plan.action = REMOTE_LAYOUT_OUTPUTS;
	plan.reuse = made < others ? made : others;
	plan.create = others - plan.reuse;
	plan.remove = made - plan.reuse;
	return plan;
}

void remote_monitor_bounds(const int *boxes, int n, int *x, int *y, int *width,
		int *height) {
	if (n <= 0) {
		*x = *y = *width = *height = 0;
		return;
	}
	int x1 = boxes[0], y1 = boxes[1];
	int x2 = boxes[0] + boxes[2], y2 = boxes[1] + boxes[3];
	for (int i = 1; i < n; i++) {
		const int *b = &boxes[4 * i];
		x1 = b[0] < x1 ? b[0] : x1;
		y1 = b[1] < y1 ? b[1] : y1;
		x2 = b[0] + b[2] > x2 ? b[0] + b[2] : x2;
		y2 = b[1] + b[3] > y2 ? b[1] + b[3] : y2;
	}
	*x = x1;
	*y = y1;
	*width = x2 - x1;
	*height = y2 - y1;
}
