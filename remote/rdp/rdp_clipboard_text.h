/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_CLIPBOARD_TEXT_H
#define ORIEL_REMOTE_RDP_RDP_CLIPBOARD_TEXT_H

/*
 * RDP's clipboard text (CF_UNICODETEXT: UTF-16LE, CRLF line ends, a NUL
 * at the end) to and from the session's (UTF-8, LF). Pure: unit tests
 * link it directly.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * CF_UNICODETEXT data of n bytes (up to its first NUL; an odd last byte
 * is ignored) as UTF-8 with CRLF made LF; unpaired surrogates become
 * U+FFFD. *out is malloc'ed, *out_len bytes, NUL-terminated besides.
 * False when memory runs out.
 */
bool rdp_clipboard_text_from_unicode(const uint8_t *data, size_t n, char **out,
	size_t *out_len);

/*
 * UTF-8 text of len bytes as CF_UNICODETEXT data with LF made CRLF and a
 * NUL at the end; invalid UTF-8 and NULs become U+FFFD. *out is malloc'ed,
 * *out_len bytes. False when memory runs out.
 */
bool rdp_clipboard_text_to_unicode(const char *utf8, size_t len, uint8_t **out,
	size_t *out_len);

#endif
