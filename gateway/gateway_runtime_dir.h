/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_RUNTIME_DIR_H
#define ORIEL_GATEWAY_RUNTIME_DIR_H

/*
 * The sessions' runtime dirs: RUNTIME_DIR (root's, 0755) holds one dir
 * per session, USER.N, owned by the user and 0700, with the session's
 * hand-over socket, Wayland and D-Bus sockets in it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Makes root (and its parent) when missing; false unless root owns it and only root writes it. */
bool gateway_runtime_root_prepare(const char *root, char *error, size_t error_size);
/* Makes a new ROOT/USER.N for uid:gid, its path into path. */
bool gateway_runtime_dir_create(const char *root, const char *user, uid_t uid, gid_t gid,
	char *path, size_t path_size, char *error, size_t error_size);
/*
 * Removes a session's dir and everything in it without following a
 * symlink anywhere: the user could have placed them to point elsewhere.
 */
bool gateway_runtime_dir_remove(const char *path);

#endif
