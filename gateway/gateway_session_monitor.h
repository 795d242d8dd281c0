/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_SESSION_MONITOR_H
#define ORIEL_GATEWAY_SESSION_MONITOR_H

/*
 * The root process that watches over one session (see
 * gateway_session_start.h): oriel-session-monitor USER DIR FD SERVICE
 * ORIEL WIDTHxHEIGHT IDLE X_DISPLAY COMMAND, started by the gateway only.
 * FD is a pipe on which it says why the session could not start; the
 * gateway stops reading once the session answers. A program of its own,
 * apart from the gateway's: one runs per session, and it loads only PAM,
 * not the gateway's TLS and RDP libraries, whose relocated pages no two
 * processes share.
 */

#define GATEWAY_MONITOR_NAME "oriel-session-monitor"

enum gateway_monitor_arg {
	MONITOR_ARG_USER = 1,
	MONITOR_ARG_DIR,
	MONITOR_ARG_STATUS_FD,
	MONITOR_ARG_PAM_SERVICE,
	MONITOR_ARG_ORIEL,
	MONITOR_ARG_OUTPUT,
	MONITOR_ARG_IDLE_TIMEOUT,
	MONITOR_ARG_X_DISPLAY,
	MONITOR_ARG_COMMAND,
	MONITOR_ARGC,
};

#endif
