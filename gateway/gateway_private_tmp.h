/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_PRIVATE_TMP_H
#define ORIEL_GATEWAY_PRIVATE_TMP_H

/*
 * A session's own /tmp, as systemd's PrivateTmp= gives a service: the
 * calling process (root, about to become the user) moves to a mount
 * namespace of its own, with nothing shared back to the host, and a fresh
 * tmpfs on /tmp. Its X lock, its socket file and Xwayland's compiled
 * keymap (/tmp/server-N.xkm) live there, where no other user can have
 * made or squatted them. X clients outside the session reach its display
 * through the abstract socket, which the session's X server also listens
 * on.
 *
 * Each of keep (NULL-terminated) that lies under /tmp, such as a runtime
 * dir or an oriel in a build tree there, keeps its top-level entry of
 * /tmp, bound from the host's /tmp at the same path.
 */

#include <stdbool.h>
#include <stddef.h>

bool gateway_private_tmp_enter(const char *const keep[], char *error, size_t error_size);

#endif
