/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-vncviewer: a small libvncclient viewer for the vnc tests.
 *
 *   oriel-test-vncviewer [options] HOST:PORT|SOCKET-PATH MODE [ARG]
 *
 * Options:
 *   --password-file FILE  the password (VncAuth, or VeNCrypt Plain with
 *                         --user): the file's first line
 *   --user NAME           the user name for VeNCrypt's Plain sub-types
 *   --ca CERT.pem         the certificate (or CA) to trust for VeNCrypt's
 *                         X509 sub-types; without it they fail
 *   --security LIST       security types to accept, in libvncclient's
 *                         order: e.g. "vencrypt" or "none,vncauth"
 *                         (names none, vncauth, vencrypt, or numbers);
 *                         without it, --ca or --user: "none,vncauth", as
 *                         oriel lists VeNCrypt first, which this viewer
 *                         cannot finish without them
 *   --bind ADDR           connect from this local IPv4 address (e.g.
 *                         127.0.0.3)
 *   --encodings LIST      e.g. "raw" or "tight copyrect" (libvncclient's
 *                         default list otherwise)
 *   --quality N           allow lossy JPEG at quality level N (0-9);
 *                         without it Tight stays lossless
 *   --no-cursor           do not ask for the cursor pseudo-encodings
 *   --exclusive           ask the server not to share the desktop
 *   --bgr                 ask for 32-bit pixels with red in the high byte
 *                         (red shift 16, as TigerVNC does) instead of
 *                         libvncclient's red shift 0
 *   --timeout SECONDS     give up connecting/snapshotting after this (20)
 *
 * Modes:
 *   snapshot FILE.ppm     wait until every pixel was received once, write
 *                         the framebuffer as a binary PPM and exit
 *   watch SECONDS         log what the server sends for SECONDS, exit 0
 *   script                log what the server sends, and run the commands
 *                         read line by line from stdin until EOF or `quit`
 *
 * Script commands (each answered by `done COMMAND` once sent):
 *   type TEXT             press and release the keysym of each character
 *   keysym NAME [down|up|tap]
 *   pointer X Y BUTTONMASK
 *   cuttext TEXT          ClientCutText, TEXT (UTF-8) sent as Latin-1
 *   resize W H            SetDesktopSize
 *   full                  ask for a non-incremental update
 *   snapshot FILE.ppm     write the framebuffer as it is now
 *   quit
 *
 * Every line on stdout is machine-readable:
 *   connected W H
 *   update X Y W H        one rectangle of a FramebufferUpdate
 *   copyrect SX SY W H DX DY  a CopyRect rectangle, before its `update` line
 *   frame RECTS           end of a FramebufferUpdate (count of its rects)
 *   cursor W H HOTX HOTY OPAQUE HASH  rich cursor shape: OPAQUE mask
 *                         pixels, HASH of their colours
 *   resize W H            the framebuffer size changed
 *   cuttext BASE64        ServerCutText (Latin-1 bytes, base64)
 *   bell
 *   done COMMAND          a script command was sent
 *   security TYPE SUBTYPE the security type used (19: VeNCrypt, with its
 *                         sub-type; 0 for others), before `connected`
 *   auth-failed           the server refused our password or account
 *                         (exit 2)
 *   tls-failed            the TLS handshake failed, e.g. a certificate
 *                         that --ca does not vouch for (exit 4)
 *   disconnected          the server closed the connection (exit 3)
 *   error MESSAGE         anything else that went wrong (exit 1)
 * libvncclient's own log goes to stderr.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rfb/rfbclient.h>
#include <xkbcommon/xkbcommon.h>

enum { EXIT_AUTH = 2, EXIT_DISCONNECTED = 3, EXIT_TLS = 4 };

struct viewer {
	rfbClient *client;
	const char *password_file;
	const char *user;
	const char *ca;
	int timeout_s;
	uint8_t *covered; /* one byte per pixel: received at least once */
	long uncovered;
	int rects;        /* in the FramebufferUpdate being received */
	bool started;     /* the first framebuffer was allocated */
	char line[65536]; /* stdin, for script mode */
	size_t line_len;
	bool stdin_eof;
	bool quit;
};

static struct viewer viewer;
static bool password_asked; /* the server asked for a password */
static bool failure_logged;  /* libvncclient logged a refusal */
static bool tls_failed;      /* libvncclient's TLS handshake failed */

static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void client_log(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* SecurityResult "failed" with its reason, or VncAuth's own message. */
	if (strstr(buf, "connection failed") || strstr(buf, "uthentication failed"))
		failure_logged = true;
	if (strstr(buf, "TLS handshake failed"))
		tls_failed = true;
	fprintf(stderr, "libvncclient: %s", buf);
	if (buf[0] == '\0' || buf[strlen(buf) - 1] != '\n')
		fputc('\n', stderr);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *read_password(void)
{
	char buf[256] = "";
	FILE *f;

	password_asked = true;
	if (!viewer.password_file) {
		fprintf(stderr, "the server asks for a password; none given\n");
		return strdup("");
	}
	f = fopen(viewer.password_file, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", viewer.password_file, strerror(errno));
		return strdup("");
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return strdup(buf);
}

static char *password(rfbClient *client)
{
	return read_password();
}

/* VeNCrypt: the certificate to trust (X509 sub-types), or the account. */
static rfbCredential *credential(rfbClient *client, int type)
{
	rfbCredential *cred = calloc(1, sizeof(*cred));

	if (!cred)
		return NULL;
	if (type == rfbCredentialTypeX509) {
		if (!viewer.ca) {
			fprintf(stderr, "the server wants an X509 sub-type; no --ca given\n");
			free(cred);
			return NULL;
		}
		cred->x509Credential.x509CACertFile = strdup(viewer.ca);
	} else if (type == rfbCredentialTypeUser) {
		cred->userCredential.username = strdup(viewer.user ? viewer.user : "");
		cred->userCredential.password = read_password();
	} else {
		free(cred);
		return NULL;
	}
	return cred;
}

static bool parse_security(rfbClient *client, const char *list)
{
	uint32_t types[16];
	int n = 0;
	char *copy = strdup(list), *save = NULL;

	for (char *t = strtok_r(copy, ", ", &save); t && n < 15;
	     t = strtok_r(NULL, ", ", &save)) {
		if (strcmp(t, "none") == 0)
			types[n++] = rfbNoAuth;
		else if (strcmp(t, "vncauth") == 0)
			types[n++] = rfbVncAuth;
		else if (strcmp(t, "vencrypt") == 0)
			types[n++] = rfbVeNCrypt;
		else if (atoi(t) > 0)
			types[n++] = (uint32_t)atoi(t);
		else {
			free(copy);
			return false;
		}
	}
	free(copy);
	types[n] = 0;
	SetClientAuthSchemes(client, types, n);
	return n > 0;
}

/* A TCP connection from a chosen local address, handed to libvncclient. */
static int connect_from(const char *bind_addr, const char *host, int port)
{
	struct sockaddr_in local = { .sin_family = AF_INET };
	struct sockaddr_in remote = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd;

	if (inet_pton(AF_INET, bind_addr, &local.sin_addr) != 1 ||
	    inet_pton(AF_INET, host, &remote.sin_addr) != 1) {
		out("error --bind wants IPv4 addresses (%s, %s)", bind_addr, host);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&local, sizeof(local)) < 0 ||
	    connect(fd, (struct sockaddr *)&remote, sizeof(remote)) < 0) {
		out("error cannot connect from %s to %s:%d: %s", bind_addr, host, port,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static rfbBool alloc_framebuffer(rfbClient *client)
{
	size_t pixels = (size_t)client->width * client->height;

	free(client->frameBuffer);
	free(viewer.covered);
	client->frameBuffer = calloc(pixels ? pixels : 1,
				     client->format.bitsPerPixel / 8);
	viewer.covered = calloc(pixels ? pixels : 1, 1);
	viewer.uncovered = (long)pixels;
	if (!client->frameBuffer || !viewer.covered) {
		out("error out of memory for %dx%d", client->width, client->height);
		return FALSE;
	}
	if (viewer.started)
		out("resize %d %d", client->width, client->height);
	viewer.started = true;
	return TRUE;
}

static void got_update(rfbClient *client, int x, int y, int w, int h)
{
	out("update %d %d %d %d", x, y, w, h);
	viewer.rects++;
	for (int row = y; row < y + h && row < client->height; row++) {
		if (row < 0)
			continue;
		for (int col = x; col < x + w && col < client->width; col++) {
			uint8_t *c;

			if (col < 0)
				continue;
			c = &viewer.covered[(size_t)row * client->width + col];
			if (!*c) {
				*c = 1;
				viewer.uncovered--;
			}
		}
	}
}

/* Logs a CopyRect and does it, rows in the order that keeps overlaps right. */
static void got_copy_rect(rfbClient *client, int src_x, int src_y, int w, int h,
			  int dest_x, int dest_y)
{
	int bpp = client->format.bitsPerPixel / 8;
	size_t stride = (size_t)client->width * bpp;

	out("copyrect %d %d %d %d %d %d", src_x, src_y, w, h, dest_x, dest_y);
	if (src_x < 0 || src_y < 0 || dest_x < 0 || dest_y < 0 || w <= 0 || h <= 0 ||
	    src_x + w > client->width || dest_x + w > client->width ||
	    src_y + h > client->height || dest_y + h > client->height) {
		out("error copyrect outside the framebuffer");
		return;
	}
	for (int i = 0; i < h; i++) {
		int row = dest_y > src_y ? h - 1 - i : i;
		uint8_t *fb = client->frameBuffer;

		memmove(fb + (size_t)(dest_y + row) * stride + (size_t)dest_x * bpp,
			fb + (size_t)(src_y + row) * stride + (size_t)src_x * bpp,
			(size_t)w * bpp);
	}
}

static void finished_update(rfbClient *client)
{
	out("frame %d", viewer.rects);
	viewer.rects = 0;
}

static void got_cursor(rfbClient *client, int xhot, int yhot, int width,
		       int height, int bytes_per_pixel)
{
	size_t n = (size_t)width * height;
	uint32_t hash = 2166136261u; /* FNV-1a over the visible pixels */
	int opaque = 0;

	for (size_t i = 0; client->rcMask && i < n; i++) {
		if (!client->rcMask[i])
			continue;
		opaque++;
		for (int b = 0; client->rcSource && b < bytes_per_pixel; b++) {
			hash ^= client->rcSource[i * bytes_per_pixel + b];
			hash *= 16777619u;
		}
	}
	out("cursor %d %d %d %d %d %08x", width, height, xhot, yhot, opaque,
	    (unsigned)hash);
}

static void base64(const unsigned char *in, size_t len, char *outbuf)
{
	static const char table[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		*outbuf++ = table[in[i] >> 2];
		*outbuf++ = table[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		*outbuf++ = table[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
		*outbuf++ = table[in[i + 2] & 63];
	}
	if (i < len) {
		*outbuf++ = table[in[i] >> 2];
		if (i + 1 < len) {
			*outbuf++ = table[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
			*outbuf++ = table[(in[i + 1] & 15) << 2];
		} else {
			*outbuf++ = table[(in[i] & 3) << 4];
			*outbuf++ = '=';
		}
		*outbuf++ = '=';
	}
	*outbuf = '\0';
}

static void got_cut_text(rfbClient *client, const char *text, int len)
{
	char *encoded = malloc(((size_t)len + 2) / 3 * 4 + 1);

	if (!encoded) {
		out("error out of memory for %d bytes of cut text", len);
		return;
	}
	base64((const unsigned char *)text, (size_t)len, encoded);
	out("cuttext %s", encoded);
	free(encoded);
}

static void bell(rfbClient *client)
{
	out("bell");
}

static bool write_ppm(rfbClient *client, const char *path)
{
	const rfbPixelFormat *f = &client->format;
	char tmp[4096];
	FILE *file;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	file = fopen(tmp, "wb");
	if (!file) {
		out("error cannot write %s: %s", tmp, strerror(errno));
		return false;
	}
	fprintf(file, "P6\n%d %d\n255\n", client->width, client->height);
	for (int i = 0; i < client->width * client->height; i++) {
		uint32_t p = ((const uint32_t *)client->frameBuffer)[i];
		unsigned char rgb[3] = {
			(p >> f->redShift & f->redMax) * 255 / f->redMax,
			(p >> f->greenShift & f->greenMax) * 255 / f->greenMax,
			(p >> f->blueShift & f->blueMax) * 255 / f->blueMax,
		};
		fwrite(rgb, 1, 3, file);
	}
	ok = fclose(file) == 0 && rename(tmp, path) == 0;
	if (!ok)
		out("error cannot write %s: %s", path, strerror(errno));
	return ok;
}

/* Decodes one UTF-8 character; returns its length, or 0 if invalid. */
static int utf8_decode(const unsigned char *s, uint32_t *cp)
{
	int len;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		*cp = s[0] & 0x1f;
		len = 2;
	} else if ((s[0] & 0xf0) == 0xe0) {
		*cp = s[0] & 0x0f;
		len = 3;
	} else if ((s[0] & 0xf8) == 0xf0) {
		*cp = s[0] & 0x07;
		len = 4;
	} else {
		return 0;
	}
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return len;
}

static bool send_key(rfbClient *client, uint32_t keysym, const char *action)
{
	bool down = strcmp(action, "up") != 0;
	bool up = strcmp(action, "down") != 0;

	if (down && !SendKeyEvent(client, keysym, TRUE))
		return false;
	if (up && !SendKeyEvent(client, keysym, FALSE))
		return false;
	return true;
}

/* Runs one script command; false if it could not be sent. */
static bool run_command(rfbClient *client, char *line)
{
	char *cmd = line, *rest = strchr(line, ' ');
	char name[128], action[16] = "tap";
	int x, y, mask;

	if (rest)
		*rest++ = '\0';
	else
		rest = line + strlen(line);

	if (strcmp(cmd, "type") == 0) {
		const unsigned char *s = (const unsigned char *)rest;

		while (*s) {
			uint32_t cp;
			int len = utf8_decode(s, &cp);
			xkb_keysym_t sym;

			if (len == 0) {
				out("error invalid UTF-8 in type");
				return false;
			}
			sym = xkb_utf32_to_keysym(cp);
			if (sym == XKB_KEY_NoSymbol) {
				out("error no keysym for U+%04X", (unsigned)cp);
				return false;
			}
			if (!send_key(client, sym, "tap"))
				return false;
			s += len;
		}
	} else if (strcmp(cmd, "keysym") == 0) {
		xkb_keysym_t sym;

		if (sscanf(rest, "%127s %15s", name, action) < 1) {
			out("error usage: keysym NAME [down|up|tap]");
			return false;
		}
		sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS);
		if (sym == XKB_KEY_NoSymbol) {
			out("error unknown keysym %s", name);
			return false;
		}
		if (!send_key(client, sym, action))
			return false;
	} else if (strcmp(cmd, "pointer") == 0) {
		if (sscanf(rest, "%d %d %d", &x, &y, &mask) != 3) {
			out("error usage: pointer X Y BUTTONMASK");
			return false;
		}
		if (!SendPointerEvent(client, x, y, mask))
			return false;
	} else if (strcmp(cmd, "cuttext") == 0) {
		const unsigned char *s = (const unsigned char *)rest;
		char latin1[sizeof(viewer.line)];
		int n = 0;

		while (*s) {
			uint32_t cp;
			int len = utf8_decode(s, &cp);

			if (len == 0 || cp > 0xff) {
				out("error cuttext is not Latin-1");
				return false;
			}
			latin1[n++] = (char)cp;
			s += len;
		}
		if (!SendClientCutText(client, latin1, n))
			return false;
	} else if (strcmp(cmd, "resize") == 0) {
		if (sscanf(rest, "%d %d", &x, &y) != 2 || x <= 0 || y <= 0) {
			out("error usage: resize W H");
			return false;
		}
		if (client->screen.width == 0 && client->screen.height == 0) {
			out("error no ExtendedDesktopSize from the server yet: "
			    "cannot send SetDesktopSize");
			return true;
		}
		if (!SendExtDesktopSize(client, x, y))
			return false;
	} else if (strcmp(cmd, "full") == 0) {
		if (!SendFramebufferUpdateRequest(client, 0, 0, client->width,
						  client->height, FALSE))
			return false;
	} else if (strcmp(cmd, "snapshot") == 0) {
		if (!write_ppm(client, rest))
			return true; /* reported; the connection is fine */
	} else if (strcmp(cmd, "quit") == 0) {
		viewer.quit = true;
	} else {
		out("error unknown command %s", cmd);
		return true;
	}
	out("done %s%s%s", cmd, *rest ? " " : "", rest);
	return true;
}

/* Reads stdin and runs every complete line; false if sending failed. */
static bool read_commands(rfbClient *client)
{
	ssize_t n = read(STDIN_FILENO, viewer.line + viewer.line_len,
			 sizeof(viewer.line) - 1 - viewer.line_len);
	char *start, *nl;

	if (n <= 0) {
		if (n < 0 && errno == EINTR)
			return true;
		viewer.stdin_eof = true;
		return true;
	}
	viewer.line_len += (size_t)n;
	viewer.line[viewer.line_len] = '\0';
	start = viewer.line;
	while (!viewer.quit && (nl = strchr(start, '\n'))) {
		*nl = '\0';
		if (nl > start && nl[-1] == '\r')
			nl[-1] = '\0';
		if (*start && !run_command(client, start))
			return false;
		start = nl + 1;
	}
	viewer.line_len -= (size_t)(start - viewer.line);
	memmove(viewer.line, start, viewer.line_len);
	if (viewer.line_len == sizeof(viewer.line) - 1) {
		out("error command line too long");
		viewer.line_len = 0;
	}
	return true;
}

/*
 * Handles server messages (and stdin commands when script is set) until
 * done() is true, the deadline passes (returns true) or the connection
 * ends (returns false).
 */
static bool loop(rfbClient *client, double deadline, bool script,
		 bool (*done)(void))
{
	while (!viewer.quit && !(done && done())) {
		struct pollfd fds[2] = {
			{ .fd = client->sock, .events = POLLIN },
			{ .fd = STDIN_FILENO, .events = POLLIN },
		};
		int nfds = script && !viewer.stdin_eof ? 2 : 1;
		double left = deadline - now();
		int ready;

		if (script && viewer.stdin_eof)
			return true;
		if (left <= 0)
			return true;
		if (client->buffered > 0) {
			fds[0].revents = POLLIN;
			fds[1].revents = 0;
		} else {
			ready = poll(fds, nfds, left > 3600 ? 3600000 : (int)(left * 1000) + 1);
			if (ready < 0 && errno != EINTR) {
				out("error poll: %s", strerror(errno));
				return false;
			}
			if (ready <= 0)
				continue;
		}
		if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (!HandleRFBServerMessage(client))
				return false;
		}
		if (nfds == 2 && (fds[1].revents & (POLLIN | POLLHUP))) {
			if (!read_commands(client))
				return false;
		}
	}
	return true;
}

static bool fully_received(void)
{
	return viewer.uncovered == 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: oriel-test-vncviewer [--password-file FILE] "
		"[--user NAME] [--ca CERT.pem] [--security LIST] [--bind ADDR] "
		"[--encodings LIST] [--quality N] [--no-cursor] [--exclusive] "
		"[--timeout S] HOST:PORT|SOCKET-PATH snapshot FILE|watch SECONDS|script\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "password-file", required_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "ca", required_argument, NULL, 'a' },
		{ "security", required_argument, NULL, 's' },
		{ "bind", required_argument, NULL, 'B' },
		{ "encodings", required_argument, NULL, 'e' },
		{ "quality", required_argument, NULL, 'q' },
		{ "no-cursor", no_argument, NULL, 'c' },
		{ "exclusive", no_argument, NULL, 'x' },
		{ "bgr", no_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *encodings = NULL, *security = NULL, *bind_addr = NULL;
	const char *address, *mode;
	int quality = -1, opt, status = 0;
	bool cursor = true, shared = true, bgr = false, ok;
	char *host, *colon;
	int port = 5900;
	rfbClient *client;

	viewer.timeout_s = 20;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'p': viewer.password_file = optarg; break;
		case 'u': viewer.user = optarg; break;
		case 'a': viewer.ca = optarg; break;
		case 's': security = optarg; break;
		case 'B': bind_addr = optarg; break;
		case 'e': encodings = optarg; break;
		case 'q': quality = atoi(optarg); break;
		case 'c': cursor = false; break;
		case 'x': shared = false; break;
		case 'b': bgr = true; break;
		case 't': viewer.timeout_s = atoi(optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (argc - optind < 2) {
		usage(stderr);
		return 1;
	}
	address = argv[optind];
	mode = argv[optind + 1];
	if (strcmp(mode, "script") != 0 && argc - optind < 3) {
		usage(stderr);
		return 1;
	}

	rfbClientLog = client_log;
	rfbClientErr = client_log;
	client = rfbGetClient(8, 3, 4);
	if (!client) {
		out("error rfbGetClient failed");
		return 1;
	}
	viewer.client = client;
	if (bgr) {
		client->format.redShift = 16;
		client->format.blueShift = 0;
	}
	host = strdup(address);
	colon = strrchr(host, ':');
	if (host[0] != '/' && colon) {
		*colon = '\0';
		port = atoi(colon + 1);
	}
	free(client->serverHost); /* rfbGetClient's empty placeholder */
	client->serverHost = host; /* freed by rfbClientCleanup */
	client->serverPort = port;
	client->connectTimeout = viewer.timeout_s;
	client->readTimeout = viewer.timeout_s;
	client->appData.shareDesktop = shared;
	client->appData.encodingsString = encodings;
	client->appData.useRemoteCursor = cursor;
	client->appData.enableJPEG = quality >= 0;
	client->appData.qualityLevel = quality >= 0 ? quality : 9;
	client->canHandleNewFBSize = TRUE;
	client->GetPassword = password;
	client->GetCredential = credential;
	if (!security && !viewer.ca && !viewer.user)
		security = "none,vncauth";
	if (security && !parse_security(client, security)) {
		out("error bad --security %s", security);
		return 1;
	}
	if (bind_addr) {
		if (host[0] == '/') {
			out("error --bind needs a TCP address");
			return 1;
		}
		client->sock = connect_from(bind_addr, host, port);
		if (client->sock < 0)
			return 1;
		/* libvncclient's way to take a socket that is already connected. */
		client->listenSpecified = TRUE;
	}
	client->MallocFrameBuffer = alloc_framebuffer;
	client->GotFrameBufferUpdate = got_update;
	client->GotCopyRect = got_copy_rect;
	client->FinishedFrameBufferUpdate = finished_update;
	client->GotCursorShape = got_cursor;
	client->GotXCutText = got_cut_text;
	client->Bell = bell;

	/* rfbInitClient frees the client when it fails. */
	if (!rfbInitClient(client, NULL, NULL)) {
		if (password_asked && failure_logged) {
			out("auth-failed");
			return EXIT_AUTH;
		}
		if (tls_failed) {
			out("tls-failed");
			return EXIT_TLS;
		}
		out("error cannot connect to %s", address);
		return 1;
	}
	out("security %u %u", (unsigned)client->authScheme,
	    client->authScheme == rfbVeNCrypt ? (unsigned)client->subAuthScheme : 0u);
	out("connected %d %d", client->width, client->height);

	if (strcmp(mode, "snapshot") == 0) {
		ok = loop(client, now() + viewer.timeout_s, false, fully_received);
		if (ok && !fully_received()) {
			out("error timed out with %ld pixels never received",
			    viewer.uncovered);
			status = 1;
		} else if (ok) {
			status = write_ppm(client, argv[optind + 2]) ? 0 : 1;
			if (status == 0)
				out("done snapshot %s", argv[optind + 2]);
		}
	} else if (strcmp(mode, "watch") == 0) {
		ok = loop(client, now() + atof(argv[optind + 2]), false, NULL);
	} else if (strcmp(mode, "script") == 0) {
		ok = loop(client, now() + 1e9, true, NULL);
	} else {
		usage(stderr);
		ok = true;
		status = 1;
	}
	if (!ok) {
		out("disconnected");
		status = EXIT_DISCONNECTED;
	}
	free(client->frameBuffer);
	client->frameBuffer = NULL;
	rfbClientCleanup(client);
	free(viewer.covered);
	return status;
}
