/* SPDX-License-Identifier: MIT */
/*
 * orielctl grants, orielctl revoke ID: the screen-cast grants that
 * restore tokens stand for, in the grants file the portal backend
 * writes (portal/grants.h). The file is the shared state: no call to
 * oriel or to the backend is needed, and a revoked grant is asked for
 * again the next time its token comes back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "portal/grants.h"
#include "tools/orielctl.h"

static char *grants_path_or_fail(void) {
	char *path = portal_grants_path();
	if (!path) {
		ctl_fail("neither XDG_STATE_HOME nor HOME is set: no grants file");
	}
	return path;
}

static void print_json(const struct portal_grants *grants) {
	putchar('[');
	for (int i = 0; i < grants->n; i++) {
		const struct portal_grant *g = &grants->items[i];
		printf("%s{\"id\":", i ? "," : "");
		ctl_json_string(stdout, g->id);
		printf(",\"app_id\":");
		ctl_json_string(stdout, g->app_id);
		printf(",\"kind\":");
		ctl_json_string(stdout, g->kind);
		printf(",\"created\":%" PRId64 ",\"sources\":[", g->created);
		bool first = true;
		for (const char *s = g->sources; *s;) {
			size_t len = strcspn(s, " ");
			if (len > 0) {
				char *one = ctl_asprintf("%.*s", (int)len, s);
				printf("%s", first ? "" : ",");
				ctl_json_string(stdout, one);
				free(one);
				first = false;
			}
			s += len;
			s += strspn(s, " ");
		}
		printf("]}");
	}
	puts("]");
}

static void print_table(const struct portal_grants *grants) {
	struct ctl_table table;
	ctl_table_init(&table, 5);
	ctl_table_add_row(&table, "ID", "APP", "KIND", "CREATED", "SOURCES");
	for (int i = 0; i < grants->n; i++) {
		const struct portal_grant *g = &grants->items[i];
		char created[32];
		time_t t = (time_t)g->created;
		struct tm tm;
		if (!localtime_r(&t, &tm) ||
				!strftime(created, sizeof(created), "%Y-%m-%d %H:%M", &tm)) {
			snprintf(created, sizeof(created), "%" PRId64, g->created);
		}
		ctl_table_add_row(&table, g->id, *g->app_id ? g->app_id : "(unidentified)",
			g->kind, created, g->sources);
	}
	ctl_table_print(&table, stdout);
}

int ctl_cmd_grants(struct ctl *ctl) {
	char *path = grants_path_or_fail();
	if (!path) {
		return CTL_EXIT_FAILURE;
	}
	struct portal_grants grants;
	portal_grants_init(&grants);
	int lock = portal_grants_lock_load(&grants, path, stderr);
	portal_grants_unlock(lock);
	int status = CTL_EXIT_OK;
	if (lock < 0) {
		status = ctl_fail("cannot read %s: %s", path, strerror(-lock));
	} else if (ctl->json) {
		print_json(&grants);
	} else {
		print_table(&grants);
	}
	portal_grants_finish(&grants);
	free(path);
	return status;
}

int ctl_cmd_revoke(struct ctl *ctl) {
	const char *id = ctl->args[0];
	if (!portal_grant_id_valid(id)) {
		return ctl_usage_error("'%s' is not a grant id (32 hex digits, see orielctl grants)",
			id);
	}
	char *path = grants_path_or_fail();
	if (!path) {
		return CTL_EXIT_FAILURE;
	}
	struct portal_grants grants;
	portal_grants_init(&grants);
	int status = CTL_EXIT_OK;
	int lock = portal_grants_lock_load(&grants, path, stderr);
	if (lock < 0) {
		status = ctl_fail("cannot read %s: %s", path, strerror(-lock));
	} else if (!portal_grants_remove(&grants, id)) {
		status = ctl_fail("no grant %s", id);
	} else {
		int r = portal_grants_save(&grants, path);
		if (r < 0) {
			status = ctl_fail("cannot write %s: %s", path, strerror(-r));
		}
	}
	portal_grants_unlock(lock);
	portal_grants_finish(&grants);
	free(path);
	return status;
}
