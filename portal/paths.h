/* SPDX-License-Identifier: MIT */
/* Files the backend writes: folders and file:// URIs. Pure code. */
#ifndef ORIEL_PORTAL_PATHS_H
#define ORIEL_PORTAL_PATHS_H

/* mkdir -p of dir, new folders private to the user; negative errno on failure. */
int portal_make_dirs(const char *dir);

/* "file://" and path with every byte outside RFC 3986's unreserved set
 * and '/' percent-encoded; NULL without memory or for a relative path. */
char *portal_file_uri(const char *path);

#endif
