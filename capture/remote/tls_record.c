/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <gnutls/crypto.h>
#include "capture/remote/tls_record.h"

#define HEADER 5
#define TAG 16
#define CONTENT_ALERT 21
#define CONTENT_APPLICATION_DATA 23
/* RFC 8446 5.2: a record's ciphertext is at most 2^14 + 256 bytes. */
#define CIPHERTEXT_MAX (TLS_RECORD_PLAINTEXT_MAX + 256)

struct tls_record_direction {
	gnutls_aead_cipher_hd_t cipher;
	uint8_t iv[HANDOVER_IV_MAX];
	uint64_t seq;
};

struct tls_record {
	int fd;
	size_t iv_size;
	struct tls_record_direction read, write;

	/* The record being sent: out[out_sent..out_len), of out_plain bytes. */
	uint8_t out[HEADER + TLS_RECORD_PLAINTEXT_MAX + 1 + TAG];
	size_t out_len, out_sent, out_plain;

	/* The record being received, then its plaintext from in[plain_start..plain_end). */
	uint8_t in[HEADER + CIPHERTEXT_MAX];
	size_t in_len;
	size_t plain_start, plain_end;
	bool closed;
};

static bool cipher_carried_on(gnutls_cipher_algorithm_t cipher) {
	return cipher == GNUTLS_CIPHER_AES_128_GCM || cipher == GNUTLS_CIPHER_AES_256_GCM ||
		cipher == GNUTLS_CIPHER_CHACHA20_POLY1305;
}

static bool export_direction(gnutls_session_t session, bool read, size_t key_size,
		struct handover_tls_direction *direction) {
	gnutls_datum_t mac_key, iv, key;
	unsigned char seq[8];
	if (gnutls_record_get_state(session, read, &mac_key, &iv, &key, seq) < 0 ||
			key.size != key_size || key.size > sizeof(direction->key) ||
			iv.size != sizeof(direction->iv)) {
		return false;
	}
	memcpy(direction->key, key.data, key.size);
	memcpy(direction->iv, iv.data, iv.size);
	direction->seq = 0;
	for (int i = 0; i < 8; i++) {
		direction->seq = direction->seq << 8 | seq[i];
	}
	return true;
}

bool tls_record_export(gnutls_session_t session, struct handover_tls *state,
		char *error, size_t error_size) {
	gnutls_cipher_algorithm_t cipher = gnutls_cipher_get(session);
	if (gnutls_protocol_get_version(session) != GNUTLS_TLS1_3) {
		snprintf(error, error_size, "only TLS 1.3 is handed over, not %s",
			gnutls_protocol_get_name(gnutls_protocol_get_version(session)));
		return false;
	}
	if (!cipher_carried_on(cipher)) {
		snprintf(error, error_size, "the cipher %s is not handed over",
			gnutls_cipher_get_name(cipher));
		return false;
	}
	if (gnutls_record_check_pending(session) > 0) {
		snprintf(error, error_size, "the client's plaintext was not all read");
		return false;
	}
	memset(state, 0, sizeof(*state));
	state->version = 0x0304;
	state->cipher = (uint16_t)cipher;
	state->key_size = (uint16_t)gnutls_cipher_get_key_size(cipher);
	state->iv_size = HANDOVER_IV_MAX;
	if (!export_direction(session, true, state->key_size, &state->read) ||
			!export_direction(session, false, state->key_size, &state->write)) {
		snprintf(error, error_size, "GnuTLS does not give the session's keys");
		return false;
	}
	return true;
}

static bool import_direction(const struct handover_tls *state,
		const struct handover_tls_direction *from, struct tls_record_direction *to) {
	gnutls_datum_t key = { (unsigned char *)from->key, state->key_size };
	if (gnutls_aead_cipher_init(&to->cipher, (gnutls_cipher_algorithm_t)state->cipher,
			&key) < 0) {
		to->cipher = NULL;
		return false;
	}
	memcpy(to->iv, from->iv, sizeof(to->iv));
	to->seq = from->seq;
	return true;
}

struct tls_record *tls_record_import(const struct handover_tls *state, int fd,
		char *error, size_t error_size) {
	gnutls_cipher_algorithm_t cipher = (gnutls_cipher_algorithm_t)state->cipher;
	if (state->version != 0x0304 || !cipher_carried_on(cipher) ||
			state->key_size != gnutls_cipher_get_key_size(cipher) ||
			state->iv_size != HANDOVER_IV_MAX) {
		snprintf(error, error_size, "a TLS state this session cannot carry on "
			"(version %#x, cipher %u, key %u bytes)", state->version, state->cipher,
			state->key_size);
		return NULL;
	}
	struct tls_record *record = calloc(1, sizeof(*record));
	if (!record) {
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	record->fd = fd;
	record->iv_size = state->iv_size;
	if (!import_direction(state, &state->read, &record->read) ||
			!import_direction(state, &state->write, &record->write)) {
		snprintf(error, error_size, "GnuTLS refuses the cipher's key");
		tls_record_destroy(record);
		return NULL;
	}
	return record;
}

void tls_record_destroy(struct tls_record *record) {
	if (!record) {
		return;
	}
	if (record->read.cipher) {
		gnutls_aead_cipher_deinit(record->read.cipher);
	}
	if (record->write.cipher) {
		gnutls_aead_cipher_deinit(record->write.cipher);
	}
	gnutls_memset(record, 0, sizeof(*record)); /* the keys' copies */
	free(record);
}

/* RFC 8446 5.3: the static IV xor the sequence number, right-aligned. */
static void nonce(const struct tls_record_direction *direction, size_t iv_size,
		uint8_t out[HANDOVER_IV_MAX]) {
	memcpy(out, direction->iv, iv_size);
	for (int i = 0; i < 8; i++) {
		out[iv_size - 1 - (size_t)i] ^= (uint8_t)(direction->seq >> (8 * i));
	}
}

static void header(uint8_t out[HEADER], size_t ciphertext_len) {
	out[0] = CONTENT_APPLICATION_DATA;
	out[1] = 3; /* legacy_record_version 0x0303 */
	out[2] = 3;
	out[3] = (uint8_t)(ciphertext_len >> 8);
	out[4] = (uint8_t)ciphertext_len;
}

static bool seal(struct tls_record *record, const void *buf, size_t len) {
	uint8_t *inner = record->out + HEADER;
	memcpy(inner, buf, len);
	inner[len] = CONTENT_APPLICATION_DATA;
	header(record->out, len + 1 + TAG);
	uint8_t iv[HANDOVER_IV_MAX];
	nonce(&record->write, record->iv_size, iv);
	giovec_t auth = { record->out, HEADER };
	giovec_t data = { inner, len + 1 };
	size_t tag_size = TAG;
	if (gnutls_aead_cipher_encryptv2(record->write.cipher, iv, record->iv_size, &auth, 1,
			&data, 1, inner + len + 1, &tag_size) < 0) {
		return false;
	}
	record->write.seq++;
	record->out_len = HEADER + len + 1 + TAG;
	record->out_sent = 0;
	record->out_plain = len;
	return true;
}

ssize_t tls_record_send(struct tls_record *record, const void *buf, size_t len) {
	if (record->out_len == 0) {
		if (len == 0) {
			return 0;
		}
		if (!seal(record, buf, len < TLS_RECORD_PLAINTEXT_MAX ? len :
				TLS_RECORD_PLAINTEXT_MAX)) {
			errno = EPIPE;
			return -1;
		}
	}
	while (record->out_sent < record->out_len) {
		ssize_t n = send(record->fd, record->out + record->out_sent,
			record->out_len - record->out_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			if (errno != EAGAIN) {
				errno = EPIPE;
			}
			return -1;
		}
		record->out_sent += (size_t)n;
	}
	record->out_len = 0;
	return (ssize_t)record->out_plain;
}

/* Reads up to want bytes of the record into in; false when not all are there yet. */
static bool read_in(struct tls_record *record, size_t want) {
	while (record->in_len < want) {
		ssize_t n = recv(record->fd, record->in + record->in_len, want - record->in_len,
			MSG_DONTWAIT);
		if (n == 0) {
			record->closed = true;
			errno = 0;
			return false;
		}
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			if (errno != EAGAIN) {
				errno = ECONNRESET;
			}
			return false;
		}
		record->in_len += (size_t)n;
	}
	return true;
}

/* The whole record in `in` → its plaintext in place; its content type, or -1 (EPROTO). */
static int open_record(struct tls_record *record, size_t ciphertext_len) {
	if (ciphertext_len < TAG + 1) {
		return -1;
	}
	uint8_t iv[HANDOVER_IV_MAX];
	nonce(&record->read, record->iv_size, iv);
	giovec_t auth = { record->in, HEADER };
	giovec_t data = { record->in + HEADER, ciphertext_len - TAG };
	if (gnutls_aead_cipher_decryptv2(record->read.cipher, iv, record->iv_size, &auth, 1,
			&data, 1, record->in + HEADER + ciphertext_len - TAG, TAG) < 0) {
		return -1;
	}
	record->read.seq++;
	/* The inner plaintext ends in its content type, then zeros of padding. */
	size_t end = HEADER + ciphertext_len - TAG;
	while (end > HEADER && record->in[end - 1] == 0) {
		end--;
	}
	if (end == HEADER) {
		return -1;
	}
	record->plain_start = HEADER;
	record->plain_end = end - 1;
	return record->in[end - 1];
}

ssize_t tls_record_recv(struct tls_record *record, void *buf, size_t len) {
	while (record->plain_start == record->plain_end) {
		if (record->closed) {
			return 0;
		}
		if (!read_in(record, HEADER)) {
			return record->closed ? 0 : -1;
		}
		size_t length = (size_t)record->in[3] << 8 | record->in[4];
		if (record->in[0] != CONTENT_APPLICATION_DATA || length > CIPHERTEXT_MAX) {
			errno = EPROTO; /* after the handshake, only sealed records come */
			return -1;
		}
		if (!read_in(record, HEADER + length)) {
			if (record->closed) {
				errno = ECONNRESET; /* cut off inside a record */
			}
			return -1;
		}
		record->in_len = 0;
		int type = open_record(record, length);
		if (type == CONTENT_ALERT) {
			/* close_notify (level, description 0) is a clean end. */
			bool close_notify = record->plain_end - record->plain_start == 2 &&
				record->in[record->plain_start + 1] == 0;
			record->plain_start = record->plain_end = 0;
			record->closed = true;
			if (close_notify) {
				return 0;
			}
			errno = ECONNRESET;
			return -1;
		}
		if (type != CONTENT_APPLICATION_DATA) {
			/* A KeyUpdate or anything else after the handshake is not carried on. */
			record->plain_start = record->plain_end = 0;
			errno = EPROTO;
			return -1;
		}
	}
	size_t n = record->plain_end - record->plain_start;
	if (n > len) {
		n = len;
	}
	memcpy(buf, record->in + record->plain_start, n);
	record->plain_start += n;
	return (ssize_t)n;
}
