/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PRESENT_CLOCK_H
#define ORIEL_PRESENT_CLOCK_H

/*
 * What a headless output reports with each present (presentation-time):
 * the refresh period of its mode in nanoseconds, and a sequence number
 * that counts virtual vblanks of that period since the output started,
 * like an MSC, and that goes up by at least one with every present, also
 * across mode changes. Pure: no wlroots.
 */

#include <stdbool.h>
#include <stdint.h>

struct present_clock {
	int64_t epoch_ns;  /* when the current period started counting */
	uint64_t epoch_seq; /* the sequence number at epoch_ns */
	int64_t period_ns;
	uint64_t last_seq;
	bool presented;    /* last_seq is a sequence number already sent */
};

/* The period of a refresh rate in mHz (60000: 16666667 ns). */
int64_t present_clock_period_ns(int refresh_mhz);
void present_clock_init(struct present_clock *clock, int64_t period_ns, int64_t now_ns);
/* A new mode: counting goes on from where it is, at the new period. */
void present_clock_set_period(struct present_clock *clock, int64_t period_ns,
	int64_t now_ns);
/* The sequence number of a present at now_ns. */
uint64_t present_clock_present(struct present_clock *clock, int64_t now_ns);

#endif
