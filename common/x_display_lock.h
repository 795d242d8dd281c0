/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_X_DISPLAY_LOCK_H
#define ORIEL_COMMON_X_DISPLAY_LOCK_H

/*
 * When an X display's lock file (/tmp/.XN-lock) holds the display, and
 * when it is stale. Pure: the caller reads the file and asks about the
 * process.
 *
 * X servers write their pid as "%10d\n". A lock holds its display only
 * while it names a live process of the lock's owner (or the lock is
 * root's): anything else, whoever wrote it, is stale. A lock that is
 * still empty is being written, for a second.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How long an empty lock counts as one being written. */
#define X_DISPLAY_LOCK_WRITE_MS 1000

/* What x_display_lock_owner_of says of a pid besides its uid. */
#define X_DISPLAY_LOCK_NO_PROCESS (-1L)
#define X_DISPLAY_LOCK_OWNER_UNKNOWN (-2L)

struct x_display_lock {
	const char *text; /* the file's first bytes */
	size_t len;
	uid_t owner;      /* the file's owner */
	int64_t age_ms;   /* since it last changed */
};

/*
 * The uid of live process pid (of its real, effective, saved and fs uids,
 * the lock owner's when it is one), or one of the two values above.
 */
typedef long (*x_display_lock_owner_of)(pid_t pid, void *data);

/* The pid in text as X servers write it, or -1 when it holds none. */
pid_t x_display_lock_pid(const char *text, size_t len);

bool x_display_lock_is_stale(const struct x_display_lock *lock,
	x_display_lock_owner_of owner_of, void *data);

#endif
