/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <winpr/ntlm.h>
#include <winpr/sam.h>
#include <winpr/string.h>
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"

/*
 * NLA's account lookup. FreeRDP 2's NTLM server looks the user up in the
 * SAM file by itself and tells its caller nothing of who tried when the
 * logon fails. Through the peer's ComputeNtlmHash hook (a documented
 * freerdp_peer member, called with the identity from the client's
 * AUTHENTICATE message) oriel does the same lookup and keeps the user
 * name, so a refused NLA logon can be logged with it. It runs on the
 * guest's own thread (rdp_prelogon.c), before the loop reads the name.
 */

static void keep_user(struct rdp_peer *peer, const SEC_WINNT_AUTH_IDENTITY *identity) {
	peer->nla_user[0] = '\0';
	if (!identity->User || identity->UserLength == 0) {
		return;
	}
	/* Leaves room for the terminator; a name too long for it stays unknown. */
	char *out = peer->nla_user;
	int room = (int)sizeof(peer->nla_user) - 1;
	int n = ConvertFromUnicode(CP_UTF8, 0, (LPCWSTR)identity->User,
		(int)identity->UserLength, &out, room, NULL, NULL);
	peer->nla_user[n > 0 && n <= room ? n : 0] = '\0';
	/* It goes into one log line: no control characters from the network. */
	for (char *c = peer->nla_user; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			*c = '?';
		}
	}
}

/* winpr's NTLM takes a non-zero return as "the hash is in ntlmhash". */
static SECURITY_STATUS compute_hash(void *data, const SEC_WINNT_AUTH_IDENTITY *identity,
		const SecBuffer *proof, const BYTE *random_key, const BYTE *mic,
		const SecBuffer *mic_value, BYTE *hash) {
	freerdp_peer *client = data;
	struct rdp_peer *peer = client->ContextExtra;
	keep_user(peer, identity);
	WINPR_SAM *sam = SamOpen(peer->rdp->options->sam_file, TRUE);
	if (!sam) {
		return FALSE;
	}
	WINPR_SAM_ENTRY *entry = SamLookupUserW(sam, (LPWSTR)identity->User,
		identity->UserLength * sizeof(WCHAR), (LPWSTR)identity->Domain,
		identity->DomainLength * sizeof(WCHAR));
	if (!entry) {
		entry = SamLookupUserW(sam, (LPWSTR)identity->User,
			identity->UserLength * sizeof(WCHAR), NULL, 0);
	}
	bool ok = entry && NTOWFv2FromHashW(entry->NtHash, (LPWSTR)identity->User,
		identity->UserLength * sizeof(WCHAR), (LPWSTR)identity->Domain,
		identity->DomainLength * sizeof(WCHAR), hash);
	if (entry) {
		SamFreeEntry(sam, entry);
	}
	SamClose(sam);
	return ok ? TRUE : FALSE;
}

void rdp_nla_init_peer(struct rdp_peer *peer) {
	if (peer->rdp->options->sam_file) {
		peer->client->ComputeNtlmHash = compute_hash;
	}
}
