/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "xwm/x_display_borrow.h"

#define ABSTRACT_X_PREFIX "/tmp/.X11-unix/X"

static _Thread_local bool borrowing;

void x_display_borrow(bool on) {
	borrowing = on;
}

static bool is_abstract_x_name(const struct sockaddr *addr, socklen_t len) {
	const struct sockaddr_un *un = (const struct sockaddr_un *)addr;
	size_t prefix = strlen(ABSTRACT_X_PREFIX);
	size_t offset = offsetof(struct sockaddr_un, sun_path);
	return addr && addr->sa_family == AF_UNIX && len > offset + 1 + prefix &&
		un->sun_path[0] == '\0' &&
		memcmp(un->sun_path + 1, ABSTRACT_X_PREFIX, prefix) == 0;
}

/* Every bind of oriel's process, wlroots' among them, comes here first. */
int bind(int fd, const struct sockaddr *addr, socklen_t len) {
	typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);
	static bind_fn found;
	bind_fn real_bind = __atomic_load_n(&found, __ATOMIC_ACQUIRE);
	if (!real_bind) {
		real_bind = (bind_fn)dlsym(RTLD_NEXT, "bind");
		if (!real_bind) {
			errno = ENOSYS;
			return -1;
		}
		__atomic_store_n(&found, real_bind, __ATOMIC_RELEASE);
	}
	int rc = real_bind(fd, addr, len);
	if (rc == 0 || !borrowing || errno != EADDRINUSE || !is_abstract_x_name(addr, len)) {
		return rc;
	}
	struct sockaddr_un unnamed = { .sun_family = AF_UNIX };
	return real_bind(fd, (struct sockaddr *)&unnamed, sizeof(sa_family_t));
}
