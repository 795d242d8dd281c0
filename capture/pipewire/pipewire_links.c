/* SPDX-License-Identifier: MIT */
/* The casts' consumers, from the PipeWire registry: see pipewire_links.h. */

#include <stdlib.h>
#include <string.h>
#include <pipewire/link.h>
#include <wlr/util/log.h>
#include "capture/pipewire/pipewire_links.h"
#include "common/util.h"

struct pipewire_links_node {
	uint32_t id, client_id;
};

struct pipewire_link {
	struct pipewire_links *links;
	uint32_t id, output_node, input_node;
	/* Bound for its state when it leaves one of our nodes. */
	struct pw_proxy *proxy;
	struct spa_hook listener;
	bool active_seen;
	struct wl_list link; /* pipewire_links.links */
};

static void handle_link_info(void *data, const struct pw_link_info *info) {
	struct pipewire_link *link = data;
	if (!(info->change_mask & PW_LINK_CHANGE_MASK_STATE)) {
		return;
	}
	wlr_log(WLR_DEBUG, "pipewire: link %u from node %u to %u: %s", link->id,
		link->output_node, link->input_node, pw_link_state_as_string(info->state));
	if (info->state != PW_LINK_STATE_ACTIVE || link->active_seen) {
		return;
	}
	link->active_seen = true;
	struct pipewire_links *links = link->links;
	links->callbacks->active(links->data, link->output_node);
}

static const struct pw_link_events link_events = {
	PW_VERSION_LINK_EVENTS,
	.info = handle_link_info,
};

static void link_destroy(struct pipewire_link *link) {
	if (link->proxy) {
		spa_hook_remove(&link->listener);
		pw_proxy_destroy(link->proxy);
	}
	wl_list_remove(&link->link);
	free(link);
}

static void handle_global(void *data, uint32_t id, uint32_t permissions,
		const char *type, uint32_t version, const struct spa_dict *props) {
	struct pipewire_links *links = data;
	if (strcmp(type, PW_TYPE_INTERFACE_Node) == 0 && props) {
		const char *client = spa_dict_lookup(props, PW_KEY_CLIENT_ID);
		struct pipewire_links_node *node =
			client ? wl_array_add(&links->nodes, sizeof(*node)) : NULL;
		if (node) {
			node->id = id;
			node->client_id = (uint32_t)strtoul(client, NULL, 10);
		}
		return;
	}
	if (strcmp(type, PW_TYPE_INTERFACE_Link) != 0 || !props) {
		return;
	}
	const char *out = spa_dict_lookup(props, PW_KEY_LINK_OUTPUT_NODE);
	const char *in = spa_dict_lookup(props, PW_KEY_LINK_INPUT_NODE);
	if (!out) {
		return;
	}
	struct pipewire_link *link = zalloc(sizeof(*link));
	link->links = links;
	link->id = id;
	link->output_node = (uint32_t)strtoul(out, NULL, 10);
	link->input_node = in ? (uint32_t)strtoul(in, NULL, 10) : SPA_ID_INVALID;
	wl_list_insert(&links->links, &link->link);
	if (links->callbacks->ours(links->data, link->output_node)) {
		link->proxy = pw_registry_bind(links->registry, id, PW_TYPE_INTERFACE_Link,
			PW_VERSION_LINK, 0);
		if (link->proxy) {
			pw_proxy_add_object_listener(link->proxy, &link->listener, &link_events,
				link);
		}
	}
	links->callbacks->added(links->data, link->output_node);
}

static void handle_global_remove(void *data, uint32_t id) {
	struct pipewire_links *links = data;
	struct pipewire_links_node *n;
	wl_array_for_each(n, &links->nodes) {
		if (n->id == id) {
			struct pipewire_links_node *last = (struct pipewire_links_node *)
				((char *)links->nodes.data + links->nodes.size) - 1;
			*n = *last;
			links->nodes.size -= sizeof(*n);
			break;
		}
	}
	struct pipewire_link *link;
	wl_list_for_each(link, &links->links, link) {
		if (link->id == id) {
			uint32_t node = link->output_node;
			link_destroy(link);
			links->callbacks->removed(links->data, node);
			return;
		}
	}
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = handle_global,
	.global_remove = handle_global_remove,
};

bool pipewire_links_init(struct pipewire_links *links, struct pw_core *core,
		const struct pipewire_links_callbacks *callbacks, void *data) {
	*links = (struct pipewire_links){ .callbacks = callbacks, .data = data };
	wl_list_init(&links->links);
	wl_array_init(&links->nodes);
	links->registry = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
	if (!links->registry) {
		wlr_log(WLR_ERROR, "pipewire: cannot get the registry");
		return false;
	}
	pw_registry_add_listener(links->registry, &links->registry_listener,
		&registry_events, links);
	return true;
}

void pipewire_links_finish(struct pipewire_links *links) {
	struct pipewire_link *link, *tmp;
	wl_list_for_each_safe(link, tmp, &links->links, link) {
		link_destroy(link);
	}
	if (links->registry) {
		spa_hook_remove(&links->registry_listener);
		pw_proxy_destroy((struct pw_proxy *)links->registry);
		links->registry = NULL;
	}
	wl_array_release(&links->nodes);
	wl_array_init(&links->nodes);
}

size_t pipewire_links_count(const struct pipewire_links *links, uint32_t output_node) {
	size_t n = 0;
	const struct pipewire_link *link;
	wl_list_for_each(link, &links->links, link) {
		n += output_node != SPA_ID_INVALID && link->output_node == output_node;
	}
	return n;
}

void pipewire_links_fail_consumers(struct pipewire_links *links, uint32_t output_node,
		int res, const char *why) {
	const struct pipewire_link *link;
	wl_list_for_each(link, &links->links, link) {
		if (link->output_node != output_node || link->input_node == SPA_ID_INVALID) {
			continue;
		}
		const struct pipewire_links_node *node;
		wl_array_for_each(node, &links->nodes) {
			if (node->id != link->input_node) {
				continue;
			}
			struct pw_client *client = pw_registry_bind(links->registry,
				node->client_id, PW_TYPE_INTERFACE_Client, PW_VERSION_CLIENT, 0);
			if (client) {
				pw_client_error(client, node->id, res, why);
				pw_proxy_destroy((struct pw_proxy *)client);
			}
		}
	}
}
