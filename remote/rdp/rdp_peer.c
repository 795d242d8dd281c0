/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <freerdp/error.h>
#include <winpr/synch.h>
#include <wlr/util/log.h>
#include "remote/account_check.h"
#include "remote/peer_owner.h"
#include "remote/preauth_evict.h"
#include "remote/preauth_limits.h"
#include "remote/rdp/rdp.h"
#include "remote/client_info.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/peer_address.h"
#include "common/util.h"

/*
 * One client: a freerdp_peer whose event handles are watched in oriel's
 * loop, and whose logon is checked here. FreeRDP reads the Client Info
 * PDU (user name and password) just before licensing, so the license
 * callback starts the account check, off the loop. The connection goes on
 * meanwhile (FreeRDP reads on within one call), but until the check
 * succeeds the peer is a guest: its input is dropped, it gets no frames,
 * it has a deadline and counts against the guests' caps, not the
 * sessions'. A failed check disconnects it.
 */

/*
 * A call into FreeRDP may wait this long for its client (FreeRDP's TLS
 * handshake polls until the client answers); the loop waits meanwhile.
 */
#define SESSION_CALL_MS 5000
#define GUEST_CALL_MS 3000

static struct rdp_peer *peer_of(freerdp_peer *client) {
	return client->ContextExtra;
}

static bool is_guest(const struct rdp_peer *peer) {
	return peer->state != RDP_PEER_SESSION;
}

/* MS-RDPBCGR 2.2.1.1.1: CredSSP, and CredSSP with Early User Authorization. */
#define SELECTED_PROTOCOL_HYBRID 0x2
#define SELECTED_PROTOCOL_HYBRID_EX 0x8

static bool used_nla(const rdpSettings *settings) {
	return (settings->SelectedProtocol &
		(SELECTED_PROTOCOL_HYBRID | SELECTED_PROTOCOL_HYBRID_EX)) != 0;
}

static void connection_failed(struct rdp_peer *peer) {
	if (is_guest(peer) && used_nla(peer->client->settings)) {
		/* Most likely its NLA logon was refused: that counts as a failed logon. */
		rdp_auth_failed(peer->rdp, peer->host,
			peer->nla_user[0] ? peer->nla_user : "(NLA, before a user name)");
	}
	rdp_peer_drop(peer, is_guest(peer) ? "the connection failed before logon" :
		"the client disconnected");
}

/* Calls FreeRDP to process what the client sent; false when the peer is gone. */
static bool peer_dispatch(struct rdp_peer *peer) {
	freerdp_peer *client = peer->client;
	int timeout_ms = SESSION_CALL_MS;
	if (is_guest(peer)) {
		timeout_ms = peer->rdp->options->handshake_timeout * 1000;
		if (timeout_ms > GUEST_CALL_MS) {
			timeout_ms = GUEST_CALL_MS;
		}
	}
	rdp_peer_enter_freerdp(peer);
	rdp_watchdog_arm(peer->rdp->watchdog, client->sockfd, timeout_ms);
	BOOL ok = client->CheckFileDescriptor(client);
	rdp_watchdog_disarm(peer->rdp->watchdog);
	rdp_peer_leave_freerdp(peer);
	if (!rdp_peer_alive(peer)) {
		return false; /* dropped while FreeRDP called us */
	}
	if (!ok) {
		connection_failed(peer);
		return false;
	}
	return rdp_channels_check(peer);
}

static int handle_readable(int fd, uint32_t mask, void *data) {
	struct rdp_peer *peer = data;
	if (rdp_peer_alive(peer)) {
		peer_dispatch(peer);
	}
	return 0;
}

static int handle_deadline(void *data) {
	struct rdp_peer *peer = data;
	char why[96];
	snprintf(why, sizeof(why), "no logon within %d s (--rdp-handshake-timeout)",
		peer->rdp->options->handshake_timeout);
	rdp_peer_drop(peer, why);
	return 0;
}

/* Logged in: the peer leaves the guests; an active client gets frames. */
static void become_session(struct rdp_peer *peer) {
	struct rdp_server *rdp = peer->rdp;
	if (rdp->n_sessions >= rdp->options->max_clients) {
		char why[96];
		snprintf(why, sizeof(why), "already %d sessions (--rdp-max-clients)",
			rdp->n_sessions);
		rdp_peer_drop(peer, why);
		return;
	}
	if (!rdp_server_fb_acquire(rdp)) {
		rdp_peer_drop(peer, "out of memory for the desktop's pixels");
		return;
	}
	rdp->n_guests--;
	rdp->n_sessions++;
	peer->state = RDP_PEER_SESSION;
	rdp_handover_clients_changed(rdp);
	wl_event_source_remove(peer->deadline);
	peer->deadline = NULL;
	rdp_server_session_started(rdp, peer);
	rdp_input_session_started(peer);
	if (peer->client->activated) {
		rdp_display_activated(peer);
		rdp_clipboard_activated(peer);
		if (peer->in_freerdp == 0) {
			rdp_channels_check(peer); /* else right after FreeRDP returns */
		}
	}
}

static void refuse(struct rdp_peer *peer, const char *why) {
	freerdp_peer *client = peer->client;
	/* The client shows why (and does not reconnect on its own). */
	freerdp_set_error_info(client->context->rdp, ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES);
	freerdp_send_error_info(client->context->rdp);
	client->DrainOutputBuffer(client);
	rdp_peer_drop(peer, why);
}

static void handle_checked(void *data, bool ok, bool view_only) {
	struct rdp_peer *peer = data;
	struct rdp_server *rdp = peer->rdp;
	peer->check = NULL;
	if (!rdp_peer_alive(peer)) {
		return;
	}
	const char *user = peer->client->settings->Username;
	if (!ok) {
		rdp_auth_failed(rdp, peer->host, user ? user : "");
		refuse(peer, "wrong user name or password");
		return;
	}
	rdp_auth_succeeded(rdp, peer->host);
	peer->view_only = view_only;
	wlr_log(WLR_INFO, "RDP: %s logged on as \"%s\"%s", peer->host, user ? user : "",
		view_only ? " (view-only)" : "");
	rdp_peer_set_reading(peer, true);
	become_session(peer);
}

static void forget_password(rdpSettings *settings) {
	if (settings->Password) {
		memset(settings->Password, 0, strlen(settings->Password));
	}
}

/*
 * Right after the Client Info PDU, which holds the logon, on the guest's
 * thread (rdp_prelogon.c): notes that it came and licenses the client as
 * FreeRDP would. The loop checks the logon once the thread has ended.
 */
static LicenseCallbackResult handle_license(freerdp_peer *client, wStream *s) {
	struct rdp_peer *peer = peer_of(client);
	if (peer->prelogon && !peer->logon_arrived) {
		peer->requested_width = client->settings->DesktopWidth;
		peer->requested_height = client->settings->DesktopHeight;
		peer->logon_arrived = true;
	}
	return peer->library_license(client, s);
}

/* Back on the loop with the guest's logon: checks it, or lets it in. */
static void check_logon(struct rdp_peer *peer) {
	struct rdp_server *rdp = peer->rdp;
	rdpSettings *settings = peer->client->settings;
	const char *user = settings->Username ? settings->Username : "";
	if (peer->handover) {
		/* oriel-gateway checked the account; the client proves it is the one it redirected. */
		bool ok = rdp_handover_logon_ok(peer, user,
			settings->Password ? settings->Password : "");
		forget_password(settings);
		if (!ok) {
			rdp_auth_failed(rdp, peer->host, user);
			wlr_log(WLR_INFO, "RDP: %s, handed over by oriel-gateway, did not bring the "
				"password cookie of \"%s\"", peer->host, user);
			rdp_peer_drop(peer, "not the logon oriel-gateway handed over");
			return;
		}
		peer->view_only = rdp_handover_view_only(peer);
		wlr_log(WLR_INFO, "RDP: %s logged on as \"%s\" through oriel-gateway%s",
			peer->host, user, peer->view_only ? " (view-only)" : "");
		become_session(peer);
		return;
	}
	if (!rdp_auth_allowed(rdp, peer->host)) {
		forget_password(settings);
		refuse(peer, rdp_auth_log_note(rdp, "tries while it must wait", peer->host) ?
			"it must wait after failed logons" : NULL);
		return;
	}
	if (used_nla(settings)) {
		/* CredSSP already checked the user against the SAM file, before TLS carried anything else. */
		forget_password(settings);
		rdp_auth_succeeded(rdp, peer->host);
		wlr_log(WLR_INFO, "RDP: %s logged on as \"%s\" (NLA)", peer->host, user);
		become_session(peer);
		return;
	}
	if (!rdp->accounts) {
		/* Loopback only (options.c): whoever connects is the session's user. */
		forget_password(settings);
		wlr_log(WLR_INFO, "RDP: %s connected as \"%s\" (no accounts are checked)",
			peer->host, user);
		become_session(peer);
		return;
	}
	peer->check = account_check_start(rdp->auth.checker, user,
		settings->Password ? settings->Password : "", peer->host, handle_checked, peer);
	forget_password(settings);
	if (!peer->check) {
		wlr_log(WLR_ERROR, "RDP: cannot check the logon of %s", peer->host);
		rdp_peer_drop(peer, "cannot check its logon");
		return;
	}
	peer->state = RDP_PEER_CHECKING;
	/*
	 * The client finishes connecting meanwhile and may type at once; input
	 * before its logon is good is dropped, so what it sends waits unread.
	 */
	rdp_peer_set_reading(peer, false);
}

static BOOL handle_logon(freerdp_peer *client, SEC_WINNT_AUTH_IDENTITY *identity,
		BOOL automatic) {
	return TRUE; /* TLS: no identity yet; the Client Info PDU has it */
}

static BOOL handle_capabilities(freerdp_peer *client) {
	struct rdp_peer *peer = peer_of(client);
	rdpSettings *settings = client->settings;
	/* The size is the desktop's; a guest's thread offers what its logon will make. */
	if (peer->prelogon) {
		rdp_layout_offer(peer, &settings->DesktopWidth, &settings->DesktopHeight);
	} else {
		settings->DesktopWidth = (UINT32)peer->rdp->width;
		settings->DesktopHeight = (UINT32)peer->rdp->height;
	}
	rdp_encoder_choose_depth(peer);
	return TRUE;
}

static BOOL handle_post_connect(freerdp_peer *client) {
	struct rdp_peer *peer = peer_of(client);
	rdpSettings *settings = client->settings;
	wlr_log(WLR_INFO, "RDP: %s (%s) connected: %ux%u at %u bpp, RemoteFX %s, "
		"surface commands %s, frame acknowledgements %u", peer->host,
		settings->ClientHostname ? settings->ClientHostname : "?",
		settings->DesktopWidth, settings->DesktopHeight, settings->ColorDepth,
		settings->RemoteFxCodec ? "yes" : "no",
		settings->SurfaceCommandsEnabled ? "yes" : "no", settings->FrameAcknowledge);
	return TRUE;
}

static BOOL handle_activate(freerdp_peer *client) {
	struct rdp_peer *peer = peer_of(client);
	if (peer->state == RDP_PEER_SESSION) {
		rdp_display_activated(peer); /* else once its logon is checked */
		rdp_clipboard_activated(peer);
	}
	return TRUE;
}

static int guests_of(struct rdp_server *rdp, const char *host) {
	int n = 0;
	struct rdp_peer *peer;
	wl_list_for_each(peer, &rdp->peers, link) {
		if (is_guest(peer) && !peer->closing && strcmp(peer->host, host) == 0) {
			n++;
		}
	}
	return n;
}

/* Who gives way to a newcomer (preauth_evict.h): a peer whose logon is being checked never does. */
static struct rdp_peer *guest_to_give_way(struct rdp_server *rdp, const char *host) {
	struct preauth_list list;
	if (!preauth_list_init(&list, rdp->n_guests, monotonic_ms())) {
		return NULL;
	}
	struct rdp_peer *peer;
	wl_list_for_each(peer, &rdp->peers, link) {
		if (!is_guest(peer) || peer->closing) {
			continue;
		}
		struct preauth_guest *s = preauth_list_add(&list, peer);
		if (!s) {
			break;
		}
		*s = (struct preauth_guest){ .host = peer->host, .may_give_way = peer->prelogon };
		if (peer->prelogon) {
			rdp_prelogon_describe(peer, s);
			preauth_list_peek(&list, s, peer->client->sockfd);
		}
	}
	return preauth_list_choose(&list, host);
}

static void peer_host(int fd, char *host, size_t size) {
	if (peer_address(fd, host, size) != PEER_ADDRESS_NUMERIC) {
		snprintf(host, size, "?");
	}
}

static bool watch_client(struct rdp_peer *peer) {
	freerdp_peer *client = peer->client;
	HANDLE handles[RDP_PEER_MAX_HANDLES];
	DWORD n = client->GetEventHandles(client, handles, RDP_PEER_MAX_HANDLES);
	struct wl_event_loop *loop = peer->rdp->server->loop;
	for (DWORD i = 0; i < n; i++) {
		int fd = GetEventFileDescriptor(handles[i]);
		if (fd < 0) {
			continue;
		}
		struct wl_event_source *source = wl_event_loop_add_fd(loop, fd, WL_EVENT_READABLE,
			handle_readable, peer);
		if (!source) {
			return false;
		}
		peer->sources[peer->n_sources++] = source;
	}
	return peer->n_sources > 0;
}

static bool setup_client(struct rdp_peer *peer) {
	struct rdp_server *rdp = peer->rdp;
	freerdp_peer *client = peer->client;
	client->ContextExtra = peer;
	if (!freerdp_peer_context_new(client)) {
		return false;
	}
	rdpSettings *settings = client->settings;
	settings->CertificateFile = strdup(rdp->tls.cert_path);
	settings->PrivateKeyFile = strdup(rdp->tls.key_path);
	settings->RdpSecurity = FALSE; /* TLS always */
	settings->TlsSecurity = TRUE;
	/* NLA (CredSSP inside TLS) where a SAM file holds its accounts. */
	const char *sam = rdp->options->sam_file;
	settings->NlaSecurity = sam != NULL;
	if (sam && !(settings->NtlmSamFile = strdup(sam))) {
		return false;
	}
	if (!settings->CertificateFile || !settings->PrivateKeyFile ||
			!client->Initialize(client)) {
		return false;
	}
	settings->OsMajorType = OSMAJORTYPE_UNIX;
	settings->OsMinorType = OSMINORTYPE_PSEUDO_XSERVER;
	settings->ColorDepth = 32;
	settings->RefreshRect = TRUE;
	settings->SuppressOutput = TRUE;
	settings->RemoteFxCodec = TRUE;
	settings->NSCodec = FALSE;
	settings->SurfaceCommandsEnabled = TRUE;
	settings->FrameMarkerCommandEnabled = TRUE;
	settings->SurfaceFrameMarkerEnabled = TRUE;
	settings->DesktopResize = TRUE;
	settings->SupportGraphicsPipeline = TRUE; /* cleared for clients without it */
	settings->DesktopWidth = (UINT32)rdp->width;
	settings->DesktopHeight = (UINT32)rdp->height;

	peer->library_license = client->LicenseCallback;
	client->LicenseCallback = handle_license;
	client->Logon = handle_logon;
	client->Capabilities = handle_capabilities;
	client->PostConnect = handle_post_connect;
	client->Activate = handle_activate;
	rdp_nla_init_peer(peer);
	rdp_input_init_peer(peer);
	return rdp_display_init_peer(peer) && rdp_channels_init_peer(peer);
}

/* What a refused client still sends is read and dropped, until it hangs up. */
static int handle_refused_readable(int fd, uint32_t mask, void *data) {
	struct rdp_peer *peer = data;
	char buf[4096];
	ssize_t n;
	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
	}
	if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		rdp_peer_drop(peer, NULL);
	}
	return 0;
}

/*
 * Someone else than the session's user, and no accounts: the client is
 * told (insufficient privileges) at its logon, the first point where it
 * can be. It is still sending its part of the connection sequence then,
 * and closing on unread bytes would reset the connection before the
 * client read why; so only our side closes, and the rest of its bytes
 * are dropped until it hangs up (or its deadline comes).
 */
static void refuse_not_its_user(struct rdp_peer *peer) {
	freerdp_peer *client = peer->client;
	forget_password(client->settings);
	wlr_log(WLR_INFO, "RDP: closing the connection from %s: not the session's user, "
		"and there are no accounts", peer->host);
	freerdp_set_error_info(client->context->rdp, ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES);
	freerdp_send_error_info(client->context->rdp);
	client->DrainOutputBuffer(client);
	shutdown(client->sockfd, SHUT_WR);
	peer->sources[0] = wl_event_loop_add_fd(peer->rdp->server->loop, client->sockfd,
		WL_EVENT_READABLE, handle_refused_readable, peer);
	if (!peer->sources[0]) {
		rdp_peer_drop(peer, NULL);
		return;
	}
	peer->n_sources = 1;
}

void rdp_peer_prelogon_ended(struct rdp_peer *peer, bool logon_arrived) {
	if (!rdp_peer_alive(peer)) {
		rdp_peer_drop(peer, NULL); /* dropped while its thread ran: freed now */
		return;
	}
	if (!logon_arrived) {
		connection_failed(peer);
		return;
	}
	if (peer->not_its_user) {
		refuse_not_its_user(peer);
		return;
	}
	if (!rdp_channels_watch(peer) || !watch_client(peer)) {
		rdp_peer_drop(peer, "cannot watch the connection");
		return;
	}
	check_logon(peer);
}

static void peer_create(struct rdp_server *rdp, int fd, const char *host,
		struct rdp_handover_login *handover, bool not_its_user) {
	struct preauth_limits limits = {
		.per_address = rdp->options->max_pending_per_address,
		.total = rdp->options->max_pending,
	};
	switch (preauth_decide(&limits, rdp->n_guests, guests_of(rdp, host))) {
	case PREAUTH_ADMIT:
		break;
	case PREAUTH_EVICT_SAME_ADDRESS:
		rdp_peer_drop(guest_to_give_way(rdp, host), "a newer connection from its address");
		break;
	case PREAUTH_EVICT_BUSIEST:
		rdp_peer_drop(guest_to_give_way(rdp, NULL), "too many connections logging on");
		break;
	}
	freerdp_peer *client = freerdp_peer_new(fd);
	if (!client) {
		wlr_log(WLR_ERROR, "RDP: cannot take the connection from %s", host);
		close(fd);
		rdp_handover_login_destroy(handover);
		return;
	}
	struct rdp_peer *peer = zalloc(sizeof(*peer));
	peer->rdp = rdp;
	peer->client = client;
	peer->handover = handover;
	peer->not_its_user = not_its_user;
	peer->id = ++rdp->last_peer_id;
	snprintf(peer->host, sizeof(peer->host), "%s", host);
	peer->state = RDP_PEER_GUEST;
	wl_list_insert(&rdp->peers, &peer->link);
	rdp->n_guests++;
	peer->deadline = wl_event_loop_add_timer(rdp->server->loop, handle_deadline, peer);
	wl_event_source_timer_update(peer->deadline, rdp->options->handshake_timeout * 1000);
	peer->offered_width = (UINT32)rdp->width;
	peer->offered_height = (UINT32)rdp->height;
	peer->first_session = rdp->n_sessions == 0 && rdp->primary != NULL;
	peer->outputs_possible = rdp->server->headless;
	if (!setup_client(peer) || !rdp_prelogon_start(peer)) {
		rdp_peer_drop(peer, "cannot set the connection up");
		return;
	}
	wlr_log(WLR_DEBUG, "RDP: connection from %s", host);
}

/*
 * Without accounts, nothing tells one person from another but the uid at
 * the other end: the session serves only its own user. Decided before
 * any byte of the connection is read.
 */
static bool is_its_user(struct rdp_server *rdp, int fd, const char *host) {
	uid_t uid;
	char why[160];
	if (rdp->accounts || peer_owner_is_self(fd, &uid, why, sizeof(why))) {
		return true;
	}
	wlr_log(WLR_INFO, "RDP: refused %s: %s; give accounts (--rdp-users, --rdp-pam, "
		"--rdp-sam) to let others in", host, why);
	return false;
}

void rdp_peer_create(struct rdp_server *rdp, int fd) {
	char host[64];
	peer_host(fd, host, sizeof(host));
	peer_create(rdp, fd, host, NULL, !is_its_user(rdp, fd, host));
}

/* oriel-gateway logged the client in: no uid of ours to compare. */
void rdp_peer_create_handed_over(struct rdp_server *rdp, int fd, const char *host,
		struct rdp_handover_login *login) {
	peer_create(rdp, fd, host, login, false);
}

size_t rdp_list_clients(struct rdp_server *rdp, struct remote_client_info *out, size_t max) {
	size_t n = 0;
	struct rdp_peer *peer;
	/* Newest first in the list: walk it backwards. */
	wl_list_for_each_reverse(peer, &rdp->peers, link) {
		if (peer->state != RDP_PEER_SESSION || peer->closing) {
			continue;
		}
		if (n < max) {
			out[n].id = peer->id;
			snprintf(out[n].peer, sizeof(out[n].peer), "%s", peer->host);
			out[n].view_only = peer->view_only;
		}
		n++;
	}
	return n;
}

bool rdp_disconnect_client(struct rdp_server *rdp, uint64_t id) {
	struct rdp_peer *peer;
	wl_list_for_each(peer, &rdp->peers, link) {
		if (peer->id == id && peer->state == RDP_PEER_SESSION && !peer->closing) {
			rdp_peer_enter_freerdp(peer);
			peer->client->Close(peer->client);
			rdp_peer_leave_freerdp(peer);
			rdp_peer_drop(peer, "disconnected on request");
			return true;
		}
	}
	return false;
}
