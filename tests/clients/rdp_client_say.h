/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_TEST_RDP_CLIENT_SAY_H
#define ORIEL_TEST_RDP_CLIENT_SAY_H

/* oriel-test-rdpclient's lines on stdout, and the clock they are stamped with. */

#include <stdint.h>

/*
 * One whole line on stdout, flushed: FreeRDP's channel threads say theirs
 * while the main thread says its own.
 */
void rdp_client_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* CLOCK_MONOTONIC in ns. */
uint64_t rdp_client_now_ns(void);

#endif
