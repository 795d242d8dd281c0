/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
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

bool preauth_list_init(struct preauth_list *list, int max, int64_t now) {
	*list = (struct preauth_list){ .max = max, .now = now };
	list->guests = calloc((size_t)max + 1, sizeof(*list->guests));
	list->owners = calloc((size_t)max + 1, sizeof(*list->owners));
	if (!list->guests || !list->owners) {
		free(list->guests);
		free(list->owners);
		return false;
	}
	return true;
}

struct preauth_guest *preauth_list_add(struct preauth_list *list, void *owner) {
	if (list->n >= list->max) {
		return NULL;
	}
	list->owners[list->n] = owner;
	return &list->guests[list->n++];
}

void preauth_list_peek(struct preauth_list *list, struct preauth_guest *guest, int fd) {
	if (guest->may_give_way && !preauth_guest_stalled(guest, list->now)) {
		guest->partial = preauth_half_tls_record_waits(fd);
	}
}

void *preauth_list_choose(struct preauth_list *list, const char *host) {
	int victim = preauth_choose(list->guests, list->n, host, list->now);
	void *chosen = victim >= 0 ? list->owners[victim] : NULL;
	free(list->guests);
	free(list->owners);
	*list = (struct preauth_list){0};
	return chosen;
}
