/* SPDX-License-Identifier: MIT */
/*
 * Feeds files to LLVMFuzzerTestOneInput without libFuzzer, so any
 * compiler can replay a corpus. Arguments are files or directories.
 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Matches the fuzzer's default -max_len ceiling with room to spare. */
#define REPLAY_MAX_BYTES (4 * 1024 * 1024)

static int replay_file(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	uint8_t *data = malloc(REPLAY_MAX_BYTES);
	if (!data) {
		fclose(f);
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	size_t size = fread(data, 1, REPLAY_MAX_BYTES, f);
	int ret = 0;
	if (ferror(f)) {
		perror(path);
		ret = -1;
	} else if (!feof(f)) {
		fprintf(stderr, "%s: larger than %d bytes\n", path, REPLAY_MAX_BYTES);
		ret = -1;
	} else {
		/* An exact-size copy, so sanitizers catch reads past the end. */
		uint8_t *exact = malloc(size ? size : 1);
		if (!exact) {
			fprintf(stderr, "%s: out of memory\n", path);
			ret = -1;
		} else {
			memcpy(exact, data, size);
			LLVMFuzzerTestOneInput(exact, size);
			free(exact);
		}
	}
	free(data);
	fclose(f);
	return ret;
}

static int replay(const char *path, int *count) {
	struct stat st;
	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	struct dirent **entries;
	int n = scandir(path, &entries, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	int ret = 0;
	for (int i = 0; i < n; i++) {
		const char *name = entries[i]->d_name;
		if (name[0] != '.') {
			char child[4096];
			snprintf(child, sizeof(child), "%s/%s", path, name);
			if (replay(child, count) < 0) {
				ret = -1;
			}
		}
		free(entries[i]);
	}
	free(entries);
	return ret;
}

int main(int argc, char *argv[]) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	int count = 0, ret = 0;
	for (int i = 1; i < argc; i++) {
		if (replay(argv[i], &count) < 0) {
			ret = 1;
		}
	}
	if (count == 0) {
		fprintf(stderr, "%s: no inputs\n", argv[0]);
		return 1;
	}
	printf("replayed %d input(s)\n", count);
	return ret;
}
