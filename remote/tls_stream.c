/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include "remote/tls_record.h"
#include "remote/tls_stream.h"

struct tls_stream {
	gnutls_session_t session; /* or */
	struct tls_record *record;
	bool retry; /* GnuTLS: the last send must be repeated */
	bool plain; /* or plaintext on fd */
	int fd;
};

struct tls_stream *tls_stream_from_session(gnutls_session_t session) {
	struct tls_stream *stream = calloc(1, sizeof(*stream));
	if (!stream) {
		gnutls_deinit(session);
		return NULL;
	}
	stream->session = session;
	return stream;
}

struct tls_stream *tls_stream_from_record(struct tls_record *record) {
	struct tls_stream *stream = calloc(1, sizeof(*stream));
	if (!stream) {
		tls_record_destroy(record);
		return NULL;
	}
	stream->record = record;
	return stream;
}

struct tls_stream *tls_stream_from_handover(const struct handover_tls *state, int fd,
		char *error, size_t error_size) {
	struct tls_record *record = tls_record_import(state, fd, error, error_size);
	struct tls_stream *stream = record ? tls_stream_from_record(record) : NULL;
	if (record && !stream) {
		snprintf(error, error_size, "out of memory");
	}
	return stream;
}

struct tls_stream *tls_stream_plain(int fd) {
	struct tls_stream *stream = calloc(1, sizeof(*stream));
	if (stream) {
		stream->plain = true;
		stream->fd = fd;
	}
	return stream;
}

void tls_stream_destroy(struct tls_stream *stream) {
	if (!stream) {
		return;
	}
	if (stream->session) {
		gnutls_deinit(stream->session);
	}
	tls_record_destroy(stream->record);
	free(stream);
}

ssize_t tls_stream_send(struct tls_stream *stream, const void *buf, size_t len) {
	if (stream->plain) {
		return send(stream->fd, buf, len, MSG_NOSIGNAL);
	}
	if (stream->record) {
		return tls_record_send(stream->record, buf, len);
	}
	ssize_t n = stream->retry ? gnutls_record_send(stream->session, NULL, 0) :
		gnutls_record_send(stream->session, buf, len);
	stream->retry = n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED;
	if (n >= 0) {
		return n;
	}
	errno = stream->retry ? EAGAIN : EPIPE;
	return -1;
}

ssize_t tls_stream_recv(struct tls_stream *stream, void *buf, size_t len) {
	if (stream->plain) {
		return recv(stream->fd, buf, len, 0);
	}
	if (stream->record) {
		return tls_record_recv(stream->record, buf, len);
	}
	ssize_t n = gnutls_record_recv(stream->session, buf, len);
	if (n >= 0) {
		return n;
	}
	errno = n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED ? EAGAIN : ECONNRESET;
	return -1;
}
