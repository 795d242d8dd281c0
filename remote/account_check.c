/* SPDX-License-Identifier: MIT */
#include <crypt.h>
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <security/pam_appl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "remote/account_check.h"
#include "remote/users_file.h"
#include "common/util.h"

struct account_checker {
	const struct users_file *users;
	char *pam_service;
	char **pam_allowed; /* NULL-terminated, the running user first */
	bool pam_anyone;
	int event_fd;

	pthread_mutex_t lock;
	pthread_cond_t idle;
	int n_running;
	struct account_check *done; /* finished, newest first */
};

struct account_check {
	struct account_checker *checker;
	char user[256], password[256], host[64];
	account_check_done_func done_func;
	void *data;
	/* Under the checker's lock. */
	bool cancelled, finished, ok, view_only;
	bool refused; /* fails whatever the password */
	struct account_check *next;
};

static void wipe(void *p, size_t size) {
	volatile uint8_t *v = p;
	for (size_t i = 0; i < size; i++) {
		v[i] = 0;
	}
}

/* crypt_r: a match against hash, in constant time over the hash's length. */
static bool hash_matches(const char *password, const char *hash) {
	struct crypt_data *data = zalloc(sizeof(*data));
	const char *result = crypt_r(password, hash, data);
	bool ok = false;
	if (result && result[0] != '*' && strlen(result) == strlen(hash)) {
		unsigned char diff = 0;
		for (size_t i = 0; hash[i]; i++) {
			diff |= (unsigned char)(result[i] ^ hash[i]);
		}
		ok = diff == 0;
	}
	wipe(data, sizeof(*data));
	free(data);
	return ok;
}

struct pam_secret {
	const char *user, *password;
};

static int pam_conversation(int n, const struct pam_message **messages,
		struct pam_response **responses, void *data) {
	const struct pam_secret *secret = data;
	struct pam_response *out = calloc((size_t)n, sizeof(*out));
	if (!out) {
		return PAM_BUF_ERR;
	}
	for (int i = 0; i < n; i++) {
		switch (messages[i]->msg_style) {
		case PAM_PROMPT_ECHO_OFF:
			out[i].resp = strdup(secret->password);
			break;
		case PAM_PROMPT_ECHO_ON:
			out[i].resp = strdup(secret->user);
			break;
		default:
			break; /* informational text: nobody reads it */
		}
	}
	*responses = out;
	return PAM_SUCCESS;
}

/* PAM's delay after a failure, randomised by libpam: the check pays its own instead. */
static void pam_no_delay(int status, unsigned int usec, void *data) {
}

static bool pam_check(const struct account_checker *checker, const struct account_check *check) {
	struct pam_secret secret = { check->user, check->password };
	struct pam_conv conv = { pam_conversation, &secret };
	pam_handle_t *pamh = NULL;
	int rc = pam_start(checker->pam_service, check->user, &conv, &pamh);
	if (rc == PAM_SUCCESS && check->host[0]) {
		pam_set_item(pamh, PAM_RHOST, check->host);
	}
	if (rc == PAM_SUCCESS) {
		pam_set_item(pamh, PAM_FAIL_DELAY, (const void *)pam_no_delay);
	}
	if (rc == PAM_SUCCESS) {
		rc = pam_authenticate(pamh, PAM_SILENT | PAM_DISALLOW_NULL_AUTHTOK);
	}
	if (rc == PAM_SUCCESS) {
		rc = pam_acct_mgmt(pamh, PAM_SILENT);
	}
	if (pamh) {
		pam_end(pamh, rc);
	}
	return rc == PAM_SUCCESS;
}

static bool pam_allowed(const struct account_checker *checker, const char *user) {
	if (checker->pam_anyone) {
		return true;
	}
	for (char **name = checker->pam_allowed; *name; name++) {
		if (strcmp(*name, user) == 0) {
			return true;
		}
	}
	return false;
}

static void sleep_until(int64_t when_ms) {
	int64_t left;
	while ((left = when_ms - monotonic_ms()) > 0) {
		struct timespec ts = { left / 1000, (left % 1000) * 1000000 };
		nanosleep(&ts, NULL);
	}
}

static void run_check(struct account_checker *checker, struct account_check *check) {
	const struct users_file *users = checker->users;
	const struct users_file_entry *entry = users ? users_file_find(users, check->user) : NULL;
	if (entry) {
		check->ok = hash_matches(check->password, entry->hash);
		check->view_only = entry->view_only;
	} else if (checker->pam_service) {
		/* PAM runs for a user not allowed here too, and she is refused as late. */
		int64_t start_ms = monotonic_ms();
		bool ok = pam_check(checker, check);
		check->ok = ok && !check->refused && pam_allowed(checker, check->user);
		if (!check->ok) {
			sleep_until(start_ms + ACCOUNT_CHECK_FAIL_MS);
		}
	} else if (users && users->n_entries > 0) {
		/* As long as a known user's wrong password. */
		hash_matches(check->password, users->entries[0].hash);
	}
	check->ok = check->ok && !check->refused;
	wipe(check->password, sizeof(check->password));
}

static void *check_thread(void *data) {
	struct account_check *check = data;
	struct account_checker *checker = check->checker;
	run_check(checker, check);
	pthread_mutex_lock(&checker->lock);
	check->finished = true;
	check->next = checker->done;
	checker->done = check;
	uint64_t one = 1;
	if (write(checker->event_fd, &one, sizeof(one)) < 0) {
		/* Saturated: the reader wakes anyway. */
	}
	/* Last: account_checker_destroy may free the checker after this. */
	checker->n_running--;
	pthread_cond_broadcast(&checker->idle);
	pthread_mutex_unlock(&checker->lock);
	return NULL;
}

bool account_check_pam_service_exists(const char *service, char *error, size_t error_size) {
	if (!service[0] || strchr(service, '/') || strcmp(service, ".") == 0 ||
			strcmp(service, "..") == 0) {
		snprintf(error, error_size, "\"%s\" is not a PAM service name", service);
		return false;
	}
	/* Where Linux-PAM looks: the admin's dir, then the vendor's. */
	static const char *const dirs[] = { "/etc/pam.d", "/usr/lib/pam.d", "/usr/share/pam.d" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dirs[i], service);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			return true;
		}
	}
	snprintf(error, error_size, "the PAM service \"%s\" has no file (/etc/pam.d/%s): "
		"PAM would use the \"other\" service's rules instead; install it, or name "
		"another service", service, service);
	return false;
}

struct account_checker *account_checker_create(const struct account_checker_config *config,
		char *error, size_t error_size) {
	if (config->pam_service && !account_check_pam_service_exists(config->pam_service,
			error, error_size)) {
		return NULL;
	}
	struct account_checker *checker = zalloc(sizeof(*checker));
	checker->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (checker->event_fd < 0) {
		snprintf(error, error_size, "cannot check accounts: %s", strerror(errno));
		free(checker);
		return NULL;
	}
	checker->users = config->users;
	checker->pam_service = config->pam_service ? xstrdup(config->pam_service) : NULL;
	checker->pam_anyone = config->pam_anyone;
	checker->pam_allowed = zalloc((size_t)(config->n_pam_allowed + 2) * sizeof(char *));
	int n = 0;
	struct passwd *self = getpwuid(getuid());
	if (self) {
		checker->pam_allowed[n++] = xstrdup(self->pw_name);
	}
	for (int i = 0; i < config->n_pam_allowed; i++) {
		checker->pam_allowed[n++] = xstrdup(config->pam_allowed[i]);
	}
	pthread_mutex_init(&checker->lock, NULL);
	pthread_cond_init(&checker->idle, NULL);
	return checker;
}

static void free_done(struct account_checker *checker) {
	while (checker->done) {
		struct account_check *check = checker->done;
		checker->done = check->next;
		wipe(check, sizeof(*check));
		free(check);
	}
}

void account_checker_destroy(struct account_checker *checker) {
	if (!checker) {
		return;
	}
	pthread_mutex_lock(&checker->lock);
	while (checker->n_running > 0) {
		pthread_cond_wait(&checker->idle, &checker->lock);
	}
	pthread_mutex_unlock(&checker->lock);
	free_done(checker);
	close(checker->event_fd);
	pthread_mutex_destroy(&checker->lock);
	pthread_cond_destroy(&checker->idle);
	for (char **name = checker->pam_allowed; *name; name++) {
		free(*name);
	}
	free(checker->pam_allowed);
	free(checker->pam_service);
	free(checker);
}

int account_checker_fd(struct account_checker *checker) {
	return checker->event_fd;
}

void account_checker_dispatch(struct account_checker *checker) {
	uint64_t count;
	if (read(checker->event_fd, &count, sizeof(count)) < 0) {
		/* EAGAIN: nothing new. */
	}
	pthread_mutex_lock(&checker->lock);
	struct account_check *done = checker->done;
	checker->done = NULL;
	pthread_mutex_unlock(&checker->lock);
	while (done) {
		struct account_check *check = done;
		done = check->next;
		if (!check->cancelled) {
			check->done_func(check->data, check->ok, check->view_only);
		}
		wipe(check, sizeof(*check));
		free(check);
	}
}

struct account_check *account_check_start(struct account_checker *checker,
		const char *user, const char *password, const char *host,
		account_check_done_func done, void *data) {
	struct account_check *check = zalloc(sizeof(*check));
	check->checker = checker;
	snprintf(check->user, sizeof(check->user), "%s", user);
	snprintf(check->password, sizeof(check->password), "%s", password);
	snprintf(check->host, sizeof(check->host), "%s", host ? host : "");
	check->done_func = done;
	check->data = data;

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Signals stay with the event loop's thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_mutex_lock(&checker->lock);
	pthread_t thread;
	int err = pthread_create(&thread, &attr, check_thread, check);
	if (err == 0) {
		checker->n_running++;
	}
	pthread_mutex_unlock(&checker->lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		wipe(check, sizeof(*check));
		free(check);
		errno = err;
		return NULL;
	}
	return check;
}

void account_check_cancel(struct account_check *check) {
	if (!check) {
		return;
	}
	struct account_checker *checker = check->checker;
	pthread_mutex_lock(&checker->lock);
	check->cancelled = true;
	pthread_mutex_unlock(&checker->lock);
}

static bool run_now(struct account_checker *checker, const char *user,
		const char *password, const char *host, bool refused, bool *view_only) {
	struct account_check *check = zalloc(sizeof(*check));
	check->checker = checker;
	check->refused = refused;
	snprintf(check->user, sizeof(check->user), "%s", user);
	snprintf(check->password, sizeof(check->password), "%s", password);
	snprintf(check->host, sizeof(check->host), "%s", host ? host : "");
	run_check(checker, check);
	bool ok = check->ok;
	*view_only = check->view_only;
	wipe(check, sizeof(*check));
	free(check);
	return ok;
}

bool account_check_run(struct account_checker *checker, const char *user,
		const char *password, const char *host, bool *view_only) {
	return run_now(checker, user, password, host, false, view_only);
}

void account_check_run_refused(struct account_checker *checker, const char *user,
		const char *password, const char *host) {
	bool view_only;
	run_now(checker, user, password, host, true, &view_only);
}
