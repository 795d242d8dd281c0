/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <gnutls/crypto.h>
#include "remote/tls_record.h"

#define HEADER 5
#define TAG 16
#define EXPLICIT_NONCE 8
#define GCM_SALT 4
#define CONTENT_ALERT 21
#define CONTENT_HANDSHAKE 22
#define CONTENT_APPLICATION_DATA 23
/* RFC 8446 5.2: a record's ciphertext is at most 2^14 + 256 bytes. */
#define CIPHERTEXT_MAX (TLS_RECORD_PLAINTEXT_MAX + 256)
/* The most one record this layer seals takes on the wire. */
#define SEALED_MAX (HEADER + EXPLICIT_NONCE + TLS_RECORD_PLAINTEXT_MAX + 1 + TAG)

struct tls_record_direction {
	gnutls_aead_cipher_hd_t cipher;
	uint8_t iv[HANDOVER_IV_MAX];
	uint64_t seq;
};

struct tls_record {
	int fd;
	bool tls13;
	/* TLS 1.2 with AES-GCM: a 4-byte salt, and each record's nonce sent before it. */
	bool explicit_nonce;
	size_t iv_size;
	struct tls_record_direction read, write;

	/* The records being sent: out[out_sent..out_len), of out_plain bytes. */
	uint8_t out[TLS_RECORD_SEND_RECORDS * SEALED_MAX];
	size_t out_len, out_sent, out_plain;

	/* The record being received, then its plaintext from in[plain_start..plain_end). */
	uint8_t in[HEADER + CIPHERTEXT_MAX + 1024]; /* TLS 1.2 allows 2^14 + 2048 */
	size_t in_len;
	size_t plain_start, plain_end;
	bool closed;
};

static bool cipher_carried_on(gnutls_cipher_algorithm_t cipher) {
	return cipher == GNUTLS_CIPHER_AES_128_GCM || cipher == GNUTLS_CIPHER_AES_256_GCM ||
		cipher == GNUTLS_CIPHER_CHACHA20_POLY1305;
}

static bool export_direction(gnutls_session_t session, bool read, size_t key_size,
		size_t iv_size, struct handover_tls_direction *direction) {
	gnutls_datum_t mac_key, iv, key;
	unsigned char seq[8];
	if (gnutls_record_get_state(session, read, &mac_key, &iv, &key, seq) < 0 ||
			key.size != key_size || key.size > sizeof(direction->key) ||
			iv.size != iv_size) {
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
	gnutls_protocol_t version = gnutls_protocol_get_version(session);
	if (version != GNUTLS_TLS1_3 && version != GNUTLS_TLS1_2) {
		snprintf(error, error_size, "only TLS 1.3 and 1.2 are handed over, not %s",
			gnutls_protocol_get_name(version));
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
	state->version = version == GNUTLS_TLS1_3 ? 0x0304 : 0x0303;
	state->cipher = (uint16_t)cipher;
	state->key_size = (uint16_t)gnutls_cipher_get_key_size(cipher);
	state->iv_size = version == GNUTLS_TLS1_2 && cipher != GNUTLS_CIPHER_CHACHA20_POLY1305 ?
		GCM_SALT : HANDOVER_IV_MAX;
	if (!export_direction(session, true, state->key_size, state->iv_size, &state->read) ||
			!export_direction(session, false, state->key_size, state->iv_size,
				&state->write)) {
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
	bool tls13 = state->version == 0x0304;
	bool explicit_nonce = !tls13 && cipher != GNUTLS_CIPHER_CHACHA20_POLY1305;
	if ((!tls13 && state->version != 0x0303) || !cipher_carried_on(cipher) ||
			state->key_size != gnutls_cipher_get_key_size(cipher) ||
			state->iv_size != (explicit_nonce ? GCM_SALT : HANDOVER_IV_MAX)) {
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
	record->tls13 = tls13;
	record->explicit_nonce = explicit_nonce;
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

static void put_u64(uint8_t out[8], uint64_t value) {
	for (int i = 0; i < 8; i++) {
		out[i] = (uint8_t)(value >> (56 - 8 * i));
	}
}

/*
 * A record's nonce: TLS 1.3 and ChaCha20 xor the static IV with the
 * sequence number (RFC 8446 5.3, RFC 7905); TLS 1.2's AES-GCM puts the
 * salt before the explicit nonce (RFC 5288), which is the sequence
 * number when this side seals.
 */
static void nonce(const struct tls_record *record, const struct tls_record_direction *direction,
		const uint8_t *explicit, uint8_t out[HANDOVER_IV_MAX]) {
	if (record->explicit_nonce) {
		memcpy(out, direction->iv, GCM_SALT);
		memcpy(out + GCM_SALT, explicit, EXPLICIT_NONCE);
		return;
	}
	memcpy(out, direction->iv, HANDOVER_IV_MAX);
	for (int i = 0; i < 8; i++) {
		out[HANDOVER_IV_MAX - 1 - (size_t)i] ^= (uint8_t)(direction->seq >> (8 * i));
	}
}

/* The additional data: TLS 1.3 authenticates the header, TLS 1.2 the sequence number too. */
static size_t additional_data(const struct tls_record *record,
		const struct tls_record_direction *direction, const uint8_t header[HEADER],
		size_t plaintext_len, uint8_t out[13]) {
	if (record->tls13) {
		memcpy(out, header, HEADER);
		return HEADER;
	}
	put_u64(out, direction->seq);
	out[8] = header[0];
	out[9] = header[1];
	out[10] = header[2];
	out[11] = (uint8_t)(plaintext_len >> 8);
	out[12] = (uint8_t)plaintext_len;
	return 13;
}

static void header(uint8_t out[HEADER], uint8_t type, size_t length) {
	out[0] = type;
	out[1] = 3; /* (legacy_)record_version 0x0303 */
	out[2] = 3;
	out[3] = (uint8_t)(length >> 8);
	out[4] = (uint8_t)length;
}

/*
 * Seals the len bytes of plain (at most one record's, in n_plain pieces)
 * into out, encrypting from them straight into the record: no copy of
 * the plaintext first. The record's length, or 0.
 */
static size_t seal(struct tls_record *record, uint8_t *out, giovec_t *plain, int n_plain,
		size_t len) {
	struct tls_record_direction *write = &record->write;
	size_t explicit_len = record->explicit_nonce ? EXPLICIT_NONCE : 0;
	uint8_t *explicit = out + HEADER;
	uint8_t *data = explicit + explicit_len;
	/* TLS 1.3's inner plaintext ends in its content type (plain has room for it). */
	uint8_t inner_type = CONTENT_APPLICATION_DATA;
	if (record->tls13) {
		plain[n_plain++] = (giovec_t){ &inner_type, 1 };
	}
	size_t data_len = len + (record->tls13 ? 1 : 0);
	header(out, CONTENT_APPLICATION_DATA, explicit_len + data_len + TAG);
	if (record->explicit_nonce) {
		put_u64(explicit, write->seq);
	}
	uint8_t iv[HANDOVER_IV_MAX], aad[13];
	nonce(record, write, explicit, iv);
	giovec_t auth = { aad, additional_data(record, write, out, len, aad) };
	size_t sealed_len = data_len + TAG;
	if (gnutls_aead_cipher_encryptv(write->cipher, iv, sizeof(iv), &auth, 1, TAG, plain,
			n_plain, data, &sealed_len) < 0 || sealed_len != data_len + TAG) {
		return 0;
	}
	write->seq++;
	return HEADER + explicit_len + sealed_len;
}

size_t tls_record_sealed_max(size_t len) {
	size_t records = (len + TLS_RECORD_PLAINTEXT_MAX - 1) / TLS_RECORD_PLAINTEXT_MAX;
	return len + records * (SEALED_MAX - TLS_RECORD_PLAINTEXT_MAX);
}

/* Pieces of iov one record takes at most (plus TLS 1.3's content type). */
#define MAX_PIECES 64

size_t tls_record_seal(struct tls_record *record, const struct iovec *iov, int iovcnt,
		uint8_t *out) {
	size_t written = 0;
	int i = 0;
	size_t offset = 0; /* into iov[i] */
	for (;;) {
		giovec_t pieces[MAX_PIECES + 1];
		int n = 0;
		size_t len = 0;
		while (i < iovcnt && n < MAX_PIECES && len < TLS_RECORD_PLAINTEXT_MAX) {
			size_t left = iov[i].iov_len - offset;
			size_t take = left < TLS_RECORD_PLAINTEXT_MAX - len ? left :
				TLS_RECORD_PLAINTEXT_MAX - len;
			if (take > 0) {
				pieces[n++] = (giovec_t){ (uint8_t *)iov[i].iov_base + offset, take };
				len += take;
			}
			offset += take;
			if (offset == iov[i].iov_len) {
				i++;
				offset = 0;
			}
		}
		if (len == 0) {
			return written;
		}
		size_t n_sealed = seal(record, out + written, pieces, n, len);
		if (n_sealed == 0) {
			return 0;
		}
		written += n_sealed;
	}
}

ssize_t tls_record_send(struct tls_record *record, const void *buf, size_t len) {
	if (record->out_len == 0) {
		if (len == 0) {
			return 0;
		}
		/* Several records a send: a system call per record cost more than sealing it. */
		const uint8_t *plain = buf;
		size_t taken = 0, sealed = 0;
		for (int i = 0; i < TLS_RECORD_SEND_RECORDS && taken < len; i++) {
			size_t piece = len - taken < TLS_RECORD_PLAINTEXT_MAX ? len - taken :
				TLS_RECORD_PLAINTEXT_MAX;
			giovec_t pieces[2] = { { (uint8_t *)plain + taken, piece } };
			size_t n = seal(record, record->out + sealed, pieces, 1, piece);
			if (n == 0) {
				errno = EPIPE;
				return -1;
			}
			sealed += n;
			taken += piece;
		}
		record->out_len = sealed;
		record->out_sent = 0;
		record->out_plain = taken;
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
static int open_record(struct tls_record *record, size_t length) {
	struct tls_record_direction *read = &record->read;
	size_t explicit_len = record->explicit_nonce ? EXPLICIT_NONCE : 0;
	if (length < explicit_len + TAG + (record->tls13 ? 1 : 0)) {
		return -1;
	}
	uint8_t *explicit = record->in + HEADER;
	uint8_t *data = explicit + explicit_len;
	size_t data_len = length - explicit_len - TAG;
	uint8_t iv[HANDOVER_IV_MAX], aad[13];
	nonce(record, read, explicit, iv);
	giovec_t auth = { aad, additional_data(record, read, record->in, data_len, aad) };
	giovec_t sealed = { data, data_len };
	if (gnutls_aead_cipher_decryptv2(read->cipher, iv, sizeof(iv), &auth, 1, &sealed, 1,
			data + data_len, TAG) < 0) {
		return -1;
	}
	read->seq++;
	record->plain_start = (size_t)(data - record->in);
	record->plain_end = record->plain_start + data_len;
	if (!record->tls13) {
		return record->in[0];
	}
	/* TLS 1.3: the inner plaintext ends in its content type, then zeros of padding. */
	while (record->plain_end > record->plain_start && record->in[record->plain_end - 1] == 0) {
		record->plain_end--;
	}
	if (record->plain_end == record->plain_start) {
		return -1;
	}
	return record->in[--record->plain_end];
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
		uint8_t outer = record->in[0];
		/* After the handshake, only sealed records come (TLS 1.3: all as application data). */
		bool sealed_type = record->tls13 ? outer == CONTENT_APPLICATION_DATA :
			outer == CONTENT_APPLICATION_DATA || outer == CONTENT_ALERT ||
			outer == CONTENT_HANDSHAKE;
		if (!sealed_type || length > CIPHERTEXT_MAX + (record->tls13 ? 0 : 1024)) {
			errno = EPROTO;
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
			/* A KeyUpdate, a renegotiation or anything else is not carried on. */
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
