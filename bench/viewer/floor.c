/*
 * The floor: the least CPU any VNC server must spend per frame of this
 * workload, timed in the viewer on the frame it received.
 *   - raw: one pass putting the app's pixels (B,G,R,X in an X server's
 *     memory) into the viewer's byte order, and one send of the result over
 *     loopback TCP to a thread that drains it;
 *   - Tight JPEG: one libjpeg compression of the whole frame at the
 *     server's quality and chroma subsampling, with the accurate DCT
 *     libvncserver uses. (Servers compress in pieces, which costs more.)
 * Each is the median of reps, in CPU time of the timing thread, so the
 * loopback receive that runs in the sender's context counts, as it does
 * for a server, and the drain thread's copy does not.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <jpeglib.h>
#include "floor.h"

static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

static void *drain(void *arg)
{
	int fd = *(int *)arg;
	char *buf = malloc(1 << 20);
	while (buf && read(fd, buf, 1 << 20) > 0)
		;
	free(buf);
	return NULL;
}

/* A connected loopback TCP pair; false on failure. */
static bool tcp_pair(int *send_fd, int *recv_fd)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof addr;
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0)
		return false;
	bool ok = bind(ls, (struct sockaddr *)&addr, sizeof addr) == 0 &&
		getsockname(ls, (struct sockaddr *)&addr, &len) == 0 && listen(ls, 1) == 0;
	*recv_fd = ok ? socket(AF_INET, SOCK_STREAM, 0) : -1;
	ok = ok && *recv_fd >= 0 && connect(*recv_fd, (struct sockaddr *)&addr, sizeof addr) == 0;
	*send_fd = ok ? accept(ls, NULL, NULL) : -1;
	close(ls);
	return *send_fd >= 0;
}

static bool send_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* Four pixels at a time, as a server's copy would (SSE2 through vector types). */
typedef uint32_t pixel_vec __attribute__((vector_size(16)));

static void swap_rb(uint32_t *dst, const uint8_t *src, size_t n)
{
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		pixel_vec v;
		memcpy(&v, src + 4 * i, sizeof(v));
		v = (v & 0xff00ff00u) | (v >> 16 & 0xffu) | (v & 0xffu) << 16;
		memcpy(dst + i, &v, sizeof(v));
	}
	for (; i < n; i++) {
		uint32_t p;
		memcpy(&p, src + 4 * i, 4);
		dst[i] = (p & 0xff00ff00u) | (p >> 16 & 0xffu) | (p & 0xffu) << 16;
	}
}

double floor_raw_ms(const uint8_t *frame, int width, int height, int reps)
{
	size_t n = (size_t)width * height;
	uint32_t *out = malloc(n * 4);
	int send_fd, recv_fd;
	if (!out || !tcp_pair(&send_fd, &recv_fd)) {
		free(out);
		return -1;
	}
	pthread_t drainer;
	pthread_create(&drainer, NULL, drain, &recv_fd);
	double *ms = malloc(sizeof(double) * (size_t)reps);
	bool ok = ms != NULL;
	for (int r = 0; ok && r < reps; r++) {
		double t0 = thread_cpu_ms();
		swap_rb(out, frame, n);
		ok = send_all(send_fd, (const uint8_t *)out, n * 4);
		ms[r] = thread_cpu_ms() - t0;
	}
	close(send_fd);
	pthread_join(drainer, NULL);
	close(recv_fd);
	double result = ok ? median(ms, reps) : -1;
	free(ms);
	free(out);
	return result;
}

double floor_jpeg_ms(const uint8_t *frame, int width, int height, int quality,
		int h_subsample, int v_subsample, int reps)
{
	double *ms = malloc(sizeof(double) * (size_t)reps);
	if (!ms)
		return -1;
	for (int r = 0; r < reps; r++) {
		struct jpeg_compress_struct cinfo;
		struct jpeg_error_mgr jerr;
		unsigned char *out = NULL;
		unsigned long out_size = 0;
		double t0 = thread_cpu_ms();
		cinfo.err = jpeg_std_error(&jerr);
		jpeg_create_compress(&cinfo);
		jpeg_mem_dest(&cinfo, &out, &out_size);
		cinfo.image_width = (JDIMENSION)width;
		cinfo.image_height = (JDIMENSION)height;
		cinfo.input_components = 4;
		cinfo.in_color_space = JCS_EXT_RGBX;
		jpeg_set_defaults(&cinfo);
		jpeg_set_quality(&cinfo, quality, TRUE);
		cinfo.comp_info[0].h_samp_factor = h_subsample;
		cinfo.comp_info[0].v_samp_factor = v_subsample;
		cinfo.dct_method = JDCT_ISLOW;
		jpeg_start_compress(&cinfo, TRUE);
		while (cinfo.next_scanline < cinfo.image_height) {
			JSAMPROW row = (JSAMPROW)(frame + (size_t)cinfo.next_scanline * width * 4);
			jpeg_write_scanlines(&cinfo, &row, 1);
		}
		jpeg_finish_compress(&cinfo);
		jpeg_destroy_compress(&cinfo);
		ms[r] = thread_cpu_ms() - t0;
		free(out);
	}
	double result = median(ms, reps);
	free(ms);
	return result;
}
