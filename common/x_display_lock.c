/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include "common/x_display_lock.h"

pid_t x_display_lock_pid(const char *text, size_t len) {
	size_t i = 0;
	while (i < len && text[i] == ' ') {
		i++;
	}
	long pid = 0;
	size_t digits = 0;
	for (; i < len && text[i] >= '0' && text[i] <= '9'; i++, digits++) {
		if (pid > INT_MAX / 10) {
			return -1;
		}
		pid = pid * 10 + (text[i] - '0');
	}
	if (i < len && text[i] == '\n') {
		i++;
	}
	if (digits == 0 || i != len || pid <= 0 || pid > INT_MAX) {
		return -1;
	}
	return (pid_t)pid;
}

bool x_display_lock_is_stale(const struct x_display_lock *lock,
		x_display_lock_owner_of owner_of, void *data) {
	pid_t pid = x_display_lock_pid(lock->text, lock->len);
	if (pid < 0) {
		return lock->len > 0 || lock->age_ms >= X_DISPLAY_LOCK_WRITE_MS ||
			lock->age_ms < 0; /* from the future: set by hand */
	}
	long uid = owner_of(pid, data);
	if (uid == X_DISPLAY_LOCK_NO_PROCESS) {
		return true;
	}
	/* root's locks are trusted; another's may not name a process it does not own. */
	return lock->owner != 0 && uid != X_DISPLAY_LOCK_OWNER_UNKNOWN &&
		uid != (long)lock->owner;
}
