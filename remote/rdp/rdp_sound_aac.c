/* SPDX-License-Identifier: MIT */
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <string.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_sound_aac.h"
#include "common/util.h"

#define CHANNELS 2
#define ADTS_HEADER 7
#define ADTS_MAX_FRAME 8191 /* its 13-bit length */

struct rdp_sound_aac {
	AVCodecContext *codec;
	AVFrame *frame;
	AVPacket *packet;
	int rate_index; /* ADTS's sampling_frequency_index */
	uint8_t adts[ADTS_MAX_FRAME];
};

static int adts_rate_index(uint32_t rate) {
	static const uint32_t rates[] = { 96000, 88200, 64000, 48000, 44100, 32000,
		24000, 22050, 16000, 12000, 11025, 8000, 7350 };
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		if (rates[i] == rate) {
			return (int)i;
		}
	}
	return -1;
}

struct rdp_sound_aac *rdp_sound_aac_create(uint32_t rate, uint32_t bits_per_second) {
	const AVCodec *codec = avcodec_find_encoder_by_name("aac");
	int rate_index = adts_rate_index(rate);
	if (!codec || rate_index < 0) {
		wlr_log(WLR_ERROR, "RDP: libavcodec has no AAC encoder for %u Hz", rate);
		return NULL;
	}
	struct rdp_sound_aac *aac = zalloc(sizeof(*aac));
	aac->rate_index = rate_index;
	aac->codec = avcodec_alloc_context3(codec);
	aac->frame = av_frame_alloc();
	aac->packet = av_packet_alloc();
	if (!aac->codec || !aac->frame || !aac->packet) {
		goto fail;
	}
	AVCodecContext *c = aac->codec;
	c->sample_fmt = AV_SAMPLE_FMT_FLTP;
	c->sample_rate = (int)rate;
	c->bit_rate = bits_per_second;
	c->profile = FF_PROFILE_AAC_LOW;
	av_channel_layout_default(&c->ch_layout, CHANNELS);
	/*
	 * Left and right as they are: searching each band for mid/side or
	 * intensity stereo takes about a third of the encoder's CPU, for
	 * little at 128 kbit/s.
	 */
	AVDictionary *options = NULL;
	av_dict_set(&options, "aac_ms", "0", 0);
	av_dict_set(&options, "aac_is", "0", 0);
	int ret = avcodec_open2(c, codec, &options);
	av_dict_free(&options);
	if (ret < 0 || c->frame_size != RDP_SOUND_AAC_FRAMES) {
		wlr_log(WLR_ERROR, "RDP: cannot open libavcodec's AAC encoder: %s",
			ret < 0 ? av_err2str(ret) : "another frame size");
		goto fail;
	}
	aac->frame->format = AV_SAMPLE_FMT_FLTP;
	aac->frame->sample_rate = (int)rate;
	aac->frame->nb_samples = RDP_SOUND_AAC_FRAMES;
	if (av_channel_layout_copy(&aac->frame->ch_layout, &c->ch_layout) < 0 ||
			av_frame_get_buffer(aac->frame, 0) < 0) {
		goto fail;
	}
	return aac;
fail:
	rdp_sound_aac_destroy(aac);
	return NULL;
}

void rdp_sound_aac_destroy(struct rdp_sound_aac *aac) {
	if (!aac) {
		return;
	}
	av_packet_free(&aac->packet);
	av_frame_free(&aac->frame);
	avcodec_free_context(&aac->codec);
	free(aac);
}

/* ISO 14496-3 1.A.2: MPEG-4, no CRC, AAC-LC, stereo, one raw block. */
static void write_adts_header(uint8_t *h, int rate_index, size_t frame_length) {
	const int object_type = 1; /* AAC-LC, less one */
	h[0] = 0xff;
	h[1] = 0xf1;
	h[2] = (uint8_t)(object_type << 6 | rate_index << 2 | CHANNELS >> 2);
	h[3] = (uint8_t)((CHANNELS & 3) << 6 | frame_length >> 11);
	h[4] = (uint8_t)(frame_length >> 3);
	h[5] = (uint8_t)((frame_length & 7) << 5 | 0x1f); /* buffer fullness: VBR */
	h[6] = 0xfc;
}

bool rdp_sound_aac_encode(struct rdp_sound_aac *aac, const int16_t *samples,
		rdp_sound_aac_out_fn out, void *data) {
	if (av_frame_make_writable(aac->frame) < 0) {
		return false;
	}
	float *left = (float *)aac->frame->data[0], *right = (float *)aac->frame->data[1];
	for (size_t i = 0; i < RDP_SOUND_AAC_FRAMES; i++) {
		left[i] = samples[2 * i] / 32768.0f;
		right[i] = samples[2 * i + 1] / 32768.0f;
	}
	int ret = avcodec_send_frame(aac->codec, aac->frame);
	while (ret >= 0) {
		ret = avcodec_receive_packet(aac->codec, aac->packet);
		if (ret < 0) {
			break;
		}
		size_t size = ADTS_HEADER + (size_t)aac->packet->size;
		if (size <= ADTS_MAX_FRAME) {
			write_adts_header(aac->adts, aac->rate_index, size);
			memcpy(aac->adts + ADTS_HEADER, aac->packet->data, (size_t)aac->packet->size);
			out(data, aac->adts, size);
		}
		av_packet_unref(aac->packet);
	}
	return ret == AVERROR(EAGAIN);
}
