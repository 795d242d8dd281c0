/* SPDX-License-Identifier: MIT */
/* oriel-test-rdpclient's rdpsnd device: see rdp_client_sound.h. */

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <freerdp/addin.h>
#include <freerdp/channels/channels.h>
#include <freerdp/client/channels.h>
#include <freerdp/client/cmdline.h>
#include <freerdp/client/rdpsnd.h>

#include "rdp_client_sound.h"

#define DEVICE "oriel-test"

static FILE *pcm_file;
static pthread_mutex_t say_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* FreeRDP's channel thread says these: one whole line at a time. */
static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&say_lock);
	printf("%s\n", line); /* one call: stdio keeps it whole */
	fflush(stdout);
	pthread_mutex_unlock(&say_lock);
}

static BOOL device_format_supported(rdpsndDevicePlugin *device, const AUDIO_FORMAT *format)
{
	(void)device;
	return format->wFormatTag == WAVE_FORMAT_PCM && format->wBitsPerSample == 16 &&
	       format->nChannels == 2;
}

static BOOL device_open(rdpsndDevicePlugin *device, const AUDIO_FORMAT *format, UINT32 latency)
{
	(void)device, (void)latency;
	say("sound-open %s %u %u %u", audio_format_get_tag_string(format->wFormatTag),
	    format->nSamplesPerSec, format->nChannels, format->wBitsPerSample);
	return TRUE;
}

static BOOL device_set_volume(rdpsndDevicePlugin *device, UINT32 value)
{
	(void)device, (void)value;
	return TRUE;
}

static UINT device_play(rdpsndDevicePlugin *device, const BYTE *data, size_t size)
{
	(void)device;
	if (pcm_file) {
		fwrite(data, 1, size, pcm_file);
		fflush(pcm_file);
	}
	say("sound %zu %llu", size, (unsigned long long)now_ns());
	return 0; /* played at once: no latency */
}

static void device_close(rdpsndDevicePlugin *device)
{
	(void)device;
}

static void device_free(rdpsndDevicePlugin *device)
{
	free(device);
}

static UINT device_entry(PFREERDP_RDPSND_DEVICE_ENTRY_POINTS points)
{
	rdpsndDevicePlugin *device = calloc(1, sizeof(*device));
	if (!device)
		return CHANNEL_RC_NO_MEMORY;
	device->FormatSupported = device_format_supported;
	device->Open = device_open;
	device->SetVolume = device_set_volume;
	device->Play = device_play;
	device->Close = device_close;
	device->Free = device_free;
	points->pRegisterRdpsndDevice(points->rdpsnd, device);
	return CHANNEL_RC_OK;
}

PVIRTUALCHANNELENTRY rdp_client_sound_addins(LPCSTR name, LPCSTR subsystem, LPCSTR type,
					     DWORD flags)
{
	if (name && subsystem && !strcmp(name, "rdpsnd") && !strcmp(subsystem, DEVICE))
		return (PVIRTUALCHANNELENTRY)(void *)device_entry;
	return freerdp_channels_load_static_addin_entry(name, subsystem, type, flags);
}

bool rdp_client_sound_init(const char *pcm_path)
{
	pcm_file = fopen(pcm_path, "wb");
	return pcm_file != NULL;
}

bool rdp_client_sound_settings(rdpSettings *s, bool dynamic_only)
{
	char *params[] = { "rdpsnd", "sys:" DEVICE };
	if (!dynamic_only && !freerdp_client_add_static_channel(s, 2, params))
		return false;
	/* freerdp_client_load_addins turns AudioPlayback on for either. */
	return freerdp_client_add_dynamic_channel(s, 2, params);
}
