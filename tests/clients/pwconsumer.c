/*
 * A PipeWire video consumer for the pipewire suite. Connects an input
 * stream to a node and prints machine-readable lines on stdout:
 *   state STATE [ERROR]
 *   format W H FMT            (FMT: BGRx, BGRA, RGBx, RGBA)
 *   frame SEQ W H damage N X,Y,W,H ...   (SEQ from SPA_META_Header; N = -1
 *                                         when there is no damage meta)
 * With --dump-dir DIR every frame is also written as DIR/frame-SEQ.ppm.
 * Usage: oriel-test-pwconsumer --node ID [--dump-dir DIR]
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/buffer/meta.h>

struct consumer {
	struct pw_main_loop *loop;
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
		printf("\n");
		if (c->dump_dir && d->data && d->chunk->size > 0) {
			dump(c, seq, d->data, d->chunk->stride ? (uint32_t)d->chunk->stride :
				c->info.size.width * 4);
		}
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
	uint8_t buf[512];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[2];
	params[0] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoDamage),
		SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(sizeof(struct spa_meta_region) * 16,
			sizeof(struct spa_meta_region), sizeof(struct spa_meta_region) * 16));
	pw_stream_update_params(c->stream, params, 2);
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

static const struct pw_stream_events events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = on_param_changed,
	.process = on_process,
};

int main(int argc, char *argv[]) {
	struct consumer c = {0};
	uint32_t node = PW_ID_ANY;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--node") == 0 && i + 1 < argc) {
			node = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--dump-dir") == 0 && i + 1 < argc) {
			c.dump_dir = argv[++i];
		} else {
			fprintf(stderr, "usage: %s --node ID [--dump-dir DIR]\n", argv[0]);
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
			PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS, params, 1) < 0) {
		fprintf(stderr, "cannot connect\n");
		return 1;
	}
	pw_main_loop_run(c.loop);
	pw_stream_destroy(c.stream);
	pw_main_loop_destroy(c.loop);
	pw_deinit();
	return 0;
}
