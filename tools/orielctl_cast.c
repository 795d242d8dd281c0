/* SPDX-License-Identifier: MIT */
/*
 * orielctl cast: the org.oriel.Compositor.Casts interface.
 *
 * `cast start --output NAME | --window ID | --region X,Y,W,H | --virtual WxH
 * [--cursor MODE]` prints the PipeWire node id and keeps running:
 * oriel ends a cast when the bus connection that created it closes, so the
 * cast lives exactly as long as this process. SIGINT or SIGTERM stops it
 * (exit 0); the cast ending on oriel's side (its consumer or PipeWire went
 * away, or `cast stop`) exits with 1.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "tools/orielctl.h"

#define CTL_IFACE_CASTS CTL_BUS_NAME ".Casts"

struct closed_watch {
	uint64_t id;
	bool closed;
};

static int handle_closed(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct closed_watch *watch = data;
	uint64_t id;
	if (sd_bus_message_read(msg, "t", &id) > 0 && id == watch->id) {
		watch->closed = true;
	}
	return 0;
}

#define START_USAGE "usage: cast start --output NAME | --window ID | " \
	"--region X,Y,W,H | --virtual WxH [--cursor hidden|embedded|metadata]"

/* "WIDTHxHEIGHT", both > 0. */
static bool parse_size(const char *s, uint32_t *w, uint32_t *h) {
	const char *x = strchr(s, 'x');
	if (!x || x == s || strchr(x + 1, 'x')) {
		return false;
	}
	char *width = ctl_strdup(s);
	width[x - s] = '\0';
	bool ok = ctl_parse_u32(width, w) && ctl_parse_u32(x + 1, h) && *w > 0 && *h > 0;
	free(width);
	return ok;
}

/* "X,Y,WIDTH,HEIGHT" with WIDTH and HEIGHT > 0. */
static bool parse_region(const char *s, int32_t *x, int32_t *y, uint32_t *w,
		uint32_t *h) {
	char *copy = ctl_strdup(s);
	char *fields[4];
	int n = 0;
	char *save = NULL;
	for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (n == 4) {
			n = 5;
			break;
		}
		fields[n++] = p;
	}
	size_t commas = 0;
	for (const char *p = s; *p; p++) {
		commas += *p == ',';
	}
	bool ok = n == 4 && commas == 3 &&
		ctl_parse_i32(fields[0], x) && ctl_parse_i32(fields[1], y) &&
		ctl_parse_u32(fields[2], w) && ctl_parse_u32(fields[3], h) &&
		*w > 0 && *h > 0;
	free(copy);
	return ok;
}

/* The portal's numbering: hidden 1, embedded 2, metadata 4; 0 default. */
static bool parse_cursor(const char *s, uint32_t *mode) {
	if (!s) {
		*mode = 0;
	} else if (strcmp(s, "hidden") == 0) {
		*mode = 1;
	} else if (strcmp(s, "embedded") == 0) {
		*mode = 2;
	} else if (strcmp(s, "metadata") == 0) {
		*mode = 4;
	} else {
		return false;
	}
	return true;
}

static int cmd_start(struct ctl *ctl) {
	uint32_t cursor;
	if (!parse_cursor(ctl->cast_cursor, &cursor)) {
		return ctl_usage_error("'%s' is not a cursor mode (hidden, embedded, metadata)",
			ctl->cast_cursor);
	}
	uint64_t window_id = 0;
	int32_t rx = 0, ry = 0;
	uint32_t rw = 0, rh = 0;
	if (ctl->shot_window && !ctl_parse_u64(ctl->shot_window, &window_id)) {
		return ctl_usage_error("'%s' is not a window id (see 'orielctl windows')",
			ctl->shot_window);
	}
	if (ctl->shot_region && !parse_region(ctl->shot_region, &rx, &ry, &rw, &rh)) {
		return ctl_usage_error("'%s' is not a region X,Y,WIDTH,HEIGHT", ctl->shot_region);
	}
	uint32_t vw = 0, vh = 0;
	if (ctl->cast_virtual && (ctl->shot_output || ctl->shot_window || ctl->shot_region)) {
		return ctl_usage_error("use only one of --output, --window, --region and "
			"--virtual");
	}
	if (ctl->cast_virtual && !parse_size(ctl->cast_virtual, &vw, &vh)) {
		return ctl_usage_error("'%s' is not a size WIDTHxHEIGHT", ctl->cast_virtual);
	}
	if (!ctl->shot_output && !ctl->shot_window && !ctl->shot_region &&
			!ctl->cast_virtual) {
		return ctl_usage_error(START_USAGE);
	}
	/* Signals are read from a signalfd, never delivered asynchronously. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		return ctl_fail("signalfd: %s", strerror(errno));
	}

	sd_bus_message *reply = NULL;
	bool called;
	const char *method;
	if (ctl->cast_virtual) {
		method = "RecordVirtual";
		called = ctl_call(ctl, CTL_IFACE_CASTS, method, &reply, "uuu", vw, vh, cursor);
	} else if (ctl->shot_window) {
		method = "CreateWindowCast";
		called = ctl_call(ctl, CTL_IFACE_CASTS, method, &reply, "tu", window_id, cursor);
	} else if (ctl->shot_region) {
		method = "CreateRegionCast";
		called = ctl_call(ctl, CTL_IFACE_CASTS, method, &reply, "iiuuu", rx, ry, rw, rh,
			cursor);
	} else {
		method = "CreateOutputCast";
		called = ctl_call(ctl, CTL_IFACE_CASTS, method, &reply, "su", ctl->shot_output,
			cursor);
	}
	if (!called) {
		close(sfd);
		return CTL_EXIT_FAILURE;
	}
	uint64_t cast_id;
	uint32_t node_id;
	int r = sd_bus_message_read(reply, "tu", &cast_id, &node_id);
	sd_bus_message_unref(reply);
	if (r < 0) {
		close(sfd);
		return ctl_bad_reply(method, r);
	}
	struct closed_watch watch = { .id = cast_id };
	sd_bus_slot *slot = NULL;
	r = sd_bus_match_signal(ctl->bus, &slot, CTL_BUS_NAME, CTL_PATH, CTL_IFACE_CASTS,
		"Closed", handle_closed, &watch);
	if (r < 0) {
		close(sfd);
		return ctl_fail("cannot watch the cast: %s", strerror(-r));
	}
	if (ctl->json) {
		printf("{\"cast_id\":%" PRIu64 ",\"node_id\":%" PRIu32 "}\n", cast_id, node_id);
	} else {
		printf("%" PRIu32 "\n", node_id);
	}
	fflush(stdout);
	fprintf(stderr, "orielctl: cast %" PRIu64 " is PipeWire node %" PRIu32
		"; interrupt to stop it\n", cast_id, node_id);

	int status = CTL_EXIT_OK;
	for (;;) {
		while ((r = sd_bus_process(ctl->bus, NULL)) > 0) {
		}
		if (r < 0) {
			status = ctl_fail("lost the bus: %s", strerror(-r));
			break;
		}
		if (watch.closed) {
			status = ctl_fail("cast %" PRIu64 " ended", cast_id);
			break;
		}
		struct pollfd fds[2] = {
			{ .fd = sd_bus_get_fd(ctl->bus), .events = (short)sd_bus_get_events(ctl->bus) },
			{ .fd = sfd, .events = POLLIN },
		};
		if (poll(fds, 2, -1) < 0 && errno != EINTR) {
			status = ctl_fail("poll: %s", strerror(errno));
			break;
		}
		if (fds[1].revents & POLLIN) {
			/* Stopped by a person: end the cast and say so. */
			ctl_call(ctl, CTL_IFACE_CASTS, "Stop", NULL, "t", cast_id);
			break;
		}
	}
	sd_bus_slot_unref(slot);
	close(sfd);
	return status;
}

static int cmd_list(struct ctl *ctl) {
	sd_bus_message *reply = NULL;
	if (!ctl_call(ctl, CTL_IFACE_CASTS, "List", &reply, "")) {
		return CTL_EXIT_FAILURE;
	}
	int r = sd_bus_message_enter_container(reply, 'a', "(tsuu)");
	struct ctl_table table;
	ctl_table_init(&table, 4);
	if (ctl->json) {
		putchar('[');
	} else {
		ctl_table_add_row(&table, "ID", "NODE", "CURSOR", "OUTPUT");
	}
	bool first = true;
	uint64_t id;
	const char *output;
	uint32_t node, cursor;
	while (r >= 0 && (r = sd_bus_message_read(reply, "(tsuu)", &id, &output, &node,
			&cursor)) > 0) {
		if (ctl->json) {
			printf("%s{\"id\":%" PRIu64 ",\"output\":", first ? "" : ",", id);
			ctl_json_string(stdout, output);
			printf(",\"node_id\":%" PRIu32 ",\"cursor_mode\":%" PRIu32 "}", node, cursor);
		} else {
			char *id_text = ctl_asprintf("%" PRIu64, id);
			char *node_text = ctl_asprintf("%" PRIu32, node);
			char *cursor_text = ctl_asprintf("%" PRIu32, cursor);
			ctl_table_add_row(&table, id_text, node_text, cursor_text, output);
			free(id_text);
			free(node_text);
			free(cursor_text);
		}
		first = false;
	}
	if (ctl->json) {
		puts("]");
	}
	ctl_table_print(&table, stdout);
	sd_bus_message_unref(reply);
	return r < 0 ? ctl_bad_reply("Casts.List", r) : CTL_EXIT_OK;
}

int ctl_cmd_cast(struct ctl *ctl) {
	const char *sub = ctl->args[0];
	if (strcmp(sub, "start") == 0) {
		if (ctl->n_args != 1) {
			return ctl_usage_error(START_USAGE);
		}
		return cmd_start(ctl);
	}
	if (ctl->shot_output || ctl->shot_window || ctl->shot_region || ctl->cast_cursor ||
			ctl->cast_virtual) {
		return ctl_usage_error("--output, --window, --region, --virtual and --cursor "
			"are options of cast start");
	}
	if (strcmp(sub, "list") == 0) {
		if (ctl->n_args != 1) {
			return ctl_usage_error("usage: cast list");
		}
		return cmd_list(ctl);
	}
	if (strcmp(sub, "stop") == 0) {
		uint64_t id;
		if (ctl->n_args != 2) {
			return ctl_usage_error("usage: cast stop ID");
		}
		if (!ctl_parse_u64(ctl->args[1], &id)) {
			return ctl_usage_error("'%s' is not a cast id (see 'orielctl cast list')",
				ctl->args[1]);
		}
		return ctl_call(ctl, CTL_IFACE_CASTS, "Stop", NULL, "t", id) ?
			CTL_EXIT_OK : CTL_EXIT_FAILURE;
	}
	return ctl_usage_error("unknown cast command '%s' (start, stop, list)", sub);
}
