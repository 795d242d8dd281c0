/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <wlr/util/log.h>
#include "remote/vnc/vnc_private.h"
#include "remote/vnc/vnc_relay.h"

/*
 * Raw updates written straight from the framebuffer. libvncserver copies
 * every raw pixel into its 32 KiB update buffer and writes that into its
 * socket, the relay's socketpair (two copies), from where the relay
 * thread splices it to the viewer's socket. Here the update is written
 * once, from the framebuffer's rows, to the viewer's socket.
 *
 * Only for the plain case: a viewer that prefers raw, in the
 * framebuffer's own pixel format, over a plain socket, with nothing else
 * due in this update (a new size, cursor shape or position, copies,
 * one-time pseudo-rectangles). Everything else goes through libvncserver,
 * which then finds nothing of this update left to send.
 */

static bool plain_raw_update(rfbClientPtr cl) {
	rfbScreenInfoPtr screen = cl->screen;
	return (cl->preferredEncoding == rfbEncodingRaw || cl->preferredEncoding == -1) &&
		cl->translateFn == rfbTranslateNone && cl->scaledScreen == screen &&
		!cl->sslctx && !cl->wsctx && cl->ublen == 0 &&
		!(cl->useNewFBSize && cl->newFBSizePending) &&
		!(cl->enableCursorShapeUpdates && cl->cursorWasChanged) &&
		!(cl->enableCursorPosUpdates && cl->cursorWasMoved) &&
		(cl->enableCursorShapeUpdates || !screen->cursor) &&
		!cl->enableSupportedMessages && !cl->enableSupportedEncodings &&
		!cl->enableServerIdentity && !screen->getKeyboardLedStateHook &&
		!screen->displayHook && !screen->displayFinishedHook &&
		screen->progressiveSliceHeight == 0 && sraRgnEmpty(cl->copyRegion) &&
		screen->serverFormat.bitsPerPixel == 32;
}

static void put16(uint8_t *p, int v) {
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, int32_t v) {
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The region to send, as libvncserver would: a bounding box past maxRectsPerUpdate. */
static sraRegionPtr take_update_region(rfbClientPtr cl) {
	sraRegionPtr region = sraRgnCreateRgn(cl->modifiedRegion);
	sraRgnAnd(region, cl->requestedRegion);
	int max = cl->screen->maxRectsPerUpdate;
	if (max > 0 && sraRgnCountRects(region) > (unsigned long)max) {
		sraRegionPtr box = sraRgnBBox(region);
		sraRgnDestroy(region);
		region = box;
	}
	return region;
}

static bool whole_rows(const sraRect *rect, rfbScreenInfoPtr screen) {
	return rect->x1 == 0 && rect->x2 == screen->width &&
		screen->paddedWidthInBytes == screen->width * 4;
}

/*
 * The update's pieces: its header, then each rectangle's header and its
 * pixels, one piece for a rectangle of whole framebuffer rows, else one
 * per row. headers has room for the header and n_rects rectangle headers.
 */
static struct iovec *update_pieces(rfbClientPtr cl, sraRegionPtr region,
		unsigned long n_rects, uint8_t *headers, size_t *n_pieces) {
	rfbScreenInfoPtr screen = cl->screen;
	size_t n = 1;
	sraRectangleIterator *it = sraRgnGetIterator(region);
	sraRect rect;
	while (sraRgnIteratorNext(it, &rect)) {
		n += 1 + (whole_rows(&rect, screen) ? 1 : (size_t)(rect.y2 - rect.y1));
	}
	sraRgnReleaseIterator(it);
	struct iovec *iov = n <= INT_MAX ? calloc(n, sizeof(*iov)) : NULL;
	if (!iov) {
		return NULL;
	}
	headers[0] = rfbFramebufferUpdate;
	headers[1] = 0;
	put16(headers + 2, (int)n_rects);
	iov[0] = (struct iovec){ headers, sz_rfbFramebufferUpdateMsg };
	size_t i = 1;
	uint8_t *header = headers + sz_rfbFramebufferUpdateMsg;
	size_t stride = (size_t)screen->paddedWidthInBytes;
	it = sraRgnGetIterator(region);
	while (sraRgnIteratorNext(it, &rect)) {
		int w = rect.x2 - rect.x1, h = rect.y2 - rect.y1;
		put16(header, rect.x1);
		put16(header + 2, rect.y1);
		put16(header + 4, w);
		put16(header + 6, h);
		put32(header + 8, rfbEncodingRaw);
		iov[i++] = (struct iovec){ header, sz_rfbFramebufferUpdateRectHeader };
		header += sz_rfbFramebufferUpdateRectHeader;
		char *pixels = screen->frameBuffer + rect.y1 * stride + (size_t)rect.x1 * 4;
		if (whole_rows(&rect, screen)) {
			iov[i++] = (struct iovec){ pixels, (size_t)h * stride };
			continue;
		}
		for (int y = 0; y < h; y++) {
			iov[i++] = (struct iovec){ pixels + (size_t)y * stride, (size_t)w * 4 };
		}
	}
	sraRgnReleaseIterator(it);
	*n_pieces = n;
	return iov;
}

/* What libvncserver does after sending an update, statistics included. */
static void update_sent(struct vnc_client *client, sraRegionPtr region) {
	rfbClientPtr cl = client->cl;
	rfbStatRecordMessageSent(cl, rfbFramebufferUpdate, 0, 0);
	sraRectangleIterator *it = sraRgnGetIterator(region);
	sraRect rect;
	while (sraRgnIteratorNext(it, &rect)) {
		int bytes = sz_rfbFramebufferUpdateRectHeader +
			(rect.x2 - rect.x1) * (rect.y2 - rect.y1) * 4;
		rfbStatRecordEncodingSent(cl, rfbEncodingRaw, bytes, bytes);
	}
	sraRgnReleaseIterator(it);
	sraRgnSubtract(cl->modifiedRegion, region);
	sraRgnMakeEmpty(cl->requestedRegion);
	if (!client->raw_direct) {
		client->raw_direct = true;
		wlr_log(WLR_INFO, "VNC: viewer %" PRIu64 " gets raw updates straight "
			"from the framebuffer", client->id);
	}
}

bool vnc_raw_update(struct vnc_client *client) {
	rfbClientPtr cl = client->cl;
	if (!client->relay || !plain_raw_update(cl)) {
		return false;
	}
	sraRegionPtr region = take_update_region(cl);
	unsigned long n_rects = sraRgnCountRects(region);
	bool written = false;
	/* Else libvncserver knows what (not) to send. */
	if (n_rects > 0 && n_rects <= 0xffff) {
		uint8_t *headers = malloc(sz_rfbFramebufferUpdateMsg +
			n_rects * sz_rfbFramebufferUpdateRectHeader);
		size_t n_pieces = 0;
		struct iovec *iov = headers ?
			update_pieces(cl, region, n_rects, headers, &n_pieces) : NULL;
		written = iov && vnc_relay_write(client->relay, iov, (int)n_pieces);
		if (written) {
			update_sent(client, region);
		}
		free(iov);
		free(headers);
	}
	sraRgnDestroy(region);
	return written;
}
