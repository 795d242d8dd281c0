/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include "capture/output_capture.h"
#include "remote/vnc/vnc_private.h"

/*
 * A window move as CopyRect: viewers copy the pixels they already have
 * instead of receiving them again. The capture says which window moved
 * where (a hint); only the rows of the destination whose new pixels equal
 * what the framebuffer holds at the source are sent as a copy, so anything
 * else that changed there (a window above, new content) goes as usual.
 */

/*
 * libvncserver's copy scheduling looks at screen->cursor for viewers that
 * get the cursor drawn into their pixels; with no cursor it must not run.
 */
static bool copy_possible(struct vnc_server *vnc) {
	if (vnc->screen->cursor) {
		return true;
	}
	struct vnc_client *client;
	wl_list_for_each(client, &vnc->clients, link) {
		if (client->cl->useCopyRect && !client->cl->enableCursorShapeUpdates) {
			return false;
		}
	}
	return true;
}

static bool any_copy_viewer(struct vnc_server *vnc) {
	struct vnc_client *client;
	wl_list_for_each(client, &vnc->clients, link) {
		if (client->cl->useCopyRect) {
			return true;
		}
	}
	return false;
}

/*
 * Adds to same the rows of box (framebuffer coordinates) whose pixels in
 * the frame equal the framebuffer's at the same place minus (dx, dy).
 */
static void add_same_rows(struct vnc_source *source, const struct output_capture_frame *frame,
		const pixman_box32_t *box, int dx, int dy, pixman_region32_t *same) {
	struct vnc_server *vnc = source->vnc;
	int w = box->x2 - box->x1, h = box->y2 - box->y1;
	uint8_t *rows = malloc((size_t)w * h * 4);
	if (!rows) {
		return;
	}
	/* The frame's pixels of box, in the framebuffer's format. */
	pixman_region32_t wanted;
	pixman_region32_init_rect(&wanted, box->x1 - source->x, box->y1 - source->y,
		(unsigned)w, (unsigned)h);
	bool ok = output_capture_frame_copy(source->capture, frame, &wanted, rows, w * 4,
		w, h, source->x - box->x1, source->y - box->y1, vnc->fb_rgbx);
	pixman_region32_fini(&wanted);
	for (int y = 0; ok && y < h; y++) {
		const uint8_t *old = vnc->fb +
			((size_t)(box->y1 + y - dy) * vnc->width + (box->x1 - dx)) * 4;
		if (memcmp(rows + (size_t)y * w * 4, old, (size_t)w * 4) == 0) {
			pixman_region32_union_rect(same, same, box->x1, box->y1 + y,
				(unsigned)w, 1);
		}
	}
	free(rows);
}

void vnc_copyrect_frame(struct vnc_source *source, const struct output_capture_frame *frame,
		pixman_region32_t *copied) {
	struct vnc_server *vnc = source->vnc;
	const struct output_capture_move *move = frame->move;
	if (!move || !any_copy_viewer(vnc) || !copy_possible(vnc)) {
		return;
	}
	int dx = move->dx, dy = move->dy;
	/* The destination: damaged, on this output, with its source on the framebuffer. */
	pixman_region32_t dest;
	pixman_region32_init_rect(&dest, move->to.x, move->to.y,
		(unsigned)move->to.width, (unsigned)move->to.height);
	pixman_region32_intersect(&dest, &dest, frame->damage);
	pixman_region32_intersect_rect(&dest, &dest, 0, 0,
		(unsigned)frame->width, (unsigned)frame->height);
	pixman_region32_translate(&dest, source->x, source->y);
	pixman_region32_intersect_rect(&dest, &dest, 0, 0,
		(unsigned)vnc->width, (unsigned)vnc->height);
	pixman_region32_intersect_rect(&dest, &dest, dx, dy,
		(unsigned)vnc->width, (unsigned)vnc->height);

	int n_rects;
	const pixman_box32_t *rects = pixman_region32_rectangles(&dest, &n_rects);
	for (int i = 0; i < n_rects; i++) {
		add_same_rows(source, frame, &rects[i], dx, dy, copied);
	}
	pixman_region32_fini(&dest);
	if (!pixman_region32_not_empty(copied)) {
		return;
	}
	sraRegionPtr region = sraRgnCreate();
	rects = pixman_region32_rectangles(copied, &n_rects);
	for (int i = 0; i < n_rects; i++) {
		sraRegionPtr rect = sraRgnCreateRect(rects[i].x1, rects[i].y1,
			rects[i].x2, rects[i].y2);
		sraRgnOr(region, rect);
		sraRgnDestroy(rect);
	}
	/*
	 * Before this frame's other damage is marked: libvncserver sends a
	 * copy whose source a viewer has not received yet as plain pixels.
	 */
	rfbScheduleCopyRegion(vnc->screen, region, dx, dy);
	sraRgnDestroy(region);
	wlr_log(WLR_DEBUG, "VNC: a window move by %d,%d goes as a copy of %d rectangle(s)",
		dx, dy, n_rects);
}
