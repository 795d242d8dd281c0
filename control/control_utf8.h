/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CONTROL_CONTROL_UTF8_H
#define ORIEL_CONTROL_CONTROL_UTF8_H

/*
 * D-Bus strings must be valid UTF-8, and sd-bus refuses to send anything
 * else; X window titles and classes may be any bytes. Pure: no wlroots.
 */

#include <stdbool.h>
#include <stddef.h>

/* Whether the len bytes at s form one code point sd-bus accepts; its length. */
size_t control_utf8_char_len(const unsigned char *s, size_t len);
bool control_utf8_is_valid(const char *s);
/*
 * s itself when it is valid (NULL counts as ""), else a copy in *owned,
 * which the caller frees, with every byte that does not start a valid code
 * point replaced by U+FFFD.
 */
const char *control_utf8_sanitize(const char *s, char **owned);
/*
 * How many bytes of valid UTF-8 s to print so that at most max bytes are
 * shown without cutting a character: for "%.*s" in messages that echo a
 * peer's string.
 */
int control_utf8_prefix(const char *s, size_t max);

#endif
