/* SPDX-License-Identifier: MIT */
/*
 * bench-viewer — a libvncclient viewer that measures what a VNC server
 * delivers of bench/apps/animate:
 *   - distinct app frames seen per second (frame counter decoded from the
 *     pixels of the viewer's framebuffer after every FramebufferUpdate);
 *   - bytes received (TCP_INFO tcpi_bytes_received of the RFB socket);
 *   - latency: receive time of each newly seen frame minus the app's send
 *     time for that frame number (the app's --log file, CLOCK_MONOTONIC);
 *   - CPU (utime+stime from /proc/PID/stat) and peak RSS (VmHWM) of the
 *     server processes given with --pids, over the measurement window;
 *   - idle CPU: after the active window, the app is paused (SIGUSR1 to
 *     --pause-pid), and CPU is measured again while the viewer stays
 *     connected and keeps requesting updates;
 *   - the viewer's own CPU over the window (it shares the cores: with TLS
 *     it decrypts every byte);
 *   - the floor (floor.c): the least CPU a server must spend per frame,
 *     timed here on the last frame received once the server is idle;
 *   - VeNCrypt (--user, --password-file, --ca): libvncclient does the TLS
 *     (GnuTLS) and the Plain login; the JSON names the security type, the
 *     sub-type and the negotiated cipher. The TLS floor, the CPU of
 *     encrypting one frame's bytes with an AEAD cipher (floor.c), is timed
 *     in every run, with the negotiated cipher when there is one;
 *   - --control: after the active window the viewer pauses the app, says
 *     `held` on stdout and keeps the connection served while it runs
 *     commands read line by line from stdin, as the RDP meter
 *     (tests/clients/rdp_client.c) does: `snapshot FILE.ppm` writes the
 *     framebuffer as it is now (answered by `done snapshot FILE.ppm`),
 *     `continue` (or the end of stdin) goes on to the idle window. This
 *     is how bench/run-rdp takes the viewer's pictures when the motion
 *     stops and 1 s later.
 * Output: one JSON object on stdout (a line of its own, after --control's).
 *
 * Build: cc -O2 -o bench-viewer bench-viewer.c floor.c -lvncclient -ljpeg -lgnutls -lpthread
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <rfb/rfbclient.h>
#include "floor.h"

#define BLOCK 32
#define BITS 20
#define LOG_FRAMES (1u << BITS)
#define MAX_PIDS 16

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* state */
static int pids[MAX_PIDS], npids;
static int measuring;           /* 1 = active window */
static uint32_t last_frame;     /* last decoded frame number */
static uint64_t *recv_ns;       /* indexed by frame number: first receive time */
static uint32_t *frames_seen;   /* frame numbers seen during the window, in order */
static size_t nframes_seen;
static uint64_t updates_total, updates_window, decode_failures, decode_ok;
static int bpp_shift_r, bpp_shift_g, bpp_shift_b;

/* --control: stdin's commands, the part of a line read so far. */
static bool control, control_released, control_eof;
static char command_line[4096];
static size_t command_len;

/* VeNCrypt: the certificate to trust, the account to log in with. */
static const char *opt_user, *opt_password_file, *opt_ca;

static char *read_password(void)
{
	char buf[512];
	FILE *f = opt_password_file ? fopen(opt_password_file, "r") : NULL;
	if (!f) {
		fprintf(stderr, "bench-viewer: the server asks for a password; no readable --password-file\n");
		return strdup("");
	}
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	return strdup(buf);
}

static rfbCredential *get_credential(rfbClient *cl, int type)
{
	(void)cl;
	rfbCredential *cred = calloc(1, sizeof *cred);
	if (!cred)
		return NULL;
	if (type == rfbCredentialTypeX509) {
		if (!opt_ca) {
			fprintf(stderr, "bench-viewer: the server wants X.509; no --ca given\n");
			free(cred);
			return NULL;
		}
		cred->x509Credential.x509CACertFile = strdup(opt_ca);
	} else if (type == rfbCredentialTypeUser) {
		cred->userCredential.username = strdup(opt_user ? opt_user : "");
		cred->userCredential.password = read_password();
	} else {
		free(cred);
		return NULL;
	}
	return cred;
}

static int luma_at(rfbClient *cl, int cx, int cy)
{
	/* average a 8x8 patch centred at (cx, cy) */
	long sum = 0;
	int count = 0;
	uint8_t *fb = cl->frameBuffer;
	for (int y = cy - 4; y < cy + 4; y++) {
		if (y < 0 || y >= cl->height)
			continue;
		for (int x = cx - 4; x < cx + 4; x++) {
			if (x < 0 || x >= cl->width)
				continue;
			uint32_t p;
			memcpy(&p, fb + ((size_t)y * cl->width + x) * 4, 4);
			int r = (p >> bpp_shift_r) & 0xff, g = (p >> bpp_shift_g) & 0xff,
			    b = (p >> bpp_shift_b) & 0xff;
			sum += (r + 2 * g + b) / 4;
			count++;
		}
	}
	return count ? (int)(sum / count) : 0;
}

/* Where the counter's top-left corner is in the framebuffer. A compositor
 * may draw a title bar or border above the app window, so it is searched for
 * (see locate_counter) and kept while it keeps decoding. */
static int org_x, org_y;
static uint64_t relocations;

/* Returns the frame number at (ox, oy), or -1 if the counter does not decode. */
static long decode_at(rfbClient *cl, int ox, int oy)
{
	if (ox + BITS * BLOCK > cl->width || oy + 2 * BLOCK > cl->height)
		return -1;
	uint32_t v = 0;
	for (int i = 0; i < BITS; i++) {
		int cx = ox + i * BLOCK + BLOCK / 2;
		int a = luma_at(cl, cx, oy + BLOCK / 2);
		int b = luma_at(cl, cx, oy + BLOCK + BLOCK / 2);
		int bit = a >= 128, inv = b >= 128;
		/* both must be clearly black/white and complementary */
		if (bit == inv || abs(a - 128) < 48 || abs(b - 128) < 48)
			return -1;
		v = (v << 1) | (uint32_t)bit;
	}
	return v;
}

static long decode_counter(rfbClient *cl)
{
	long n = decode_at(cl, org_x, org_y);
	if (n >= 0)
		return n;
	/* search near the top-left corner */
	for (int oy = 0; oy <= 160; oy++)
		for (int ox = 0; ox <= 48; ox++) {
			if (ox == org_x && oy == org_y)
				continue;
			n = decode_at(cl, ox, oy);
			if (n >= 0 && decode_at(cl, ox, oy + 1) == n && decode_at(cl, ox + 1, oy) == n) {
				/* centre the sampling inside the range that decodes */
				int y1 = oy, x1 = ox;
				while (y1 < oy + BLOCK && decode_at(cl, ox, y1 + 1) == n)
					y1++;
				while (x1 < ox + BLOCK && decode_at(cl, x1 + 1, oy) == n)
					x1++;
				relocations++;
				org_x = (ox + x1) / 2;
				org_y = (oy + y1) / 2;
				return n;
			}
		}
	return -1;
}

static void finished_update(rfbClient *cl)
{
	uint64_t t = now_ns();
	updates_total++;
	if (measuring == 1)
		updates_window++;
	long n = decode_counter(cl);
	if (n < 0) {
		decode_failures++;
		return;
	}
	decode_ok++;
	if ((uint32_t)n == last_frame)
		return;
	last_frame = (uint32_t)n;
	if (measuring == 1 && n > 0 && n < LOG_FRAMES) {
		if (!recv_ns[n])
			recv_ns[n] = t;
		frames_seen[nframes_seen++ % LOG_FRAMES] = (uint32_t)n;
	}
}

static double cpu_ms_of(int pid)
{
	char path[64], buf[2048];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t len = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* fields after ')' start at field 3 (state); utime is 14, stime 15 */
	unsigned long long utime = 0, stime = 0;
	int field = 2;
	for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " ")) {
		field++;
		if (field == 14)
			utime = strtoull(tok, NULL, 10);
		else if (field == 15) {
			stime = strtoull(tok, NULL, 10);
			break;
		}
	}
	return (double)(utime + stime) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static double self_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double cpu_ms_all(void)
{
	double s = 0;
	for (int i = 0; i < npids; i++)
		s += cpu_ms_of(pids[i]);
	return s;
}

/* busy and total jiffies of the whole machine, from /proc/stat */
static void machine_jiffies(unsigned long long *busy, unsigned long long *total)
{
	unsigned long long v[10] = {0};
	*busy = *total = 0;
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) >= 8) {
		for (int i = 0; i < 8; i++)
			*total += v[i];
		*busy = *total - v[3] - v[4]; /* minus idle and iowait */
	}
	fclose(f);
}

static long hwm_kib_of(int pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	long kib = 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static uint64_t bytes_received(rfbClient *cl)
{
	struct tcp_info ti;
	socklen_t len = sizeof ti;
	memset(&ti, 0, sizeof ti);
	if (getsockopt(cl->sock, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return 0;
	return ti.tcpi_bytes_received;
}

static bool dump_ppm(rfbClient *cl, const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	fprintf(f, "P6\n%d %d\n255\n", cl->width, cl->height);
	for (int i = 0; i < cl->width * cl->height; i++) {
		uint32_t p;
		memcpy(&p, cl->frameBuffer + (size_t)i * 4, 4);
		uint8_t rgb[3] = {(p >> bpp_shift_r) & 0xff, (p >> bpp_shift_g) & 0xff,
				  (p >> bpp_shift_b) & 0xff};
		fwrite(rgb, 1, 3, f);
	}
	bool ok = !ferror(f);
	return fclose(f) == 0 && ok;
}

/* A line on stdout for --control's reader, at once. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* One --control command. */
static void command(rfbClient *cl, char *line)
{
	if (!*line)
		return;
	if (!strncmp(line, "snapshot ", 9)) {
		if (dump_ppm(cl, line + 9))
			say("done %s", line);
		else
			say("error cannot write %s", line + 9);
	} else if (!strcmp(line, "continue")) {
		control_released = true;
	} else {
		say("error unknown command %s", line);
	}
}

/* Runs the whole lines that stdin holds now; its end releases a hold. */
static void read_commands(rfbClient *cl)
{
	ssize_t n = read(STDIN_FILENO, command_line + command_len,
			 sizeof command_line - 1 - command_len);
	if (n <= 0) {
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			control_eof = true;
			control_released = true;
		}
		return;
	}
	command_len += (size_t)n;
	char *nl;
	while ((nl = memchr(command_line, '\n', command_len))) {
		*nl = 0;
		if (nl > command_line && nl[-1] == '\r')
			nl[-1] = 0;
		command(cl, command_line);
		command_len -= (size_t)(nl + 1 - command_line);
		memmove(command_line, nl + 1, command_len);
	}
	if (command_len == sizeof command_line - 1)
		command_len = 0; /* no command is that long: drop it */
}

/* Waits up to usec for the server's next message, running stdin's
 * commands meanwhile with --control: > 0 when the server sent something. */
static int wait_server(rfbClient *cl, unsigned usec)
{
	if (!control || control_eof)
		return WaitForMessage(cl, usec);
	struct pollfd fds[2] = {{.fd = cl->sock, .events = POLLIN},
				{.fd = STDIN_FILENO, .events = POLLIN}};
	int r = poll(fds, 2, (int)((usec + 999) / 1000));
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	if (fds[1].revents)
		read_commands(cl);
	return fds[0].revents ? 1 : 0;
}

/* Services the connection until the deadline, or until *until is true
 * (NULL: never). Returns false on error. */
static bool pump_until(rfbClient *cl, uint64_t deadline, const bool *until)
{
	while (now_ns() < deadline && !(until && *until)) {
		uint64_t left_us = (deadline - now_ns()) / 1000;
		/* Bytes libvncclient or GnuTLS already hold are not on the socket. */
		bool pending = cl->buffered > 0 ||
			(cl->tlsSession && gnutls_record_check_pending((gnutls_session_t)cl->tlsSession) > 0);
		int r = pending ? 1 : wait_server(cl, left_us > 100000 ? 100000 : (unsigned)left_us + 1);
		if (r < 0)
			return false;
		if (r > 0 && !HandleRFBServerMessage(cl))
			return false;
	}
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench-viewer [options] HOST PORT\n"
		"  --encoding raw|tight     (raw)\n"
		"  --quality 0-9            tight JPEG quality level (5); -1 = no JPEG (lossless tight)\n"
		"  --compress 0-9           tight compression level (1)\n"
		"  --warmup SEC             seconds before measuring (2)\n"
		"  --duration SEC           measurement window (10)\n"
		"  --idle SEC               idle window after pausing the app (5; 0 = skip)\n"
		"  --pause-pid PID          app pid to SIGUSR1 before the idle window\n"
		"  --pids PID,PID,...       server processes for CPU and RSS\n"
		"  --app-log FILE           the app's timestamp log, for latency\n"
		"  --dump FILE              write the final framebuffer as PPM\n"
		"  --control                after the window: pause the app, say `held`, run\n"
		"                           stdin's commands (snapshot FILE.ppm, continue)\n"
		"  --floor-jpeg Q,H,V[,fast]\n"
		"                           time the JPEG floor at quality Q, luma sampling HxV\n"
		"                           (accurate DCT, or the fast one)\n"
		"  --floor-tls CIPHER       AEAD cipher of the TLS floor when the session has\n"
		"                           no TLS (AES-256-GCM; with TLS: the negotiated one)\n"
		"  --user NAME              VeNCrypt Plain user (asks for VeNCrypt only)\n"
		"  --password-file FILE     its password (first line)\n"
		"  --ca CERT.pem            the certificate to trust (X509 sub-types)\n"
		"  --verbose                libvncclient's log on stderr\n");
}

int main(int argc, char **argv)
{
	const char *encoding = "raw", *app_log = NULL, *dump = NULL;
	int quality = 5, compress = 1, pause_pid = 0;
	int floor_quality = 0, floor_h = 0, floor_v = 0, floor_fast = 0, verbose = 0;
	const char *floor_tls_cipher = "AES-256-GCM";
	double warmup = 2, duration = 10, idle = 5;
	static const struct option opts[] = {
		{"encoding", required_argument, 0, 'e'}, {"quality", required_argument, 0, 'q'},
		{"compress", required_argument, 0, 'c'}, {"warmup", required_argument, 0, 'w'},
		{"duration", required_argument, 0, 'd'}, {"idle", required_argument, 0, 'i'},
		{"pause-pid", required_argument, 0, 'P'}, {"pids", required_argument, 0, 'p'},
		{"app-log", required_argument, 0, 'l'}, {"dump", required_argument, 0, 'D'},
		{"floor-jpeg", required_argument, 0, 'F'},
		{"floor-tls", required_argument, 0, 'T'},
		{"user", required_argument, 0, 'u'}, {"password-file", required_argument, 0, 'W'},
		{"ca", required_argument, 0, 'C'}, {"verbose", no_argument, 0, 'v'},
		{"control", no_argument, 0, 'K'}, {"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	int o;
	while ((o = getopt_long(argc, argv, "e:q:c:w:d:i:P:p:l:D:F:T:u:W:C:Kvh", opts, NULL)) != -1) {
		switch (o) {
		case 'e': encoding = optarg; break;
		case 'q': quality = atoi(optarg); break;
		case 'c': compress = atoi(optarg); break;
		case 'w': warmup = atof(optarg); break;
		case 'd': duration = atof(optarg); break;
		case 'i': idle = atof(optarg); break;
		case 'P': pause_pid = atoi(optarg); break;
		case 'p':
			for (char *tok = strtok(optarg, ","); tok && npids < MAX_PIDS; tok = strtok(NULL, ","))
				pids[npids++] = atoi(tok);
			break;
		case 'l': app_log = optarg; break;
		case 'D': dump = optarg; break;
		case 'F': {
			char dct[8] = "";
			int n = sscanf(optarg, "%d,%d,%d,%7s", &floor_quality, &floor_h, &floor_v, dct);
			if (n < 3 || (n == 4 && strcmp(dct, "fast"))) {
				usage();
				return 2;
			}
			floor_fast = n == 4;
			break;
		}
		case 'T': floor_tls_cipher = optarg; break;
		case 'u': opt_user = optarg; break;
		case 'W': opt_password_file = optarg; break;
		case 'C': opt_ca = optarg; break;
		case 'v': verbose = 1; break;
		case 'K': control = true; break;
		default: usage(); return o == 'h' ? 0 : 2;
		}
	}
	if (argc - optind != 2) {
		usage();
		return 2;
	}
	recv_ns = calloc(LOG_FRAMES, sizeof *recv_ns);
	frames_seen = calloc(LOG_FRAMES, sizeof *frames_seen);
	if (!recv_ns || !frames_seen)
		return 1;

	rfbEnableClientLogging = verbose ? TRUE : FALSE;
	rfbClient *cl = rfbGetClient(8, 3, 4);
	cl->GetCredential = get_credential;
	if (opt_user) {
		/* An account means VeNCrypt: never fall back to a clear session. */
		uint32_t vencrypt[] = {rfbVeNCrypt, 0};
		SetClientAuthSchemes(cl, vencrypt, 1);
	} else {
		/* The clear types, asked for: oriel lists VeNCrypt first. */
		uint32_t clear[] = {rfbNoAuth, rfbVncAuth, 0};
		SetClientAuthSchemes(cl, clear, 2);
	}
	cl->serverHost = strdup(argv[optind]);
	cl->serverPort = atoi(argv[optind + 1]);
	cl->FinishedFrameBufferUpdate = finished_update;
	cl->canHandleNewFBSize = TRUE;
	if (!strcmp(encoding, "raw")) {
		cl->appData.encodingsString = "raw";
		cl->appData.enableJPEG = FALSE;
	} else if (!strcmp(encoding, "tight")) {
		cl->appData.encodingsString = "tight raw";
		cl->appData.compressLevel = compress;
		if (quality < 0) {
			cl->appData.enableJPEG = FALSE;
			cl->appData.qualityLevel = 0;
		} else {
			cl->appData.enableJPEG = TRUE;
			cl->appData.qualityLevel = quality;
		}
	} else {
		fprintf(stderr, "bench-viewer: unknown encoding %s\n", encoding);
		return 2;
	}
	if (!rfbInitClient(cl, NULL, NULL)) {
		fprintf(stderr, "bench-viewer: cannot connect to %s:%s\n", argv[optind], argv[optind + 1]);
		return 1;
	}
	/* What protects the session: the security type, VeNCrypt's sub-type
	 * (262 = X509Plain) and the TLS cipher. */
	const char *tls_version = "", *tls_cipher = "";
	if (cl->tlsSession) {
		gnutls_session_t tls = (gnutls_session_t)cl->tlsSession;
		tls_version = gnutls_protocol_get_name(gnutls_protocol_get_version(tls));
		tls_cipher = gnutls_cipher_get_name(gnutls_cipher_get(tls));
		if (tls_cipher && gnutls_cipher_get_tag_size(gnutls_cipher_get(tls)) > 0)
			floor_tls_cipher = tls_cipher;
		tls_version = tls_version ? tls_version : "?";
		tls_cipher = tls_cipher ? tls_cipher : "?";
	}
	if (opt_user && !cl->tlsSession) {
		fprintf(stderr, "bench-viewer: --user given, but the session has no TLS\n");
		return 1;
	}
	bpp_shift_r = cl->format.redShift;
	bpp_shift_g = cl->format.greenShift;
	bpp_shift_b = cl->format.blueShift;

	uint64_t t0 = now_ns();
	if (!pump_until(cl, t0 + (uint64_t)(warmup * 1e9), NULL))
		goto lost;

	/* active window */
	double cpu_pid0[MAX_PIDS], cpu_pid1[MAX_PIDS];
	for (int i = 0; i < npids; i++)
		cpu_pid0[i] = cpu_ms_of(pids[i]);
	double cpu0 = cpu_ms_all();
	unsigned long long mbusy0, mtotal0, mbusy1, mtotal1;
	machine_jiffies(&mbusy0, &mtotal0);
	uint64_t bytes0 = bytes_received(cl);
	double self0 = self_cpu_ms();
	uint64_t ta = now_ns();
	measuring = 1;
	if (!pump_until(cl, ta + (uint64_t)(duration * 1e9), NULL))
		goto lost;
	measuring = 0;
	uint64_t tb = now_ns();
	double self1 = self_cpu_ms();
	double cpu1 = cpu_ms_all();
	for (int i = 0; i < npids; i++)
		cpu_pid1[i] = cpu_ms_of(pids[i]);
	machine_jiffies(&mbusy1, &mtotal1);
	uint64_t bytes1 = bytes_received(cl);
	double secs = (double)(tb - ta) / 1e9;

	/* the hold (--control), then the idle window, both with the app paused */
	double idle_cpu_ms = -1, idle_secs = 0;
	uint64_t idle_updates = 0, idle_bytes = 0;
	uint32_t frame_at_pause = 0;
	bool paused = pause_pid > 0 && (idle > 0 || control);
	if (paused)
		kill(pause_pid, SIGUSR1);
	if (control) {
		say("held");
		if (!pump_until(cl, now_ns() + 600000000000ull, &control_released))
			goto lost;
	}
	if (idle > 0 && paused) {
		if (!pump_until(cl, now_ns() + 1500000000ull, NULL))
			goto lost;
		frame_at_pause = last_frame;
		uint64_t u0 = updates_total, b0 = bytes_received(cl);
		double c0 = cpu_ms_all();
		uint64_t ti = now_ns();
		if (!pump_until(cl, ti + (uint64_t)(idle * 1e9), NULL))
			goto lost;
		idle_secs = (double)(now_ns() - ti) / 1e9;
		idle_cpu_ms = cpu_ms_all() - c0;
		idle_updates = updates_total - u0;
		idle_bytes = bytes_received(cl) - b0;
	}
	if (paused)
		kill(pause_pid, SIGUSR1); /* resume */

	/* The floor, on the last frame, with the app paused. */
	double floor_ms = -1;
	const uint8_t *last = (const uint8_t *)cl->frameBuffer;
	if (!strcmp(encoding, "raw"))
		floor_ms = floor_raw_ms(last, cl->width, cl->height, 31);
	else if (floor_quality > 0)
		floor_ms = floor_jpeg_ms(last, cl->width, cl->height, floor_quality,
			floor_h, floor_v, floor_fast, 15);
	/* TLS: encrypting the bytes that reached the viewer per distinct
	 * frame, which any TLS server must do (record headers and the TCP
	 * overhead aside). */
	double bytes_per_frame = nframes_seen ? (double)(bytes1 - bytes0) / nframes_seen : 0.0;
	double tls_floor_ms = -1;
	if (bytes_per_frame > 0)
		tls_floor_ms = floor_tls_ms(last, (size_t)cl->width * cl->height * 4,
			(size_t)bytes_per_frame, floor_tls_cipher, 31);

	long hwm = 0;
	for (int i = 0; i < npids; i++)
		hwm += hwm_kib_of(pids[i]);

	/* latency */
	double lat_med = -1, lat_p95 = -1;
	size_t nlat = 0;
	if (app_log) {
		int fd = open(app_log, O_RDONLY);
		if (fd >= 0) {
			uint64_t *sent = mmap(NULL, (size_t)LOG_FRAMES * 8, PROT_READ, MAP_SHARED, fd, 0);
			close(fd);
			if (sent != MAP_FAILED) {
				double *lat = malloc(sizeof(double) * (nframes_seen + 1));
				for (size_t i = 0; i < nframes_seen && i < LOG_FRAMES; i++) {
					uint32_t n = frames_seen[i];
					if (sent[n] && recv_ns[n] >= sent[n])
						lat[nlat++] = (double)(recv_ns[n] - sent[n]) / 1e6;
				}
				if (nlat) {
					qsort(lat, nlat, sizeof *lat, cmp_double);
					lat_med = lat[nlat / 2];
					lat_p95 = lat[(size_t)(nlat * 0.95)];
				}
				free(lat);
				munmap(sent, (size_t)LOG_FRAMES * 8);
			}
		}
	}

	double fps = nframes_seen / secs;
	double cpu_ms = cpu1 - cpu0;
	printf("{\"cpu_ms_by_pid\": {");
	for (int i = 0; i < npids; i++)
		printf("%s\"%d\": %.0f", i ? ", " : "", pids[i], cpu_pid1[i] - cpu_pid0[i]);
	printf("}, ");
	printf("\"width\": %d, \"height\": %d, \"encoding\": \"%s\", \"quality\": %d, "
	       "\"seconds\": %.3f, \"frames\": %zu, \"fps\": %.2f, \"updates\": %llu, "
	       "\"decode_failures\": %llu, \"decode_ok\": %llu, "
	       "\"bytes\": %llu, \"bytes_per_frame\": %.0f, \"server_cpu_ms\": %.1f, "
	       "\"cpu_ms_per_frame\": %.3f, \"latency_ms_median\": %.2f, \"latency_ms_p95\": %.2f, "
	       "\"latency_samples\": %zu, \"peak_rss_kib\": %ld, "
	       "\"idle_seconds\": %.3f, \"idle_cpu_ms\": %.1f, \"idle_cpu_pct\": %.3f, "
	       "\"idle_updates\": %llu, \"idle_bytes\": %llu, \"frame_at_pause\": %u, "
	       "\"counter_x\": %d, \"counter_y\": %d, \"counter_relocations\": %llu, "
	       "\"floor_ms_per_frame\": %.3f, \"machine_busy_pct\": %.1f, "
	       "\"security\": %u, \"subauth\": %u, \"tls_version\": \"%s\", \"tls_cipher\": \"%s\", "
	       "\"tls_floor_cipher\": \"%s\", \"tls_floor_ms_per_frame\": %.3f, "
	       "\"viewer_cpu_ms_per_frame\": %.3f}\n",
	       cl->width, cl->height, encoding, quality, secs, nframes_seen, fps,
	       (unsigned long long)updates_window, (unsigned long long)decode_failures,
	       (unsigned long long)decode_ok, (unsigned long long)(bytes1 - bytes0),
	       nframes_seen ? (double)(bytes1 - bytes0) / nframes_seen : 0.0, cpu_ms,
	       nframes_seen ? cpu_ms / nframes_seen : 0.0, lat_med, lat_p95, nlat, hwm,
	       idle_secs, idle_cpu_ms, idle_secs > 0 ? idle_cpu_ms / (idle_secs * 10.0) : -1.0,
	       (unsigned long long)idle_updates, (unsigned long long)idle_bytes, frame_at_pause,
	       org_x, org_y, (unsigned long long)relocations, floor_ms,
	       mtotal1 > mtotal0 ? 100.0 * (double)(mbusy1 - mbusy0) / (double)(mtotal1 - mtotal0) : -1.0,
	       (unsigned)cl->authScheme, cl->authScheme == rfbVeNCrypt ? (unsigned)cl->subAuthScheme : 0u,
	       tls_version, tls_cipher, floor_tls_cipher, tls_floor_ms,
	       nframes_seen ? (self1 - self0) / nframes_seen : 0.0);
	fflush(stdout);
	if (dump && !dump_ppm(cl, dump))
		fprintf(stderr, "bench-viewer: cannot write %s\n", dump);
	rfbClientCleanup(cl);
	return 0;
lost:
	fprintf(stderr, "bench-viewer: connection lost\n");
	return 1;
}
