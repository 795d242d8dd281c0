/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the portal's grants file. Besides memory errors
 * it checks that every grant kept is one the file format can hold, and
 * that formatting is a fixed point: parse(format(parse(x))) formats to
 * the same text as parse(x), with no warnings.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portal/grants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-portal-grants: invariant broken: %s\n", what);
		abort();
	}
}

static void check_grants(const struct portal_grants *grants) {
	check(grants->n >= 0 && grants->n <= PORTAL_GRANTS_MAX, "grant count bound");
	for (int i = 0; i < grants->n; i++) {
		const struct portal_grant *g = &grants->items[i];
		check(portal_grant_id_valid(g->id), "grant id valid");
		check(portal_grant_field_valid(g->app_id), "app_id valid");
		check(g->kind[0] && portal_grant_field_valid(g->kind), "kind valid");
		check(g->sources[0] && portal_grant_field_valid(g->sources), "sources valid");
		check(g->created >= 0, "created not negative");
		check(portal_grants_find(grants, g->id) == g, "ids are unique");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	char *text = malloc(size + 1);
	if (!text) {
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';

	struct portal_grants first;
	portal_grants_init(&first);
	check(portal_grants_parse(&first, text, NULL) >= 0, "warning count");
	check_grants(&first);
	char *formatted = portal_grants_format(&first);
	check(formatted != NULL, "format");

	struct portal_grants second;
	portal_grants_init(&second);
	check(portal_grants_parse(&second, formatted, NULL) == 0,
		"formatted text parses without warnings");
	check(second.n == first.n, "round trip keeps every grant");
	char *reformatted = portal_grants_format(&second);
	check(reformatted && strcmp(formatted, reformatted) == 0,
		"format(parse(format(parse(x)))) == format(parse(x))");

	/* A grant is usable only by its own app, for its own kind. */
	static const char *const existing[] = { "monitor:HEADLESS-1", "virtual", NULL };
	for (int i = 0; i < first.n; i++) {
		const struct portal_grant *g = &first.items[i];
		portal_grant_usable(g, g->app_id, g->kind, existing);
		check(!portal_grant_usable(g, "\x01not-an-app", g->kind, existing),
			"another app cannot use a grant");
	}
	if (first.n > 0) {
		char id[PORTAL_GRANT_ID_LEN + 1];
		memcpy(id, first.items[0].id, sizeof(id));
		check(portal_grants_remove(&first, id), "remove a listed grant");
		check(!portal_grants_find(&first, id), "removed grant is gone");
	}

	FILE *sink = fopen("/dev/null", "w");
	if (sink) {
		struct portal_grants again;
		portal_grants_init(&again);
		portal_grants_parse(&again, text, sink);
		portal_grants_finish(&again);
		fclose(sink);
	}

	free(reformatted);
	free(formatted);
	portal_grants_finish(&second);
	portal_grants_finish(&first);
	portal_grants_finish(&first);
	free(text);
	return 0;
}
