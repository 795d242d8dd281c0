/* SPDX-License-Identifier: MIT */
/*
 * bench-pwcounter — a PipeWire consumer that measures what a cast delivers
 * of bench/apps/animate:
 *   - distinct app frames seen per second (the frame counter decoded from
 *     the pixels of every delivered buffer) and buffers delivered;
 *   - CPU of the processes given with --pids, over the measurement
 *     window, each on its own: the time on CPU of all their threads
 *     (/proc/PID/task/TID/schedstat, ns), or utime+stime (10 ms ticks)
 *     where schedstat is missing;
 *   - with --app-log FILE (animate's --log): latency, from the app's
 *     sending frame n (its logged CLOCK_MONOTONIC time) to the dequeue of
 *     the first buffer that shows frame n, per distinct frame;
 *   - the floor: for every delivered buffer, one memcpy of its damaged
 *     area (SPA_META_VideoDamage; the whole frame without it) into a
 *     private buffer, timed. That is the least any producer must do per
 *     frame on this machine, under the same load, in the same run.
 * --cursor WxH: the app runs with --cursor WxH (small damage): the frame
 * number is read from the WxH rectangle on its black bed, found near the
 * top-left corner, instead of from the counter blocks.
 * Output: one JSON object on stdout.
 *
 * --first-frame: only the time of the first delivered buffer with pixels
 * (CLOCK_MONOTONIC), for bench/run-portal. The PipeWire context is made
 * before the node is known; the node id (text), and optionally a PipeWire
 * remote fd as SCM_RIGHTS (the portal's OpenPipeWireRemote), then come as
 * one message on fd 0, a Unix socket. The stream is connected at once.
 * It prints {"ready": true} once it waits for that message, and at the end
 * also when the format was fixed and the stream went to streaming.
 *
 * Build: cc -O2 -o bench-pwcounter bench-pwcounter.c \
 *            $(pkg-config --cflags --libs libpipewire-0.3)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <spa/buffer/meta.h>
#include <spa/param/video/format-utils.h>

#define BLOCK 32
#define BITS 20
#define MAX_PIDS 16
#define LOG_FRAMES (1u << BITS)

struct counter {
	struct pw_main_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct pw_stream *stream;
	struct spa_video_info_raw info;
	struct spa_source *timer;
	int phase; /* 0 warmup, 1 measuring, 2 done */
	double warmup, duration;
	uint64_t t_start, t_end;

	int org_x, org_y; /* where the counter was last found */
	int cursor_w, cursor_h; /* --cursor */
	bool cursor_found;
	uint64_t *recv_ns; /* --app-log: first dequeue of each frame number */
	uint32_t *seen;    /* the distinct frame numbers, in order */
	const char *app_log;
	uint64_t damage_rects;
	long last_frame;
	uint64_t frames, buffers, decode_failures, relocations;
	uint64_t empty; /* delivered without pixels (chunk size 0 or no memory) */
	char empty_why[160]; /* what the first of those looked like */

	uint8_t *scratch;
	size_t scratch_size;
	uint64_t copy_ns, copied_bytes;

	int pids[MAX_PIDS], npids;
	double cpu0[MAX_PIDS], cpu1[MAX_PIDS];
	unsigned long long busy0, total0, busy1, total1;

	bool first_frame; /* --first-frame: stop at the first buffer with pixels */
	uint64_t t_connect, t_format, t_streaming, t_first;
	long first_counter;
	bool first_nonzero;
};

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double ticks_ms_of(int pid);

/* Time on CPU of all threads of pid, from schedstat (ns); -1 without it. */
static double schedstat_ms_of(int pid) {
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	DIR *dir = opendir(path);
	if (!dir) {
		return -1;
	}
	unsigned long long sum = 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.') {
			continue;
		}
		char p[300];
		snprintf(p, sizeof p, "/proc/%d/task/%s/schedstat", pid, e->d_name);
		FILE *f = fopen(p, "r");
		unsigned long long ns;
		if (f && fscanf(f, "%llu", &ns) == 1) {
			sum += ns;
			n++;
		}
		if (f) {
			fclose(f);
		}
	}
	closedir(dir);
	return n ? (double)sum / 1e6 : -1;
}

static double cpu_ms_of(int pid) {
	double ms = schedstat_ms_of(pid);
	return ms >= 0 ? ms : ticks_ms_of(pid);
}

static double ticks_ms_of(int pid) {
	char path[64], buf[2048];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		return 0;
	}
	ssize_t len = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (len <= 0) {
		return 0;
	}
	buf[len] = 0;
	char *p = strrchr(buf, ')');
	unsigned long long utime = 0, stime = 0;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			&utime, &stime) != 2) {
		return 0;
	}
	return (double)(utime + stime) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static void machine_jiffies(unsigned long long *busy, unsigned long long *total) {
	unsigned long long v[8] = {0};
	*busy = *total = 0;
	FILE *f = fopen("/proc/stat", "r");
	if (!f) {
		return;
	}
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			&v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (int i = 0; i < 8; i++) {
			*total += v[i];
		}
		*busy = *total - v[3] - v[4];
	}
	fclose(f);
}

/* Luma of an 8x8 patch centred at (cx, cy); BGRx or RGBx, both work. */
static int luma_at(const struct counter *c, const uint8_t *px, int stride, int cx, int cy) {
	int w = (int)c->info.size.width, h = (int)c->info.size.height;
	long sum = 0;
	int n = 0;
	for (int y = cy - 4; y < cy + 4; y++) {
		for (int x = cx - 4; x < cx + 4; x++) {
			if (x < 0 || y < 0 || x >= w || y >= h) {
				continue;
			}
			const uint8_t *p = px + (size_t)y * stride + (size_t)x * 4;
			sum += (p[0] + 2 * p[1] + p[2]) / 4;
			n++;
		}
	}
	return n ? (int)(sum / n) : 0;
}

static long decode_at(const struct counter *c, const uint8_t *px, int stride, int ox, int oy) {
	if (ox + BITS * BLOCK > (int)c->info.size.width ||
			oy + 2 * BLOCK > (int)c->info.size.height) {
		return -1;
	}
	uint32_t v = 0;
	for (int i = 0; i < BITS; i++) {
		int cx = ox + i * BLOCK + BLOCK / 2;
		int a = luma_at(c, px, stride, cx, oy + BLOCK / 2);
		int b = luma_at(c, px, stride, cx, oy + BLOCK + BLOCK / 2);
		int bit = a >= 128, inv = b >= 128;
		if (bit == inv || abs(a - 128) < 48 || abs(b - 128) < 48) {
			return -1;
		}
		v = (v << 1) | (uint32_t)bit;
	}
	return v;
}

/* The counter, where it was, else searched for near the top-left corner. */
static long decode_counter(struct counter *c, const uint8_t *px, int stride) {
	long n = decode_at(c, px, stride, c->org_x, c->org_y);
	if (n >= 0) {
		return n;
	}
	for (int oy = 0; oy <= 160; oy++) {
		for (int ox = 0; ox <= 48; ox++) {
			n = decode_at(c, px, stride, ox, oy);
			if (n >= 0 && decode_at(c, px, stride, ox, oy + 1) == n &&
					decode_at(c, px, stride, ox + 1, oy) == n) {
				/* The middle of the range of offsets that decode. */
				int x1 = ox, y1 = oy;
				while (y1 < oy + BLOCK && decode_at(c, px, stride, ox, y1 + 1) == n) {
					y1++;
				}
				while (x1 < ox + BLOCK && decode_at(c, px, stride, x1 + 1, oy) == n) {
					x1++;
				}
				c->org_x = (ox + x1) / 2;
				c->org_y = (oy + y1) / 2;
				c->relocations++;
				return n;
			}
		}
	}
	return -1;
}

/* --cursor: the rectangle's value at (x, y), or -1 if it is not there. */
static uint32_t px_at(const uint8_t *px, int stride, int x, int y) {
	const uint8_t *p = px + (size_t)y * stride + (size_t)x * 4;
	return (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static long cursor_at(const struct counter *c, const uint8_t *px, int stride, int x, int y) {
	int w = (int)c->info.size.width, h = (int)c->info.size.height;
	int cw = c->cursor_w, ch = c->cursor_h;
	if (x < 1 || y < 1 || x + cw >= w || y + ch >= h) {
		return -1;
	}
	uint32_t v = px_at(px, stride, x, y);
	uint32_t n = v & (LOG_FRAMES - 1);
	if (!(v & 0x800000) || ((v >> 22) & 1) != (n & 1) ||
			px_at(px, stride, x - 1, y) || px_at(px, stride, x, y - 1) ||
			px_at(px, stride, x + cw, y) || px_at(px, stride, x, y + ch)) {
		return -1;
	}
	for (int yy = y; yy < y + ch; yy++) {
		for (int xx = x; xx < x + cw; xx++) {
			if (px_at(px, stride, xx, yy) != v) {
				return -1;
			}
		}
	}
	return n;
}

static long decode_cursor(struct counter *c, const uint8_t *px, int stride) {
	long n = c->cursor_found ? cursor_at(c, px, stride, c->org_x, c->org_y) : -1;
	if (n >= 0) {
		return n;
	}
	for (int y = 1; y <= 300; y++) {
		for (int x = 1; x <= 200; x++) {
			if ((n = cursor_at(c, px, stride, x, y)) >= 0) {
				c->org_x = x;
				c->org_y = y;
				c->cursor_found = true;
				c->relocations++;
				return n;
			}
		}
	}
	return -1;
}

/* One memcpy of the damaged area into scratch, timed. */
static void copy_damage(struct counter *c, struct spa_buffer *sb, const uint8_t *px,
		int stride) {
	int w = (int)c->info.size.width, h = (int)c->info.size.height;
	size_t need = (size_t)stride * h;
	if (c->scratch_size < need) {
		free(c->scratch);
		c->scratch = malloc(need);
		c->scratch_size = c->scratch ? need : 0;
		if (c->scratch) {
			memset(c->scratch, 0, need); /* fault the pages in outside the timing */
		}
	}
	if (!c->scratch) {
		return;
	}
	struct spa_meta_region whole = { .region = SPA_REGION(0, 0, (uint32_t)w, (uint32_t)h) };
	struct spa_meta_region *regions = &whole;
	size_t n = 1;
	struct spa_meta *m = spa_buffer_find_meta(sb, SPA_META_VideoDamage);
	if (m) {
		regions = m->data;
		n = 0;
		while (n < m->size / sizeof(*regions) && spa_meta_region_is_valid(&regions[n])) {
			n++;
		}
		c->damage_rects += n;
	}
	uint64_t t0 = now_ns();
	for (size_t i = 0; i < n; i++) {
		int x = regions[i].region.position.x, y = regions[i].region.position.y;
		int rw = (int)regions[i].region.size.width, rh = (int)regions[i].region.size.height;
		if (x < 0 || y < 0 || x + rw > w || y + rh > h) {
			continue;
		}
		for (int row = y; row < y + rh; row++) {
			size_t off = (size_t)row * stride + (size_t)x * 4;
			memcpy(c->scratch + off, px + off, (size_t)rw * 4);
		}
		c->copied_bytes += (uint64_t)rw * rh * 4;
	}
	c->copy_ns += now_ns() - t0;
}

/*
 * PipeWire 0.3.65 may leave memfd buffers unmapped despite MAP_BUFFERS:
 * those are mapped here once (as OBS and gstreamer do), kept until the
 * buffer is removed, so that no page faults land in the timed copy.
 */
struct mapping {
	void *data;
	size_t size;
};

static const uint8_t *own_mapping(struct pw_buffer *b) {
	struct spa_data *d = &b->buffer->datas[0];
	struct mapping *m = b->user_data;
	if (!m && d->type == SPA_DATA_MemFd && d->fd >= 0 && d->maxsize > 0) {
		size_t size = (size_t)d->mapoffset + d->maxsize;
		void *p = mmap(NULL, size, PROT_READ, MAP_SHARED, (int)d->fd, 0);
		if (p != MAP_FAILED && (m = calloc(1, sizeof(*m)))) {
			m->data = p;
			m->size = size;
			b->user_data = m;
		} else if (p != MAP_FAILED) {
			munmap(p, size);
		}
	}
	return m ? (const uint8_t *)m->data + d->mapoffset : NULL;
}

static void on_remove_buffer(void *data, struct pw_buffer *b) {
	struct mapping *m = b->user_data;
	if (m) {
		munmap(m->data, m->size);
		free(m);
		b->user_data = NULL;
	}
}

static void on_process(void *data) {
	struct counter *c = data;
	struct pw_buffer *b;
	while ((b = pw_stream_dequeue_buffer(c->stream))) {
		uint64_t t_dequeue = now_ns();
		struct spa_data *d = &b->buffer->datas[0];
		const uint8_t *data = d->data ? d->data : own_mapping(b);
		if (c->first_frame) {
			if (data && d->chunk->size > 0 && !c->t_first) {
				c->t_first = now_ns();
				const uint8_t *px = data + d->chunk->offset;
				int stride = d->chunk->stride ? d->chunk->stride :
					(int)c->info.size.width * 4;
				c->first_counter = decode_counter(c, px, stride);
				/* Real pixels, not a zeroed buffer: any non-zero colour
				 * on a 64x64 grid. */
				for (uint32_t y = 0; y < c->info.size.height && !c->first_nonzero; y += 64) {
					for (uint32_t x = 0; x < c->info.size.width; x += 64) {
						const uint8_t *p = px + (size_t)y * stride + (size_t)x * 4;
						if (p[0] || p[1] || p[2]) {
							c->first_nonzero = true;
							break;
						}
					}
				}
				c->phase = 2;
				pw_main_loop_quit(c->loop);
			}
			pw_stream_queue_buffer(c->stream, b);
			continue;
		}
		if (c->phase == 1 && (!data || d->chunk->size == 0)) {
			if (!c->empty++) {
				snprintf(c->empty_why, sizeof(c->empty_why),
					"type %u fd %lld maxsize %u chunk size %u flags %d %s",
					d->type, (long long)d->fd, d->maxsize, d->chunk->size,
					d->chunk->flags, data ? "mapped" : "unmapped");
			}
		} else if (c->phase == 1) {
			const uint8_t *px = data + d->chunk->offset;
			int stride = d->chunk->stride ? d->chunk->stride : (int)c->info.size.width * 4;
			c->buffers++;
			copy_damage(c, b->buffer, px, stride);
			long n = c->cursor_w ? decode_cursor(c, px, stride) :
				decode_counter(c, px, stride);
			if (n < 0) {
				c->decode_failures++;
			} else if (n != c->last_frame) {
				c->last_frame = n;
				if (c->recv_ns && n < LOG_FRAMES && !c->recv_ns[n]) {
					c->recv_ns[n] = t_dequeue;
					c->seen[c->frames % LOG_FRAMES] = (uint32_t)n;
				}
				c->frames++;
			}
		}
		pw_stream_queue_buffer(c->stream, b);
	}
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
	struct counter *c = data;
	if (id != SPA_PARAM_Format || !param || spa_format_video_raw_parse(param, &c->info) < 0) {
		return;
	}
	if (!c->t_format) {
		c->t_format = now_ns();
	}
	uint8_t buf[256];
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
	struct counter *c = data;
	if (state == PW_STREAM_STATE_STREAMING && !c->t_streaming) {
		c->t_streaming = now_ns();
	}
	if (state == PW_STREAM_STATE_ERROR || state == PW_STREAM_STATE_UNCONNECTED) {
		fprintf(stderr, "bench-pwcounter: stream %s%s%s\n", pw_stream_state_as_string(state),
			error ? ": " : "", error ? error : "");
		pw_main_loop_quit(c->loop);
	}
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = on_param_changed,
	.remove_buffer = on_remove_buffer,
	.process = on_process,
};

static void arm(struct counter *c, double seconds) {
	struct timespec value = { (time_t)seconds,
		(long)((seconds - (double)(time_t)seconds) * 1e9) };
	struct timespec interval = { 0, 0 };
	pw_loop_update_timer(pw_main_loop_get_loop(c->loop), c->timer, &value, &interval, false);
}

static void on_timer(void *data, uint64_t expirations) {
	struct counter *c = data;
	if (c->first_frame) { /* no frame within --duration */
		fprintf(stderr, "bench-pwcounter: no frame with pixels within %.1f s\n", c->duration);
		pw_main_loop_quit(c->loop);
		return;
	}
	if (c->phase == 0) {
		for (int i = 0; i < c->npids; i++) {
			c->cpu0[i] = cpu_ms_of(c->pids[i]);
		}
		machine_jiffies(&c->busy0, &c->total0);
		c->t_start = now_ns();
		c->phase = 1;
		arm(c, c->duration);
		return;
	}
	c->t_end = now_ns();
	for (int i = 0; i < c->npids; i++) {
		c->cpu1[i] = cpu_ms_of(c->pids[i]);
	}
	machine_jiffies(&c->busy1, &c->total1);
	c->phase = 2;
	pw_main_loop_quit(c->loop);
}

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Latency of each distinct frame: its first dequeue minus the app's send
 * time (both CLOCK_MONOTONIC). */
static void latency(const struct counter *c, double *med, double *p90, size_t *count) {
	*med = *p90 = -1;
	*count = 0;
	if (!c->app_log || !c->recv_ns) {
		return;
	}
	int fd = open(c->app_log, O_RDONLY);
	if (fd < 0) {
		return;
	}
	uint64_t *sent = mmap(NULL, (size_t)LOG_FRAMES * 8, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (sent == MAP_FAILED) {
		return;
	}
	size_t total = c->frames < LOG_FRAMES ? c->frames : LOG_FRAMES;
	double *lat = malloc(sizeof(double) * (total + 1));
	size_t n = 0;
	for (size_t i = 0; lat && i < total; i++) {
		uint32_t f = c->seen[i];
		if (sent[f] && c->recv_ns[f] >= sent[f]) {
			lat[n++] = (double)(c->recv_ns[f] - sent[f]) / 1e6;
		}
	}
	if (n) {
		qsort(lat, n, sizeof(*lat), cmp_double);
		*med = n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2;
		*p90 = lat[(size_t)((double)(n - 1) * 0.9 + 0.5)];
	}
	*count = n;
	free(lat);
	munmap(sent, (size_t)LOG_FRAMES * 8);
}

static void report(const struct counter *c) {
	double lat_med, lat_p90;
	size_t lat_n;
	latency(c, &lat_med, &lat_p90, &lat_n);
	double secs = (double)(c->t_end - c->t_start) / 1e9;
	double frames = (double)c->frames;
	printf("{\"width\": %u, \"height\": %u, \"seconds\": %.3f, \"frames\": %llu, "
		"\"fps\": %.2f, \"buffers\": %llu, \"empty_buffers\": %llu, \"decode_failures\": %llu, "
		"\"counter_x\": %d, \"counter_y\": %d, \"cpu_ms_by_pid\": {",
		c->info.size.width, c->info.size.height, secs, (unsigned long long)c->frames,
		secs > 0 ? frames / secs : 0.0, (unsigned long long)c->buffers,
		(unsigned long long)c->empty,
		(unsigned long long)c->decode_failures, c->org_x, c->org_y);
	for (int i = 0; i < c->npids; i++) {
		printf("%s\"%d\": %.0f", i ? ", " : "", c->pids[i], c->cpu1[i] - c->cpu0[i]);
	}
	printf("}, \"empty_why\": \"%s\", \"floor_ms_per_buffer\": %.5f, \"damaged_kib_per_buffer\": %.3f, "
		"\"damage_rects_per_buffer\": %.2f, \"latency_ms_median\": %.3f, "
		"\"latency_ms_p90\": %.3f, \"latency_samples\": %zu, "
		"\"machine_busy_pct\": %.1f}\n", c->empty_why,
		c->buffers ? (double)c->copy_ns / 1e6 / (double)c->buffers : -1.0,
		c->buffers ? (double)c->copied_bytes / 1024.0 / (double)c->buffers : 0.0,
		c->buffers ? (double)c->damage_rects / (double)c->buffers : 0.0,
		lat_med, lat_p90, lat_n,
		c->total1 > c->total0 ?
			100.0 * (double)(c->busy1 - c->busy0) / (double)(c->total1 - c->total0) : -1.0);
}

/* The node id, and maybe a PipeWire remote fd, as one message on fd 0. */
static bool receive_node(uint32_t *node, int *fd) {
	char text[32] = {0};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { text, sizeof(text) - 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf) };
	ssize_t n = recvmsg(0, &msg, MSG_CMSG_CLOEXEC);
	if (n <= 0) {
		return false;
	}
	*fd = -1;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
		}
	}
	*node = (uint32_t)strtoul(text, NULL, 10);
	return true;
}

int main(int argc, char *argv[]) {
	struct counter c = { .warmup = 2, .duration = 10, .last_frame = -1 };
	uint32_t node = PW_ID_ANY;
	static const struct option opts[] = {
		{"node", required_argument, 0, 'n'}, {"warmup", required_argument, 0, 'w'},
		{"duration", required_argument, 0, 'd'}, {"pids", required_argument, 0, 'p'},
		{"first-frame", no_argument, 0, 'f'}, {"app-log", required_argument, 0, 'a'},
		{"cursor", required_argument, 0, 'c'}, {0, 0, 0, 0},
	};
	int o;
	while ((o = getopt_long(argc, argv, "n:w:d:p:fa:c:", opts, NULL)) != -1) {
		switch (o) {
		case 'f': c.first_frame = true; break;
		case 'a': c.app_log = optarg; break;
		case 'c':
			if (sscanf(optarg, "%dx%d", &c.cursor_w, &c.cursor_h) != 2 ||
					c.cursor_w <= 0 || c.cursor_h <= 0) {
				fprintf(stderr, "bench-pwcounter: --cursor WxH\n");
				return 2;
			}
			break;
		case 'n': node = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'w': c.warmup = atof(optarg); break;
		case 'd': c.duration = atof(optarg); break;
		case 'p':
			for (char *t = strtok(optarg, ","); t && c.npids < MAX_PIDS; t = strtok(NULL, ",")) {
				c.pids[c.npids++] = atoi(t);
			}
			break;
		default:
			fprintf(stderr, "usage: bench-pwcounter --node ID [--warmup S] [--duration S] "
				"[--pids PID,...]\n"
				"                      [--app-log FILE] [--cursor WxH]\n"
				"       bench-pwcounter --first-frame [--duration S] < unix socket\n");
			return 2;
		}
	}
	if (c.app_log) {
		c.recv_ns = calloc(LOG_FRAMES, sizeof(*c.recv_ns));
		c.seen = calloc(LOG_FRAMES, sizeof(*c.seen));
		if (!c.recv_ns || !c.seen) {
			return 1;
		}
	}
	pw_init(&argc, &argv);
	c.loop = pw_main_loop_new(NULL);
	c.context = pw_context_new(pw_main_loop_get_loop(c.loop), NULL, 0);
	int remote_fd = -1;
	if (c.first_frame) {
		printf("{\"ready\": true}\n");
		fflush(stdout);
	}
	if (c.first_frame && !receive_node(&node, &remote_fd)) {
		fprintf(stderr, "bench-pwcounter: no node id on fd 0\n");
		return 1;
	}
	c.t_connect = now_ns();
	c.core = remote_fd >= 0 ? pw_context_connect_fd(c.context, remote_fd, NULL, 0) :
		pw_context_connect(c.context, NULL, 0);
	if (!c.core) {
		fprintf(stderr, "bench-pwcounter: cannot connect to PipeWire\n");
		return 1;
	}
	c.stream = pw_stream_new(c.core, "bench-pwcounter",
		pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
			PW_KEY_MEDIA_ROLE, "Screen", NULL));
	struct spa_hook stream_listener;
	pw_stream_add_listener(c.stream, &stream_listener, &stream_events, &c);
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	struct spa_rectangle def = SPA_RECTANGLE(1920, 1080), min = SPA_RECTANGLE(1, 1),
		max = SPA_RECTANGLE(16384, 16384);
	struct spa_fraction zero = SPA_FRACTION(0, 1), mdef = SPA_FRACTION(60, 1),
		mmin = SPA_FRACTION(0, 1), mmax = SPA_FRACTION(1000, 1);
	const struct spa_pod *params[1] = {
		spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
			SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
			SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
			SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(3, SPA_VIDEO_FORMAT_BGRx,
				SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRA),
			SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&def, &min, &max),
			SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&zero),
			SPA_FORMAT_VIDEO_maxFramerate,
				SPA_POD_CHOICE_RANGE_Fraction(&mdef, &mmin, &mmax)),
	};
	if (pw_stream_connect(c.stream, PW_DIRECTION_INPUT, node,
			PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS |
			PW_STREAM_FLAG_DONT_RECONNECT, params, 1) < 0) {
		fprintf(stderr, "bench-pwcounter: cannot connect\n");
		return 1;
	}
	c.timer = pw_loop_add_timer(pw_main_loop_get_loop(c.loop), on_timer, &c);
	arm(&c, c.first_frame ? c.duration : c.warmup);
	pw_main_loop_run(c.loop);
	int status = 1;
	if (c.phase == 2 && c.first_frame) {
		printf("{\"connect_ns\": %llu, \"format_ns\": %llu, \"streaming_ns\": %llu, "
			"\"first_frame_ns\": %llu, \"width\": %u, "
			"\"height\": %u, \"counter\": %ld, \"nonzero\": %s}\n",
			(unsigned long long)c.t_connect, (unsigned long long)c.t_format,
			(unsigned long long)c.t_streaming, (unsigned long long)c.t_first,
			c.info.size.width, c.info.size.height, c.first_counter,
			c.first_nonzero ? "true" : "false");
		status = 0;
	} else if (c.phase == 2) {
		report(&c);
		status = 0;
	}
	pw_stream_destroy(c.stream);
	pw_core_disconnect(c.core);
	pw_context_destroy(c.context);
	pw_main_loop_destroy(c.loop);
	free(c.scratch);
	free(c.recv_ns);
	free(c.seen);
	pw_deinit();
	return status;
}
