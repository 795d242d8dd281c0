/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_UTF8_H
#define ORIEL_COMMON_UTF8_H

/* UTF-8 decoding shared by the control API and orielctl. Pure: no wlroots. */

#include <stddef.h>
#include <stdint.h>

/*
 * Decodes the code point at the start of the len bytes at s. Returns its
 * length in bytes, or 0 when the bytes are not one well-formed code point
 * (truncated, overlong, a surrogate or beyond U+10FFFF).
 */
size_t utf8_decode(const char *s, size_t len, uint32_t *code_point);

#endif
