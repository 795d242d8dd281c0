/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_MONITOR_LAYOUT_H
#define ORIEL_REMOTE_MONITOR_LAYOUT_H

/*
 * A remote client's monitor layout (RDP's Client Monitor Data and Display
 * Control), checked and put in oriel's order: the primary monitor first,
 * at 0,0, and the others where the client has them, relative to it. The
 * primary monitor is the served output; monitor i > 0 is the i-th output
 * made for monitors (see remote/rdp/rdp_layout.c). Pure: no wlroots.
 */

#include <stdbool.h>
#include <stddef.h>

/* Monitors a layout may have (RDP's limit). */
#define REMOTE_MONITORS_MAX 16

struct remote_monitor {
	int x, y;          /* the client's coordinates */
	int width, height;
	bool primary;
};

struct remote_monitor_layout {
	struct remote_monitor monitors[REMOTE_MONITORS_MAX]; /* primary first, at 0,0 */
	int count;
	/* The bounding box (the desktop), relative to the primary monitor. */
	int x, y, width, height;
};

/*
 * Checks count monitors as a client gives them (the first one flagged
 * primary is the primary; without a flag, the first) and fills layout.
 * Refused: no monitors or more than REMOTE_MONITORS_MAX, a monitor size
 * remote_desktop_size_allowed refuses, monitors that overlap, and a
 * bounding box larger than one REMOTE_DESKTOP_MAX_SIZE square holds (or a
 * side longer than twice that). False with why filled in.
 */
bool remote_monitor_layout_make(struct remote_monitor_layout *layout,
	const struct remote_monitor *monitors, int count, char *why, size_t why_size);

/* Whether two layouts have the same monitors, in the same order. */
bool remote_monitor_layout_equal(const struct remote_monitor_layout *a,
	const struct remote_monitor_layout *b);

/* What a client's layout does to the outputs. */
enum remote_layout_action {
	/* As with one monitor: only the served output takes a size. */
	REMOTE_LAYOUT_PRIMARY_ONLY,
	/* One output per monitor: made, reused, resized, placed or removed. */
	REMOTE_LAYOUT_OUTPUTS,
};

struct remote_layout_plan {
	enum remote_layout_action action;
	/* REMOTE_LAYOUT_OUTPUTS: of the outputs made for monitors before, */
	int reuse;  /* the first this many take monitors 2, 3, ... */
	int create; /* new outputs after them */
	int remove; /* the rest go */
};

/*
 * The rules. A client that never had several monitors (multi_client
 * false) and has one keeps the single-output behaviour. Several monitors
 * get one output each when outputs can be made (outputs_possible: the
 * headless backend), else the single-output behaviour. Once a client had
 * several monitors, its layouts are applied whole, one monitor included
 * (the outputs made for the others go). made is how many outputs were
 * made for monitors and still exist.
 */
struct remote_layout_plan remote_monitor_layout_plan(const struct remote_monitor_layout *layout,
	bool multi_client, bool outputs_possible, int made);

/*
 * The smallest box holding n boxes (x, y, width, height each, in an
 * array of 4n ints); 0x0 at 0,0 when n is 0.
 */
void remote_monitor_bounds(const int *boxes, int n, int *x, int *y, int *width,
	int *height);

#endif
