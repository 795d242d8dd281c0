/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PRIVILEGED_POLICY_H
#define ORIEL_PRIVILEGED_POLICY_H

/*
 * Which Wayland globals are privileged, and which executables the config's
 * [privileged] section lets see them. Pure: no wlroots, unit-tested.
 */

#include <stdbool.h>
#include "compositor/config.h"

/*
 * The capability a global's interface needs ("zwlr_screencopy_manager_v1"
 * needs screencopy); false for the interfaces every client may see.
 */
bool privileged_policy_interface(const char *interface, enum config_privilege *out);

/* Whether exe (as /proc/PID/exe shows it) is listed for the capability. */
bool privileged_policy_allows(const struct oriel_config *config,
	enum config_privilege privilege, const char *exe);

#endif
