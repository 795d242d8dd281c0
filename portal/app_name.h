/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PORTAL_APP_NAME_H
#define ORIEL_PORTAL_APP_NAME_H

/*
 * The name people know an app by: the Name of its .desktop file, found in
 * the applications folders of $XDG_DATA_HOME and $XDG_DATA_DIRS, first
 * folder first. Entries hidden from menus (NoDisplay, Hidden) do not
 * count: a script run by python3 is not "Python". Pure: no D-Bus.
 */

/* Name= of APP_ID.desktop (a sandboxed app's id), or NULL. Free it. */
char *portal_app_name_for_id(const char *app_id);
/*
 * Name= of the entry whose Exec (or TryExec) runs exe: the same file
 * after symlinks and $PATH, else a program of the same file name (a
 * wrapper script such as /usr/bin/chromium for /usr/lib/chromium/chromium).
 * NULL when none does. Free it.
 */
char *portal_app_name_for_exe(const char *exe);

#endif
