/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_TEST_RDP_CLIENT_SOUND_H
#define ORIEL_TEST_RDP_CLIENT_SOUND_H

/*
 * oriel-test-rdpclient's sound: an rdpsnd device ("sys:oriel-test") that
 * appends what it is given to play to a file, as raw PCM, and says so on
 * stdout:
 *   sound-open TAG RATE CHANNELS BITS   the server chose this format
 *   sound BYTES T                       a block to play (T: CLOCK_MONOTONIC ns)
 * and an audin device ("sys:oriel-test") whose microphone hears a sine:
 *   microphone-open RATE CHANNELS       the server opened it
 */

#include <stdbool.h>
#include <freerdp/freerdp.h>

/*
 * Where what is played goes; call before connecting. slow > 1: playing a
 * block takes slow times its length (a client that cannot keep up).
 */
bool rdp_client_sound_init(const char *pcm_path, double slow);
/* FreeRDP's addin provider, with the device above for rdpsnd "oriel-test". */
PVIRTUALCHANNELENTRY rdp_client_sound_addins(LPCSTR name, LPCSTR subsystem, LPCSTR type,
					     DWORD flags);
/* Asks for sound: the rdpsnd static channel (and the dynamic one), or only the dynamic one. */
bool rdp_client_sound_settings(rdpSettings *s, bool dynamic_only);
/* Offers a microphone that hears a sine of freq Hz at half full scale. */
bool rdp_client_microphone_settings(rdpSettings *s, double freq);

#endif
