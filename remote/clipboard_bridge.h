/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_CLIPBOARD_BRIDGE_H
#define ORIEL_REMOTE_CLIPBOARD_BRIDGE_H

/*
 * The session's clipboard as UTF-8 text, for the remote-desktop servers
 * (VNC, RDP); each speaks its own protocol around it.
 *
 * - Out: a new seat selection that is not the bridge's own (a copy in a
 *   Wayland app, or in an X app through Xwayland) is read as text, in
 *   the loop and without blocking it, up to max_bytes, and given to the
 *   server's text callback.
 * - In: text from a remote client becomes the seat selection, offered
 *   under the usual text MIME types; Xwayland hands it on to X apps.
 *   Pastes are written to the pasting app without blocking the loop.
 *   The text is given at once (set_text), or promised (promise_text)
 *   and asked for when an app first pastes it (impl->fetch). A promise
 *   the client does not keep leaves the session's own last text.
 */

#include <stdbool.h>
#include <stddef.h>

struct server;
struct clipboard_bridge;

struct clipboard_bridge_impl {
	/* Whether the text of a new selection is wanted now (else not read). */
	bool (*wanted)(void *data);
	/* The session's new clipboard text: UTF-8, len bytes, not terminated. */
	void (*text)(void *data, const char *utf8, size_t len);
	/*
	 * Asks the remote client for the text it promised; the answer goes to
	 * clipboard_bridge_fetched, the pastes wait meanwhile. NULL when the
	 * server never promises.
	 */
	void (*fetch)(void *data);
};

/* NULL when the server has no seat yet. */
struct clipboard_bridge *clipboard_bridge_create(struct server *server, size_t max_bytes,
	const struct clipboard_bridge_impl *impl, void *data);
/* Stops reading and writing; the selection it set stays. NULL is a no-op. */
void clipboard_bridge_destroy(struct clipboard_bridge *bridge);

/*
 * Makes a copy of utf8 (len bytes; invalid sequences are passed on as
 * they are) the session's clipboard. False when it is larger than
 * max_bytes or memory runs out.
 */
bool clipboard_bridge_set_text(struct clipboard_bridge *bridge, const char *utf8, size_t len);

/*
 * Makes the remote client's text, still to be fetched, the session's
 * clipboard. An answer to an earlier fetch is no longer awaited.
 */
void clipboard_bridge_promise_text(struct clipboard_bridge *bridge);

/*
 * The answer to impl->fetch: utf8 (len bytes) is written to the waiting
 * pastes and kept for later ones. NULL (the client failed) gives them the
 * session's own last text instead, or EOF when there is none, and then a
 * later paste asks again. Ignored when nothing is awaited.
 */
void clipboard_bridge_fetched(struct clipboard_bridge *bridge, const char *utf8, size_t len);

#endif
