/*
 * orielctl cast: the org.oriel.Compositor.Casts interface.
 *
 * `cast start --output NAME` prints the PipeWire node id and keeps running:
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

static int cmd_start(struct ctl *ctl) {
	if (!ctl->shot_output) {
		return ctl_usage_error("usage: cast start --output NAME");
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
	if (!ctl_call(ctl, CTL_IFACE_CASTS, "CreateOutputCast", &reply, "su",
			ctl->shot_output, (uint32_t)0)) {
		close(sfd);
		return CTL_EXIT_FAILURE;
	}
	uint64_t cast_id;
	uint32_t node_id;
	int r = sd_bus_message_read(reply, "tu", &cast_id, &node_id);
	sd_bus_message_unref(reply);
	if (r < 0) {
		close(sfd);
		return ctl_bad_reply("Casts.CreateOutputCast", r);
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
			return ctl_usage_error("usage: cast start --output NAME");
		}
		return cmd_start(ctl);
	}
	if (ctl->shot_output) {
		return ctl_usage_error("--output is an option of cast start");
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
