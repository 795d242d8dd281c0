/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_ACCOUNT_CHECK_H
#define ORIEL_REMOTE_ACCOUNT_CHECK_H

/*
 * Checks a user name and password against the users file (crypt(3)
 * hashes) or the system's accounts through PAM, off the caller's thread:
 * a hash takes tens of milliseconds, and PAM waits seconds after a wrong
 * password. Each check runs on a thread of its own, so a flood of wrong
 * passwords does not queue a right one behind it. An unknown user costs
 * the same hash as a known one. Results come back on the caller's thread
 * through account_checker_dispatch when account_checker_fd is readable.
 *
 * Through PAM, every refusal (a wrong password, an account PAM's account
 * stack refuses, a user not allowed here) comes ACCOUNT_CHECK_FAIL_MS
 * after the check began, never sooner: PAM's own randomised delay is
 * replaced by this one, so that the time of a refusal tells nothing.
 */

#include <stdbool.h>
#include <stddef.h>

/* pam_unix's own delay after a wrong password. */
#define ACCOUNT_CHECK_FAIL_MS 2000

struct users_file;
struct account_checker;
struct account_check;

struct account_checker_config {
	const struct users_file *users; /* NULL: none; kept by the caller */
	const char *pam_service;        /* NULL: no PAM */
	/* Who may log in through PAM, besides the user running oriel. */
	const char *const *pam_allowed;
	int n_pam_allowed;
	/* Anyone PAM lets in (oriel-gateway, whose own policy decides next). */
	bool pam_anyone;
};

typedef void (*account_check_done_func)(void *data, bool ok, bool view_only);

/*
 * NULL on failure, with a sentence in error. The config's strings are
 * copied. A PAM service without a file of its own is refused: PAM would
 * run the "other" service's rules instead, which may let anyone in.
 */
struct account_checker *account_checker_create(const struct account_checker_config *config,
	char *error, size_t error_size);
/* Whether PAM has a file for service (/etc/pam.d, or the vendor's dir); false with why. */
bool account_check_pam_service_exists(const char *service, char *error, size_t error_size);
/* Waits for running checks; their results are dropped. NULL is a no-op. */
void account_checker_destroy(struct account_checker *checker);
int account_checker_fd(struct account_checker *checker);
/* Calls the done function of every finished check not cancelled. */
void account_checker_dispatch(struct account_checker *checker);

/* host: the peer's address, for PAM's PAM_RHOST. NULL on failure. */
struct account_check *account_check_start(struct account_checker *checker,
	const char *user, const char *password, const char *host,
	account_check_done_func done, void *data);
/* The done function will not be called. */
void account_check_cancel(struct account_check *check);

/* The same check, on the caller's thread (which it blocks for seconds). */
bool account_check_run(struct account_checker *checker, const char *user,
	const char *password, const char *host, bool *view_only);
/*
 * The check of a user who may not log in whatever her password: it runs
 * as any other (PAM sees the attempt) and fails as a wrong password does,
 * after the same time.
 */
void account_check_run_refused(struct account_checker *checker, const char *user,
	const char *password, const char *host);

#endif
