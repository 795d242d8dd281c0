/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PIPEWIRE_PIPEWIRE_LINKS_H
#define ORIEL_CAPTURE_PIPEWIRE_PIPEWIRE_LINKS_H

/*
 * What the PipeWire registry tells the casts about their consumers: the
 * links out of each node, with their state, and which client owns each
 * node. A link out of one of our nodes (callbacks->ours) is bound to
 * follow its state: `active` is called once when it becomes active, that
 * is when the consumer behind it takes part in our node's graph cycles.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pipewire/pipewire.h>
#include <wayland-util.h>

struct pipewire_links_callbacks {
	/* Whether output_node is one of ours. */
	bool (*ours)(void *data, uint32_t output_node);
	/* A link out of output_node appeared. */
	void (*added)(void *data, uint32_t output_node);
	/* A link out of output_node went away. */
	void (*removed)(void *data, uint32_t output_node);
	/* A link out of one of our nodes became active (once per link). */
	void (*active)(void *data, uint32_t output_node);
};

struct pipewire_links {
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	struct wl_list links;  /* pipewire_link.link */
	struct wl_array nodes; /* struct pipewire_links_node */
	const struct pipewire_links_callbacks *callbacks;
	void *data;
};

/* False (logged) when the registry cannot be had. */
bool pipewire_links_init(struct pipewire_links *links, struct pw_core *core,
	const struct pipewire_links_callbacks *callbacks, void *data);
/* Also after a failed init. */
void pipewire_links_finish(struct pipewire_links *links);

/* How many links leave output_node. */
size_t pipewire_links_count(const struct pipewire_links *links, uint32_t output_node);

/*
 * Puts the node of each consumer linked from output_node in its error
 * state, with why: what the session manager does when a link's target
 * goes away (our own node's error does not reach them).
 */
void pipewire_links_fail_consumers(struct pipewire_links *links, uint32_t output_node,
	int res, const char *why);

#endif
