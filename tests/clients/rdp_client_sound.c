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
#include <freerdp/client/audin.h>
#include <freerdp/client/rdpsnd.h>
#include <math.h>

#include "rdp_client_say.h"
#include "rdp_client_sound.h"

#define DEVICE "oriel-test"

static FILE *pcm_file;
static double play_slow;
static UINT32 play_bytes_per_second;
static BOOL device_format_supported(rdpsndDevicePlugin *device, const AUDIO_FORMAT *format)
{
	(void)device;
	return format->wFormatTag == WAVE_FORMAT_PCM && format->wBitsPerSample == 16 &&
	       format->nChannels == 2;
}

static BOOL device_open(rdpsndDevicePlugin *device, const AUDIO_FORMAT *format, UINT32 latency)
{
	(void)device, (void)latency;
	play_bytes_per_second = format->nSamplesPerSec * format->nChannels * format->wBitsPerSample / 8;
	rdp_client_say("sound-open %s %u %u %u", audio_format_get_tag_string(format->wFormatTag),
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
	rdp_client_say("sound %zu %llu", size, (unsigned long long)rdp_client_now_ns());
	if (play_slow > 1 && play_bytes_per_second > 0) {
		/* FreeRDP's channel thread waits: the blocks after this one wait too. */
		double seconds = play_slow * (double)size / play_bytes_per_second;
		struct timespec ts = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
		nanosleep(&ts, NULL);
	}
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

/* ---- the microphone ---------------------------------------------------- */

struct microphone {
	IAudinDevice device;
	AUDIO_FORMAT format;
	UINT32 frames_per_packet;
	AudinReceive receive;
	void *user_data;
	pthread_t thread;
	bool running;
	volatile bool stop;
};

static double mic_freq;

static BOOL mic_format_supported(IAudinDevice *device, const AUDIO_FORMAT *format)
{
	(void)device;
	return format->wFormatTag == WAVE_FORMAT_PCM && format->wBitsPerSample == 16 &&
	       format->nChannels == 2 && format->nSamplesPerSec == 48000;
}

static UINT mic_set_format(IAudinDevice *device, const AUDIO_FORMAT *format, UINT32 frames)
{
	struct microphone *mic = (struct microphone *)device;
	mic->format = *format;
	mic->frames_per_packet = frames ? frames : 960;
	return CHANNEL_RC_OK;
}

/* A packet of the sine every packet's time, as a sound card would give it. */
static void *mic_run(void *data)
{
	struct microphone *mic = data;
	size_t frames = mic->frames_per_packet, channels = mic->format.nChannels;
	double rate = mic->format.nSamplesPerSec;
	int16_t *buf = calloc(frames * channels, sizeof(int16_t));
	uint64_t n = 0;
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (buf && !mic->stop) {
		for (size_t i = 0; i < frames; i++, n++) {
			int16_t v = (int16_t)(16383 * sin(2 * M_PI * mic_freq * (double)n / rate));
			for (size_t c = 0; c < channels; c++)
				buf[i * channels + c] = v;
		}
		mic->receive(&mic->format, (const BYTE *)buf, frames * channels * 2, mic->user_data);
		long ns = (long)(frames * 1e9 / rate);
		next.tv_nsec += ns;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	free(buf);
	return NULL;
}

static UINT mic_open(IAudinDevice *device, AudinReceive receive, void *user_data)
{
	struct microphone *mic = (struct microphone *)device;
	mic->receive = receive;
	mic->user_data = user_data;
	mic->stop = false;
	rdp_client_say("microphone-open %u %u", mic->format.nSamplesPerSec, mic->format.nChannels);
	mic->running = pthread_create(&mic->thread, NULL, mic_run, mic) == 0;
	return mic->running ? CHANNEL_RC_OK : ERROR_INTERNAL_ERROR;
}

static UINT mic_close(IAudinDevice *device)
{
	struct microphone *mic = (struct microphone *)device;
	if (mic->running) {
		mic->stop = true;
		pthread_join(mic->thread, NULL);
		mic->running = false;
	}
	return CHANNEL_RC_OK;
}

static UINT mic_free(IAudinDevice *device)
{
	mic_close(device);
	free(device);
	return CHANNEL_RC_OK;
}

static UINT mic_entry(PFREERDP_AUDIN_DEVICE_ENTRY_POINTS points)
{
	struct microphone *mic = calloc(1, sizeof(*mic));
	if (!mic)
		return CHANNEL_RC_NO_MEMORY;
	mic->device.Open = mic_open;
	mic->device.FormatSupported = mic_format_supported;
	mic->device.SetFormat = mic_set_format;
	mic->device.Close = mic_close;
	mic->device.Free = mic_free;
	return points->pRegisterAudinDevice(points->plugin, &mic->device);
}

bool rdp_client_microphone_settings(rdpSettings *s, double freq)
{
	char *params[] = { "audin", "sys:" DEVICE };
	mic_freq = freq;
	return freerdp_client_add_dynamic_channel(s, 2, params);
}

PVIRTUALCHANNELENTRY rdp_client_sound_addins(LPCSTR name, LPCSTR subsystem, LPCSTR type,
					     DWORD flags)
{
	if (name && subsystem && !strcmp(name, "rdpsnd") && !strcmp(subsystem, DEVICE))
		return (PVIRTUALCHANNELENTRY)(void *)device_entry;
	if (name && subsystem && !strcmp(name, "audin") && !strcmp(subsystem, DEVICE))
		return (PVIRTUALCHANNELENTRY)(void *)mic_entry;
	return freerdp_channels_load_static_addin_entry(name, subsystem, type, flags);
}

bool rdp_client_sound_init(const char *pcm_path, double slow)
{
	play_slow = slow;
	pcm_file = fopen(pcm_path, "wb");
	return pcm_file != NULL;
}

bool rdp_client_sound_settings(rdpSettings *s, bool dynamic_only, unsigned format)
{
	char only[32];
	snprintf(only, sizeof only, "format:%u", format);
	char *params[] = { "rdpsnd", "sys:" DEVICE, only };
	int n = format ? 3 : 2;
	if (!dynamic_only && !freerdp_client_add_static_channel(s, n, params))
		return false;
	/* freerdp_client_load_addins turns AudioPlayback on for either. */
	return freerdp_client_add_dynamic_channel(s, n, params);
}
