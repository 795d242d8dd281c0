/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "compositor/exe_path.h"
#include "compositor/privileged_policy.h"
#include "common/util.h"

static const struct {
	const char *interface;
	enum config_privilege privilege;
} privileged_interfaces[] = {
	{ "zwlr_screencopy_manager_v1", CONFIG_PRIVILEGE_SCREENCOPY },
	/* The same pixels as screencopy, as dma-bufs. */
	{ "zwlr_export_dmabuf_manager_v1", CONFIG_PRIVILEGE_SCREENCOPY },
	{ "zwp_virtual_keyboard_manager_v1", CONFIG_PRIVILEGE_VIRTUAL_INPUT },
	{ "zwlr_virtual_pointer_manager_v1", CONFIG_PRIVILEGE_VIRTUAL_INPUT },
	{ "zwlr_data_control_manager_v1", CONFIG_PRIVILEGE_DATA_CONTROL },
	{ "zwlr_output_manager_v1", CONFIG_PRIVILEGE_OUTPUT_MANAGEMENT },
	{ "zwlr_gamma_control_manager_v1", CONFIG_PRIVILEGE_GAMMA },
};

bool privileged_policy_interface(const char *interface, enum config_privilege *out) {
	for (size_t i = 0; i < ARRAY_LEN(privileged_interfaces); i++) {
		if (strcmp(interface, privileged_interfaces[i].interface) == 0) {
			*out = privileged_interfaces[i].privilege;
			return true;
		}
	}
	return false;
}

bool privileged_policy_allows(const struct oriel_config *config,
		enum config_privilege privilege, const char *exe) {
	if (privilege >= CONFIG_PRIVILEGE_COUNT) {
		return false;
	}
	for (int i = 0; i < config->n_privileged_exes[privilege]; i++) {
		if (exe_path_is(exe, config->privileged_exes[privilege][i])) {
			return true;
		}
	}
	return false;
}
