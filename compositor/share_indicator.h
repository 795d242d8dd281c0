/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_SHARE_INDICATOR_H
#define ORIEL_SHARE_INDICATOR_H

/*
 * The sharing indicator: a small badge at the top-right corner of the
 * first output, above every window (fullscreen too), shown while anything
 * is shared. It names what is shared and with whom; clicking it stops the
 * sharing. It listens for the click through the seat (seat_grab.h): a
 * press on the badge and its release reach no client.
 */

#include <stdbool.h>

struct server;
struct share_indicator;

typedef void (*share_indicator_stop_fn)(void *data);

/* Hidden until it gets a text. stop runs when the person clicks the badge. */
struct share_indicator *share_indicator_create(struct server *server,
	share_indicator_stop_fn stop, void *data);
/* NULL is a no-op. */
void share_indicator_destroy(struct share_indicator *indicator);

/*
 * Shows text on the badge, and hint (may be NULL) whole at its right end:
 * a long text is shortened, never the hint. NULL or "" text hides it.
 */
void share_indicator_set_text(struct share_indicator *indicator, const char *text,
	const char *hint);

#endif
