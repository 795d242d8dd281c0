/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gateway/gateway_procs.h"

#define ENVIRON_MAX (256 * 1024)

bool gateway_procs_uid(pid_t pid, uid_t *uid) {
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f) {
		return false;
	}
	bool found = false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long real;
		if (sscanf(line, "Uid: %lu", &real) == 1) {
			*uid = (uid_t)real;
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

/* The fields of /proc/PID/stat after the command, which may hold spaces and ')'. */
static bool read_stat_tail(pid_t pid, char *out, size_t size) {
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		return false;
	}
	buf[n] = '\0';
	char *close_paren = strrchr(buf, ')');
	if (!close_paren || close_paren[1] != ' ') {
		return false;
	}
	snprintf(out, size, "%s", close_paren + 2);
	return true;
}

/* Field number (as proc(5) counts, state being 3) from the stat tail. */
static bool stat_field(pid_t pid, int field, unsigned long long *value) {
	char tail[1024];
	if (!read_stat_tail(pid, tail, sizeof(tail))) {
		return false;
	}
	char *save = NULL;
	char *tok = strtok_r(tail, " ", &save);
	for (int i = 3; tok && i < field; i++) {
		tok = strtok_r(NULL, " ", &save);
	}
	if (!tok) {
		return false;
	}
	*value = strtoull(tok, NULL, 10);
	return true;
}

static bool environ_has(pid_t pid, const char *entry) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	char *buf = malloc(ENVIRON_MAX + 1);
	if (!buf) {
		close(fd);
		return false;
	}
	size_t size = 0;
	ssize_t n;
	while (size < ENVIRON_MAX && (n = read(fd, buf + size, ENVIRON_MAX - size)) > 0) {
		size += (size_t)n;
	}
	close(fd);
	buf[size] = '\0';
	bool found = false;
	size_t entry_len = strlen(entry) + 1; /* with its NUL: no prefix matches */
	for (size_t pos = 0; pos < size && !found; pos += strlen(buf + pos) + 1) {
		found = pos + entry_len <= size + 1 && memcmp(buf + pos, entry, entry_len) == 0;
	}
	free(buf);
	return found;
}

int gateway_procs_find(uid_t uid, pid_t sid, const char *runtime_dir, pid_t *pids, int max) {
	DIR *dir = opendir("/proc");
	if (!dir) {
		return 0;
	}
	char entry[4200];
	snprintf(entry, sizeof(entry), "XDG_RUNTIME_DIR=%s", runtime_dir);
	int n = 0;
	struct dirent *d;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0])) {
			continue;
		}
		pid_t pid = (pid_t)atoi(d->d_name);
		uid_t owner;
		if (pid == getpid() || !gateway_procs_uid(pid, &owner) || owner != uid) {
			continue;
		}
		char state[8];
		if (!read_stat_tail(pid, state, sizeof(state)) || state[0] == 'Z') {
			continue; /* gone, or only its exit status is left */
		}
		unsigned long long its_sid = 0;
		bool ours = (sid > 0 && stat_field(pid, 6, &its_sid) && (pid_t)its_sid == sid) ||
			environ_has(pid, entry);
		if (ours) {
			if (n < max) {
				pids[n] = pid;
			}
			n++;
		}
	}
	closedir(dir);
	return n;
}

long gateway_procs_pss_kib(pid_t pid) {
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f) {
		return -1;
	}
	long pss = -1;
	while (fgets(line, sizeof(line), f)) {
		long kib;
		if (sscanf(line, "Pss: %ld kB", &kib) == 1) {
			pss = kib;
			break;
		}
	}
	fclose(f);
	return pss;
}

time_t gateway_procs_start_time(pid_t pid) {
	unsigned long long ticks;
	if (!stat_field(pid, 22, &ticks)) {
		return 0;
	}
	FILE *f = fopen("/proc/stat", "re");
	if (!f) {
		return 0;
	}
	char line[256];
	unsigned long long boot = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "btime %llu", &boot) == 1) {
			break;
		}
	}
	fclose(f);
	long hz = sysconf(_SC_CLK_TCK);
	return boot && hz > 0 ? (time_t)(boot + ticks / (unsigned long long)hz) : 0;
}
