/* SPDX-License-Identifier: MIT */
/*
 * What a screen cast may show, among the source types the app selected:
 * oriel's outputs (monitor), its windows (window) and a new virtual
 * output (virtual). Each source has one word, the one grants.h stores
 * and the prompt answers with: "monitor:OUTPUT", "window:ID" or
 * "virtual". The person picks one in the prompt; without a person the
 * policy does: monitors first (the first, or every one when the app
 * asked for multiple), then a window by the policy's window rule, then a
 * virtual screen.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

#define MONITOR_PREFIX "monitor:"
#define WINDOW_PREFIX "window:"
#define VIRTUAL_WORD "virtual"
/* Longest title shown in the prompt, in bytes. */
#define TITLE_MAX_BYTES 120

int portal_catalog_load(struct portal *portal, uint32_t types, struct portal_catalog *cat,
		sd_bus_error *error) {
	*cat = (struct portal_catalog){ .types = types };
	int r = 0;
	if (types & PORTAL_SOURCE_MONITOR) {
		r = portal_list_outputs(portal, &cat->outputs, &cat->n_outputs, error);
	}
	if (r >= 0 && (types & PORTAL_SOURCE_WINDOW)) {
		r = portal_list_windows(portal, &cat->windows, &cat->n_windows, error);
	}
	if (r < 0) {
		portal_catalog_finish(cat);
	}
	return r;
}

void portal_catalog_finish(struct portal_catalog *cat) {
	portal_outputs_free(cat->outputs, cat->n_outputs);
	portal_windows_free(cat->windows, cat->n_windows);
	*cat = (struct portal_catalog){0};
}

void portal_target_finish(struct portal_target *t) {
	free(t->source);
	free(t->name);
	*t = (struct portal_target){0};
}

void portal_targets_free(struct portal_target *targets, int n) {
	for (int i = 0; i < n; i++) {
		portal_target_finish(&targets[i]);
	}
	free(targets);
}

/* 0, or -ENOMEM with t emptied. */
static int target_made(struct portal_target *t) {
	if (t->source && t->name) {
		return 0;
	}
	portal_target_finish(t);
	return -ENOMEM;
}

static int output_target(const struct portal_output *o, struct portal_target *t) {
	*t = (struct portal_target){ PORTAL_SOURCE_MONITOR, NULL, strdup(o->name), 0,
		o->x, o->y, o->width, o->height };
	if (asprintf(&t->source, MONITOR_PREFIX "%s", o->name) < 0) {
		t->source = NULL;
	}
	return target_made(t);
}

static int window_target(const struct portal_window *w, struct portal_target *t) {
	*t = (struct portal_target){ PORTAL_SOURCE_WINDOW, NULL, strdup(w->title), w->id,
		w->x, w->y, w->width, w->height };
	if (asprintf(&t->source, WINDOW_PREFIX "%" PRIu64, w->id) < 0) {
		t->source = NULL;
	}
	return target_made(t);
}

static int virtual_target(struct portal_target *t) {
	*t = (struct portal_target){ PORTAL_SOURCE_VIRTUAL, strdup(VIRTUAL_WORD), strdup(""), 0,
		0, 0, PORTAL_VIRTUAL_WIDTH, PORTAL_VIRTUAL_HEIGHT };
	return target_made(t);
}

static const struct portal_window *focused_window(const struct portal_catalog *cat) {
	for (int i = 0; i < cat->n_windows; i++) {
		if (cat->windows[i].focused && !cat->windows[i].minimized) {
			return &cat->windows[i];
		}
	}
	return NULL;
}

bool portal_catalog_target(const struct portal_catalog *cat, const char *source,
		struct portal_target *out) {
	const size_t mp = strlen(MONITOR_PREFIX), wp = strlen(WINDOW_PREFIX);
	if (!strncmp(source, MONITOR_PREFIX, mp)) {
		const struct portal_output *o =
			portal_output_find(cat->outputs, cat->n_outputs, source + mp);
		return o && output_target(o, out) == 0;
	}
	if (!strncmp(source, WINDOW_PREFIX, wp) && (cat->types & PORTAL_SOURCE_WINDOW)) {
		char *end = NULL;
		uint64_t id = strtoull(source + wp, &end, 10);
		for (int i = 0; source[wp] && !*end && i < cat->n_windows; i++) {
			if (cat->windows[i].id == id) {
				return window_target(&cat->windows[i], out) == 0;
			}
		}
		return false;
	}
	if (!strcmp(source, VIRTUAL_WORD) && (cat->types & PORTAL_SOURCE_VIRTUAL)) {
		return virtual_target(out) == 0;
	}
	return false;
}

int portal_catalog_pick(const struct portal_catalog *cat, const char *choice, bool multiple,
		enum portal_window_rule rule, struct portal_target **targets, int *n_targets) {
	int cap = cat->n_outputs > 0 ? cat->n_outputs : 1;
	struct portal_target *list = calloc(cap, sizeof(*list));
	if (!list) {
		return -ENOMEM;
	}
	int n = 0, r = 0;
	if (choice && choice[0]) {
		n = portal_catalog_target(cat, choice, &list[0]) ? 1 : 0;
	} else if (cat->n_outputs > 0) {
		for (int i = 0; r >= 0 && i < (multiple ? cat->n_outputs : 1); i++) {
			r = output_target(&cat->outputs[i], &list[n]);
			n += r >= 0;
		}
	} else if (cat->types & PORTAL_SOURCE_WINDOW) {
		const struct portal_window *w = rule == PORTAL_WINDOW_FOCUSED ?
			focused_window(cat) : NULL;
		if (w) {
			r = window_target(w, &list[n]);
			n += r >= 0;
		}
	} else if (cat->types & PORTAL_SOURCE_VIRTUAL) {
		r = virtual_target(&list[n]);
		n += r >= 0;
	}
	if (r < 0) {
		portal_targets_free(list, n);
		return r;
	}
	*targets = list;
	*n_targets = n;
	return 0;
}

/* title cut to at most max bytes, at a UTF-8 character boundary. */
static int cut_utf8(const char *title, int max) {
	int len = (int)strlen(title);
	if (len <= max) {
		return len;
	}
	while (max > 0 && ((unsigned char)title[max] & 0xc0) == 0x80) {
		max--;
	}
	return max;
}

/* Whether pid is ancestor or one of its descendants (by /proc's parent links). */
static bool descends_from(pid_t pid, pid_t ancestor) {
	for (int depth = 0; pid > 1 && depth < 64; depth++) {
		if (pid == ancestor) {
			return true;
		}
		char path[64], stat[512];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		FILE *f = fopen(path, "re");
		if (!f) {
			return false;
		}
		size_t len = fread(stat, 1, sizeof(stat) - 1, f);
		fclose(f);
		stat[len] = '\0';
		const char *paren = strrchr(stat, ')');
		int ppid;
		if (!paren || sscanf(paren + 1, " %*c %d", &ppid) != 1) {
			return false;
		}
		pid = ppid;
	}
	return false;
}

/* A window of the app that asks: its process or one the app started. */
static bool is_callers(const struct portal_catalog *cat, const struct portal_window *w) {
	return cat->caller_pid > 0 && w->pid > 0 && descends_from(w->pid, cat->caller_pid);
}

static int add_source(struct portal_sources *sources, char *id, char *label) {
	sources->ids[sources->n] = id;
	sources->labels[sources->n] = label;
	sources->n++;
	return id && label ? 0 : -ENOMEM;
}

int portal_catalog_sources(const struct portal_catalog *cat, struct portal_sources *sources) {
	*sources = (struct portal_sources){0};
	sources->ids = calloc(PORTAL_PROMPT_MAX_SOURCES, sizeof(char *));
	sources->labels = calloc(PORTAL_PROMPT_MAX_SOURCES, sizeof(char *));
	if (!sources->ids || !sources->labels) {
		portal_sources_finish(sources);
		return -ENOMEM;
	}
	int r = 0;
	char *id, *label;
	for (int i = 0; r >= 0 && i < cat->n_outputs && sources->n < PORTAL_PROMPT_MAX_SOURCES; i++) {
		const struct portal_output *o = &cat->outputs[i];
		if (asprintf(&id, MONITOR_PREFIX "%s", o->name) < 0) {
			id = NULL;
		}
		if (asprintf(&label, "Screen %s (%ux%u)", o->name, o->width, o->height) < 0) {
			label = NULL;
		}
		r = add_source(sources, id, label);
	}
	if (r >= 0 && (cat->types & PORTAL_SOURCE_VIRTUAL) && sources->n < PORTAL_PROMPT_MAX_SOURCES) {
		if (asprintf(&label, "A new virtual screen (%ux%u)", PORTAL_VIRTUAL_WIDTH,
				PORTAL_VIRTUAL_HEIGHT) < 0) {
			label = NULL;
		}
		r = add_source(sources, strdup(VIRTUAL_WORD), label);
	}
	/*
	 * Windows: the focused one first (it is preselected), then top to
	 * bottom, and the app's own windows (its sharing bar too) last, so
	 * that none of them is ever preselected.
	 */
	const struct portal_window *focused = focused_window(cat);
	if (focused && is_callers(cat, focused)) {
		focused = NULL;
	}
	for (int pass = 0; pass < 2; pass++)
	for (int i = cat->n_windows; r >= 0 && i >= 0 && sources->n < PORTAL_PROMPT_MAX_SOURCES; i--) {
		const struct portal_window *w = i == cat->n_windows ? focused : &cat->windows[i];
		if (!w || (i < cat->n_windows && w == focused) ||
				(i == cat->n_windows && pass == 1) || is_callers(cat, w) != (pass == 1)) {
			continue;
		}
		if (asprintf(&id, WINDOW_PREFIX "%" PRIu64, w->id) < 0) {
			id = NULL;
		}
		const char *title = w->title[0] ? w->title : w->app_id;
		if (asprintf(&label, "Window: %.*s (%ux%u)", cut_utf8(title, TITLE_MAX_BYTES),
				title, w->width, w->height) < 0) {
			label = NULL;
		}
		r = add_source(sources, id, label);
	}
	if (r < 0) {
		portal_sources_finish(sources);
	}
	return r;
}

const char *portal_catalog_prompt_kind(const struct portal_catalog *cat) {
	return cat->types == PORTAL_SOURCE_WINDOW ? "window" : "screencast";
}

char **portal_catalog_existing(const struct portal_catalog *cat) {
	char **list = calloc(cat->n_outputs + cat->n_windows + 2, sizeof(*list));
	int n = 0;
	bool ok = list != NULL;
	for (int i = 0; ok && i < cat->n_outputs; i++) {
		ok = asprintf(&list[n], MONITOR_PREFIX "%s", cat->outputs[i].name) >= 0;
		list[n] = ok ? list[n] : NULL;
		n++;
	}
	for (int i = 0; ok && i < cat->n_windows; i++) {
		ok = asprintf(&list[n], WINDOW_PREFIX "%" PRIu64, cat->windows[i].id) >= 0;
		list[n] = ok ? list[n] : NULL;
		n++;
	}
	if (ok && (cat->types & PORTAL_SOURCE_VIRTUAL)) {
		ok = (list[n++] = strdup(VIRTUAL_WORD)) != NULL;
	}
	if (!ok) {
		portal_strv_free(list);
		return NULL;
	}
	return list;
}

void portal_strv_free(char **list) {
	for (int i = 0; list && list[i]; i++) {
		free(list[i]);
	}
	free(list);
}
