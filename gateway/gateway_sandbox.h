/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_SANDBOX_H
#define ORIEL_GATEWAY_SANDBOX_H

/*
 * What the gateway's network worker gives up before it reads from the
 * network: root (it becomes user, or nobody when there is no such user),
 * every capability, its file system (an empty, deleted root), new
 * privileges, and all but the system calls it needs (a seccomp filter:
 * execve kills it, open fails with EACCES, anything not allowed fails
 * with EPERM). For good: nothing can undo it.
 */

#include <stdbool.h>
#include <stddef.h>

/* False with a sentence in error; the process must then end. */
bool gateway_sandbox_enter(const char *user, char *error, size_t error_size);

#endif
