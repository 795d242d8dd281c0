/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_EXE_PATH_H
#define ORIEL_EXE_PATH_H

/*
 * Which executable a peer runs, as /proc/PID/exe shows it, and whether it
 * is a given file. Shared by the control API's caller check and the
 * filter of privileged Wayland globals. No wlroots: unit tests link it.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define EXE_PATH_DELETED_SUFFIX " (deleted)"
#define EXE_PATH_MAX (PATH_MAX + sizeof(EXE_PATH_DELETED_SUFFIX))

/*
 * Reads /proc/PID/exe into exe (EXE_PATH_MAX bytes). On failure returns
 * false and puts a short reason in why.
 */
bool exe_path_of_pid(pid_t pid, char exe[EXE_PATH_MAX], const char **why);

/*
 * Whether exe (as /proc/PID/exe shows it) is the file at path. A binary
 * that was removed or replaced since it started ("... (deleted)") is no
 * longer that file. path may be a symlink; relative paths never match.
 */
bool exe_path_is(const char *exe, const char *path);

#endif
