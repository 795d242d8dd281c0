/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include "remote/vnc/vnc_private.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Lossless refinement of what went as JPEG, as TigerVNC's automatic
 * lossless refresh does. A viewer that sets a quality level (noVNC does by
 * default) lets Tight send photo-like areas as JPEG; once they stand
 * still they go again without it, so that a still screen ends up exact.
 *
 * libvncserver does not say which rectangles it chose JPEG for, so all
 * that went while JPEG was allowed counts as lossy. Once nothing has gone
 * to the viewer for REFINE_AFTER_MS, the lossy region is marked modified
 * for that viewer alone, a band of at most REFINE_MAX_PIXELS at a time,
 * and the update that carries it goes with JPEG off. Motion comes first:
 * an update that carries more than the band goes with JPEG as usual, and
 * the refinement waits for the next still moment.
 */

#define REFINE_AFTER_MS 200
/* An eighth of 1920x1080: well within a frame's time through zlib. */
#define REFINE_MAX_PIXELS (256 * 1024)

/* Tight, with a quality level: JPEG where libvncserver finds it fits. */
static bool tight_with_jpeg(rfbClientPtr cl) {
	return (cl->preferredEncoding == (int)rfbEncodingTight ||
			cl->preferredEncoding == (int)rfbEncodingTightPng) &&
		cl->turboQualityLevel != -1;
}

static void region_from_sra(pixman_region32_t *dst, sraRegionPtr src) {
	sraRectangleIterator *it = sraRgnGetIterator(src);
	sraRect rect;
	while (sraRgnIteratorNext(it, &rect)) {
		pixman_region32_union_rect(dst, dst, rect.x1, rect.y1,
			(unsigned)(rect.x2 - rect.x1), (unsigned)(rect.y2 - rect.y1));
	}
	sraRgnReleaseIterator(it);
}

/*
 * What libvncserver is about to encode: modified and asked for; a
 * bounding box past maxRectsPerUpdate, except in Tight, which sends the
 * rectangles as they are.
 */
static void region_to_send(rfbClientPtr cl, pixman_region32_t *sent) {
	sraRegionPtr region = sraRgnCreateRgn(cl->modifiedRegion);
	sraRgnAnd(region, cl->requestedRegion);
	bool tight = cl->preferredEncoding == (int)rfbEncodingTight ||
		cl->preferredEncoding == (int)rfbEncodingTightPng;
	int max = cl->screen->maxRectsPerUpdate;
	if (!tight && max > 0 && sraRgnCountRects(region) > (unsigned long)max) {
		sraRegionPtr box = sraRgnBBox(region);
		sraRgnDestroy(region);
		region = box;
	}
	region_from_sra(sent, region);
	sraRgnDestroy(region);
}

void vnc_refine_begin_update(struct vnc_client *client) {
	rfbClientPtr cl = client->cl;
	pixman_region32_intersect_rect(&client->lossy, &client->lossy, 0, 0,
		(unsigned)client->vnc->width, (unsigned)client->vnc->height);
	pixman_region32_t sent;
	pixman_region32_init(&sent);
	region_to_send(cl, &sent);
	if (client->refining) {
		pixman_region32_t motion;
		pixman_region32_init(&motion);
		pixman_region32_subtract(&motion, &sent, &client->band);
		if (pixman_region32_not_empty(&motion)) {
			/* Damage came since the band was marked: it goes as usual. */
			client->refining = false;
		}
		pixman_region32_fini(&motion);
	}
	bool lossy = tight_with_jpeg(cl) && !client->refining;
	if (lossy) {
		pixman_region32_union(&client->lossy, &client->lossy, &sent);
	} else {
		pixman_region32_subtract(&client->lossy, &client->lossy, &sent);
	}
	pixman_region32_fini(&sent);
	/* A copy moves the viewer's own pixels, lossy ones too. */
	if (pixman_region32_not_empty(&client->lossy) && !sraRgnEmpty(cl->copyRegion)) {
		region_from_sra(&client->lossy, cl->copyRegion);
	}
	if (client->refining) {
		/* Tight lowers the compression level it is given when JPEG is off. */
		client->saved_quality = cl->turboQualityLevel;
		client->saved_compress = cl->tightCompressLevel;
		cl->turboQualityLevel = -1;
	}
}

void vnc_refine_end_update(struct vnc_client *client) {
	rfbClientPtr cl = client->cl;
	bool refined = client->refining;
	if (refined) {
		cl->turboQualityLevel = client->saved_quality;
		cl->tightCompressLevel = client->saved_compress;
		client->refining = false;
		/* Not sent (not asked for): dropped, so that each band makes progress. */
		pixman_region32_subtract(&client->lossy, &client->lossy, &client->band);
	}
	pixman_region32_clear(&client->band);
	client->band_follows = refined;
	client->last_send_ms = monotonic_ms();
	if (!pixman_region32_not_empty(&client->lossy)) {
		return;
	}
	if (refined) {
		/* The next band at once: the viewer's requests and max-fps pace it. */
		wl_event_source_timer_update(client->refine_timer, 1);
		client->refine_armed = true;
	} else if (!client->refine_armed) {
		/* The clock only, on every update in motion; the timer checks it. */
		wl_event_source_timer_update(client->refine_timer, REFINE_AFTER_MS);
		client->refine_armed = true;
	}
}

/* The lossy region's first rows, up to REFINE_MAX_PIXELS. */
static void take_band(pixman_region32_t *lossy, pixman_region32_t *band) {
	int n;
	const pixman_box32_t *boxes = pixman_region32_rectangles(lossy, &n);
	int64_t pixels = 0;
	for (int i = 0; i < n && pixels < REFINE_MAX_PIXELS; i++) {
		const pixman_box32_t *b = &boxes[i];
		int64_t width = b->x2 - b->x1;
		int64_t rows = b->y2 - b->y1;
		if (pixels + width * rows > REFINE_MAX_PIXELS) {
			rows = (REFINE_MAX_PIXELS - pixels) / width;
			if (rows == 0 && pixels > 0) {
				break;
			}
			rows = rows > 0 ? rows : 1;
		}
		pixman_region32_union_rect(band, band, b->x1, b->y1, (unsigned)width,
			(unsigned)rows);
		pixels += width * rows;
	}
}

static int handle_refine(void *data) {
	struct vnc_client *client = data;
	rfbClientPtr cl = client->cl;
	client->refine_armed = false;
	if (!pixman_region32_not_empty(&client->lossy) || cl->sock == RFB_INVALID_SOCKET ||
			client->refining) {
		return 0;
	}
	int64_t still_for = monotonic_ms() - client->last_send_ms;
	if (!client->band_follows && still_for < REFINE_AFTER_MS) {
		client->refine_armed = true;
		wl_event_source_timer_update(client->refine_timer, (int)(REFINE_AFTER_MS - still_for));
		return 0;
	}
	take_band(&client->lossy, &client->band);
	int n;
	const pixman_box32_t *boxes = pixman_region32_rectangles(&client->band, &n);
	pthread_mutex_lock(&cl->updateMutex);
	for (int i = 0; i < n; i++) {
		sraRegionPtr rect = sraRgnCreateRect(boxes[i].x1, boxes[i].y1, boxes[i].x2,
			boxes[i].y2);
		sraRgnOr(cl->modifiedRegion, rect);
		sraRgnDestroy(rect);
	}
	pthread_mutex_unlock(&cl->updateMutex);
	client->refining = true;
	vnc_client_schedule_update(client);
	return 0;
}

bool vnc_refine_init(struct vnc_client *client) {
	pixman_region32_init(&client->lossy);
	pixman_region32_init(&client->band);
	client->refine_timer = wl_event_loop_add_timer(client->vnc->server->loop,
		handle_refine, client);
	return client->refine_timer != NULL;
}

void vnc_refine_finish(struct vnc_client *client) {
	if (client->refine_timer) {
		wl_event_source_remove(client->refine_timer);
		client->refine_timer = NULL;
	}
	pixman_region32_fini(&client->lossy);
	pixman_region32_fini(&client->band);
}

bool vnc_refine_pending(struct vnc_client *client) {
	return pixman_region32_not_empty(&client->lossy);
}
