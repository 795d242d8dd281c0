/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_OUTPUT_MANAGEMENT_H
#define ORIEL_OUTPUT_MANAGEMENT_H

/*
 * wlr-output-management: tools like wlr-randr list the outputs and test or
 * apply a mode (any size on a headless output), position, scale and
 * transform. The global is privileged (privileged_globals.h).
 */

struct server;
struct output_management;

struct output_management *output_management_create(struct server *server);
void output_management_destroy(struct output_management *management);

#endif
