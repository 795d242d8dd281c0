/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_TLS_FLOW_H
#define ORIEL_REMOTE_TLS_FLOW_H

/*
 * Plaintext on its way from one tls_stream to another, one direction of
 * a non-blocking relay: what the session's TLS bridge and the gateway's
 * RDP relay both pump. Pure: no wlroots.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "remote/tls_record.h"

struct tls_stream;
struct tls_flow;

/*
 * Called with each read's len bytes at buf (off 0): sets off past what is
 * dropped (off == len drops it all); false stops the flow.
 */
typedef bool (*tls_flow_received_fn)(struct tls_flow *flow, void *data);

struct tls_flow {
	struct tls_stream *from, *to;
	uint8_t buf[TLS_RECORD_PLAINTEXT_MAX];
	size_t len, off;
	bool want_read;  /* from had nothing whole */
	bool want_write; /* to's socket was full */
	bool passed;     /* set once a byte was passed on */
	tls_flow_received_fn received; /* NULL: everything passes */
	void *data;
};

/* Moves what it can; false when a side closed or broke. */
bool tls_flow_move(struct tls_flow *flow);

#endif
