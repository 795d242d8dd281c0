/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <freerdp/codec/color.h>
#include <freerdp/codec/h264.h>
#include <winpr/crt.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_h264_packet.h"
#include "remote/rdp/rdp_private.h"
#include "common/util.h"

/*
 * AVC420 frames of one client, encoded by FreeRDP's H.264 layer (Debian's
 * FreeRDP: libavcodec with x264, preset "medium", which FreeRDP fixes).
 * A frame takes tens of milliseconds at 1080p, so it is encoded in a
 * thread of the encoder's own, which sleeps between frames; the loop
 * gets the result through an eventfd and sends it.
 *
 * The encoder keeps its own copy of the surface, brought up to date
 * with what changed since its last frame before the thread starts: the
 * thread never reads the framebuffer that captures write meanwhile. The whole surface
 * is encoded (FreeRDP's client decodes AVC420 at the surface's size; a
 * P-frame costs few bits where nothing changed); the damage goes as the
 * frame's region rectangles, which are all the client copies to its
 * screen. The first frame of an encoder covers everything.
 */

/* More damage rectangles than this go as their bounding box. */
#define MAX_REGION_RECTS 64
/* The quality the client is told of (the encoder's is by bit rate). */
#define H264_QP 22

struct rdp_h264 {
	H264_CONTEXT *avc;
	int width, height, stride;
	uint8_t *surface; /* the encoder's copy */
	bool started;     /* sent a first frame */

	/* The frame being encoded: its region rectangles and result. */
	RECTANGLE_16 rects[MAX_REGION_RECTS];
	RDPGFX_H264_QUANT_QUALITY quality[MAX_REGION_RECTS];
	RDPGFX_AVC420_BITMAP_STREAM stream;

	pthread_t thread;
	bool thread_started;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool job, stop, ok; /* guarded by lock */
	int done_fd;
	struct wl_event_source *done_source;
	void (*encoded)(void *data);
	void *data;
};

/* Bits per second: about 4 a pixel (8 Mbit/s at 1080p), within limits. */
static UINT32 bit_rate(int width, int height) {
	uint64_t rate = (uint64_t)width * height * 4;
	if (rate < 2000000) {
		rate = 2000000;
	}
	if (rate > 20000000) {
		rate = 20000000;
	}
	return (UINT32)rate;
}

/* FreeRDP 2.11's h264_context_free leaves the YUV planes that an encoding
 * context's avc420_compress allocated. */
static void context_free(H264_CONTEXT *avc) {
	if (!avc) {
		return;
	}
	for (int i = 0; i < 3; i++) {
		_aligned_free(avc->pYUVData[i]);
		avc->pYUVData[i] = NULL;
	}
	rdp_h264_release_packet(avc);
	h264_context_free(avc);
}

static H264_CONTEXT *context_create(int width, int height) {
	H264_CONTEXT *avc = h264_context_new(TRUE);
	if (!avc) {
		return NULL;
	}
	avc->RateControlMode = H264_RATECONTROL_VBR;
	avc->BitRate = bit_rate(width, height);
	avc->FrameRate = 60;
	avc->QP = H264_QP;
	if (!h264_context_reset(avc, (UINT32)width, (UINT32)height)) {
		context_free(avc);
		return NULL;
	}
	return avc;
}

bool rdp_h264_available(void) {
	static int available = -1;
	if (available >= 0) {
		return available;
	}
	available = 0;
	enum { SIZE = 64 };
	uint8_t *black = calloc(SIZE * SIZE, 4);
	H264_CONTEXT *avc = black ? context_create(SIZE, SIZE) : NULL;
	BYTE *data = NULL;
	UINT32 length = 0;
	if (avc && avc420_compress(avc, black, PIXEL_FORMAT_BGRX32, SIZE * 4, SIZE, SIZE,
			&data, &length) >= 0 && length > 0) {
		available = 1;
		wlr_log(WLR_INFO, "RDP: H.264 (AVC420) encodes through FreeRDP's %s",
			avc->subsystem && avc->subsystem->name ? avc->subsystem->name : "codec");
	} else {
		wlr_log(WLR_INFO, "RDP: FreeRDP cannot encode H.264 here: graphics pipeline "
			"clients get progressive RemoteFX");
	}
	context_free(avc);
	free(black);
	return available;
}

static void *encode_thread(void *arg) {
	struct rdp_h264 *h264 = arg;
	pthread_mutex_lock(&h264->lock);
	for (;;) {
		while (!h264->job && !h264->stop) {
			pthread_cond_wait(&h264->wake, &h264->lock);
		}
		if (h264->stop) {
			break;
		}
		pthread_mutex_unlock(&h264->lock);
		RDPGFX_AVC420_BITMAP_STREAM *stream = &h264->stream;
		bool ok = avc420_compress(h264->avc, h264->surface, PIXEL_FORMAT_BGRX32,
			(UINT32)h264->stride, (UINT32)h264->width, (UINT32)h264->height,
			&stream->data, &stream->length) >= 0;
		pthread_mutex_lock(&h264->lock);
		h264->job = false;
		h264->ok = ok;
		uint64_t one = 1;
		if (write(h264->done_fd, &one, sizeof(one)) < 0) {
			h264->ok = false;
		}
	}
	pthread_mutex_unlock(&h264->lock);
	return NULL;
}

static int handle_done(int fd, uint32_t mask, void *data) {
	struct rdp_h264 *h264 = data;
	uint64_t count;
	if (read(fd, &count, sizeof(count)) < 0 && errno == EAGAIN) {
		return 0;
	}
	h264->encoded(h264->data);
	return 0;
}

struct rdp_h264 *rdp_h264_create(int width, int height, struct wl_event_loop *loop,
		void (*encoded)(void *data), void *data) {
	struct rdp_h264 *h264 = zalloc(sizeof(*h264));
	h264->width = width;
	h264->height = height;
	h264->stride = width * 4;
	h264->encoded = encoded;
	h264->data = data;
	h264->done_fd = -1;
	pthread_mutex_init(&h264->lock, NULL);
	pthread_cond_init(&h264->wake, NULL);
	h264->avc = context_create(width, height);
	h264->surface = calloc((size_t)width * height, 4);
	h264->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!h264->avc || !h264->surface || h264->done_fd < 0) {
		rdp_h264_destroy(h264);
		return NULL;
	}
	h264->done_source = wl_event_loop_add_fd(loop, h264->done_fd, WL_EVENT_READABLE,
		handle_done, h264);
	if (!h264->done_source ||
			pthread_create(&h264->thread, NULL, encode_thread, h264) != 0) {
		rdp_h264_destroy(h264);
		return NULL;
	}
	h264->thread_started = true;
	return h264;
}

void rdp_h264_destroy(struct rdp_h264 *h264) {
	if (!h264) {
		return;
	}
	if (h264->thread_started) {
		/* Waits for a frame being encoded. */
		pthread_mutex_lock(&h264->lock);
		h264->stop = true;
		pthread_cond_signal(&h264->wake);
		pthread_mutex_unlock(&h264->lock);
		pthread_join(h264->thread, NULL);
	}
	if (h264->done_source) {
		wl_event_source_remove(h264->done_source);
	}
	if (h264->done_fd >= 0) {
		close(h264->done_fd);
	}
	pthread_cond_destroy(&h264->wake);
	pthread_mutex_destroy(&h264->lock);
	context_free(h264->avc);
	free(h264->surface);
	free(h264);
}

static RECTANGLE_16 rect16(const pixman_box32_t *box) {
	return (RECTANGLE_16){ (UINT16)box->x1, (UINT16)box->y1, (UINT16)box->x2, (UINT16)box->y2 };
}

bool rdp_h264_start(struct rdp_h264 *h264, const uint8_t *fb, int stride,
		const pixman_region32_t *changed, const pixman_region32_t *damage) {
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(
		(pixman_region32_t *)changed, &n_boxes);
	/* The thread is idle: the copy and the rectangles are the loop's. */
	for (int i = 0; i < n_boxes; i++) {
		const pixman_box32_t *box = &boxes[i];
		size_t bytes = (size_t)(box->x2 - box->x1) * 4;
		for (int y = box->y1; y < box->y2; y++) {
			memcpy(h264->surface + (size_t)y * h264->stride + (size_t)box->x1 * 4,
				fb + (size_t)y * stride + (size_t)box->x1 * 4, bytes);
		}
	}
	boxes = pixman_region32_rectangles((pixman_region32_t *)damage, &n_boxes);
	pixman_box32_t all = { 0, 0, h264->width, h264->height };
	if (!h264->started) {
		/* A key frame: the client has nothing of this stream yet. */
		boxes = &all;
		n_boxes = 1;
		h264->started = true;
	} else if (n_boxes > MAX_REGION_RECTS) {
		boxes = pixman_region32_extents((pixman_region32_t *)damage);
		n_boxes = 1;
	}
	for (int i = 0; i < n_boxes; i++) {
		h264->rects[i] = rect16(&boxes[i]);
		h264->quality[i] = (RDPGFX_H264_QUANT_QUALITY){
			.qp = H264_QP, .qualityVal = 100 - H264_QP,
		};
	}
	h264->stream.meta.numRegionRects = (UINT32)n_boxes;
	h264->stream.meta.regionRects = h264->rects;
	h264->stream.meta.quantQualityVals = h264->quality;
	pthread_mutex_lock(&h264->lock);
	h264->job = true;
	pthread_cond_signal(&h264->wake);
	pthread_mutex_unlock(&h264->lock);
	return true;
}

bool rdp_h264_result(struct rdp_h264 *h264, RDPGFX_SURFACE_COMMAND *cmd) {
	pthread_mutex_lock(&h264->lock);
	bool ok = h264->ok && !h264->job;
	pthread_mutex_unlock(&h264->lock);
	if (!ok) {
		return false;
	}
	cmd->codecId = RDPGFX_CODECID_AVC420;
	cmd->format = PIXEL_FORMAT_BGRX32;
	cmd->left = 0;
	cmd->top = 0;
	cmd->right = (UINT32)h264->width;
	cmd->bottom = (UINT32)h264->height;
	cmd->width = (UINT32)h264->width;
	cmd->height = (UINT32)h264->height;
	cmd->extra = &h264->stream;
	cmd->length = h264->stream.length;
	return true;
}
