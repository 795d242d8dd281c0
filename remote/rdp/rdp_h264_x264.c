/* SPDX-License-Identifier: MIT */
#include <stdint.h> /* before x264.h, which needs it */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <x264.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_h264_x264.h"

/*
 * x264 set up for a desktop in real time, not for files: the "ultrafast"
 * preset (at 1080p on two cores it costs about 2/3 of superfast's CPU and
 * a quarter of FreeRDP's context's: bench/h264; what it loses in detail,
 * the lossless refinement of still areas gives back), "zerolatency" (no
 * lookahead, no B-frames, no frame threads: each frame comes out of
 * the call that took it), slices encoded in parallel over the cores, one
 * key frame at the start and none after (the stream never gets lost: RDP
 * runs over TCP), and a constant quality capped by a rate that follows
 * the client (VBV: a frame that would overrun it is coded coarser,
 * instead of queueing behind the link).
 */

#ifndef RDP_X264_PRESET
#define RDP_X264_PRESET "ultrafast" /* bench/h264 compiles others in */
#endif
/* The quality (CRF) frames have when the rate allows. */
#define CRF 23.0f

struct rdp_x264 {
	x264_t *x264;
	x264_param_t param;
	int n_pictures;
	x264_picture_t picture[2], out;
	bool picture_allocated[2];
	/* Each picture's last output: x264 reuses its own buffer. */
	uint8_t *output[2];
	size_t output_size[2];
	unsigned kbit_rate, pending_kbit_rate;
};

static void set_vbv(x264_param_t *param, unsigned kbit_rate) {
	param->rc.i_vbv_max_bitrate = (int)kbit_rate;
	/* Two frames' worth: a burst may not hold the link for longer. */
	int buffer = (int)(kbit_rate * 2 / (unsigned)param->i_fps_num);
	param->rc.i_vbv_buffer_size = buffer > 1 ? buffer : 1;
}

struct rdp_x264 *rdp_x264_create(int width, int height, int fps, unsigned kbit_rate,
		int pictures) {
	struct rdp_x264 *enc = calloc(1, sizeof(*enc));
	if (!enc) {
		return NULL;
	}
	x264_param_t *param = &enc->param;
	if (x264_param_default_preset(param, RDP_X264_PRESET, "zerolatency") < 0) {
		free(enc);
		return NULL;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	param->i_threads = cores > 1 ? (int)cores : 1;
	param->b_sliced_threads = 1;
	param->i_width = width;
	param->i_height = height;
	param->i_csp = X264_CSP_I420;
	enc->n_pictures = pictures == 2 ? 2 : 1;
	/*
	 * Two pictures a frame: each refers back to the last of its kind
	 * while both go. After frames of the luma picture alone, the next
	 * chroma picture has only luma pictures to refer to and costs about
	 * a key frame (more references would cost every frame more).
	 */
	param->i_frame_reference = enc->n_pictures;
	/*
	 * x264 counts each picture as a frame at fps: with two pictures a
	 * frame the cap holds for each kind, and the stream's rate may be
	 * twice it. Counting them at twice fps would halve every picture's
	 * share of the VBV buffer, and a key frame would starve.
	 */
	param->i_fps_num = (uint32_t)fps;
	param->i_fps_den = 1;
	param->i_keyint_max = X264_KEYINT_MAX_INFINITE;
	/* No key frames on scene cuts: AVC444's two pictures would each look like one. */
	param->i_scenecut_threshold = 0;
	param->b_repeat_headers = 1;
	param->b_annexb = 1;
	param->i_log_level = X264_LOG_ERROR;
	/* FreeRDP's and Windows' clients convert with BT.709, full range. */
	param->vui.b_fullrange = 1;
	param->vui.i_colorprim = 1;
	param->vui.i_transfer = 1;
	param->vui.i_colmatrix = 1;
	param->rc.i_rc_method = X264_RC_CRF;
	param->rc.f_rf_constant = CRF;
	set_vbv(param, kbit_rate);
	enc->kbit_rate = enc->pending_kbit_rate = kbit_rate;
	if (x264_param_apply_profile(param, "high") < 0) {
		free(enc);
		return NULL;
	}
	enc->x264 = x264_encoder_open(param);
	if (!enc->x264) {
		rdp_x264_destroy(enc);
		return NULL;
	}
	for (int i = 0; i < enc->n_pictures; i++) {
		if (x264_picture_alloc(&enc->picture[i], X264_CSP_I420, width, height) < 0) {
			rdp_x264_destroy(enc);
			return NULL;
		}
		enc->picture_allocated[i] = true;
	}
	return enc;
}

void rdp_x264_destroy(struct rdp_x264 *enc) {
	if (!enc) {
		return;
	}
	if (enc->x264) {
		x264_encoder_close(enc->x264);
	}
	for (int i = 0; i < 2; i++) {
		if (enc->picture_allocated[i]) {
			x264_picture_clean(&enc->picture[i]);
		}
		free(enc->output[i]);
	}
	free(enc);
}

void rdp_x264_planes(struct rdp_x264 *enc, int picture, uint8_t *planes[3],
		uint32_t strides[3]) {
	for (int i = 0; i < 3; i++) {
		planes[i] = enc->picture[picture].img.plane[i];
		strides[i] = (uint32_t)enc->picture[picture].img.i_stride[i];
	}
}

void rdp_x264_set_rate(struct rdp_x264 *enc, unsigned kbit_rate) {
	enc->pending_kbit_rate = kbit_rate;
}

bool rdp_x264_encode(struct rdp_x264 *enc, int picture, const uint8_t **data,
		size_t *length) {
	if (enc->pending_kbit_rate != enc->kbit_rate) {
		set_vbv(&enc->param, enc->pending_kbit_rate);
		if (x264_encoder_reconfig(enc->x264, &enc->param) < 0) {
			wlr_log(WLR_ERROR, "RDP: x264 refused a rate of %u kbit/s",
				enc->pending_kbit_rate);
		}
		enc->kbit_rate = enc->pending_kbit_rate;
	}
	x264_nal_t *nals;
	int n_nals;
	x264_picture_t *in = &enc->picture[picture];
	in->i_type = X264_TYPE_AUTO;
	in->i_pts = enc->out.i_pts + 1;
	int size = x264_encoder_encode(enc->x264, &nals, &n_nals, in, &enc->out);
	if (size <= 0 || n_nals <= 0) {
		/* Without lookahead or B-frames every picture gives its frame. */
		return false;
	}
	if (enc->n_pictures == 1) {
		/* x264 writes a frame's NAL units one after the other. */
		*data = nals[0].p_payload;
		*length = (size_t)size;
		return true;
	}
	if ((size_t)size > enc->output_size[picture]) {
		uint8_t *bigger = realloc(enc->output[picture], (size_t)size);
		if (!bigger) {
			return false;
		}
		enc->output[picture] = bigger;
		enc->output_size[picture] = (size_t)size;
	}
	memcpy(enc->output[picture], nals[0].p_payload, (size_t)size);
	*data = enc->output[picture];
	*length = (size_t)size;
	return true;
}
