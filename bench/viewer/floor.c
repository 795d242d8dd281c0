/* SPDX-License-Identifier: MIT */
/*
 * The floor: the least CPU any VNC server must spend per frame of this
 * workload, timed in the viewer on the frame it received.
 *   - raw: one pass putting the app's pixels (B,G,R,X in an X server's
 *     memory) into the viewer's byte order, and one send of the result over
 *     loopback TCP to a thread that drains it;
 *   - Tight JPEG: one libjpeg compression of the whole frame at the
 *     server's quality and chroma subsampling, with the accurate DCT
 *     libvncserver uses (or the fast one, TigerVNC's below quality 96).
 *     (Servers compress in pieces, which costs more.)
 *   - TLS: one AEAD encryption (GnuTLS's gnutls_cipher_*, AES-GCM unless
 *     the session negotiated another) of the bytes a frame took on the
 *     wire, in records of 16 KiB as TLS cuts them, each with its nonce,
 *     its additional data (13 bytes, as TLS 1.2 has them) and its tag,
 *     into a record buffer. This is the least TLS adds to any server's
 *     frame; the record framing, the handshake and the ciphertext's send
 *     (which replaces the plain bytes' send) are left out.
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
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
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
		int h_subsample, int v_subsample, bool fast_dct, int reps)
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
		cinfo.dct_method = fast_dct ? JDCT_FASTEST : JDCT_ISLOW;
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

#define TLS_RECORD 16384

double floor_tls_ms(const uint8_t *frame, size_t frame_bytes, size_t bytes,
		const char *cipher, int reps)
{
	gnutls_cipher_algorithm_t alg = gnutls_cipher_get_id(cipher);
	size_t key_len = gnutls_cipher_get_key_size(alg);
	size_t iv_len = gnutls_cipher_get_iv_size(alg);
	size_t tag_len = gnutls_cipher_get_tag_size(alg);
	if (alg == GNUTLS_CIPHER_UNKNOWN || tag_len == 0 || iv_len > 32 || key_len > 64 ||
			frame_bytes == 0 || bytes == 0)
		return -1; /* not an AEAD cipher GnuTLS knows */
	uint8_t key_bytes[64], iv_bytes[32], nonce[32], tag[32];
	/* TLS 1.2's additional data: sequence number, type (application
	 * data), version, length. */
	uint8_t aad[13] = {0, 0, 0, 0, 0, 0, 0, 0, 23, 3, 3, 0, 0};
	gnutls_rnd(GNUTLS_RND_NONCE, key_bytes, key_len);
	gnutls_rnd(GNUTLS_RND_NONCE, iv_bytes, iv_len);
	gnutls_datum_t key = { key_bytes, (unsigned)key_len }, iv = { iv_bytes, (unsigned)iv_len };
	gnutls_cipher_hd_t h;
	if (gnutls_cipher_init(&h, alg, &key, &iv) < 0)
		return -1;
	/* The frame's bytes, the frame repeated if the wire took more. */
	uint8_t *in = malloc(bytes), *out = malloc(TLS_RECORD);
	double *ms = malloc(sizeof(double) * (size_t)reps);
	bool ok = in && out && ms;
	for (size_t off = 0; ok && off < bytes; off += frame_bytes)
		memcpy(in + off, frame, bytes - off < frame_bytes ? bytes - off : frame_bytes);
	uint64_t seq = 0;
	for (int r = 0; ok && r < reps; r++) {
		double t0 = thread_cpu_ms();
		for (size_t off = 0; ok && off < bytes; off += TLS_RECORD) {
			size_t n = bytes - off < TLS_RECORD ? bytes - off : TLS_RECORD;
			/* A nonce per record, from the record number. */
			memcpy(nonce, iv_bytes, iv_len);
			for (int i = 0; i < 8; i++) {
				nonce[iv_len - 1 - i] ^= (uint8_t)(seq >> (8 * i));
				aad[7 - i] = (uint8_t)(seq >> (8 * i));
			}
			seq++;
			aad[11] = (uint8_t)(n >> 8);
			aad[12] = (uint8_t)n;
			gnutls_cipher_set_iv(h, nonce, iv_len);
			ok = gnutls_cipher_add_auth(h, aad, sizeof aad) == 0 &&
				gnutls_cipher_encrypt2(h, in + off, n, out, n) == 0 &&
				gnutls_cipher_tag(h, tag, tag_len) == 0;
		}
		ms[r] = thread_cpu_ms() - t0;
	}
	gnutls_cipher_deinit(h);
	double result = ok ? median(ms, reps) : -1;
	free(ms);
	free(out);
	free(in);
	return result;
}
