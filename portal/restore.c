/* SPDX-License-Identifier: MIT */
/*
 * Restore tokens (ScreenCast version 4). xdg-desktop-portal 1.16 keeps the
 * token the app sees, and stores with it the restore_data we return from
 * Start: ("oriel", 1, <grant id>). When the app brings the token back, the
 * frontend passes that data to SelectSources. The grant itself lives here:
 * persistent ones in the grants file (grants.h), which `orielctl grants`
 * lists and `orielctl revoke` edits, transient ones in this process only.
 * A grant is honoured for the app it was given to and only while its
 * sources exist (sources.c's words: outputs, windows, "virtual", which
 * always does); otherwise the session asks again like a new one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "portal/portal.h"

#define GRANT_KIND "screencast"

int portal_restore_read(sd_bus_message *msg, char **id) {
	const char *contents = NULL;
	int r = sd_bus_message_peek_type(msg, NULL, &contents);
	if (r < 0 || !contents || strcmp(contents, "(suv)") != 0) {
		return r < 0 ? r : sd_bus_message_skip(msg, "v");
	}
	const char *vendor;
	uint32_t version;
	r = sd_bus_message_enter_container(msg, 'v', "(suv)");
	r = r < 0 ? r : sd_bus_message_enter_container(msg, 'r', "suv");
	r = r < 0 ? r : sd_bus_message_read(msg, "su", &vendor, &version);
	if (r < 0) {
		return r;
	}
	r = sd_bus_message_peek_type(msg, NULL, &contents);
	if (r >= 0 && contents && !strcmp(contents, "s") &&
			!strcmp(vendor, PORTAL_RESTORE_VENDOR) && version == PORTAL_RESTORE_VERSION) {
		const char *grant_id;
		r = sd_bus_message_read(msg, "v", "s", &grant_id);
		if (r >= 0 && portal_grant_id_valid(grant_id)) {
			free(*id);
			*id = strdup(grant_id);
		}
	} else if (r >= 0) {
		r = sd_bus_message_skip(msg, "v");
	}
	r = r < 0 ? r : sd_bus_message_exit_container(msg);
	r = r < 0 ? r : sd_bus_message_exit_container(msg);
	return r;
}

/* Copies the grant with id, from the transient list or the file, into out. */
static bool find_grant(struct portal *portal, const char *id, struct portal_grants *out) {
	const struct portal_grant *g = portal_grants_find(&portal->transient_grants, id);
	struct portal_grants file;
	portal_grants_init(&file);
	if (!g && portal->grants_path) {
		int lock = portal_grants_lock_load(&file, portal->grants_path, stderr);
		if (lock < 0) {
			portal_log(portal, "cannot read %s: %s", portal->grants_path, strerror(-lock));
		}
		portal_grants_unlock(lock);
		g = portal_grants_find(&file, id);
	}
	bool found = g && portal_grants_copy(out, g) == 0;
	portal_grants_finish(&file);
	return found;
}

bool portal_restore_targets(struct portal_session *session,
		const struct portal_catalog *cat, struct portal_target **targets, int *n_targets) {
	struct portal *portal = session->portal;
	if (!session->restore_id) {
		return false;
	}
	struct portal_grants found;
	portal_grants_init(&found);
	if (!find_grant(portal, session->restore_id, &found)) {
		portal_log(portal, "session %s: grant %s is gone (revoked?): asking again",
			session->handle, session->restore_id);
		portal_grants_finish(&found);
		return false;
	}
	const struct portal_grant *g = &found.items[0];
	char **existing = portal_catalog_existing(cat);
	bool usable = existing && portal_grant_usable(g, session->app_id, GRANT_KIND,
		(const char *const *)existing);
	portal_strv_free(existing);
	if (!usable) {
		portal_log(portal, "session %s: grant %s is for another app or a source that is "
			"gone: asking again", session->handle, g->id);
		portal_grants_finish(&found);
		return false;
	}
	/* The grant's sources, in its order. */
	struct portal_target *list = calloc(strlen(g->sources) + 1, sizeof(*list));
	int count = 0;
	for (const char *s = g->sources; list && *s;) {
		size_t len = strcspn(s, " ");
		char *word = strndup(s, len);
		if (word && len > 0 && portal_catalog_target(cat, word, &list[count])) {
			count++;
		}
		free(word);
		s += len;
		s += strspn(s, " ");
	}
	portal_grants_finish(&found);
	if (!list || count == 0) {
		portal_targets_free(list, count);
		return false;
	}
	*targets = list;
	*n_targets = count;
	portal_log(portal, "session %s: restored grant %s without asking", session->handle,
		session->restore_id);
	return true;
}

static char *sources_of(struct portal_session *session) {
	size_t len = 1;
	for (int i = 0; i < session->n_casts; i++) {
		len += strlen(session->casts[i].target.source) + 1;
	}
	char *s = calloc(1, len);
	for (int i = 0; s && i < session->n_casts; i++) {
		if (i > 0) {
			strcat(s, " ");
		}
		strcat(s, session->casts[i].target.source);
	}
	return s;
}

/* Adds a grant for the session's casts; id gets its id. */
static int add_grant(struct portal_session *session, bool persistent,
		char id[PORTAL_GRANT_ID_LEN + 1]) {
	struct portal *portal = session->portal;
	char *sources = sources_of(session);
	if (!sources) {
		return -ENOMEM;
	}
	int64_t now = time(NULL);
	int r;
	if (!persistent) {
		r = portal_grants_add(&portal->transient_grants, session->app_id, GRANT_KIND, now,
			sources, id);
	} else if (!portal->grants_path) {
		r = -ENOENT;
	} else {
		struct portal_grants file;
		portal_grants_init(&file);
		int lock = portal_grants_lock_load(&file, portal->grants_path, stderr);
		r = lock < 0 ? lock : portal_grants_add(&file, session->app_id, GRANT_KIND, now,
			sources, id);
		r = r < 0 ? r : portal_grants_save(&file, portal->grants_path);
		portal_grants_unlock(lock);
		portal_grants_finish(&file);
	}
	free(sources);
	return r;
}

int portal_restore_remember(struct portal_session *session, bool restored,
		sd_bus_message *reply) {
	uint32_t mode = session->selection.persist_mode;
	if (mode == PORTAL_PERSIST_NONE || session->n_casts == 0) {
		return 0;
	}
	char id[PORTAL_GRANT_ID_LEN + 1];
	if (restored) {
		snprintf(id, sizeof(id), "%s", session->restore_id);
	} else {
		int r = add_grant(session, mode == PORTAL_PERSIST_PERSISTENT, id);
		if (r < 0) {
			/* The cast goes on; the app just gets no token. */
			portal_log(session->portal, "session %s: cannot remember the grant: %s",
				session->handle, strerror(-r));
			return 0;
		}
		portal_log(session->portal, "session %s: remembered as grant %s (%s)",
			session->handle, id, mode == PORTAL_PERSIST_PERSISTENT ?
			"persistent" : "transient");
	}
	return sd_bus_message_append(reply, "{sv}{sv}",
		"restore_data", "(suv)", PORTAL_RESTORE_VENDOR, PORTAL_RESTORE_VERSION, "s", id,
		"persist_mode", "u", mode);
}
