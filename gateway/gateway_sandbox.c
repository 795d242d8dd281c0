/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <grp.h>
#include <linux/sched.h> /* CLONE_THREAD */
#include <pwd.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/util.h" /* ARRAY_LEN */
#include "gateway/gateway_log.h"
#include "gateway/gateway_sandbox.h"

/* nobody and nogroup: when the worker's own user is not made (a build tree). */
#define NOBODY 65534

/*
 * What the worker calls after setup: memory, threads, time, randomness,
 * waiting, and I/O on the descriptors it has. Every other call fails with
 * EPERM; the ones below fail harder.
 */
static const char *const allowed[] = {
	"read", "readv", "write", "writev", "recvfrom", "recvmsg", "sendto", "sendmsg",
	"poll", "ppoll", "select", "pselect6", "epoll_create1", "epoll_ctl", "epoll_wait",
	"epoll_pwait", "eventfd2", "timerfd_create", "timerfd_settime", "timerfd_gettime",
	"close", "dup", "dup2", "dup3", "fcntl", "fstat", "newfstatat", "lseek", "pipe2",
	"accept", "accept4", "shutdown", "getsockopt", "setsockopt", "getpeername",
	"getsockname",
	"mmap", "munmap", "mremap", "mprotect", "madvise", "brk",
	"futex", "set_robust_list", "rseq", "sched_yield", "sched_getaffinity",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "restart_syscall",
	"clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep",
	"clock_nanosleep", "getrandom", "uname", "sysinfo",
	"getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid",
	"getresuid", "getresgid", "getgroups",
	"exit", "exit_group",
};

/* What no worker does unless it was taken over: it dies at once. */
static const char *const killing[] = {
	"execve", "execveat", "ptrace", "process_vm_readv", "process_vm_writev",
	"mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
	"setfsuid", "setfsgid", "capset", "bpf", "perf_event_open", "userfaultfd",
	"keyctl", "add_key", "request_key", "open_by_handle_at", "iopl", "ioperm",
};

/* It opens nothing after setup: a library that tries learns so. */
static const char *const refused_access[] = { "open", "openat", "openat2", "creat" };

static bool add_names(scmp_filter_ctx ctx, uint32_t action, const char *const *names,
		size_t n) {
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		/* A call this architecture does not have needs no rule. */
		if (nr != __NR_SCMP_ERROR && seccomp_rule_add(ctx, action, nr, 0) < 0) {
			return false;
		}
	}
	return true;
}

/*
 * One argument's test, every field set: libseccomp's SCMP_A* macros leave
 * datum_b out, which clang's -Wmissing-field-initializers refuses.
 */
static struct scmp_arg_cmp arg_is(unsigned int arg, enum scmp_compare op, scmp_datum_t a,
		scmp_datum_t b) {
	struct scmp_arg_cmp cmp = { .arg = arg, .op = op, .datum_a = a, .datum_b = b };
	return cmp;
}

static bool load_filter(char *error, size_t error_size) {
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
	bool ok = ctx && seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) == 0 &&
		add_names(ctx, SCMP_ACT_ALLOW, allowed, ARRAY_LEN(allowed)) &&
		add_names(ctx, SCMP_ACT_KILL_PROCESS, killing, ARRAY_LEN(killing)) &&
		add_names(ctx, SCMP_ACT_ERRNO(EACCES), refused_access, ARRAY_LEN(refused_access));
	/* Threads, never processes; clone3's flags cannot be seen: glibc falls back to clone. */
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
		arg_is(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)) == 0;
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0;
	/* tls_bridge.h's socketpair; no socket reaches out. */
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socketpair), 1,
		arg_is(0, SCMP_CMP_EQ, AF_UNIX, 0)) == 0;
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
		arg_is(1, SCMP_CMP_EQ, FIONBIO, 0)) == 0;
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
		arg_is(1, SCMP_CMP_EQ, FIONREAD, 0)) == 0;
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
		arg_is(0, SCMP_CMP_EQ, PR_SET_NAME, 0)) == 0;
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
		arg_is(0, SCMP_CMP_EQ, PR_GET_NAME, 0)) == 0;
	/* Signals to itself only (abort, raise). */
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
		arg_is(0, SCMP_CMP_EQ, (scmp_datum_t)getpid(), 0)) == 0;
	/* Limits read, never set. */
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1,
		arg_is(2, SCMP_CMP_EQ, 0, 0)) == 0;
	int rc = ok ? seccomp_load(ctx) : -1;
	if (ctx) {
		seccomp_release(ctx);
	}
	if (rc != 0) {
		snprintf(error, error_size, "cannot load the seccomp filter: %s",
			strerror(rc < 0 && rc != -1 ? -rc : EINVAL));
		return false;
	}
	return true;
}

/* An empty root: a directory made for it, and removed once it is the root. */
static bool empty_root(char *error, size_t error_size) {
	char dir[] = "/run/oriel-gateway-worker.XXXXXX";
	char tmp_dir[] = "/tmp/oriel-gateway-worker.XXXXXX";
	char *made = mkdtemp(dir);
	if (!made) {
		made = mkdtemp(tmp_dir);
	}
	if (!made || chdir(made) < 0) {
		snprintf(error, error_size, "cannot make an empty root: %s", strerror(errno));
		return false;
	}
	/* Removed, it stays the root, and nothing can ever be made in it. */
	bool ok = rmdir(made) == 0 && chroot(".") == 0 && chdir("/") == 0;
	if (!ok) {
		snprintf(error, error_size, "cannot change root: %s", strerror(errno));
	}
	return ok;
}

bool gateway_sandbox_enter(const char *user, char *error, size_t error_size) {
	uid_t uid = NOBODY;
	gid_t gid = NOBODY;
	struct passwd *pw = user ? getpwnam(user) : NULL;
	if (pw) {
		uid = pw->pw_uid;
		gid = pw->pw_gid;
	} else {
		gateway_log("there is no user %s: the network side runs as nobody (%d)",
			user ? user : "(none)", NOBODY);
	}
	if (uid == 0 || gid == 0) {
		snprintf(error, error_size, "the network side must not run as root (%s)", user);
		return false;
	}
	if (!empty_root(error, error_size)) {
		return false;
	}
	/* The bounding set too: nothing executed could get a capability back. */
	for (int cap = 0; prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0; cap++) {
	}
	if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
			setresuid(uid, uid, uid) < 0) {
		snprintf(error, error_size, "cannot become uid %d: %s", (int)uid, strerror(errno));
		return false;
	}
	if (setresuid(0, 0, 0) == 0 || geteuid() == 0) {
		snprintf(error, error_size, "could become root again");
		return false;
	}
	/* Cleared by the change of user; the worker ends with the broker. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
			prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) < 0) {
		snprintf(error, error_size, "cannot give up new privileges: %s", strerror(errno));
		return false;
	}
	if (!load_filter(error, error_size)) {
		return false;
	}
	gateway_log_debug("the network side runs as uid %d, gid %d", (int)uid, (int)gid);
	return true;
}
