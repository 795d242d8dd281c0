/* SPDX-License-Identifier: MIT */
#ifndef ORIELCTL_H
#define ORIELCTL_H

/*
 * orielctl: the command-line client of oriel's control API
 * (protocols/org.oriel.Compositor.xml) on the session bus.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <systemd/sd-bus.h>

#define CTL_BUS_NAME "org.oriel.Compositor"
#define CTL_PATH "/org/oriel/Compositor"
#define CTL_IFACE_OUTPUTS CTL_BUS_NAME ".Outputs"
#define CTL_IFACE_WINDOWS CTL_BUS_NAME ".Windows"
#define CTL_IFACE_SCREENSHOT CTL_BUS_NAME ".Screenshot"
#define CTL_IFACE_INPUT CTL_BUS_NAME ".Input"
#define CTL_IFACE_VNC CTL_BUS_NAME ".Vnc"
#define CTL_IFACE_RDP CTL_BUS_NAME ".Rdp"

/* Exit statuses. */
#define CTL_EXIT_OK 0
#define CTL_EXIT_FAILURE 1 /* the compositor refused or failed, or no bus */
#define CTL_EXIT_USAGE 2

struct ctl {
	sd_bus *bus; /* opened on first use */
	bool json;
	/* screenshot's source options; at most one is set */
	const char *shot_output, *shot_window, *shot_region;
	/* cast start --cursor hidden|embedded|metadata */
	const char *cast_cursor;
	/* cast start --virtual WIDTHxHEIGHT: instead of a source option */
	const char *cast_virtual;
	/* the positional arguments after the command name */
	char **args;
	int n_args;
};

/* orielctl.c */
/* Prints "orielctl: ..." and a hint to stderr; returns CTL_EXIT_USAGE. */
int ctl_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "orielctl: ..." to stderr; returns CTL_EXIT_FAILURE. */
int ctl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Calls a method of the control API. On failure prints the D-Bus error
 * message and returns false. reply may be NULL when nothing is returned.
 */
bool ctl_call(struct ctl *ctl, const char *interface, const char *method,
	sd_bus_message **reply, const char *types, ...);
/* Prints the error of a failed sd_bus_message_read; returns CTL_EXIT_FAILURE. */
int ctl_bad_reply(const char *method, int r);

/* Strict number parsing: the whole string, in range; false otherwise. */
bool ctl_parse_u64(const char *s, uint64_t *out);
bool ctl_parse_u32(const char *s, uint32_t *out);
bool ctl_parse_i32(const char *s, int32_t *out);
bool ctl_parse_double(const char *s, double *out);
bool ctl_parse_on_off(const char *s, bool *out);
/* "WxH" with both > 0. */
bool ctl_parse_size(const char *s, uint32_t *width, uint32_t *height);

/* orielctl_commands.c: outputs, windows, window actions, screenshot */
int ctl_cmd_outputs(struct ctl *ctl);
int ctl_cmd_output_size(struct ctl *ctl);
int ctl_cmd_windows(struct ctl *ctl);
int ctl_cmd_focus(struct ctl *ctl);
int ctl_cmd_move(struct ctl *ctl);
int ctl_cmd_resize(struct ctl *ctl);
int ctl_cmd_close(struct ctl *ctl);
int ctl_cmd_maximize(struct ctl *ctl);
int ctl_cmd_fullscreen(struct ctl *ctl);
int ctl_cmd_minimize(struct ctl *ctl);
int ctl_cmd_screenshot(struct ctl *ctl);

/* orielctl_input.c: pointer and key */
int ctl_cmd_pointer(struct ctl *ctl);
int ctl_cmd_key(struct ctl *ctl);

/* orielctl_vnc.c: vnc start|stop|clients|disconnect */
int ctl_cmd_vnc(struct ctl *ctl);
/* orielctl_vnc.c too: rdp start|stop|clients|disconnect|fingerprint */
int ctl_cmd_rdp(struct ctl *ctl);

/* orielctl_cast.c: cast start --output NAME|stop ID|list */
int ctl_cmd_cast(struct ctl *ctl);

/* orielctl_grants.c: grants, revoke ID (the portal's restore-token grants) */
int ctl_cmd_grants(struct ctl *ctl);
int ctl_cmd_revoke(struct ctl *ctl);

/* orielctl_format.c */
/* A JSON string literal: escapes quotes, backslashes and control
 * characters; invalid UTF-8 becomes \ufffd. */
void ctl_json_string(FILE *f, const char *s);
/* A JSON number; null for NaN and infinities. Integral values get ".0". */
void ctl_json_double(FILE *f, double value);
void ctl_json_bool(FILE *f, bool value);

/* A text table: the cells of each row are copied; columns are aligned. */
struct ctl_table {
	int n_columns;
	int n_rows;
	char **cells; /* n_rows * n_columns, row-major */
};
void ctl_table_init(struct ctl_table *table, int n_columns);
/* Adds a row: n_columns strings, copied, with control characters shown
 * as '?' so that titles cannot break the layout or the terminal. */
void ctl_table_add_row(struct ctl_table *table, ...);
/* Prints the table, the last column unpadded, and frees it. */
void ctl_table_print(struct ctl_table *table, FILE *f);

/* An allocation that cannot fail (aborts with a message). */
void *ctl_zalloc(size_t size);
char *ctl_strdup(const char *s);
char *ctl_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
