/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PROMPT_H
#define ORIEL_PROMPT_H

/*
 * The permission prompt oriel draws itself: a scene overlay above every
 * window (fullscreen too), centered on the first output, so that it shows
 * in kiosk mode and over VNC alike. It names the app and what it asks for,
 * lists the choices with one selected (each with a thumbnail when the
 * caller draws them and the output has room), and has Allow, Deny and, when
 * persistence is allowed, a "remember" checkbox. While it is up it takes
 * all pointer and keyboard input as a modal seat grab (seat_grab.h);
 * clients get none. No answer within the timeout means deny.
 */

#include <stdbool.h>
#include <stdint.h>

struct server;
struct prompt;
struct wlr_buffer;

enum prompt_kind {
	PROMPT_KIND_SCREENCAST,
	PROMPT_KIND_WINDOW,
	PROMPT_KIND_SCREENSHOT,
	PROMPT_KIND_REMOTE,
};

struct prompt_request {
	const char *app; /* app_id, or the executable; shown as given */
	enum prompt_kind kind;
	const char *const *choices; /* labels, the first one selected */
	int n_choices;              /* at most PROMPT_MAX_CHOICES */
	bool persist_allowed;
	uint32_t timeout_ms;
	/*
	 * Optional: a picture of choice i scaled to fit inside max_width x
	 * max_height, or NULL when it has none; the prompt drops it. Called
	 * with the data of prompt_create when the prompt is built (when it
	 * shows, and again when the outputs change), before the prompt is in
	 * the scene, and only while the prompt lives.
	 */
	struct wlr_buffer *(*thumbnail)(int choice, int max_width, int max_height, void *data);
};

struct prompt_answer {
	bool allowed;
	int choice; /* index into choices; -1 when there were none */
	bool remember;
	bool timed_out;
};

/* Called once; the callee may destroy the prompt from it. */
typedef void (*prompt_answer_fn)(const struct prompt_answer *answer, void *data);

/*
 * Shows the prompt and takes the seat's input. Only one prompt is up at a
 * time: NULL when another one is (or there is no output to show it on).
 */
struct prompt *prompt_create(struct server *server, const struct prompt_request *request,
	prompt_answer_fn answer, void *data);
/* Takes the prompt down without an answer; NULL is a no-op. */
void prompt_destroy(struct prompt *prompt);

#endif
