/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_XDND_TYPES_H
#define ORIEL_XWM_XDND_TYPES_H

/*
 * The MIME type a Wayland client is offered for an X selection target of
 * an X drag, or NULL when there is none to offer. Pure: no X or wlroots.
 */
const char *xdnd_mime_type_for_target(const char *target);

#endif
