/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <freerdp/codec/color.h>
#include <freerdp/primitives.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_avc444_chroma.h"
#include "remote/rdp/rdp_h264_x264.h"
#include "remote/rdp/rdp_private.h"
#include "remote/rdp/rdp_stage_time.h"
#include "common/util.h"

/*
 * H.264 frames of one client, AVC420 or AVC444v2, encoded by x264 through
 * rdp_h264_x264.c in a thread of their own, which sleeps between frames;
 * the loop gets the result through an eventfd and sends it.
 *
 * The encoder's input pictures are the only copy of the surface: before
 * the thread starts, the loop converts what changed since the last frame
 * from the framebuffer straight into them (FreeRDP's SIMD primitives), so
 * the thread never reads the framebuffer that captures write meanwhile.
 * - AVC420: one 4:2:0 picture, converted in 16-pixel-wide columns (the
 *   primitives' SIMD width) around the change;
 * - AVC444v2 (MS-RDPEGFX 3.3.8.3.3): the same 4:2:0 picture (luma) and a
 *   second one carrying the chroma that 4:2:0 drops, encoded one after
 *   the other as frames of one stream (the client decodes both with one
 *   decoder); the split lays rows out whole, so the change is converted
 *   in full rows. A frame whose damage has no chroma that the luma
 *   picture lacks (grey text above all: rdp_avc444_chroma.c) goes as its
 *   luma picture alone, at about AVC420's cost.
 * The whole picture is encoded (the client decodes at the surface's size;
 * a P-frame costs few bits where nothing changed); the damage goes as the
 * frame's region rectangles, which are all the client copies to its
 * screen. The first frame of an encoder is a key frame and covers all;
 * one after a switch between AVC444v2 and AVC420 is a key frame of the
 * new stream, and covers the damage only: the client has the rest.
 *
 * The rate follows the link to the client: when the client acknowledges
 * a frame, what still waits to be sent, and how much longer round trips
 * take than the link's fastest, say whether the link keeps up
 * (rdp_h264_acked). Behind, the rate cap drops by a quarter (a slow link
 * gets coarser frames, not fewer); with nothing waiting it grows back to
 * the ceiling.
 * How long acknowledgements take is no signal here: a client busy
 * decoding is slow to acknowledge while its link is idle, and coarser
 * frames would not help it.
 */

/* More damage rectangles than this go as their bounding box. */
#define MAX_REGION_RECTS 64
/* The quality the client is told of (x264 runs at constant quality). */
#define H264_QP 23
#define FRAME_RATE 60

struct rdp_h264 {
	struct rdp_x264 *encoder; /* AVC444v2: luma, then chroma pictures */
	bool avc444;
	bool chroma;      /* AVC444v2: this frame has its chroma picture */
	int width, height;
	bool started;     /* sent a first frame */

	/* The frame being encoded: its region rectangles and result. */
	RECTANGLE_16 rects[MAX_REGION_RECTS];
	RDPGFX_H264_QUANT_QUALITY quality[MAX_REGION_RECTS];
	RDPGFX_AVC420_BITMAP_STREAM stream[2];
	RDPGFX_AVC444_BITMAP_STREAM avc444_stream;

	/* The rate (kbit/s), and the frames' mean size (bytes). */
	unsigned kbit_rate, kbit_ceiling;
	uint64_t frame_bytes;
	unsigned acks_since_cut; /* acknowledgements since the rate was lowered */

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

/* The rate cap's ceiling: about 4 bits a pixel a second, within limits. */
static unsigned rate_ceiling(int width, int height) {
	uint64_t kbit = (uint64_t)width * height * 4 / 1000;
	if (kbit < 2000) {
		kbit = 2000;
	}
	if (kbit > 20000) {
		kbit = 20000;
	}
	return (unsigned)kbit;
}
#define RATE_FLOOR 500
/* After a cut, the frames already sent were encoded at the old rate: so
 * many acknowledgements pass before the queue says anything of the new
 * one (the frames rdp_gfx.c lets a client have unacknowledged). */
#define RATE_SETTLE_ACKS 2
/* Growing back, from the floor to the ceiling takes so many
 * acknowledgements with nothing queued (about a second of frames). */
#define RATE_GROWTH_STEPS 50
/*
 * Round trips longer than the link's fastest by two frames' time (60 Hz):
 * frames wait behind frames on the way. (One frame's time is what a link
 * that just keeps up spends sending a frame.)
 */
#define QUEUE_DELAY_US 33333

bool rdp_h264_available(void) {
	static int available = -1;
	if (available >= 0) {
		return available;
	}
	struct rdp_x264 *enc = rdp_x264_create(64, 64, FRAME_RATE, RATE_FLOOR, 1);
	const uint8_t *data;
	size_t length;
	available = enc && rdp_x264_encode(enc, 0, &data, &length) && length > 0;
	rdp_x264_destroy(enc);
	if (available) {
		wlr_log(WLR_INFO, "RDP: H.264 (AVC420, AVC444v2) encodes through x264");
	} else {
		wlr_log(WLR_INFO, "RDP: x264 cannot encode here: graphics pipeline "
			"clients get progressive RemoteFX");
	}
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
		bool ok = true;
		for (int i = 0; i < (h264->chroma ? 2 : 1) && ok; i++) {
			const uint8_t *data;
			size_t length;
			ok = rdp_x264_encode(h264->encoder, i, &data, &length);
			h264->stream[i].data = (BYTE *)data;
			h264->stream[i].length = ok ? (UINT32)length : 0;
		}
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

struct rdp_h264 *rdp_h264_create(int width, int height, bool avc444,
		struct wl_event_loop *loop, void (*encoded)(void *data), void *data) {
	struct rdp_h264 *h264 = zalloc(sizeof(*h264));
	h264->width = width;
	h264->height = height;
	h264->avc444 = avc444;
	h264->encoded = encoded;
	h264->data = data;
	h264->done_fd = -1;
	h264->kbit_ceiling = h264->kbit_rate = rate_ceiling(width, height);
	pthread_mutex_init(&h264->lock, NULL);
	pthread_cond_init(&h264->wake, NULL);
	h264->encoder = rdp_x264_create(width, height, FRAME_RATE, h264->kbit_rate,
		avc444 ? 2 : 1);
	bool ok = h264->encoder;
	h264->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!ok || h264->done_fd < 0) {
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

bool rdp_h264_switch(struct rdp_h264 *h264, bool avc444) {
	/* The thread is idle: the encoder is the loop's. */
	struct rdp_x264 *encoder = rdp_x264_create(h264->width, h264->height, FRAME_RATE,
		h264->kbit_rate, avc444 ? 2 : 1);
	if (!encoder) {
		return false;
	}
	rdp_x264_destroy(h264->encoder);
	h264->encoder = encoder;
	h264->avc444 = avc444;
	h264->stream[0] = h264->stream[1] = (RDPGFX_AVC420_BITMAP_STREAM){ 0 };
	return true;
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
	rdp_x264_destroy(h264->encoder);
	free(h264);
}

static RECTANGLE_16 rect16(const pixman_box32_t *box) {
	return (RECTANGLE_16){ (UINT16)box->x1, (UINT16)box->y1, (UINT16)box->x2, (UINT16)box->y2 };
}

static int align_down(int v, int to) {
	return v / to * to;
}

static int align_up(int v, int to, int limit) {
	v = (v + to - 1) / to * to;
	return v < limit ? v : limit;
}

/* The SIMD conversion takes 16 pixels at once and 4:2:0 two rows. */
static pixman_box32_t aligned_box(const struct rdp_h264 *h264, const pixman_box32_t *box) {
	return (pixman_box32_t){
		.x1 = h264->avc444 ? 0 : align_down(box->x1, 16),
		.x2 = h264->avc444 ? h264->width : align_up(box->x2, 16, h264->width),
		.y1 = align_down(box->y1, 2),
		.y2 = align_up(box->y2, 2, h264->height),
	};
}

bool rdp_h264_reads_within(const struct rdp_h264 *h264,
		const pixman_region32_t *changed, int width, int height) {
	pixman_box32_t box = aligned_box(h264,
		pixman_region32_extents((pixman_region32_t *)changed));
	return box.x2 <= width && box.y2 <= height;
}

/* Converts changed from fb into the encoders' pictures. */
static void convert(struct rdp_h264 *h264, const uint8_t *fb, int stride,
		const pixman_region32_t *changed) {
	pixman_region32_t aligned;
	pixman_region32_init(&aligned);
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(
		(pixman_region32_t *)changed, &n_boxes);
	for (int i = 0; i < n_boxes; i++) {
		pixman_box32_t box = aligned_box(h264, &boxes[i]);
		if (box.x2 > box.x1 && box.y2 > box.y1) {
			pixman_region32_union_rect(&aligned, &aligned, box.x1, box.y1,
				(unsigned)(box.x2 - box.x1), (unsigned)(box.y2 - box.y1));
		}
	}
	uint8_t *planes[2][3];
	uint32_t strides[2][3];
	for (int i = 0; i < (h264->avc444 ? 2 : 1); i++) {
		rdp_x264_planes(h264->encoder, i, planes[i], strides[i]);
	}
	primitives_t *prims = primitives_get();
	boxes = pixman_region32_rectangles(&aligned, &n_boxes);
	for (int i = 0; i < n_boxes; i++) {
		const pixman_box32_t *box = &boxes[i];
		const BYTE *src = fb + (size_t)box->y1 * stride + (size_t)box->x1 * 4;
		prim_size_t roi = { (UINT32)(box->x2 - box->x1), (UINT32)(box->y2 - box->y1) };
		BYTE *dst[2][3];
		for (int e = 0; e < (h264->avc444 ? 2 : 1); e++) {
			dst[e][0] = planes[e][0] + (size_t)box->y1 * strides[e][0] + box->x1;
			for (int p = 1; p < 3; p++) {
				dst[e][p] = planes[e][p] + (size_t)(box->y1 / 2) * strides[e][p] +
					box->x1 / 2;
			}
		}
		if (h264->avc444) {
			prims->RGBToAVC444YUVv2(src, PIXEL_FORMAT_BGRX32, (UINT32)stride,
				dst[0], strides[0], dst[1], strides[1], &roi);
		} else {
			prims->RGBToYUV420_8u_P3AC4R(src, PIXEL_FORMAT_BGRX32, (UINT32)stride,
				dst[0], strides[0], &roi);
		}
	}
	pixman_region32_fini(&aligned);
}

/*
 * Makes damage start on a column that is a multiple of 4, and its other
 * edges even; true if it did already. FreeRDP's client puts a
 * rectangle's pixels together from the samples counted from its corner:
 * the luma picture's chroma by 2x2 blocks, the chroma picture's odd rows
 * by 4 columns; an edge between would take the chroma of the pixels
 * beside. What grows is lossy too, and refined with the rest.
 */
static bool region_on_whole_blocks(const struct rdp_h264 *h264, pixman_region32_t *damage) {
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(damage, &n_boxes);
	pixman_region32_t whole;
	pixman_region32_init(&whole);
	bool grew = false;
	for (int i = 0; i < n_boxes; i++) {
		pixman_box32_t box = {
			align_down(boxes[i].x1, 4), align_down(boxes[i].y1, 2),
			align_up(boxes[i].x2, 2, h264->width), align_up(boxes[i].y2, 2, h264->height),
		};
		grew |= memcmp(&box, &boxes[i], sizeof(box)) != 0;
		pixman_region32_union_rect(&whole, &whole, box.x1, box.y1,
			(unsigned)(box.x2 - box.x1), (unsigned)(box.y2 - box.y1));
	}
	if (grew) {
		pixman_region32_copy(damage, &whole);
	}
	pixman_region32_fini(&whole);
	return !grew;
}

/* Whether damage (on whole blocks) needs the chroma picture. */
static bool damage_needs_chroma(struct rdp_h264 *h264, const pixman_box32_t *boxes, int n_boxes) {
	uint8_t *planes[2][3];
	uint32_t strides[2][3];
	for (int i = 0; i < 2; i++) {
		rdp_x264_planes(h264->encoder, i, planes[i], strides[i]);
	}
	for (int i = 0; i < n_boxes; i++) {
		if (rdp_avc444_chroma_needed(planes[0], strides[0], planes[1], strides[1],
				h264->width, boxes[i].x1, boxes[i].y1, boxes[i].x2, boxes[i].y2)) {
			return true;
		}
	}
	return false;
}

bool rdp_h264_start(struct rdp_h264 *h264, const uint8_t *fb, int stride,
		const pixman_region32_t *changed, pixman_region32_t *damage) {
	/* The thread is idle: the pictures and the rectangles are the loop's. */
	int64_t begin = rdp_stage_begin();
	convert(h264, fb, stride, changed);
	rdp_stage_end(RDP_STAGE_CONVERT, begin);
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(damage, &n_boxes);
	pixman_box32_t all = { 0, 0, h264->width, h264->height };
	if (!h264->started) {
		/* A key frame: the client has nothing of this stream yet. */
		boxes = &all;
		n_boxes = 1;
		h264->started = true;
	} else if (h264->avc444 && !region_on_whole_blocks(h264, damage)) {
		boxes = pixman_region32_rectangles(damage, &n_boxes);
	}
	if (boxes != &all && n_boxes > MAX_REGION_RECTS) {
		/* The client draws all of the box from the picture: all of it is lossy. */
		pixman_box32_t box = *pixman_region32_extents(damage);
		pixman_region32_fini(damage);
		pixman_region32_init_rect(damage, box.x1, box.y1, (unsigned)(box.x2 - box.x1),
			(unsigned)(box.y2 - box.y1));
		boxes = pixman_region32_rectangles(damage, &n_boxes);
	}
	/* The first frame of all has both pictures: the client has no colour yet. */
	h264->chroma = h264->avc444 && (boxes == &all || damage_needs_chroma(h264, boxes, n_boxes));
	for (int i = 0; i < n_boxes; i++) {
		h264->rects[i] = rect16(&boxes[i]);
		h264->quality[i] = (RDPGFX_H264_QUANT_QUALITY){
			.qp = H264_QP, .qualityVal = 100 - H264_QP,
		};
	}
	for (int i = 0; i < 2; i++) {
		h264->stream[i].meta.numRegionRects = (UINT32)n_boxes;
		h264->stream[i].meta.regionRects = h264->rects;
		h264->stream[i].meta.quantQualityVals = h264->quality;
	}
	rdp_x264_set_rate(h264->encoder, h264->kbit_rate);
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
	cmd->format = PIXEL_FORMAT_BGRX32;
	cmd->left = 0;
	cmd->top = 0;
	cmd->right = (UINT32)h264->width;
	cmd->bottom = (UINT32)h264->height;
	cmd->width = (UINT32)h264->width;
	cmd->height = (UINT32)h264->height;
	if (!h264->avc444) {
		cmd->codecId = RDPGFX_CODECID_AVC420;
		cmd->extra = &h264->stream[0];
		cmd->length = h264->stream[0].length;
		return true;
	}
	/*
	 * Both streams, luma first (LC 0), or the luma alone (LC 1); the
	 * first's size counts its metablock (MS-RDPEGFX 2.2.4.6).
	 */
	RDPGFX_AVC444_BITMAP_STREAM *avc444 = &h264->avc444_stream;
	avc444->LC = h264->chroma ? 0 : 1;
	avc444->bitstream[0] = h264->stream[0];
	avc444->bitstream[1] = h264->chroma ? h264->stream[1] : (RDPGFX_AVC420_BITMAP_STREAM){ 0 };
	avc444->cbAvc420EncodedBitstream1 = 4 + h264->stream[0].meta.numRegionRects * 10 +
		h264->stream[0].length;
	cmd->codecId = RDPGFX_CODECID_AVC444v2;
	cmd->extra = avc444;
	cmd->length = h264->stream[0].length + (h264->chroma ? h264->stream[1].length : 0);
	return true;
}

void rdp_h264_sent(struct rdp_h264 *h264, size_t bytes) {
	/* A moving mean over about 8 frames. */
	h264->frame_bytes = h264->frame_bytes ? (h264->frame_bytes * 7 + bytes) / 8 : bytes;
}

/*
 * With at most two frames unacknowledged (rdp_gfx.c), a link that keeps up
 * has sent the frame after the acknowledged one by then, or it is still
 * being encoded: nothing waits to be sent. So more than half a frame
 * waiting, or round trips two frames' time longer than the link's fastest,
 * says the link is behind: the frames come less often than drawn, and
 * coarser ones would come at the app's pace. Bytes on their way do not
 * count: a link far away has many, and keeps up.
 */
void rdp_h264_acked(struct rdp_h264 *h264, const struct link_backlog *backlog) {
	unsigned rate = h264->kbit_rate;
	bool settled = h264->acks_since_cut >= RATE_SETTLE_ACKS;
	if (!settled) {
		h264->acks_since_cut++;
	}
	if (backlog->waiting > h264->frame_bytes / 2 || backlog->delay_us > QUEUE_DELAY_US) {
		if (settled) {
			rate = rate * 3 / 4;
			if (rate < RATE_FLOOR) {
				rate = RATE_FLOOR;
			}
			h264->acks_since_cut = 0;
		}
	} else if (backlog->waiting == 0 && backlog->delay_us < QUEUE_DELAY_US / 4 &&
			rate < h264->kbit_ceiling) {
		rate += h264->kbit_ceiling / RATE_GROWTH_STEPS;
		if (rate > h264->kbit_ceiling) {
			rate = h264->kbit_ceiling;
		}
	}
	if (rate != h264->kbit_rate) {
		wlr_log(WLR_DEBUG, "RDP: H.264 rate %u kbit/s (%zu bytes waiting for the client, "
			"round trips %.1f ms over the fastest)", rate, backlog->waiting,
			backlog->delay_us / 1e3);
		h264->kbit_rate = rate;
	}
}

unsigned rdp_h264_kbit_rate(const struct rdp_h264 *h264) {
	return h264->kbit_rate;
}
