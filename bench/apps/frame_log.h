/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_BENCH_APPS_FRAME_LOG_H
#define ORIEL_BENCH_APPS_FRAME_LOG_H

/*
 * What the bench's X apps share: the --log file of frame times a viewer
 * reads while they run, and the signals that stop (SIGTERM, SIGINT) and
 * pause or resume (SIGUSR1) them. A header alone, so that each app stays
 * one compile line.
 */

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t quit_flag, pause_toggles;

static void on_term(int sig) { (void)sig; quit_flag = 1; }
static void on_usr1(int sig) { (void)sig; pause_toggles++; }

/*
 * Maps path (created, frames 8-byte entries) shared, into *log; NULL when
 * there is no path. -1 after saying why on stderr.
 */
static int frame_log_open(const char *path, unsigned frames, uint64_t **log)
{
	*log = NULL;
	if (!path)
		return 0;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)frames * 8) < 0) {
		perror(path);
		return -1;
	}
	*log = mmap(NULL, (size_t)frames * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (*log == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	return 0;
}

static void frame_signals_install(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
}

#endif
