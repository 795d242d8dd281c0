/* SPDX-License-Identifier: MIT */
#include "remote/desktop_size.h"

/*
 * Sizes that viewers ask for (VNC's SetDesktopSize, RDP's requested size
 * and Display Control): bounded so that one client cannot make oriel
 * allocate framebuffers beyond what any real screen needs.
 */

bool remote_desktop_size_allowed(int width, int height) {
	return width >= 1 && height >= 1 &&
		width <= REMOTE_DESKTOP_MAX_SIZE && height <= REMOTE_DESKTOP_MAX_SIZE;
}
