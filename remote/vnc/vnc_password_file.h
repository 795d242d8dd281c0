/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_PASSWORD_FILE_H
#define ORIEL_REMOTE_VNC_VNC_PASSWORD_FILE_H

/*
 * The --vnc-password-file format: a line SECRET gives full access, a line
 * view-only:SECRET view-only access; empty lines and lines starting with
 * '#' are skipped. Pure: no wlroots or libvncserver, so unit tests and
 * the fuzzer link it.
 */

#include <stdbool.h>
#include <stdio.h>

#define VNC_PASSWORDS_MAX 64
/* Longer lines are skipped whole: a cut line would be a different secret. */
#define VNC_PASSWORD_LINE_MAX 1023
#define VNC_PASSWORD_FILE_MAX 65536

struct vnc_password_file {
	/* NULL-terminated, the n_full full-access secrets first; NULL: none. */
	char **passwords;
	int n_full, n_view;
	/* A secret longer than the 8 characters VncAuth uses. */
	bool long_password;
	/* Lines longer than VNC_PASSWORD_LINE_MAX, skipped. */
	int n_too_long;
};

/* Reads f (at most VNC_PASSWORD_FILE_MAX bytes); passwords stays NULL without any. */
void vnc_password_file_parse(struct vnc_password_file *file, FILE *f);

/* Wipes and frees a passwords list (may be NULL). */
void vnc_passwords_free(char **passwords);

#endif
