/* SPDX-License-Identifier: MIT */
/* The casts' gbm device and test allocations: see cast_gbm.h. */

#include <gbm.h>
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/render/drm_format_set.h>
#include <wlr/render/interface.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/util/log.h>
#include "capture/cast_gbm.h"
#include "common/util.h"

struct cast_gbm {
	struct wlr_renderer *renderer;
	struct gbm_device *device;
	int refs;
	struct wl_list link; /* devices */
};

/* One per renderer: oriel has one, but nothing here assumes it. */
static struct wl_list devices = { &devices, &devices };

struct cast_gbm *cast_gbm_get(struct wlr_renderer *renderer) {
	struct cast_gbm *gbm;
	wl_list_for_each(gbm, &devices, link) {
		if (gbm->renderer == renderer) {
			gbm->refs++;
			return gbm;
		}
	}
	int fd = renderer ? wlr_renderer_get_drm_fd(renderer) : -1;
	if (fd < 0) {
		return NULL;
	}
	struct gbm_device *device = gbm_create_device(fd);
	if (!device) {
		wlr_log(WLR_ERROR, "pipewire: no gbm device on the renderer's DRM fd: "
			"casts use memfd buffers");
		return NULL;
	}
	gbm = zalloc(sizeof(*gbm));
	gbm->renderer = renderer;
	gbm->device = device;
	gbm->refs = 1;
	wl_list_insert(&devices, &gbm->link);
	wlr_log(WLR_INFO, "pipewire: casts may use dma-bufs (gbm backend %s)",
		gbm_device_get_backend_name(device));
	return gbm;
}

void cast_gbm_put(struct cast_gbm *gbm) {
	if (!gbm || --gbm->refs > 0) {
		return;
	}
	gbm_device_destroy(gbm->device);
	wl_list_remove(&gbm->link);
	free(gbm);
}

size_t cast_gbm_render_modifiers(struct cast_gbm *gbm, uint32_t drm_format,
		uint64_t *out, size_t max) {
	struct wlr_renderer *renderer = gbm->renderer;
	if (!renderer->impl->get_render_formats) {
		return 0;
	}
	const struct wlr_drm_format_set *set = renderer->impl->get_render_formats(renderer);
	const struct wlr_drm_format *format = set ? wlr_drm_format_set_get(set, drm_format) : NULL;
	size_t n = 0;
	for (size_t i = 0; format && i < format->len && n < max; i++) {
		out[n++] = format->modifiers[i];
	}
	return n;
}

struct gbm_bo *cast_gbm_bo_create(struct cast_gbm *gbm, uint32_t drm_format,
		int width, int height, enum cast_modifier_step step, const uint64_t *mods,
		size_t n) {
	switch (step) {
	case CAST_STEP_EXPLICIT:
		return n == 0 ? NULL : gbm_bo_create_with_modifiers2(gbm->device,
			(uint32_t)width, (uint32_t)height, drm_format, mods, (unsigned)n,
			GBM_BO_USE_RENDERING);
	case CAST_STEP_IMPLICIT:
		return gbm_bo_create(gbm->device, (uint32_t)width, (uint32_t)height,
			drm_format, GBM_BO_USE_RENDERING);
	case CAST_STEP_LINEAR:
		return gbm_bo_create(gbm->device, (uint32_t)width, (uint32_t)height,
			drm_format, GBM_BO_USE_RENDERING | GBM_BO_USE_LINEAR);
	case CAST_STEP_MEMFD:
		break;
	}
	return NULL;
}

struct gbm_bo *cast_gbm_bo_create_fixated(struct cast_gbm *gbm, uint32_t drm_format,
		int width, int height, uint64_t modifier) {
	return cast_gbm_bo_create(gbm, drm_format, width, height,
		cast_modifier_step_of(modifier), &modifier, 1);
}

bool cast_gbm_test(struct cast_gbm *gbm, uint32_t drm_format, int width, int height,
		enum cast_modifier_step step, const uint64_t *mods, size_t n,
		uint64_t *modifier, int *planes) {
	struct gbm_bo *bo = cast_gbm_bo_create(gbm, drm_format, width, height, step, mods, n);
	if (!bo) {
		return false;
	}
	*modifier = gbm_bo_get_modifier(bo);
	*planes = gbm_bo_get_plane_count(bo);
	gbm_bo_destroy(bo);
	return *planes > 0;
}
