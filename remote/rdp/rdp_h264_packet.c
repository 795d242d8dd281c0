/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <freerdp/codec/h264.h>
#include <freerdp/version.h>
#include "remote/rdp/rdp_h264_packet.h"

/*
 * FreeRDP 2.11's libavcodec H.264 encoder (h264_ffmpeg.c) keeps the last
 * packet it encoded referenced in its private state and does not let it
 * go when the context is freed: about 1.7 KB per graphics pipeline
 * client, and the heap pages it pins, for the life of oriel. No public
 * call reaches it, so this finds it where 2.11 keeps it: an AVPacket
 * after six pointers in H264_CONTEXT_LIBAVCODEC. It is unreferenced
 * through libavcodec (loaded with libfreerdp2, which links it) only when
 * it looks like one: a reference whose buffer holds the packet's data.
 */
#if FREERDP_VERSION_MAJOR == 2 && FREERDP_VERSION_MINOR == 11

/* The start of libavcodec's AVPacket and AVBufferRef (stable since 2017). */
struct av_buffer_ref_head {
	void *buffer;
	uint8_t *data;
	size_t size;
};
struct av_packet_head {
	struct av_buffer_ref_head *buf;
	int64_t pts, dts;
	uint8_t *data;
	int size;
};
/* What precedes it: two codecs, their contexts, a parser and a frame. */
#define PACKET_OFFSET (6 * sizeof(void *))

void rdp_h264_release_packet(H264_CONTEXT *avc) {
	if (!avc || !avc->pSystemData || !avc->subsystem || !avc->subsystem->name ||
			strcmp(avc->subsystem->name, "libavcodec") != 0) {
		return;
	}
	struct av_packet_head *packet =
		(struct av_packet_head *)((char *)avc->pSystemData + PACKET_OFFSET);
	if (!packet->buf || !packet->data || packet->size <= 0 ||
			packet->buf->data > packet->data ||
			packet->data + packet->size > packet->buf->data + packet->buf->size) {
		return;
	}
	void (*unref)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "av_packet_unref");
	if (unref) {
		unref(packet);
	}
}

#else

void rdp_h264_release_packet(H264_CONTEXT *avc) {
	(void)avc;
}

#endif
