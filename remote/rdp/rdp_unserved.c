/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <freerdp/channels/wtsvc.h>
#include <winpr/wtsapi.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"

/*
 * What a client asked for that oriel does not serve, said once per
 * connection in oriel's log. Static virtual channels are asked for in the
 * client's Client Network Data; FreeRDP joins them all, and a channel
 * oriel never opens stays silent: sound (rdpsnd, with --rdp-audio off)
 * and device redirection (rdpdr: drives, printers, smartcards, ports)
 * start with a PDU from the server, which never comes, so the client
 * plays and shares nothing.
 *
 * A microphone (audin) is a dynamic channel: a client only says it has
 * one when the server opens AUDIO_INPUT. Where oriel does not take it
 * (--rdp-audio playback or off), it opens the channel to find out, and
 * closes it again at once: the client's audin sees its channel closed and
 * never opens its device.
 */

#define AUDIO_INPUT "AUDIO_INPUT"

struct unserved {
	const char *channel;
	const char *what;
};

static const struct unserved unserved[] = {
	{ "rdpsnd", "sound" },
	{ "rdpdr", "drives, printers and smartcards" },
	{ "rail", "remote applications" },
	{ "encomsp", "multiparty sessions" },
	{ "remdesk", "remote assistance" },
};

/* The static channels oriel serves (rdp_clipboard.c, rdp_channels.c, rdp_sound.c). */
static bool served(const struct rdp_peer *peer, const char *channel) {
	return strcasecmp(channel, "cliprdr") == 0 || strcasecmp(channel, "drdynvc") == 0 ||
		(strcasecmp(channel, "rdpsnd") == 0 &&
			peer->rdp->options->audio != CONFIG_RDP_AUDIO_OFF);
}

void rdp_unserved_log_channels(struct rdp_peer *peer) {
	size_t n = 0;
	char **names = WTSGetAcceptedChannelNames(peer->client, &n);
	if (!names) {
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char channel[CHANNEL_NAME_LEN + 1];
		snprintf(channel, sizeof(channel), "%s", names[i]);
		if (served(peer, channel)) {
			continue;
		}
		const char *what = NULL;
		for (size_t j = 0; j < sizeof(unserved) / sizeof(unserved[0]); j++) {
			if (strcasecmp(channel, unserved[j].channel) == 0) {
				what = unserved[j].what;
			}
		}
		if (what) {
			wlr_log(WLR_INFO, "RDP: %s asked for %s (%s); oriel does not serve %s",
				peer->host, what, channel, what);
		} else {
			wlr_log(WLR_INFO, "RDP: %s asked for the channel %s; oriel does not serve it",
				peer->host, channel);
		}
	}
	free(names); /* the names are the connection's own */
}

void rdp_unserved_probe_open(struct rdp_peer *peer) {
	ULONG *session_id = NULL;
	DWORD size = 0;
	if (!WTSQuerySessionInformationA(peer->vcm, WTS_CURRENT_SESSION, WTSSessionId,
			(LPSTR *)&session_id, &size)) {
		return;
	}
	HANDLE channel = WTSVirtualChannelOpenEx(*session_id, AUDIO_INPUT,
		WTS_CHANNEL_OPTION_DYNAMIC);
	WTSFreeMemory(session_id);
	peer->audio_input_probe = channel;
}

void rdp_unserved_probe_check(struct rdp_peer *peer) {
	if (!peer->audio_input_probe) {
		return;
	}
	BOOL *ready = NULL;
	DWORD size = 0;
	bool known = WTSVirtualChannelQuery(peer->audio_input_probe, WTSVirtualChannelReady,
		(PVOID *)&ready, &size);
	bool accepted = known && ready && *ready;
	bool pending = known && ready && !*ready;
	if (ready) {
		WTSFreeMemory(ready);
	}
	if (pending) {
		return;
	}
	if (accepted) {
		wlr_log(WLR_INFO, "RDP: %s asked for a microphone (%s); oriel does not serve "
			"a microphone", peer->host, AUDIO_INPUT);
	}
	rdp_unserved_probe_close(peer);
}

void rdp_unserved_probe_close(struct rdp_peer *peer) {
	if (peer->audio_input_probe) {
		WTSVirtualChannelClose(peer->audio_input_probe);
		peer->audio_input_probe = NULL;
	}
}
