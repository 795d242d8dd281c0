/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_SOUND_SERVER_H
#define ORIEL_SOUND_SERVER_H

/*
 * The session's sound server. When nothing answers on the session's
 * PipeWire socket, oriel starts PipeWire, WirePlumber and pipewire-pulse
 * itself, as its own user in its runtime dir, and stops them when the
 * session ends; a user who runs them already keeps hers.
 */

#include <stdbool.h>
#include <sys/types.h>

struct sound_server {
	/* 0 where oriel started nothing (theirs, off, or failed) */
	pid_t pipewire, wireplumber, pulse;
	/* $XDG_RUNTIME_DIR/pulse when pipewire-pulse made it; removed after it. */
	char pulse_dir[4096];
};

/* False only where nothing could start; the session goes on without sound. */
bool sound_server_start(struct sound_server *sound);
/* Stops what sound_server_start started, newest first. */
void sound_server_stop(struct sound_server *sound);

#endif
