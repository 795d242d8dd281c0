/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_PEER_OWNER_H
#define ORIEL_REMOTE_PEER_OWNER_H

/*
 * Which user is at the other end of a connected socket: on a Unix socket
 * the peer's credentials (SO_PEERCRED); on TCP the owner of the peer's own
 * socket, which the kernel knows when that socket is on this host
 * (NETLINK_SOCK_DIAG, as `ss -e` shows it). A server without accounts
 * serves only its own user by this. Pure: no wlroots.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The uid that owns the other end of fd: 0, or a negative errno; -ENOENT
 * when no socket of this host holds it (a peer on another machine, or
 * one long gone), -ENOTCONN when its process closed it (the kernel keeps
 * it a while, but as nobody's).
 */
int peer_owner_uid(int fd, uid_t *uid);

/*
 * Whether the other end of fd belongs to the user this process runs as
 * (its effective uid). When not, why says so for a log line and the
 * client, naming both uids, and *uid is the peer's ((uid_t)-1: unknown).
 */
bool peer_owner_is_self(int fd, uid_t *uid, char *why, size_t why_size);

#endif
