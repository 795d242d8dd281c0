/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <freerdp/codec/dsp.h>
#include <freerdp/server/audin.h>
#include <wlr/util/log.h>
#include "oriel-config.h"
#include "remote/rdp/rdp_dsp_sign.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"
#if HAVE_PIPEWIRE
#include "capture/pipewire/audio_source.h"
#endif

/*
 * A client's microphone (MS-RDPEAI, the AUDIO_INPUT channel, through
 * FreeRDP's audin server) as the session's source "Remote microphone
 * (oriel)", its default source while the client is there. The
 * microphone is the most recent client's that offers one; when it goes,
 * the next most recent one's. FreeRDP runs the channel on a thread of
 * its own: it picks the format and hands the samples to the source
 * itself (under the lock), and wakes the loop once the client opened
 * its microphone.
 *
 * FreeRDP decodes what arrives; as Debian builds it (through
 * libavcodec), 16-bit PCM comes out with its sign bits flipped, which
 * are flipped back (tried once, rdp_dsp_sign.c).
 */

#define PACKET_MS 20

struct rdp_microphone {
	struct rdp_peer *peer;
	audin_server_context *context;
	int wakeup_fd;
	struct wl_event_source *wakeup;
	bool flip_sign;
	pthread_mutex_t lock;
	/* Under the lock: the format FreeRDP's thread chose, the source fed. */
	uint32_t rate, channels;
	bool opened; /* the client opened its microphone */
	struct audio_source *source;
};

static void wake(struct rdp_microphone *mic) {
	uint64_t one = 1;
	if (write(mic->wakeup_fd, &one, sizeof(one)) < 0 && errno != EAGAIN) {
		wlr_log_errno(WLR_ERROR, "RDP: cannot wake the loop for a microphone");
	}
}

static bool pcm16(const AUDIO_FORMAT *f, uint32_t rate, uint16_t channels) {
	return f->wFormatTag == WAVE_FORMAT_PCM && f->wBitsPerSample == 16 &&
		f->nChannels == channels && f->nSamplesPerSec == rate;
}

/* FreeRDP's thread: the client's formats came; stereo before mono, 48 kHz before 44.1. */
static UINT handle_opening(audin_server_context *context) {
	struct rdp_microphone *mic = context->data;
	pthread_mutex_lock(&mic->lock);
	bool chosen = mic->rate != 0;
	pthread_mutex_unlock(&mic->lock);
	if (chosen) {
		/* The source was made for the first format: no other comes after it. */
		return ERROR_INVALID_DATA;
	}
	static const struct { uint32_t rate; uint16_t channels; } wanted[] = {
		{ 48000, 2 }, { 44100, 2 }, { 48000, 1 }, { 44100, 1 },
	};
	for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++) {
		for (size_t i = 0; i < context->num_client_formats; i++) {
			if (!pcm16(&context->client_formats[i], wanted[w].rate, wanted[w].channels)) {
				continue;
			}
			pthread_mutex_lock(&mic->lock);
			mic->rate = wanted[w].rate;
			mic->channels = wanted[w].channels;
			pthread_mutex_unlock(&mic->lock);
			return context->SelectFormat(context, i);
		}
	}
	wlr_log(WLR_INFO, "RDP: %s offers a microphone, but not in 16-bit PCM at 44.1 or "
		"48 kHz: not used", mic->peer->host);
	return ERROR_INVALID_DATA;
}

/* FreeRDP's thread: the client opened its microphone (or could not). */
static UINT handle_open_result(audin_server_context *context, UINT32 result) {
	struct rdp_microphone *mic = context->data;
	pthread_mutex_lock(&mic->lock);
	bool opened = result == 0 && mic->rate != 0; /* a format was chosen first */
	mic->opened = mic->opened || opened;
	pthread_mutex_unlock(&mic->lock);
	if (opened) {
		wake(mic);
	}
	return CHANNEL_RC_OK;
}

/* FreeRDP's thread: what the microphone heard. */
static UINT handle_samples(audin_server_context *context, const AUDIO_FORMAT *format,
		wStream *buf, size_t frames) {
	struct rdp_microphone *mic = context->data;
	size_t n = frames * format->nChannels;
	if (Stream_Length(buf) < n * sizeof(int16_t)) {
		return ERROR_INVALID_DATA;
	}
	int16_t *samples = (int16_t *)Stream_Buffer(buf);
	if (mic->flip_sign) {
		for (size_t i = 0; i < n; i++) {
			samples[i] ^= (int16_t)0x8000;
		}
	}
	pthread_mutex_lock(&mic->lock);
#if HAVE_PIPEWIRE
	if (mic->source && format->nChannels == mic->channels &&
			format->nSamplesPerSec == mic->rate) {
		audio_source_push(mic->source, samples, frames);
	}
#endif
	pthread_mutex_unlock(&mic->lock);
	return CHANNEL_RC_OK;
}

/* The session's microphone becomes mic's (NULL: nobody's). */
static void make_current(struct rdp_server *rdp, struct rdp_microphone *mic) {
	struct rdp_microphone *old = rdp->microphone;
	if (old == mic) {
		return;
	}
	rdp->microphone = mic;
	if (old) {
		pthread_mutex_lock(&old->lock);
		struct audio_source *source = old->source;
		old->source = NULL;
		pthread_mutex_unlock(&old->lock);
#if HAVE_PIPEWIRE
		audio_source_destroy(source);
#else
		(void)source;
#endif
	}
	if (!mic) {
		return;
	}
#if HAVE_PIPEWIRE
	pthread_mutex_lock(&mic->lock);
	uint32_t rate = mic->rate, channels = mic->channels;
	pthread_mutex_unlock(&mic->lock);
	struct audio_source *source = audio_source_create(rate, channels);
	pthread_mutex_lock(&mic->lock);
	mic->source = source;
	pthread_mutex_unlock(&mic->lock);
	if (source) {
		wlr_log(WLR_INFO, "RDP: the session's microphone is %s's (%u Hz, %u channels)",
			mic->peer->host, rate, channels);
	}
#endif
}

static int handle_wakeup(int fd, uint32_t mask, void *data) {
	struct rdp_microphone *mic = data;
	uint64_t n;
	if ((read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN) || !rdp_peer_alive(mic->peer)) {
		return 0;
	}
	pthread_mutex_lock(&mic->lock);
	bool opened = mic->opened;
	pthread_mutex_unlock(&mic->lock);
	if (opened) {
		make_current(mic->peer->rdp, mic); /* the most recent client's */
	}
	return 0;
}

bool rdp_sound_mic_open(struct rdp_peer *peer) {
	if (peer->microphone || peer->rdp->options->audio != CONFIG_RDP_AUDIO_ON ||
			!peer->client->settings->AudioCapture) {
		return true;
	}
	if (peer->view_only) {
		/* A microphone is input into the session, which a view-only client has none of. */
		wlr_log(WLR_INFO, "RDP: %s is view-only: its microphone is not used", peer->host);
		return true;
	}
	struct rdp_microphone *mic = zalloc(sizeof(*mic));
	mic->peer = peer;
	mic->wakeup_fd = -1;
	pthread_mutex_init(&mic->lock, NULL);
	peer->microphone = mic;
	mic->flip_sign = rdp_dsp_flips_sign(RDP_DSP_DECODE);
	mic->wakeup_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (mic->wakeup_fd < 0) {
		return false;
	}
	mic->wakeup = wl_event_loop_add_fd(peer->rdp->server->loop, mic->wakeup_fd,
		WL_EVENT_READABLE, handle_wakeup, mic);
	audin_server_context *context = audin_server_context_new(peer->vcm);
	if (!mic->wakeup || !context) {
		audin_server_context_free(context);
		return false;
	}
	mic->context = context;
	context->data = mic;
	context->rdpcontext = peer->client->context;
	/* FreeRDP frees them with the context. */
	static const struct { uint32_t rate; uint16_t channels; } offered[] = {
		{ 48000, 2 }, { 44100, 2 }, { 48000, 1 }, { 44100, 1 },
	};
	size_t n = sizeof(offered) / sizeof(offered[0]);
	context->server_formats = audio_formats_new(n);
	if (!context->server_formats) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		context->server_formats[i] = (AUDIO_FORMAT){
			.wFormatTag = WAVE_FORMAT_PCM,
			.nChannels = offered[i].channels,
			.nSamplesPerSec = offered[i].rate,
			.nAvgBytesPerSec = offered[i].rate * offered[i].channels * 2,
			.nBlockAlign = (UINT16)(offered[i].channels * 2),
			.wBitsPerSample = 16,
		};
	}
	context->num_server_formats = n;
	context->frames_per_packet = 48000 * PACKET_MS / 1000;
	context->Opening = handle_opening;
	context->OpenResult = handle_open_result;
	context->ReceiveSamples = handle_samples;
	return context->Open(context);
}

void rdp_sound_mic_close(struct rdp_peer *peer) {
	struct rdp_microphone *mic = peer->microphone;
	if (!mic) {
		return;
	}
	/* Stops FreeRDP's thread first: no callback comes after. */
	audin_server_context_free(mic->context);
	struct rdp_server *rdp = peer->rdp;
	if (rdp->microphone == mic) {
		/* The next most recent client's microphone, if one is open. */
		struct rdp_microphone *next = NULL;
		struct rdp_peer *other;
		wl_list_for_each(other, &rdp->peers, link) {
			struct rdp_microphone *m = other->microphone;
			if (!next && m && m != mic && !other->closing) {
				pthread_mutex_lock(&m->lock);
				next = m->opened ? m : NULL;
				pthread_mutex_unlock(&m->lock);
			}
		}
		make_current(rdp, next);
	}
	if (mic->wakeup) {
		wl_event_source_remove(mic->wakeup);
	}
	if (mic->wakeup_fd >= 0) {
		close(mic->wakeup_fd);
	}
	pthread_mutex_destroy(&mic->lock);
	free(mic);
	peer->microphone = NULL;
}
