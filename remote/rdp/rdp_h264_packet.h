/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_H264_PACKET_H
#define ORIEL_REMOTE_RDP_H264_PACKET_H

#include <freerdp/codec/h264.h>

/*
 * Gives back the last packet that FreeRDP 2.11's libavcodec encoder
 * keeps in avc's private state, which h264_context_free does not: call
 * it just before. Anything else (another subsystem, another FreeRDP, no
 * packet) is left alone.
 */
void rdp_h264_release_packet(H264_CONTEXT *avc);

#endif
