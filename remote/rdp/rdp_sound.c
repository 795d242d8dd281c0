/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <freerdp/codec/dsp.h>
#include <freerdp/server/rdpsnd.h>
#include <winpr/wtsapi.h>
#include <wlr/util/log.h>
#include "oriel-config.h"
#include "remote/rdp/rdp_dsp_sign.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"
#if HAVE_PIPEWIRE
#include "capture/pipewire/audio_sink.h"
_Static_assert(AUDIO_SINK_RATE == 48000 && AUDIO_SINK_CHANNELS == 2, "the sink's PCM");
#endif
#if HAVE_AAC
#include "remote/rdp/rdp_sound_aac.h"
#endif

/*
 * Sound to the client (MS-RDPEA), through FreeRDP's rdpsnd server on the
 * static channel, or AUDIO_PLAYBACK_DVC when the client has only that.
 * Every client that takes sound hears the session's "Remote audio
 * (oriel)" sink (audio_sink.h), which exists while there is one. PCM
 * goes in blocks of BLOCK_MS; the client confirms each, and while
 * MAX_UNCONFIRMED blocks wait for theirs, new sound is dropped: a slow
 * client loses samples instead of falling behind. A block that sound
 * stopped in the middle of goes after FLUSH_MS. The loop reads the
 * channel (rdpsnd_server_handle_messages); FreeRDP's callbacks only note
 * what the client said (its formats, its confirmations) and wake the
 * sender.
 *
 * Blocks go as they are, in Wave2 PDUs (SendSamples2), to clients of
 * version 8 and later at 48 kHz. FreeRDP's own encoder (SendSamples)
 * serves the others, resampling to 44.1 kHz; as Debian builds it (its
 * DSP through libavcodec), it writes 16-bit PCM as unsigned, so those
 * blocks go with their sign bits flipped, which it flips back (tried
 * once, rdp_dsp_sign.c).
 *
 * A client that offers AAC (WAVE_FORMAT_AAC_MS) at 48 kHz gets it rather
 * than PCM, about a tenth of the bytes: blocks of an AAC frame
 * (rdp_sound_aac.h) that oriel encodes itself, since FreeRDP's DSP as
 * Debian builds it encodes no AAC. The encoder holds a frame back, so
 * when sound stops, a frame of silence pushes the last one out.
 */

#define BLOCK_MS 20
#define MAX_UNCONFIRMED 10 /* 200 ms of sound */
#define FLUSH_MS 30
#define PCM_BITS 16
/* What the session's sink gives (audio_sink.h). */
#define SOURCE_RATE 48000
#define BLOCK_FRAMES (SOURCE_RATE * BLOCK_MS / 1000)
/* MS-RDPEA: clients take Wave2 PDUs from version 8 (Windows 8) on. */
#define VERSION_WAVE2 8
/* AAC-LC at 128 kbit/s: 16 kB/s where 48 kHz PCM takes 192 kB/s. */
#define AAC_BYTES_PER_SECOND 16000
#if HAVE_AAC
#define MAX_BLOCK_FRAMES RDP_SOUND_AAC_FRAMES
_Static_assert(RDP_SOUND_AAC_FRAMES >= BLOCK_FRAMES, "the block holds either");
#else
#define MAX_BLOCK_FRAMES BLOCK_FRAMES
#endif

struct rdp_sound {
	struct rdp_peer *peer;
	RdpsndServerContext *context;
	AUDIO_FORMAT source; /* what the sink gives */
	bool dynamic;
	int wakeup_fd;
	struct wl_event_source *wakeup;
	/* Written by FreeRDP's callbacks. */
	bool activated;
	uint8_t confirmed; /* the last block confirmed */
	/* When each block number went (the loop), and how long until its confirmation. */
	int64_t sent_ms[256];
	int64_t rtt_sum_ms, rtt_max_ms;
	uint32_t rtt_count;
	/* The loop's. */
	bool playing;       /* a format was chosen: sound goes */
	bool attached;      /* counted among the sink's clients */
	bool wave2;         /* blocks go as they are (SendSamples2) */
	bool flip_sign;     /* through FreeRDP's encoder, which flips them back */
	UINT16 format_no;
#if HAVE_AAC
	struct rdp_sound_aac *aac; /* blocks go in AAC */
#endif
	int16_t block[MAX_BLOCK_FRAMES * 2];
	size_t block_frames; /* a full block */
	size_t pending;     /* frames in block */
	uint64_t frames_sent, bytes_sent;
	struct wl_event_source *flush_timer;
	struct wl_event_source *channel; /* what the client says, read on the loop */
	uint64_t dropped;   /* frames dropped for a slow client */
};

static bool pcm_format(const AUDIO_FORMAT *f, uint32_t rate) {
	/* FreeRDP divides by nBlockAlign: a client's 0 must not reach it. */
	return f->wFormatTag == WAVE_FORMAT_PCM && f->nChannels == 2 &&
		f->wBitsPerSample == PCM_BITS && f->nSamplesPerSec == rate &&
		f->nBlockAlign == 2 * PCM_BITS / 8;
}

#if HAVE_AAC
static bool aac_format(const AUDIO_FORMAT *f) {
	return f->wFormatTag == WAVE_FORMAT_AAC_MS && f->nChannels == 2 &&
		f->nSamplesPerSec == SOURCE_RATE && f->nBlockAlign != 0;
}

static AUDIO_FORMAT aac(void) {
	return (AUDIO_FORMAT){
		.wFormatTag = WAVE_FORMAT_AAC_MS,
		.nChannels = 2,
		.nSamplesPerSec = SOURCE_RATE,
		.nAvgBytesPerSec = AAC_BYTES_PER_SECOND,
		.nBlockAlign = 4,
		.wBitsPerSample = PCM_BITS,
	};
}
#endif

static AUDIO_FORMAT pcm(uint32_t rate) {
	return (AUDIO_FORMAT){
		.wFormatTag = WAVE_FORMAT_PCM,
		.nChannels = 2,
		.nSamplesPerSec = rate,
		.nAvgBytesPerSec = rate * 4,
		.nBlockAlign = 4,
		.wBitsPerSample = PCM_BITS,
	};
}

static void wake(struct rdp_sound *sound) {
	uint64_t one = 1;
	if (write(sound->wakeup_fd, &one, sizeof(one)) < 0 && errno != EAGAIN) {
		wlr_log_errno(WLR_ERROR, "RDP: cannot wake the loop for sound");
	}
}

/* The client's formats came (from rdpsnd_server_handle_messages). */
static void handle_activated(RdpsndServerContext *context) {
	struct rdp_sound *sound = context->data;
	__atomic_store_n(&sound->activated, true, __ATOMIC_RELEASE);
	wake(sound);
}

/*
 * A block arrived, or was played (clients confirm
 * both; a block played may be confirmed before the next one arrived).
 */
static UINT handle_confirm(RdpsndServerContext *context, BYTE block, UINT16 timestamp) {
	struct rdp_sound *sound = context->data;
	if (__atomic_load_n(&sound->confirmed, __ATOMIC_ACQUIRE) != block) {
		/* The first of its confirmations: the block arrived. */
		int64_t sent = __atomic_load_n(&sound->sent_ms[block], __ATOMIC_ACQUIRE);
		int64_t rtt = sent > 0 ? monotonic_ms() - sent : 0;
		sound->rtt_sum_ms += rtt;
		sound->rtt_max_ms = rtt > sound->rtt_max_ms ? rtt : sound->rtt_max_ms;
		sound->rtt_count++;
	}
	__atomic_store_n(&sound->confirmed, block, __ATOMIC_RELEASE);
	return CHANNEL_RC_OK;
}

#if HAVE_PIPEWIRE
static void handle_pcm(void *data, const int16_t *samples, size_t frames) {
	struct rdp_server *rdp = data;
	struct rdp_peer *peer;
	wl_list_for_each(peer, &rdp->peers, link) {
		if (peer->sound && peer->sound->playing && !peer->closing) {
			rdp_sound_send(peer->sound, samples, frames);
		}
	}
}
#endif

/* The sink exists while a client plays. */
static void sink_attach(struct rdp_server *rdp) {
#if HAVE_PIPEWIRE
	if (rdp->n_sound_clients++ == 0) {
		rdp->sound_sink = audio_sink_create(rdp->server->loop, handle_pcm, rdp);
	}
#endif
}

static void sink_detach(struct rdp_server *rdp) {
#if HAVE_PIPEWIRE
	if (--rdp->n_sound_clients == 0) {
		audio_sink_destroy(rdp->sound_sink);
		rdp->sound_sink = NULL;
	}
#endif
}

/*
 * The loop, once the client said what it plays: AAC where it takes Wave2
 * PDUs, else PCM at 48 kHz, else 44.1 kHz.
 */
static void choose_format(struct rdp_sound *sound) {
	RdpsndServerContext *context = sound->context;
	struct rdp_peer *peer = sound->peer;
	int chosen = -1;
#if HAVE_AAC
	for (int i = 0; i < context->num_client_formats && chosen < 0 &&
			context->clientVersion >= VERSION_WAVE2; i++) {
		if (aac_format(&context->client_formats[i]) &&
				(sound->aac = rdp_sound_aac_create(SOURCE_RATE,
					AAC_BYTES_PER_SECOND * 8))) {
			chosen = i;
		}
	}
	if (chosen >= 0 && context->SelectFormat(context, (UINT16)chosen) == CHANNEL_RC_OK) {
		sound->format_no = (UINT16)chosen;
		sound->block_frames = RDP_SOUND_AAC_FRAMES;
		wlr_log(WLR_INFO, "RDP: sound to %s (%s, version %u): AAC, %u Hz, stereo, "
			"%u kbit/s", peer->host, sound->dynamic ? "AUDIO_PLAYBACK_DVC" : "rdpsnd",
			context->clientVersion, SOURCE_RATE, AAC_BYTES_PER_SECOND * 8 / 1000);
		sound->playing = true;
		sound->attached = true;
		sink_attach(peer->rdp);
		return;
	}
	rdp_sound_aac_destroy(sound->aac);
	sound->aac = NULL;
	chosen = -1;
#endif
	for (int i = 0; i < context->num_client_formats && chosen < 0; i++) {
		if (pcm_format(&context->client_formats[i], 48000)) {
			chosen = i;
		}
	}
	for (int i = 0; i < context->num_client_formats && chosen < 0; i++) {
		if (pcm_format(&context->client_formats[i], 44100)) {
			chosen = i;
		}
	}
	if (chosen < 0 || context->SelectFormat(context, (UINT16)chosen) != CHANNEL_RC_OK) {
		wlr_log(WLR_INFO, "RDP: %s plays no 16-bit stereo PCM: no sound", peer->host);
		return;
	}
	const AUDIO_FORMAT *f = &context->client_formats[chosen];
	sound->format_no = (UINT16)chosen;
	sound->block_frames = BLOCK_FRAMES;
	sound->wave2 = context->clientVersion >= VERSION_WAVE2 && f->nSamplesPerSec == SOURCE_RATE;
	sound->flip_sign = !sound->wave2 && rdp_dsp_flips_sign(RDP_DSP_ENCODE);
	wlr_log(WLR_INFO, "RDP: sound to %s (%s, version %u): PCM, %u Hz, stereo, 16 bits%s",
		peer->host, sound->dynamic ? "AUDIO_PLAYBACK_DVC" : "rdpsnd",
		context->clientVersion, f->nSamplesPerSec,
		sound->wave2 ? "" : ", through FreeRDP's encoder");
	sound->playing = true;
	sound->attached = true;
	sink_attach(peer->rdp);
}

static int handle_channel(int fd, uint32_t mask, void *data) {
	struct rdp_sound *sound = data;
	struct rdp_peer *peer = sound->peer;
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	rdp_peer_enter_freerdp(peer);
	UINT rc = rdpsnd_server_handle_messages(sound->context);
	rdp_peer_leave_freerdp(peer);
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	if (rc != CHANNEL_RC_OK && rc != ERROR_NO_DATA) {
		/*
		 * A bad message: FreeRDP 2.11 may have freed the client's formats
		 * and kept the pointer, which it would free again. The client
		 * hears nothing more; the rest of its session goes on.
		 */
		wlr_log(WLR_ERROR, "RDP: %s sent a bad sound message: no more sound to it",
			peer->host);
		sound->context->client_formats = NULL;
		sound->context->num_client_formats = 0;
		sound->playing = false;
		wl_event_source_remove(sound->channel);
		sound->channel = NULL;
		return 0;
	}
	rdp_channels_flush(peer);
	return 0;
}

static int handle_wakeup(int fd, uint32_t mask, void *data) {
	struct rdp_sound *sound = data;
	uint64_t n;
	if ((read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN) || !rdp_peer_alive(sound->peer)) {
		return 0;
	}
	if (!sound->playing && __atomic_load_n(&sound->activated, __ATOMIC_ACQUIRE)) {
		choose_format(sound);
	}
	return 0;
}

/* Whether the client lags: too many blocks wait for their confirmations. */
static bool lagging(struct rdp_sound *sound) {
	/* Block numbers go round at 256; those after the last confirmed wait. */
	uint8_t waiting = (uint8_t)(sound->context->block_no - 1 -
		__atomic_load_n(&sound->confirmed, __ATOMIC_ACQUIRE));
	return waiting >= MAX_UNCONFIRMED;
}

static void sent(struct rdp_sound *sound, UINT result, size_t frames, size_t bytes) {
	if (result != CHANNEL_RC_OK) {
		/* The sink stays until the client goes: this runs in its callback. */
		wlr_log(WLR_ERROR, "RDP: cannot send sound to %s", sound->peer->host);
		sound->playing = false;
		return;
	}
	sound->frames_sent += frames;
	sound->bytes_sent += bytes;
}

static UINT16 stamp_block(struct rdp_sound *sound) {
	int64_t now = monotonic_ms();
	__atomic_store_n(&sound->sent_ms[sound->context->block_no], now, __ATOMIC_RELEASE);
	return (UINT16)now;
}

#if HAVE_AAC
/* An AAC frame came out of the encoder. */
static void send_aac(void *data, const uint8_t *adts, size_t size) {
	struct rdp_sound *sound = data;
	if (!sound->playing) {
		return;
	}
	if (lagging(sound)) {
		sound->dropped += RDP_SOUND_AAC_FRAMES;
		return;
	}
	UINT16 timestamp = stamp_block(sound);
	sent(sound, sound->context->SendSamples2(sound->context, sound->format_no, adts, size,
		timestamp, timestamp), RDP_SOUND_AAC_FRAMES, size);
}

static void encode_aac(struct rdp_sound *sound, const int16_t *samples) {
	if (!rdp_sound_aac_encode(sound->aac, samples, send_aac, sound)) {
		wlr_log(WLR_ERROR, "RDP: cannot encode sound for %s", sound->peer->host);
		sound->playing = false;
	}
}
#endif

/* Sends the block (its first frames), or drops it for a client that lags. */
static void send_block(struct rdp_sound *sound, size_t frames) {
	RdpsndServerContext *context = sound->context;
#if HAVE_AAC
	if (sound->aac) {
		/* Whole frames only: silence ends the last. */
		memset(sound->block + frames * 2, 0,
			(RDP_SOUND_AAC_FRAMES - frames) * 2 * sizeof(int16_t));
		encode_aac(sound, sound->block);
		return;
	}
#endif
	if (lagging(sound)) {
		sound->dropped += frames;
		return;
	}
	UINT16 timestamp = stamp_block(sound);
	UINT result;
	if (sound->wave2) {
		result = context->SendSamples2(context, sound->format_no, sound->block,
			frames * 2 * sizeof(int16_t), timestamp, timestamp);
	} else {
		if (sound->flip_sign) {
			for (size_t i = 0; i < frames * 2; i++) {
				sound->block[i] ^= (int16_t)0x8000;
			}
		}
		result = context->SendSamples(context, sound->block, (int)frames, timestamp);
	}
	sent(sound, result, frames, frames * 2 * sizeof(int16_t));
}

static void flush(struct rdp_sound *sound) {
	if (sound->pending > 0 && sound->playing) {
		send_block(sound, sound->pending);
#if HAVE_AAC
		if (sound->aac && sound->playing) {
			static const int16_t silence[RDP_SOUND_AAC_FRAMES * 2];
			encode_aac(sound, silence); /* out comes the frame it held back */
		}
#endif
	}
	sound->pending = 0;
}

static int handle_flush_timer(void *data) {
	flush(data);
	return 0;
}

void rdp_sound_send(struct rdp_sound *sound, const int16_t *samples, size_t frames) {
	if (!samples) {
		flush(sound); /* silence follows */
		return;
	}
	while (frames > 0 && sound->playing) {
		size_t take = sound->block_frames - sound->pending;
		take = take < frames ? take : frames;
		memcpy(sound->block + sound->pending * 2, samples, take * 2 * sizeof(int16_t));
		sound->pending += take;
		samples += take * 2;
		frames -= take;
		if (sound->pending == sound->block_frames) {
			send_block(sound, sound->block_frames);
			sound->pending = 0;
		}
	}
	if (sound->pending > 0) {
		wl_event_source_timer_update(sound->flush_timer, FLUSH_MS);
	}
}

bool rdp_sound_open(struct rdp_peer *peer) {
	const struct options_rdp *options = peer->rdp->options;
	rdpSettings *settings = peer->client->settings;
	if (peer->sound || options->audio == CONFIG_RDP_AUDIO_OFF || !settings->AudioPlayback) {
		return true;
	}
	bool on_static = WTSVirtualChannelManagerIsChannelJoined(peer->vcm, "rdpsnd");
	bool dynamic_ready = WTSVirtualChannelManagerIsChannelJoined(peer->vcm, "drdynvc") &&
		WTSVirtualChannelManagerGetDrdynvcState(peer->vcm) == DRDYNVC_STATE_READY;
	if (!on_static && !dynamic_ready) {
		return true; /* perhaps once drdynvc is ready */
	}
	struct rdp_sound *sound = zalloc(sizeof(*sound));
	sound->peer = peer;
	sound->wakeup_fd = -1;
	sound->dynamic = !on_static;
	sound->source = pcm(SOURCE_RATE);
	peer->sound = sound;
	sound->wakeup_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (sound->wakeup_fd < 0) {
		return false;
	}
	sound->wakeup = wl_event_loop_add_fd(peer->rdp->server->loop, sound->wakeup_fd,
		WL_EVENT_READABLE, handle_wakeup, sound);
	sound->flush_timer = wl_event_loop_add_timer(peer->rdp->server->loop,
		handle_flush_timer, sound);
	RdpsndServerContext *context = rdpsnd_server_context_new(peer->vcm);
	if (!sound->wakeup || !sound->flush_timer || !context) {
		rdpsnd_server_context_free(context);
		return false;
	}
	sound->context = context;
	context->data = sound;
	context->rdpcontext = peer->client->context;
	context->use_dynamic_virtual_channel = sound->dynamic;
	/* FreeRDP frees them with the context. */
	context->server_formats = calloc(3, sizeof(AUDIO_FORMAT));
	if (!context->server_formats) {
		return false;
	}
	context->server_formats[context->num_server_formats++] = pcm(48000);
	context->server_formats[context->num_server_formats++] = pcm(44100);
#if HAVE_AAC
	context->server_formats[context->num_server_formats++] = aac();
#endif
	context->src_format = &sound->source;
	context->latency = BLOCK_MS;
	context->Activated = handle_activated;
	context->ConfirmBlock = handle_confirm;
	/* None waits for its confirmation yet. */
	sound->confirmed = (uint8_t)(context->block_no - 1);
	/*
	 * What the client says is read on the loop, not on a thread of
	 * FreeRDP's: a client may send its formats again, and FreeRDP replaces
	 * them while SendSamples reads them.
	 */
	if (context->Initialize(context, FALSE) != CHANNEL_RC_OK) {
		return false;
	}
	int fd = GetEventFileDescriptor(rdpsnd_server_get_event_handle(context));
	sound->channel = fd >= 0 ? wl_event_loop_add_fd(peer->rdp->server->loop, fd,
		WL_EVENT_READABLE, handle_channel, sound) : NULL;
	return sound->channel != NULL;
}

void rdp_sound_close(struct rdp_peer *peer) {
	struct rdp_sound *sound = peer->sound;
	if (!sound) {
		return;
	}
	if (sound->channel) {
		wl_event_source_remove(sound->channel);
	}
	if (sound->context) {
		rdpsnd_server_context_free(sound->context);
	}
	if (sound->attached) {
		double seconds = (double)sound->frames_sent / SOURCE_RATE;
		wlr_log(WLR_INFO, "RDP: sound to %s: %.1f s in %" PRIu64 " bytes (%.0f bytes/s), "
			"%u blocks confirmed, %.0f ms on average after they went (at most %" PRId64
			"), %.1f s dropped for a late client", peer->host, seconds, sound->bytes_sent,
			seconds > 0 ? sound->bytes_sent / seconds : 0.0, sound->rtt_count,
			sound->rtt_count ? (double)sound->rtt_sum_ms / sound->rtt_count : 0.0,
			sound->rtt_max_ms, (double)sound->dropped / SOURCE_RATE);
		sink_detach(peer->rdp);
	}
#if HAVE_AAC
	rdp_sound_aac_destroy(sound->aac);
#endif
	if (sound->wakeup) {
		wl_event_source_remove(sound->wakeup);
	}
	if (sound->flush_timer) {
		wl_event_source_remove(sound->flush_timer);
	}
	if (sound->wakeup_fd >= 0) {
		close(sound->wakeup_fd);
	}
	free(sound);
	peer->sound = NULL;
}
