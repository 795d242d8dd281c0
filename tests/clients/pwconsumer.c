/* SPDX-License-Identifier: MIT */
/*
 * A PipeWire video consumer for the pipewire suite. Connects an input
 * stream to a node and prints machine-readable lines on stdout:
 *   state STATE [ERROR]
 *   format W H FMT            (FMT: BGRx, BGRA, RGBx, RGBA)
 *   frame SEQ W H damage N X,Y,W,H ...   (SEQ from SPA_META_Header; N = -1
 *                                         when there is no damage meta)
 *   (a frame line goes on with " crop X,Y,W,H" when the buffer has
 *    SPA_META_VideoCrop, and ends with " cursor ID X Y HX HY BW BH" when it
 *    has SPA_META_Cursor: BW BH are 0 0 without a bitmap)
 *   node-error MESSAGE        (the node we consume went to its error state:
 *                              oriel's way of saying why a cast ended)
 * With --dump-dir DIR every frame is also written as DIR/frame-SEQ.ppm.
 * With --size WxH it accepts only that size (any size otherwise).
 * Usage: oriel-test-pwconsumer --node ID [--dump-dir DIR] [--size WxH]
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/buffer/meta.h>

#define CURSOR_META_SIZE(w, h) ((int)(sizeof(struct spa_meta_cursor) + \
	sizeof(struct spa_meta_bitmap) + (size_t)(w) * (h) * 4))

struct consumer {
	struct pw_main_loop *loop;
	uint32_t node_id;
	struct pw_core *core;
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	struct pw_proxy *node;
	struct spa_hook node_listener;
	struct pw_stream *stream;
	struct spa_hook listener;
	struct spa_video_info_raw info;
	const char *dump_dir;
};

static const char *fmt_name(uint32_t f) {
	switch (f) {
	case SPA_VIDEO_FORMAT_BGRx: return "BGRx";
	case SPA_VIDEO_FORMAT_BGRA: return "BGRA";
	case SPA_VIDEO_FORMAT_RGBx: return "RGBx";
	case SPA_VIDEO_FORMAT_RGBA: return "RGBA";
	}
	return "unknown";
}

static void dump(struct consumer *c, uint64_t seq, const uint8_t *data, uint32_t stride) {
	char path[4096], tmp[4200];
	snprintf(path, sizeof(path), "%s/frame-%llu.ppm", c->dump_dir, (unsigned long long)seq);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		return;
	}
	uint32_t w = c->info.size.width, h = c->info.size.height;
	bool rgb = c->info.format == SPA_VIDEO_FORMAT_RGBx || c->info.format == SPA_VIDEO_FORMAT_RGBA;
	fprintf(f, "P6\n%u %u\n255\n", w, h);
	uint8_t *row = malloc((size_t)w * 3);
	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *p = data + (size_t)y * stride;
		for (uint32_t x = 0; x < w; x++) {
			row[3 * x + 0] = rgb ? p[4 * x + 0] : p[4 * x + 2];
			row[3 * x + 1] = p[4 * x + 1];
			row[3 * x + 2] = rgb ? p[4 * x + 2] : p[4 * x + 0];
		}
		fwrite(row, 1, (size_t)w * 3, f);
	}
	free(row);
	fclose(f);
	rename(tmp, path);
}

static void on_process(void *data) {
	struct consumer *c = data;
	struct pw_buffer *b;
	while ((b = pw_stream_dequeue_buffer(c->stream))) {
		struct spa_buffer *sb = b->buffer;
		struct spa_data *d = &sb->datas[0];
		struct spa_meta_header *h = spa_buffer_find_meta_data(sb, SPA_META_Header, sizeof(*h));
		uint64_t seq = h ? h->seq : 0;
		printf("frame %llu %u %u damage", (unsigned long long)seq,
			c->info.size.width, c->info.size.height);
		struct spa_meta *m = spa_buffer_find_meta(sb, SPA_META_VideoDamage);
		if (!m) {
			printf(" -1");
		} else {
			struct spa_meta_region *r;
			int n = 0;
			spa_meta_for_each(r, m) {
				if (!spa_meta_region_is_valid(r)) {
					break;
				}
				n++;
			}
			printf(" %d", n);
			spa_meta_for_each(r, m) {
				if (!spa_meta_region_is_valid(r)) {
					break;
				}
				printf(" %d,%d,%u,%u", r->region.position.x, r->region.position.y,
					r->region.size.width, r->region.size.height);
			}
		}
		/* The picture first: a test reads it as soon as the line appears. */
		/*
		 * PipeWire 0.3.65 leaves some memfd buffers unmapped after a
		 * renegotiation (MAP_BUFFERS notwithstanding): map those ourselves,
		 * as OBS and gstreamer do.
		 */
		void *mapped = NULL;
		size_t mapped_size = 0;
		const uint8_t *pixels = d->data;
		if (!pixels && d->type == SPA_DATA_MemFd && d->fd >= 0 && d->maxsize > 0) {
			mapped_size = (size_t)d->mapoffset + d->maxsize;
			mapped = mmap(NULL, mapped_size, PROT_READ, MAP_SHARED, (int)d->fd, 0);
			if (mapped == MAP_FAILED) {
				mapped = NULL;
			} else {
				pixels = (const uint8_t *)mapped + d->mapoffset;
			}
		}
		if (c->dump_dir && pixels && d->chunk->size > 0) {
			dump(c, seq, pixels + d->chunk->offset, d->chunk->stride ?
				(uint32_t)d->chunk->stride : c->info.size.width * 4);
		} else if (c->dump_dir) {
			printf(" nodata %u %s type %u fd %lld maxsize %u", d->chunk->size,
				d->data ? "mapped" : "unmapped", d->type, (long long)d->fd, d->maxsize);
		}
		if (mapped) {
			munmap(mapped, mapped_size);
		}
		struct spa_meta_region *crop = spa_buffer_find_meta_data(sb, SPA_META_VideoCrop,
			sizeof(*crop));
		if (crop) {
			printf(" crop %d,%d,%u,%u", crop->region.position.x, crop->region.position.y,
				crop->region.size.width, crop->region.size.height);
		}
		struct spa_meta_cursor *mc = spa_buffer_find_meta_data(sb, SPA_META_Cursor,
			sizeof(*mc));
		if (mc) {
			uint32_t bw = 0, bh = 0;
			if (mc->id != 0 && mc->bitmap_offset >= sizeof(*mc)) {
				struct spa_meta_bitmap *bm = SPA_PTROFF(mc, mc->bitmap_offset,
					struct spa_meta_bitmap);
				bw = bm->size.width;
				bh = bm->size.height;
			}
			printf(" cursor %u %d %d %d %d %u %u", mc->id, mc->position.x,
				mc->position.y, mc->hotspot.x, mc->hotspot.y, bw, bh);
		}
		printf("\n");
		fflush(stdout);
		pw_stream_queue_buffer(c->stream, b);
	}
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
	struct consumer *c = data;
	if (id != SPA_PARAM_Format || !param) {
		return;
	}
	if (spa_format_video_raw_parse(param, &c->info) < 0) {
		return;
	}
	printf("format %u %u %s\n", c->info.size.width, c->info.size.height,
		fmt_name(c->info.format));
	fflush(stdout);
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[4];
	params[0] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoDamage),
		SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(sizeof(struct spa_meta_region) * 16,
			sizeof(struct spa_meta_region), sizeof(struct spa_meta_region) * 16));
	params[2] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Cursor),
		SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(CURSOR_META_SIZE(64, 64),
			CURSOR_META_SIZE(1, 1), CURSOR_META_SIZE(256, 256)));
	params[3] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoCrop),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_region)));
	pw_stream_update_params(c->stream, params, 4);
}

static void on_state_changed(void *data, enum pw_stream_state old,
		enum pw_stream_state state, const char *error) {
	struct consumer *c = data;
	printf("state %s%s%s\n", pw_stream_state_as_string(state), error ? " " : "",
		error ? error : "");
	fflush(stdout);
	if (state == PW_STREAM_STATE_ERROR || state == PW_STREAM_STATE_UNCONNECTED) {
		pw_main_loop_quit(c->loop);
	}
}

static void on_node_info(void *data, const struct pw_node_info *info) {
	if (!(info->change_mask & PW_NODE_CHANGE_MASK_STATE)) {
		return;
	}
	if (info->state == PW_NODE_STATE_ERROR) {
		printf("node-error %s\n", info->error ? info->error : "");
	} else {
		printf("node-state %s\n", pw_node_state_as_string(info->state));
	}
	fflush(stdout);
}

static const struct pw_node_events node_events = {
	PW_VERSION_NODE_EVENTS,
	.info = on_node_info,
};

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type,
		uint32_t version, const struct spa_dict *props) {
	struct consumer *c = data;
	if (c->node || id != c->node_id || strcmp(type, PW_TYPE_INTERFACE_Node) != 0) {
		return;
	}
	c->node = pw_registry_bind(c->registry, id, type, PW_VERSION_NODE, 0);
	if (c->node) {
		pw_proxy_add_object_listener(c->node, &c->node_listener, &node_events, c);
	}
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = on_global,
};

static const struct pw_stream_events events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = on_param_changed,
	.process = on_process,
};

int main(int argc, char *argv[]) {
	struct consumer c = {0};
	uint32_t node = PW_ID_ANY;
	struct spa_rectangle want = SPA_RECTANGLE(0, 0);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--node") == 0 && i + 1 < argc) {
			node = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--dump-dir") == 0 && i + 1 < argc) {
			c.dump_dir = argv[++i];
		} else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc &&
				sscanf(argv[i + 1], "%ux%u", &want.width, &want.height) == 2 &&
				want.width > 0 && want.height > 0) {
			i++;
		} else {
			fprintf(stderr, "usage: %s --node ID [--dump-dir DIR] [--size WxH]\n",
				argv[0]);
			return 2;
		}
	}
	pw_init(&argc, &argv);
	c.loop = pw_main_loop_new(NULL);
	c.stream = pw_stream_new_simple(pw_main_loop_get_loop(c.loop), "oriel-test-pwconsumer",
		pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
			PW_KEY_MEDIA_ROLE, "Screen", NULL),
		&events, &c);
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	struct spa_rectangle def = SPA_RECTANGLE(320, 240), min = SPA_RECTANGLE(1, 1),
		max = SPA_RECTANGLE(16384, 16384);
	if (want.width) {
		def = min = max = want;
	}
	struct spa_fraction fr = SPA_FRACTION(0, 1);
	struct spa_fraction mdef = SPA_FRACTION(60, 1), mmin = SPA_FRACTION(0, 1),
		mmax = SPA_FRACTION(1000, 1);
	const struct spa_pod *params[1];
	params[0] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
		SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(5, SPA_VIDEO_FORMAT_BGRx,
			SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_RGBx, SPA_VIDEO_FORMAT_BGRA,
			SPA_VIDEO_FORMAT_RGBA),
		SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&def, &min, &max),
		SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&fr),
		SPA_FORMAT_VIDEO_maxFramerate, SPA_POD_CHOICE_RANGE_Fraction(&mdef, &mmin, &mmax));
	if (pw_stream_connect(c.stream, PW_DIRECTION_INPUT, node,
			PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS |
			PW_STREAM_FLAG_DONT_RECONNECT, params, 1) < 0) {
		fprintf(stderr, "cannot connect\n");
		return 1;
	}
	/* Watch the node's own state too. */
	c.node_id = node;
	c.core = pw_stream_get_core(c.stream);
	if (c.core && node != PW_ID_ANY) {
		c.registry = pw_core_get_registry(c.core, PW_VERSION_REGISTRY, 0);
		pw_registry_add_listener(c.registry, &c.registry_listener, &registry_events, &c);
	}
	pw_main_loop_run(c.loop);
	if (c.node) {
		spa_hook_remove(&c.node_listener);
		pw_proxy_destroy(c.node);
	}
	if (c.registry) {
		spa_hook_remove(&c.registry_listener);
		pw_proxy_destroy((struct pw_proxy *)c.registry);
	}
	pw_stream_destroy(c.stream);
	pw_main_loop_destroy(c.loop);
	pw_deinit();
	return 0;
}
