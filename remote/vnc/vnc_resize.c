/* SPDX-License-Identifier: MIT */
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "remote/desktop_size.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/headless_backend.h"
#include "compositor/output.h"

/*
 * Viewer-requested desktop size (SetDesktopSize) resizes the served
 * headless output. The new framebuffer reaches every viewer when the
 * output's mode changes (vnc_server.c: outputs_changed → rfbNewFramebuffer),
 * the same path a server-side resize (orielctl output-size) takes.
 */

static int handle_set_desktop_size(int width, int height, int n_screens,
		struct rfbExtDesktopScreen *screens, rfbClientPtr cl) {
	struct vnc_client *client = cl->clientData;
	if (!client || cl->viewOnly) {
		return rfbExtDesktopSize_ResizeProhibited;
	}
	struct vnc_server *vnc = client->vnc;
	if (!vnc->output || !headless_output_is(vnc->output->wlr_output)) {
		return rfbExtDesktopSize_ResizeProhibited;
	}
	if (!remote_desktop_size_allowed(width, height)) {
		return rfbExtDesktopSize_InvalidScreenLayout;
	}
	if (width == vnc->width && height == vnc->height) {
		return rfbExtDesktopSize_Success;
	}
	wlr_log(WLR_INFO, "VNC: viewer %s resizes %s to %dx%d", cl->host,
		vnc->output->wlr_output->name, width, height);
	if (!output_set_size(vnc->output, width, height)) {
		return rfbExtDesktopSize_OutOfResources;
	}
	return rfbExtDesktopSize_Success;
}

void vnc_resize_init(struct vnc_server *vnc) {
	vnc->screen->setDesktopSizeHook = handle_set_desktop_size;
}

void vnc_resize_finish(struct vnc_server *vnc) {
	vnc->screen->setDesktopSizeHook = NULL;
}
