/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_LATIN1_H
#define ORIEL_CAPTURE_LATIN1_H

/*
 * Latin-1 ↔ UTF-8 for VNC cut text: viewers without ExtendedClipboard
 * send and expect Latin-1, the session's clipboard is UTF-8. Pure: unit
 * tests and the fuzzer link it.
 */

#include <stddef.h>

/*
 * Converts up to len Latin-1 bytes, stopping at a NUL, into out (2 * len
 * + 1 bytes), NUL-terminated. Returns the UTF-8 length.
 */
size_t latin1_to_utf8(const char *in, size_t len, char *out);

/*
 * Converts len bytes of UTF-8 into out (len bytes): one byte per code
 * point, '?' for code points Latin-1 lacks and for each byte that is not
 * part of well-formed UTF-8. Returns the Latin-1 length.
 */
size_t latin1_from_utf8(const char *in, size_t len, char *out);

#endif
