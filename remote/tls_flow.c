/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include "remote/tls_flow.h"
#include "remote/tls_stream.h"

bool tls_flow_move(struct tls_flow *f) {
	for (;;) {
		if (f->len == 0) {
			ssize_t n = tls_stream_recv(f->from, f->buf, sizeof(f->buf));
			f->want_read = n < 0 && errno == EAGAIN;
			if (f->want_read) {
				return true;
			}
			if (n <= 0) {
				return false;
			}
			f->len = (size_t)n;
			f->off = 0;
			if (f->received && !f->received(f, f->data)) {
				return false;
			}
			if (f->off == f->len) {
				f->len = f->off = 0;
				continue;
			}
		}
		ssize_t n = tls_stream_send(f->to, f->buf + f->off, f->len - f->off);
		if (n > 0) {
			f->passed = true;
		}
		f->want_write = n < 0 && errno == EAGAIN;
		if (f->want_write) {
			return true;
		}
		if (n < 0) {
			return false;
		}
		f->off += (size_t)n;
		if (f->off == f->len) {
			f->len = f->off = 0;
		}
	}
}
