/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_PROCS_H
#define ORIEL_GATEWAY_PROCS_H

/*
 * A session's processes, found in /proc: those of the session's uid that
 * are in its Unix session (sid) or carry its XDG_RUNTIME_DIR in their
 * environment. Xwayland and D-Bus activated programs leave the session's
 * process group, but not its environment.
 */

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

/* Live (not zombie) processes of uid in session sid or with XDG_RUNTIME_DIR=runtime_dir:
 * up to max pids into pids; returns how many there are (may exceed max). sid 0: any. */
int gateway_procs_find(uid_t uid, pid_t sid, const char *runtime_dir, pid_t *pids, int max);
/* Proportional set size of pid in KiB (smaps_rollup), -1 when unknown. */
long gateway_procs_pss_kib(pid_t pid);
/* When pid started (wall clock), 0 when unknown. */
time_t gateway_procs_start_time(pid_t pid);
/* The real uid of pid, false when it is gone. */
bool gateway_procs_uid(pid_t pid, uid_t *uid);

#endif
