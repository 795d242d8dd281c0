/* SPDX-License-Identifier: MIT */
/*
 * For test_man_pages.py: prints every key of the config parser's table as
 * "SECTION KEY", one a line. With a FILE argument it parses that file
 * instead and prints the parser's error, exiting 1, when it has one.
 */

#include <stdio.h>
#include "compositor/config.h"

int main(int argc, char *argv[]) {
	if (argc > 2) {
		fprintf(stderr, "usage: %s [FILE]\n", argv[0]);
		return 2;
	}
	if (argc == 2) {
		struct oriel_config config;
		char err[512];
		config_init(&config);
		bool ok = config_parse_file(&config, argv[1], err, sizeof(err));
		config_finish(&config);
		if (!ok) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		return 0;
	}
	for (size_t i = 0; config_section_name(i); i++) {
		for (size_t j = 0; config_key_name(i, j); j++) {
			printf("%s %s\n", config_section_name(i), config_key_name(i, j));
		}
	}
	return 0;
}
