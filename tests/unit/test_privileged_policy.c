/* SPDX-License-Identifier: MIT */
/* Unit tests for the privileged-globals policy and executable matching. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compositor/config.h"
#include "compositor/exe_path.h"
#include "compositor/privileged_policy.h"
#include "expect.h"


static void test_interfaces(void) {
	static const struct {
		const char *interface;
		enum config_privilege privilege;
	} privileged[] = {
		{ "zwlr_screencopy_manager_v1", CONFIG_PRIVILEGE_SCREENCOPY },
		{ "zwlr_export_dmabuf_manager_v1", CONFIG_PRIVILEGE_SCREENCOPY },
		{ "zwp_virtual_keyboard_manager_v1", CONFIG_PRIVILEGE_VIRTUAL_INPUT },
		{ "zwlr_virtual_pointer_manager_v1", CONFIG_PRIVILEGE_VIRTUAL_INPUT },
		{ "zwlr_data_control_manager_v1", CONFIG_PRIVILEGE_DATA_CONTROL },
		{ "zwlr_output_manager_v1", CONFIG_PRIVILEGE_OUTPUT_MANAGEMENT },
		{ "zwlr_gamma_control_manager_v1", CONFIG_PRIVILEGE_GAMMA },
	};
	for (size_t i = 0; i < sizeof(privileged) / sizeof(privileged[0]); i++) {
		enum config_privilege p = CONFIG_PRIVILEGE_COUNT;
		EXPECT(privileged_policy_interface(privileged[i].interface, &p) &&
			p == privileged[i].privilege, "%s", privileged[i].interface);
	}
	static const char *const ordinary[] = {
		"wl_compositor", "wl_seat", "wl_output", "xdg_wm_base",
		"zxdg_output_manager_v1", "wl_data_device_manager",
		"zwp_primary_selection_device_manager_v1", "zwlr_layer_shell_v1",
		"zwlr_foreign_toplevel_manager_v1", "zwlr_screencopy_manager_v2", "",
	};
	for (size_t i = 0; i < sizeof(ordinary) / sizeof(ordinary[0]); i++) {
		enum config_privilege p;
		EXPECT(!privileged_policy_interface(ordinary[i], &p), "'%s'", ordinary[i]);
	}
}

static void test_allows(void) {
	char self[EXE_PATH_MAX];
	const char *why = NULL;
	EXPECT(exe_path_of_pid(getpid(), self, &why), "own exe: %s", why);
	EXPECT(self[0] == '/', "absolute: %s", self);
	EXPECT(!exe_path_of_pid(0, self + 0, &why) && why, "pid 0");

	char dir[] = "/tmp/oriel-policy-XXXXXX";
	EXPECT(mkdtemp(dir), "mkdtemp");
	char link[sizeof(dir) + 16];
	snprintf(link, sizeof(link), "%s/tool", dir);
	EXPECT(symlink(self, link) == 0, "symlink");

	struct oriel_config config;
	config_init(&config);
	EXPECT(!privileged_policy_allows(&config, CONFIG_PRIVILEGE_SCREENCOPY, self),
		"nobody by default");

	char err[128];
	char list[EXE_PATH_MAX + 32];
	snprintf(list, sizeof(list), "/usr/bin/nothing-here %s", self);
	EXPECT(config_add_privileged_exes(&config, CONFIG_PRIVILEGE_SCREENCOPY, list,
		err, sizeof(err)), "%s", err);
	EXPECT(privileged_policy_allows(&config, CONFIG_PRIVILEGE_SCREENCOPY, self),
		"listed");
	EXPECT(!privileged_policy_allows(&config, CONFIG_PRIVILEGE_VIRTUAL_INPUT, self),
		"one capability does not give another");
	EXPECT(!privileged_policy_allows(&config, CONFIG_PRIVILEGE_COUNT, self),
		"out of range");
	EXPECT(!privileged_policy_allows(&config, CONFIG_PRIVILEGE_SCREENCOPY,
		"/usr/bin/other"), "unlisted");

	char deleted[EXE_PATH_MAX + 16];
	snprintf(deleted, sizeof(deleted), "%s (deleted)", self);
	EXPECT(!privileged_policy_allows(&config, CONFIG_PRIVILEGE_SCREENCOPY, deleted),
		"a replaced binary is not the listed file");

	/* A listed symlink matches the canonical path the kernel shows. */
	EXPECT(config_add_privileged_exes(&config, CONFIG_PRIVILEGE_GAMMA, link,
		err, sizeof(err)), "%s", err);
	EXPECT(privileged_policy_allows(&config, CONFIG_PRIVILEGE_GAMMA, self),
		"symlink to the executable");

	EXPECT(!exe_path_is(self, "tool"), "relative paths never match");
	EXPECT(!exe_path_is(self, NULL), "no path");
	config_finish(&config);
	unlink(link);
	rmdir(dir);
}

int main(void) {
	test_interfaces();
	test_allows();
	if (failures) {
		fprintf(stderr, "test-privileged-policy: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test-privileged-policy: all checks passed\n");
	return 0;
}
