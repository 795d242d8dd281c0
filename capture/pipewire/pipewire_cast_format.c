/* SPDX-License-Identifier: MIT */
/* Formats, sizes and modifiers of PipeWire casts: see pipewire_cast_private.h. */

#include <drm_fourcc.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/buffer/meta.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/cast_gbm.h"
#include "capture/cast_spa_format.h"
#include "capture/pipewire/pipewire_cast_private.h"
#include "capture/pipewire/pipewire_stream.h"
#include "compositor/output.h"

/*
 * The consumer fixated another size in the range a virtual output's cast
 * offers: the output takes it. Its next frames have that size.
 */
static bool cast_take_size(struct pipewire_cast *cast, int width, int height) {
	if (!cast->resizable || !cast->output || width < 1 || height < 1 ||
			width > PIPEWIRE_CAST_VIRTUAL_MAX_SIDE ||
			height > PIPEWIRE_CAST_VIRTUAL_MAX_SIDE) {
		return false;
	}
	wlr_log(WLR_INFO, "pipewire: cast node %u: the consumer wants %dx%d, resizing %s",
		cast->node_id, width, height, cast->output->wlr_output->name);
	if (!output_set_size(cast->output, width, height)) {
		return false;
	}
	cast->width = width;
	cast->height = height;
	cast_release_latest(cast);
	pixman_region32_clear(&cast->damage.pending);
	return true;
}

static struct cast_modifiers *cast_modifiers_of(struct pipewire_cast *cast,
		enum cast_format format) {
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		if (cast_formats_offered[i] == format) {
			return &cast->modifiers[i];
		}
	}
	return NULL;
}

/* No dma-buf worked: memfd is all we offer from now on. */
static void cast_dmabuf_give_up(struct pipewire_cast *cast, const char *why) {
	wlr_log(WLR_INFO, "pipewire: cast node %u: %s, falling back to memfd",
		cast->node_id, why);
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		cast_modifiers_clear(&cast->modifiers[i]);
	}
	cast->has_fixated = false;
	cast->dmabuf = false;
	cast_offer_update(cast);
}

/*
 * The consumer's answer to our modifiers (DONT_FIXATE): test-allocates it
 * step by step (format_negotiation.c) and offers the modifier that works
 * alone first, or memfd only when none does.
 */
static void cast_fixate_modifier(struct pipewire_cast *cast, enum cast_format format,
		const uint64_t *mods, size_t n) {
	struct cast_modifiers *m = cast_modifiers_of(cast, format);
	if (!m) {
		cast_dmabuf_give_up(cast, "a format we do not offer with modifiers");
		return;
	}
	uint32_t drm_format = cast_format_drm(format);
	uint64_t fixated = CAST_MOD_INVALID;
	enum cast_modifier_step step = cast_modifiers_answer(m, mods, n);
	while (step != CAST_STEP_MEMFD) {
		uint64_t got;
		int planes;
		if (cast_gbm_test(cast->gbm, drm_format, cast->width, cast->height, step,
				m->explicit, m->n_explicit, &got, &planes) &&
				cast_modifiers_fixate(m, got, &fixated)) {
			break;
		}
		wlr_log(WLR_DEBUG, "pipewire: cast node %u: no %s %dx%d dma-buf with %s",
			cast->node_id, cast_format_name(format), cast->width, cast->height,
			step == CAST_STEP_EXPLICIT ? "the consumer's modifiers" :
			step == CAST_STEP_IMPLICIT ? "the implicit modifier" : "LINEAR");
		step = cast_modifiers_failed(m);
	}
	if (step == CAST_STEP_MEMFD) {
		cast_dmabuf_give_up(cast, "no dma-buf the consumer takes can be allocated");
		return;
	}
	wlr_log(WLR_INFO, "pipewire: cast node %u: fixating %s modifier 0x%016" PRIx64,
		cast->node_id, cast_format_name(format), fixated);
	cast->has_fixated = true;
	cast->fixated_format = format;
	cast->fixated_modifier = fixated;
	cast_offer_update(cast);
}

/*
 * Which buffers the consumer's format means: sets cast->dmabuf (and the
 * plane count). False when the format was not final: a modifier choice
 * to fixate, or one that cannot be allocated; the offer changed and the
 * consumer answers again.
 */
static bool cast_choose_buffers(struct pipewire_cast *cast, enum cast_format format,
		const struct spa_pod *param) {
	uint64_t mods[CAST_MAX_MODIFIERS];
	bool dont_fixate = false;
	int n = cast_spa_format_modifiers(param, mods, CAST_MAX_MODIFIERS, &dont_fixate);
	cast->dmabuf = false;
	if (n < 0) {
		return true; /* no modifier: memfd */
	}
	if (!cast->gbm || n == 0) {
		cast_dmabuf_give_up(cast, "the consumer's modifiers are none of ours");
		return false;
	}
	if (dont_fixate) {
		cast_fixate_modifier(cast, format, mods, (size_t)n);
		return false;
	}
	uint64_t got;
	int planes;
	if (!cast_gbm_test(cast->gbm, cast_format_drm(format), cast->width, cast->height,
			cast_modifier_step_of(mods[0]), mods, 1, &got, &planes)) {
		cast_dmabuf_give_up(cast, "the fixated modifier cannot be allocated");
		return false;
	}
	cast->dmabuf = true;
	cast->modifier = mods[0];
	cast->planes = planes;
	return true;
}

void cast_handle_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
	struct pipewire_cast *cast = data;
	if (id != SPA_PARAM_Format || !param) {
		return;
	}
	struct spa_video_info_raw info;
	if (spa_format_video_raw_parse(param, &info) < 0) {
		pw_stream_set_error(cast->stream, -EINVAL, "unparsable format");
		return;
	}
	enum cast_format wanted = cast_format_from_spa(info.format);
	enum cast_format chosen = cast_format_choose(&wanted, 1);
	bool other_size = (int)info.size.width != cast->width ||
		(int)info.size.height != cast->height;
	if (other_size && cast->offer_range && chosen != CAST_FORMAT_NONE) {
		if (!cast_take_size(cast, (int)info.size.width, (int)info.size.height)) {
			pw_stream_set_error(cast->stream, -EINVAL, "cannot take that size");
			return;
		}
		other_size = false;
	}
	if (other_size) {
		if (cast->neg_width) {
			/* The old size, while a new one is being offered: wait for it. */
			wlr_log(WLR_DEBUG, "pipewire: cast node %u: format %ux%u is stale",
				cast->node_id, info.size.width, info.size.height);
			return;
		}
		chosen = CAST_FORMAT_NONE;
	}
	if (chosen == CAST_FORMAT_NONE) {
		pw_stream_set_error(cast->stream, -EINVAL, "format not offered");
		return;
	}
	if (!cast_choose_buffers(cast, chosen, param)) {
		return;
	}
	cast->neg_width = cast->width;
	cast->neg_height = cast->height;
	cast->format = chosen;
	cast->interval_ns = cast_frame_interval_ns(info.max_framerate.num,
		info.max_framerate.denom);
	cast->stride = SPA_ROUND_UP_N(cast->width * 4, 4);
	wlr_log(WLR_INFO, "pipewire: cast node %u negotiated %s %dx%d, max %u/%u fps",
		cast->node_id, cast_format_name(chosen), cast->width, cast->height,
		info.max_framerate.num, info.max_framerate.denom);
	if (cast->dmabuf) {
		wlr_log(WLR_INFO, "pipewire: cast node %u: dma-buf buffers, modifier "
			"0x%016" PRIx64 ", %d planes", cast->node_id, cast->modifier, cast->planes);
	}

	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[5];
	uint32_t n_params = 4;
	if (cast->dmabuf) {
		/* Size and strides are the driver's: the consumer reads the chunks. */
		params[0] = spa_pod_builder_add_object(&b,
			SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
			SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(CAST_BUFFERS_DEFAULT,
				CAST_BUFFERS_MIN, CAST_BUFFERS_MAX),
			SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(cast->planes),
			SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_DmaBuf));
	} else {
		params[0] = spa_pod_builder_add_object(&b,
			SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
			SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(CAST_BUFFERS_DEFAULT,
				CAST_BUFFERS_MIN, CAST_BUFFERS_MAX),
			SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
			SPA_PARAM_BUFFERS_size, SPA_POD_Int(cast->stride * cast->height),
			SPA_PARAM_BUFFERS_stride, SPA_POD_Int(cast->stride),
			SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_MemFd));
	}
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	params[2] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoDamage),
		SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(
			sizeof(struct spa_meta_region) * CAST_DAMAGE_REGIONS,
			sizeof(struct spa_meta_region) * 1,
			sizeof(struct spa_meta_region) * CAST_DAMAGE_REGIONS));
	params[3] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoCrop),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_region)));
	if (cast->cursor_mode == PIPEWIRE_CAST_CURSOR_METADATA) {
		params[n_params++] = spa_pod_builder_add_object(&b,
			SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
			SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Cursor),
			SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(
				CAST_CURSOR_META_SIZE(64, 64), CAST_CURSOR_META_SIZE(1, 1),
				CAST_CURSOR_META_SIZE(CAST_CURSOR_MAX, CAST_CURSOR_MAX)));
		cast->cursor_sent = false;
	}
	pw_stream_update_params(cast->stream, params, n_params);
	/* Everything again, once the buffers of this format came (add_buffer). */
	cast_damage_everything(cast);
}


/*
 * What the stream offers: the fixated dma-buf format alone first (while
 * the consumer has yet to take it), each format with its modifiers, then
 * every format without a modifier (memfd). Without gbm, only the last.
 */
uint32_t cast_offer_build(struct pipewire_cast *cast, struct spa_pod_builder *b,
		const struct spa_pod *params[static CAST_OFFER_PODS]) {
	struct cast_spa_size size = {
		.width = cast->width, .height = cast->height, .range = cast->offer_range,
	};
	uint32_t n = 0;
	if (cast->gbm && cast->has_fixated) {
		const struct spa_pod *pod = cast_spa_format_dmabuf(b, &size,
			cast->fixated_format, &cast->fixated_modifier, 1, true);
		if (pod) {
			params[n++] = pod;
		}
	}
	for (size_t i = 0; cast->gbm && i < cast_formats_offered_len; i++) {
		const struct cast_modifiers *m = &cast->modifiers[i];
		const struct spa_pod *pod = cast_spa_format_dmabuf(b, &size,
			cast_formats_offered[i], m->offer, m->n_offer, false);
		if (pod) {
			params[n++] = pod;
		}
	}
	params[n++] = cast_spa_format_plain(b, &size);
	return n;
}

void cast_offer_update(struct pipewire_cast *cast) {
	uint8_t buf[CAST_OFFER_BYTES];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[CAST_OFFER_PODS];
	uint32_t n = cast_offer_build(cast, &b, params);
	pw_stream_update_params(cast->stream, params, n);
}

/*
 * The source changed size: offer only the new size. The consumer answers
 * with a new format (param_changed), and PipeWire gives us new buffers.
 */
void cast_renegotiate(struct pipewire_cast *cast, int width, int height) {
	if (width <= 0 || height <= 0 || cast->closing) {
		return;
	}
	wlr_log(WLR_INFO, "pipewire: cast node %u: the source is now %dx%d, renegotiating",
		cast->node_id, width, height);
	cast->width = width;
	cast->height = height;
	cast->renegotiated = true;
	cast->offer_range = false;
	cast_release_latest(cast);
	pixman_region32_clear(&cast->damage.pending);
	/* A new size: the consumer fixates a modifier again. */
	cast->has_fixated = false;
	cast_offer_update(cast);
}
