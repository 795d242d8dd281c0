/* SPDX-License-Identifier: MIT */
/* orielctl: outputs, windows and screenshots. */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/orielctl.h"

struct output_info {
	const char *name;
	uint32_t width, height, refresh;
	int32_t x, y;
	double scale;
};

/* Reads the next (suuuiid) of an Outputs.List reply: 1, 0 at the end, or <0. */
static int read_output(sd_bus_message *reply, struct output_info *o) {
	return sd_bus_message_read(reply, "(suuuiid)", &o->name, &o->width, &o->height,
		&o->refresh, &o->x, &o->y, &o->scale);
}

int ctl_cmd_outputs(struct ctl *ctl) {
	sd_bus_message *reply = NULL;
	if (!ctl_call(ctl, CTL_IFACE_OUTPUTS, "List", &reply, "")) {
		return CTL_EXIT_FAILURE;
	}
	int r = sd_bus_message_enter_container(reply, 'a', "(suuuiid)");
	struct ctl_table table;
	ctl_table_init(&table, 5);
	if (!ctl->json) {
		ctl_table_add_row(&table, "NAME", "SIZE", "REFRESH", "POSITION", "SCALE");
	} else {
		putchar('[');
	}
	struct output_info o;
	bool first = true;
	while (r >= 0 && (r = read_output(reply, &o)) > 0) {
		if (ctl->json) {
			printf("%s{\"name\":", first ? "" : ",");
			ctl_json_string(stdout, o.name);
			printf(",\"width\":%" PRIu32 ",\"height\":%" PRIu32 ",\"refresh\":%" PRIu32
				",\"x\":%" PRId32 ",\"y\":%" PRId32 ",\"scale\":", o.width, o.height,
				o.refresh, o.x, o.y);
			ctl_json_double(stdout, o.scale);
			putchar('}');
		} else {
			char *size = ctl_asprintf("%" PRIu32 "x%" PRIu32, o.width, o.height);
			char *refresh = ctl_asprintf("%.3f Hz", o.refresh / 1000.0);
			char *pos = ctl_asprintf("%" PRId32 ",%" PRId32, o.x, o.y);
			char *scale = ctl_asprintf("%g", o.scale);
			ctl_table_add_row(&table, o.name, size, refresh, pos, scale);
			free(size);
			free(refresh);
			free(pos);
			free(scale);
		}
		first = false;
	}
	if (ctl->json) {
		puts("]");
	}
	ctl_table_print(&table, stdout);
	sd_bus_message_unref(reply);
	return r < 0 ? ctl_bad_reply("Outputs.List", r) : CTL_EXIT_OK;
}

int ctl_cmd_output_size(struct ctl *ctl) {
	uint32_t width, height;
	if (!ctl_parse_size(ctl->args[1], &width, &height)) {
		return ctl_usage_error("'%s' is not a size like 1280x720", ctl->args[1]);
	}
	return ctl_call(ctl, CTL_IFACE_OUTPUTS, "SetSize", NULL, "suu", ctl->args[0],
		width, height) ? CTL_EXIT_OK : CTL_EXIT_FAILURE;
}

struct window_info {
	uint64_t id;
	const char *title, *app_id, *kind;
	int32_t x, y, width, height;
	uint32_t pid;
	int focused, maximized, fullscreen, minimized;
};

static int read_window(sd_bus_message *reply, struct window_info *w) {
	return sd_bus_message_read(reply, "(tsssiiiiubbbb)", &w->id, &w->title,
		&w->app_id, &w->kind, &w->x, &w->y, &w->width, &w->height, &w->pid,
		&w->focused, &w->maximized, &w->fullscreen, &w->minimized);
}

static void print_window_json(const struct window_info *w) {
	printf("{\"id\":%" PRIu64 ",\"title\":", w->id);
	ctl_json_string(stdout, w->title);
	fputs(",\"app_id\":", stdout);
	ctl_json_string(stdout, w->app_id);
	fputs(",\"kind\":", stdout);
	ctl_json_string(stdout, w->kind);
	printf(",\"x\":%" PRId32 ",\"y\":%" PRId32 ",\"width\":%" PRId32
		",\"height\":%" PRId32 ",\"pid\":%" PRIu32 ",\"focused\":", w->x, w->y,
		w->width, w->height, w->pid);
	ctl_json_bool(stdout, w->focused);
	fputs(",\"maximized\":", stdout);
	ctl_json_bool(stdout, w->maximized);
	fputs(",\"fullscreen\":", stdout);
	ctl_json_bool(stdout, w->fullscreen);
	fputs(",\"minimized\":", stdout);
	ctl_json_bool(stdout, w->minimized);
	putchar('}');
}

static void add_window_row(struct ctl_table *table, const struct window_info *w) {
	char state[64] = "";
	const struct { int on; const char *name; } flags[] = {
		{ w->focused, "focused" },
		{ w->maximized, "maximized" },
		{ w->fullscreen, "fullscreen" },
		{ w->minimized, "minimized" },
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (flags[i].on) {
			if (state[0]) {
				strcat(state, ",");
			}
			strcat(state, flags[i].name);
		}
	}
	char *id = ctl_asprintf("%" PRIu64, w->id);
	char *geometry = ctl_asprintf("%" PRId32 "x%" PRId32 "%+" PRId32 "%+" PRId32,
		w->width, w->height, w->x, w->y);
	char *pid = w->pid ? ctl_asprintf("%" PRIu32, w->pid) : ctl_strdup("-");
	ctl_table_add_row(table, id, w->kind, geometry, pid, state[0] ? state : "-",
		w->app_id[0] ? w->app_id : "-", w->title);
	free(id);
	free(geometry);
	free(pid);
}

int ctl_cmd_windows(struct ctl *ctl) {
	sd_bus_message *reply = NULL;
	if (!ctl_call(ctl, CTL_IFACE_WINDOWS, "List", &reply, "")) {
		return CTL_EXIT_FAILURE;
	}
	int r = sd_bus_message_enter_container(reply, 'a', "(tsssiiiiubbbb)");
	struct ctl_table table;
	ctl_table_init(&table, 7);
	if (ctl->json) {
		putchar('[');
	} else {
		ctl_table_add_row(&table, "ID", "KIND", "GEOMETRY", "PID", "STATE", "APP_ID",
			"TITLE");
	}
	struct window_info w;
	bool first = true;
	while (r >= 0 && (r = read_window(reply, &w)) > 0) {
		if (ctl->json) {
			if (!first) {
				putchar(',');
			}
			print_window_json(&w);
		} else {
			add_window_row(&table, &w);
		}
		first = false;
	}
	if (ctl->json) {
		puts("]");
	}
	ctl_table_print(&table, stdout);
	sd_bus_message_unref(reply);
	return r < 0 ? ctl_bad_reply("Windows.List", r) : CTL_EXIT_OK;
}

static bool parse_id(const char *s, uint64_t *id) {
	if (!ctl_parse_u64(s, id)) {
		ctl_usage_error("'%s' is not a window id (see 'orielctl windows')", s);
		return false;
	}
	return true;
}

static int window_call(struct ctl *ctl, const char *method) {
	uint64_t id;
	if (!parse_id(ctl->args[0], &id)) {
		return CTL_EXIT_USAGE;
	}
	return ctl_call(ctl, CTL_IFACE_WINDOWS, method, NULL, "t", id) ?
		CTL_EXIT_OK : CTL_EXIT_FAILURE;
}

int ctl_cmd_focus(struct ctl *ctl) {
	return window_call(ctl, "Focus");
}

int ctl_cmd_close(struct ctl *ctl) {
	return window_call(ctl, "Close");
}

/* move and resize: ID and two int32 values. */
static int window_call_ii(struct ctl *ctl, const char *method, const char *what) {
	uint64_t id;
	int32_t a, b;
	if (!parse_id(ctl->args[0], &id)) {
		return CTL_EXIT_USAGE;
	}
	if (!ctl_parse_i32(ctl->args[1], &a) || !ctl_parse_i32(ctl->args[2], &b)) {
		return ctl_usage_error("'%s %s' is not a %s", ctl->args[1], ctl->args[2],
			what);
	}
	return ctl_call(ctl, CTL_IFACE_WINDOWS, method, NULL, "tii", id, a, b) ?
		CTL_EXIT_OK : CTL_EXIT_FAILURE;
}

int ctl_cmd_move(struct ctl *ctl) {
	return window_call_ii(ctl, "Move", "position (X Y)");
}

int ctl_cmd_resize(struct ctl *ctl) {
	return window_call_ii(ctl, "Resize", "size (WIDTH HEIGHT)");
}

static int window_set(struct ctl *ctl, const char *method) {
	uint64_t id;
	bool on = true;
	if (!parse_id(ctl->args[0], &id)) {
		return CTL_EXIT_USAGE;
	}
	if (ctl->n_args > 1 && !ctl_parse_on_off(ctl->args[1], &on)) {
		return ctl_usage_error("'%s' is neither on nor off", ctl->args[1]);
	}
	return ctl_call(ctl, CTL_IFACE_WINDOWS, method, NULL, "tb", id, (int)on) ?
		CTL_EXIT_OK : CTL_EXIT_FAILURE;
}

int ctl_cmd_maximize(struct ctl *ctl) {
	return window_set(ctl, "SetMaximized");
}

int ctl_cmd_fullscreen(struct ctl *ctl) {
	return window_set(ctl, "SetFullscreen");
}

int ctl_cmd_minimize(struct ctl *ctl) {
	return window_set(ctl, "SetMinimized");
}

/* The first output of Outputs.List, for screenshot's default; NULL on error. */
static char *first_output_name(struct ctl *ctl) {
	sd_bus_message *reply = NULL;
	if (!ctl_call(ctl, CTL_IFACE_OUTPUTS, "List", &reply, "")) {
		return NULL;
	}
	struct output_info o;
	char *name = NULL;
	int r = sd_bus_message_enter_container(reply, 'a', "(suuuiid)");
	if (r >= 0) {
		r = read_output(reply, &o);
	}
	if (r < 0) {
		ctl_bad_reply("Outputs.List", r);
	} else if (r == 0) {
		ctl_fail("the compositor has no outputs");
	} else {
		name = ctl_strdup(o.name);
	}
	sd_bus_message_unref(reply);
	return name;
}

/* "X,Y,WIDTH,HEIGHT" with WIDTH and HEIGHT > 0. */
static bool parse_region(const char *s, int32_t *x, int32_t *y, uint32_t *w,
		uint32_t *h) {
	char *copy = ctl_strdup(s);
	char *fields[4];
	int n = 0;
	for (char *p = copy; ; p++) {
		if (n < 4 && (p == copy || p[-1] == '\0')) {
			fields[n++] = p;
		}
		if (*p == '\0') {
			break;
		}
		if (*p == ',') {
			if (n == 4) {
				n = 5; /* too many fields */
				break;
			}
			*p = '\0';
		}
	}
	bool ok = n == 4 &&
		ctl_parse_i32(fields[0], x) && ctl_parse_i32(fields[1], y) &&
		ctl_parse_u32(fields[2], w) && ctl_parse_u32(fields[3], h) &&
		*w > 0 && *h > 0;
	free(copy);
	return ok;
}

int ctl_cmd_screenshot(struct ctl *ctl) {
	const char *file = ctl->args[0];
	uint64_t id = 0;
	int32_t x = 0, y = 0;
	uint32_t rw = 0, rh = 0;
	if (ctl->shot_window && !parse_id(ctl->shot_window, &id)) {
		return CTL_EXIT_USAGE;
	}
	if (ctl->shot_region && !parse_region(ctl->shot_region, &x, &y, &rw, &rh)) {
		return ctl_usage_error("'%s' is not a region like X,Y,WIDTH,HEIGHT",
			ctl->shot_region);
	}
	char *output = NULL;
	if (!ctl->shot_window && !ctl->shot_region) {
		output = ctl->shot_output ? ctl_strdup(ctl->shot_output) :
			first_output_name(ctl);
		if (!output) {
			return CTL_EXIT_FAILURE;
		}
	}

	struct stat st;
	bool existed = stat(file, &st) == 0;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(output);
		return ctl_fail("cannot open %s: %s", file, strerror(errno));
	}
	sd_bus_message *reply = NULL;
	bool ok;
	if (ctl->shot_window) {
		ok = ctl_call(ctl, CTL_IFACE_SCREENSHOT, "Window", &reply, "th", id, fd);
	} else if (ctl->shot_region) {
		ok = ctl_call(ctl, CTL_IFACE_SCREENSHOT, "Region", &reply, "iiuuh", x, y,
			rw, rh, fd);
	} else {
		ok = ctl_call(ctl, CTL_IFACE_SCREENSHOT, "Output", &reply, "sh", output, fd);
	}
	free(output);
	uint32_t width = 0, height = 0;
	int status = CTL_EXIT_FAILURE;
	if (ok) {
		int r = sd_bus_message_read(reply, "uu", &width, &height);
		status = r < 0 ? ctl_bad_reply("Screenshot", r) : CTL_EXIT_OK;
	}
	sd_bus_message_unref(reply);
	if (close(fd) < 0 && status == CTL_EXIT_OK) {
		status = ctl_fail("cannot write %s: %s", file, strerror(errno));
	}
	if (status != CTL_EXIT_OK) {
		if (!existed) {
			unlink(file);
		}
		return status;
	}
	if (ctl->json) {
		printf("{\"width\":%" PRIu32 ",\"height\":%" PRIu32 ",\"file\":", width,
			height);
		ctl_json_string(stdout, file);
		puts("}");
	} else {
		printf("%" PRIu32 "x%" PRIu32 " %s\n", width, height, file);
	}
	return CTL_EXIT_OK;
}
