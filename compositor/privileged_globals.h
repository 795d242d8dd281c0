/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PRIVILEGED_GLOBALS_H
#define ORIEL_PRIVILEGED_GLOBALS_H

/*
 * The Wayland protocols that read the screen (screencopy, export-dmabuf),
 * inject input (virtual keyboard and pointer), read the clipboard
 * (data-control) or change outputs (output-management, gamma). Their
 * globals are visible only to clients whose executable the config's
 * [privileged] section names for them (privileged_policy.h); the default
 * is nobody.
 */

struct server;

void privileged_globals_init(struct server *server);
void privileged_globals_finish(struct server *server);

#endif
