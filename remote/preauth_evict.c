/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include "remote/preauth_evict.h"

static int64_t last_step_ms(const struct preauth_guest *guest) {
	return guest->progress_ms > 0 ? guest->progress_ms : guest->started_ms;
}

bool preauth_guest_stalled(const struct preauth_guest *guest, int64_t now) {
	return guest->partial || now - last_step_ms(guest) >= PREAUTH_MOVING_MS;
}

static bool from(const struct preauth_guest *guest, const char *host) {
	return !host || strcmp(guest->host, host) == 0;
}

/* How many guests of host may give way. */
static int waiting_of(const struct preauth_guest *guests, int n, const char *host) {
	int k = 0;
	for (int i = 0; i < n; i++) {
		k += guests[i].may_give_way && strcmp(guests[i].host, host) == 0;
	}
	return k;
}

static bool is_candidate(const struct preauth_guest *guest, const char *host, bool stalled,
		int64_t now) {
	return guest->may_give_way && from(guest, host) &&
		preauth_guest_stalled(guest, now) == stalled;
}

/* Whether a goes before b. */
static bool goes_before(const struct preauth_guest *a, const struct preauth_guest *b,
		bool stalled) {
	if (a->stage != b->stage) {
		return a->stage < b->stage;
	}
	/* Silent the longest; or, of those still going, waiting the longest for its next step. */
	return stalled ? a->heard_ms <= b->heard_ms : last_step_ms(a) <= last_step_ms(b);
}

int preauth_choose(const struct preauth_guest *guests, int n, const char *host, int64_t now) {
	bool stalled = false;
	for (int i = 0; i < n && !stalled; i++) {
		stalled = is_candidate(&guests[i], host, true, now);
	}
	int most = 0;
	for (int i = 0; !host && i < n; i++) {
		int k = is_candidate(&guests[i], NULL, stalled, now) ?
			waiting_of(guests, n, guests[i].host) : 0;
		most = k > most ? k : most;
	}
	int victim = -1;
	for (int i = 0; i < n; i++) {
		if (!is_candidate(&guests[i], host, stalled, now) ||
				(!host && waiting_of(guests, n, guests[i].host) < most)) {
			continue;
		}
		if (victim < 0 || goes_before(&guests[i], &guests[victim], stalled)) {
			victim = i;
		}
	}
	return victim;
}

bool preauth_half_tls_record_waits(int fd) {
	uint8_t header[5];
	int unread = 0;
	if (recv(fd, header, sizeof(header), MSG_PEEK | MSG_DONTWAIT) != (ssize_t)sizeof(header) ||
			header[0] != 0x16 || ioctl(fd, FIONREAD, &unread) < 0) {
		return false;
	}
	return unread < (int)sizeof(header) + (header[3] << 8 | header[4]);
}
