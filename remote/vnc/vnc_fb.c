/* SPDX-License-Identifier: MIT */
#include <sys/mman.h>
#include <time.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/output_capture.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * The framebuffer's memory, and what a quiet session keeps of it.
 *
 * At 1920x1080 the framebuffer is 8 MiB per session, and an idle
 * session's viewers need none of it: they have every pixel already. So
 * once nothing has been drawn or sent for VNC_FB_QUIET_MS, and no viewer
 * has anything left to receive, its pages go back to the system
 * (MADV_DONTNEED: the mapping stays, and reads would see zeros). Before
 * the next update is sent the whole picture comes back from the output:
 * a frame of the output's buffer, which holds all of it, is copied whole.
 * That frame is the next change, or one asked for with nothing changed
 * (output_capture_request_pixels) when a viewer needs pixels first (a new
 * viewer, a full refresh, a cursor drawn into the pixels).
 *
 * Only a framebuffer of one output lets go: in the layout mode it is
 * stitched from several. The one frame that brings it back cannot be sent
 * as a CopyRect (the old pixels are not there to compare): a window move
 * that starts a busy spell goes as pixels for its first frame.
 */

uint8_t *vnc_fb_alloc(int width, int height) {
	size_t size = (size_t)width * height * 4;
	/* mmap'd, not malloc'd: zeroed, and its pages can be given back alone. */
	void *fb = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return fb == MAP_FAILED ? NULL : fb;
}

void vnc_fb_free(uint8_t *fb, int width, int height) {
	if (fb) {
		munmap(fb, (size_t)width * height * 4);
	}
}

static bool viewers_have_everything(struct vnc_server *vnc) {
	rfbClientIteratorPtr it = rfbGetClientIterator(vnc->screen);
	rfbClientPtr cl;
	bool all = true;
	while (all && (cl = rfbClientIteratorNext(it))) {
		/*
		 * A viewer in its handshake has the whole screen still to come,
		 * one with JPEG's pixels their refinement.
		 */
		struct vnc_client *client = cl->clientData;
		all = cl->state == RFB_NORMAL && sraRgnEmpty(cl->modifiedRegion) &&
			sraRgnEmpty(cl->copyRegion) && !(client && vnc_refine_pending(client));
	}
	rfbReleaseClientIterator(it);
	return all;
}


static int handle_quiet(void *data) {
	struct vnc_server *vnc = data;
	vnc->fb_quiet_armed = false;
	int64_t quiet_for = monotonic_ms() - vnc->fb_busy_ms;
	if (quiet_for < VNC_FB_QUIET_MS) {
		/* Busy since the timer was set: it waits for the rest. */
		vnc->fb_quiet_armed = true;
		wl_event_source_timer_update(vnc->fb_quiet, (int)(VNC_FB_QUIET_MS - quiet_for));
		return 0;
	}
	/* A disabled output would not send the picture back. */
	if (vnc->fb_released || vnc->layout || !vnc->output || !vnc->fb ||
			!vnc->output->wlr_output->enabled) {
		return 0;
	}
	/*
	 * libvncserver's scaled screens (a viewer's SetScale) are filled from
	 * the framebuffer as it is marked: they would miss what is not.
	 */
	if (vnc->screen->scaledScreenNext || !viewers_have_everything(vnc)) {
		/* Asked again after the next update or frame. */
		return 0;
	}
	madvise(vnc->fb, (size_t)vnc->width * vnc->height * 4, MADV_DONTNEED);
	vnc->fb_released = true;
	wlr_log(WLR_DEBUG, "VNC: quiet for %d ms: the framebuffer's pages are given back",
		VNC_FB_QUIET_MS);
	return 0;
}

void vnc_fb_init(struct vnc_server *vnc) {
	vnc->fb_quiet = wl_event_loop_add_timer(vnc->server->loop, handle_quiet, vnc);
}

void vnc_fb_finish(struct vnc_server *vnc) {
	if (vnc->fb_quiet) {
		wl_event_source_remove(vnc->fb_quiet);
		vnc->fb_quiet = NULL;
	}
}

void vnc_fb_busy(struct vnc_server *vnc) {
	/* The clock only, on every frame and send: no timer syscall each time. */
	vnc->fb_busy_ms = monotonic_ms();
	if (vnc->fb_quiet && !vnc->fb_quiet_armed) {
		vnc->fb_quiet_armed = true;
		wl_event_source_timer_update(vnc->fb_quiet, VNC_FB_QUIET_MS);
	}
}

bool vnc_fb_ready(struct vnc_server *vnc) {
	if (!vnc->fb_released) {
		return true;
	}
	if (!vnc->fb_wanted) {
		vnc->fb_wanted = true;
		struct vnc_source *source;
		wl_list_for_each(source, &vnc->sources, link) {
			output_capture_request_pixels(source->capture);
		}
	}
	return false;
}

void vnc_fb_restored(struct vnc_server *vnc) {
	vnc->fb_released = false;
	vnc->fb_wanted = false;
	vnc_fb_busy(vnc);
	if (vnc->screen->scaledScreenNext) {
		/* A scaled screen made meanwhile was filled with zeros: all of it again. */
		rfbMarkRectAsModified(vnc->screen, 0, 0, vnc->width, vnc->height);
	}
}
