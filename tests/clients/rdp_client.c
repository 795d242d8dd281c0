/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-rdpclient: an RDP client on libfreerdp-client2 for the rdp
 * tests and the RDP benchmark. It logs on over TLS, decodes everything with
 * FreeRDP's software GDI into a 32-bit framebuffer and says what it got.
 *
 *   oriel-test-rdpclient [options] HOST:PORT MODE [ARG]
 *
 * The account: --user NAME (or ORIEL_RDP_USER) and the password from the
 * first line of --password-file FILE (or ORIEL_RDP_PASSWORD). Never argv.
 *
 * Options:
 *   --user NAME           the logon user name
 *   --password-file FILE  the password: the file's first line
 *   --fingerprint FP      accept only this server certificate (SHA-256,
 *                         "AB:CD:..." as oriel logs it); without it any
 *                         certificate is accepted (as xfreerdp /cert:ignore)
 *   --gfx off|avc420|avc444|nonh264
 *                         off (default): classic bitmap updates only, no
 *                         graphics pipeline; avc420: the graphics pipeline
 *                         with H.264 (AVC420, not AVC444); avc444: with
 *                         AVC444 too; nonh264: the graphics pipeline without
 *                         H.264 (progressive, planar, ...)
 *   --rfx                 offer RemoteFX surface bits (classic path);
 *                         without it the server has to send bitmaps
 *   --size WxH            the desktop size asked for (1024x768)
 *   --bpp N               the colour depth asked for (32)
 *   --monitors LAYOUT     several monitors, as xfreerdp /multimon: LAYOUT is
 *                         WxH+X+Y,... or WxH-X+Y,... (the first is the
 *                         primary; FreeRDP sends the others relative to
 *                         it); the desktop is their bounding box. The client also
 *                         offers Display Control (see `layout`)
 *   --no-rects            no `update` lines (the benchmark's meter)
 *   --counter             decode bench/apps/animate's frame counter from
 *                         the decoded pixels after every paint
 *   --cursor WxH          ... or its small-damage rectangle (animate
 *                         --cursor WxH): the frame number from its pixels
 *   --timeout SECONDS     give up connecting or snapshotting after this (20)
 *   --kbd ID              announce this keyboard layout ID (e.g. 0x407, as
 *                         xfreerdp /kbd:); none (0) by default
 *   --bind ADDR           connect from this local IPv4 address (HOST must be
 *                         an IPv4 address too), through a relay in this
 *                         process: FreeRDP connects to the relay as
 *                         localhost (a name TLS may send), redirections too
 *   --sound FILE          take sound (rdpsnd, the static channel and the
 *                         dynamic one): what is played is appended to FILE
 *                         as raw PCM, and said in `sound` lines
 *   --sound-dvc           with --sound: offer only AUDIO_PLAYBACK_DVC
 *   --sound-format pcm|aac  with --sound: offer only this format (FreeRDP's
 *                         rdpsnd format: option); the client decodes AAC
 *                         (FreeRDP's DSP, libavcodec) and plays PCM
 *   --sound-slow FACTOR   with --sound: playing a block takes FACTOR times
 *                         its length (a client too slow for the sound)
 *   --microphone FREQ     offer a microphone (audin) that hears a sine of
 *                         FREQ Hz at half full scale, 48 kHz stereo
 *   --no-redirection      announce no support for Server Redirection (no
 *                         REDIRECTION_SUPPORTED in the cluster data), as
 *                         macOS's client: libfreerdp always announces it,
 *                         so the flag is cleared on its way out
 *   --bad-cookie          when the server redirects the client with a
 *                         password cookie (oriel-gateway), send it back
 *                         altered: an attacker holding the routing token
 *                         alone
 *
 * Modes:
 *   snapshot FILE.ppm     wait until every pixel was painted once, write the
 *                         screen as a binary PPM and exit
 *   watch                 report what arrives, and run commands read line by
 *                         line from stdin until EOF or `quit`
 *
 * Commands (each answered by `done COMMAND`):
 *   snapshot FILE.ppm     write the screen as it is now
 *   stats                 answered first by a `stats` line
 *   click X Y             move the pointer to desktop coordinates X,Y and
 *                         click the left button there
 *   layout LAYOUT         send a monitor layout (as --monitors) through
 *                         Display Control (error if it is not open)
 *   unicode TEXT          type TEXT (UTF-8) as Unicode keyboard events, as
 *                         mobile clients do: each UTF-16 unit pressed and
 *                         released; `\n` in TEXT is Return
 *   keys KEY...           send scancodes: KEY is hex set 1 (`e0` before it
 *                         for the extended ones), then `+` to press it, `-`
 *                         to release it, or nothing for both
 *   quit
 *
 * Every line on stdout is machine-readable:
 *   connected W H GFX     logged on; GFX: off, avc420, avc444 or nonh264
 *   monitors N            --monitors: FreeRDP's settings held N monitors
 *                         when it connected (sent as Client Monitor Data)
 *   disp-ready            the Display Control channel is open
 *   gfx-caps VERSION FLAGS  the capability set the server confirmed (hex)
 *   codec NAME            the first update of each codec (planar, rfx,
 *                         nsc, interleaved, bitmap, gfx-avc420, gfx-avc444,
 *                         gfx-progressive, gfx-planar, gfx-uncompressed,
 *                         gfx-clearcodec, gfx-alpha, gfx-caprogressive,
 *                         gfx-solidfill, gfx-surface-to-surface, gfx-cache)
 *   update X Y W H        a rectangle of the screen painted (decoded)
 *   frame RECTS BYTES T   end of one paint: its rectangles, the bytes
 *                         received on the connection so far (TCP_INFO) and
 *                         CLOCK_MONOTONIC ns
 *   counter N T BYTES     --counter/--cursor: the paint at time T (ns)
 *                         showed a new frame number N
 *   resize W H            the desktop size changed
 *   redirected TOKEN      a Server Redirection came, with this routing
 *                         token (after "Cookie: msts="); FreeRDP follows it
 *   sound-open TAG RATE CHANNELS BITS  --sound: the server chose this format
 *   sound BYTES T         --sound: a block to play arrived at T (ns)
 *   microphone-open RATE CHANNELS  --microphone: the server opened it
 *   stats PAINTS RECTS BYTES COUNTERS BOTH LUMA
 *                         BOTH, LUMA: AVC444 frames with both pictures
 *                         (LC 0) and with the luma picture alone (LC 1)
 *   done COMMAND
 *   auth-failed           the logon was refused (exit 2)
 *   tls-failed            TLS failed, e.g. the certificate is not the
 *                         pinned one (exit 4)
 *   disconnected          the server closed the connection (exit 3)
 *   error MESSAGE         anything else (exit 1)
 * FreeRDP's own log goes to stderr (WLOG_LEVEL sets it).
 */

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <freerdp/addin.h>
#include <freerdp/channels/channels.h>
#include <freerdp/client.h>
#include <freerdp/client/channels.h>
#include <freerdp/client/cmdline.h>
#include <freerdp/client/disp.h>
#include <freerdp/client/rdpgfx.h>
#include <freerdp/codec/color.h>
#include <freerdp/event.h>
#include <freerdp/freerdp.h>
#include <freerdp/gdi/gdi.h>
#include <freerdp/gdi/gfx.h>
#include <freerdp/codec/audio.h>
#include "rdp_client_say.h"
#include "rdp_client_sound.h"
#include <winpr/synch.h>

/* bench/apps/animate's counter: BITS blocks of BLOCK px, MSB first, white
 * for 1, and the inverted bits in the row below (as bench-viewer reads it). */
#define BLOCK 32
#define BITS 20
#define LOG_FRAMES (1u << BITS)

enum gfx_mode { GFX_OFF, GFX_AVC420, GFX_AVC444, GFX_NONH264 };
static const char *const gfx_names[] = {"off", "avc420", "avc444", "nonh264"};

struct opts {
	const char *host;
	int port;
	const char *user, *password_file, *fingerprint;
	enum gfx_mode gfx;
	bool rfx, no_rects, counter, bad_cookie;
	const char *sound; /* --sound FILE */
	bool sound_dvc;
	unsigned sound_format; /* WAVE_FORMAT_*; 0: every format FreeRDP plays */
	double sound_slow;
	double microphone; /* --microphone FREQ; 0: none */
	int bpp;
	uint32_t kbd;
	int cursor_w, cursor_h;
	int width, height;
	/* --monitors */
	rdpMonitor monitors[16];
	int n_monitors;
	double timeout;
	const char *mode, *arg;
};

struct client {
	rdpContext context; /* first: FreeRDP allocates ContextSize bytes */
	struct opts *opts;
	/* what arrived */
	uint64_t paints, rects, counters;
	uint64_t avc444_both, avc444_luma; /* AVC444 frames by what they carry */
	int sock;         /* the connection's TCP socket, for TCP_INFO */
	bool redirect_seen; /* its `redirected` line was said */
	uint8_t *painted; /* snapshot: one byte a pixel, set once painted */
	int painted_w, painted_h;
	uint64_t unpainted;
	bool codec_seen[64];
	pcRdpgfxSurfaceCommand gfx_surface_command;
	pcRdpgfxSolidFill gfx_solid_fill;
	pcRdpgfxSurfaceToSurface gfx_surface_to_surface;
	pcRdpgfxCacheToSurface gfx_cache_to_surface;
	pcRdpgfxCapsConfirm gfx_caps_confirm;
	pSurfaceBits surface_bits;
	pBitmapUpdate bitmap_update;
	DispClientContext *disp;
	/* the counter */
	int org_x, org_y;
	long last_counter;
	bool cursor_found;
};

/* The socket whose peer is the server's port: FreeRDP keeps its transport
 * to itself, and the benchmark wants the bytes the kernel received. */
static int find_socket(int port)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	int found = -1;
	struct dirent *e;
	while ((e = readdir(d)) && found < 0) {
		int fd = atoi(e->d_name);
		if (fd <= 2)
			continue;
		struct sockaddr_storage sa;
		socklen_t len = sizeof sa;
		if (getpeername(fd, (struct sockaddr *)&sa, &len) == 0 && sa.ss_family == AF_INET &&
		    ntohs(((struct sockaddr_in *)&sa)->sin_port) == port)
			found = fd;
	}
	closedir(d);
	return found;
}

static uint64_t bytes_received(struct client *c)
{
	if (c->sock < 0)
		c->sock = find_socket(c->opts->port);
	struct tcp_info ti;
	socklen_t len = sizeof ti;
	memset(&ti, 0, sizeof ti);
	if (c->sock < 0 || getsockopt(c->sock, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return 0;
	return ti.tcpi_bytes_received;
}

/* ---- pixels ---------------------------------------------------------- */

/* 0xRRGGBB at (x, y) of the BGRX32 framebuffer. */
static uint32_t pixel(const rdpGdi *gdi, int x, int y)
{
	const uint8_t *p = gdi->primary_buffer + (size_t)y * gdi->stride + (size_t)x * 4;
	return (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int luma_at(const rdpGdi *gdi, int cx, int cy)
{
	long sum = 0;
	int count = 0;
	for (int y = cy - 4; y < cy + 4; y++) {
		for (int x = cx - 4; x < cx + 4; x++) {
			if (x < 0 || y < 0 || x >= (int)gdi->width || y >= (int)gdi->height)
				continue;
			uint32_t p = pixel(gdi, x, y);
			sum += (((p >> 16) & 0xff) + 2 * ((p >> 8) & 0xff) + (p & 0xff)) / 4;
			count++;
		}
	}
	return count ? (int)(sum / count) : 0;
}

static long counter_at(const rdpGdi *gdi, int ox, int oy)
{
	if (ox + BITS * BLOCK > (int)gdi->width || oy + 2 * BLOCK > (int)gdi->height)
		return -1;
	uint32_t v = 0;
	for (int i = 0; i < BITS; i++) {
		int cx = ox + i * BLOCK + BLOCK / 2;
		int a = luma_at(gdi, cx, oy + BLOCK / 2), b = luma_at(gdi, cx, oy + BLOCK + BLOCK / 2);
		int bit = a >= 128, inv = b >= 128;
		if (bit == inv || abs(a - 128) < 48 || abs(b - 128) < 48)
			return -1;
		v = v << 1 | (uint32_t)bit;
	}
	return v;
}

/* The counter near the top-left corner of the screen (a title bar may sit
 * above the app's pixels): found once, then read where it was. */
static long decode_counter(struct client *c, const rdpGdi *gdi)
{
	long n = counter_at(gdi, c->org_x, c->org_y);
	if (n >= 0)
		return n;
	for (int oy = 0; oy <= 160; oy++) {
		for (int ox = 0; ox <= 48; ox++) {
			n = counter_at(gdi, ox, oy);
			if (n < 0 || counter_at(gdi, ox, oy + 1) != n || counter_at(gdi, ox + 1, oy) != n)
				continue;
			int y1 = oy, x1 = ox;
			while (y1 < oy + BLOCK && counter_at(gdi, ox, y1 + 1) == n)
				y1++;
			while (x1 < ox + BLOCK && counter_at(gdi, x1 + 1, oy) == n)
				x1++;
			c->org_x = (ox + x1) / 2;
			c->org_y = (oy + y1) / 2;
			return n;
		}
	}
	return -1;
}

/* animate --cursor WxH: every pixel of the rectangle is
 * 0x800000 | (n & 1) << 22 | n, on a black bed. Lossless codecs only. */
static long cursor_at(const struct client *c, const rdpGdi *gdi, int x, int y)
{
	int cw = c->opts->cursor_w, ch = c->opts->cursor_h;
	if (x < 1 || y < 1 || x + cw >= (int)gdi->width || y + ch >= (int)gdi->height)
		return -1;
	uint32_t v = pixel(gdi, x, y), n = v & (LOG_FRAMES - 1);
	if (!(v & 0x800000) || ((v >> 22) & 1) != (n & 1) || pixel(gdi, x - 1, y) ||
	    pixel(gdi, x, y - 1) || pixel(gdi, x + cw, y) || pixel(gdi, x, y + ch))
		return -1;
	for (int yy = y; yy < y + ch; yy++)
		for (int xx = x; xx < x + cw; xx++)
			if (pixel(gdi, xx, yy) != v)
				return -1;
	return n;
}

static long decode_cursor(struct client *c, const rdpGdi *gdi)
{
	long n = c->cursor_found ? cursor_at(c, gdi, c->org_x, c->org_y) : -1;
	if (n >= 0)
		return n;
	for (int y = 1; y <= 300; y++)
		for (int x = 1; x <= 200; x++)
			if ((n = cursor_at(c, gdi, x, y)) >= 0) {
				c->org_x = x;
				c->org_y = y;
				c->cursor_found = true;
				return n;
			}
	return -1;
}

static bool write_ppm(const rdpGdi *gdi, const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	fprintf(f, "P6\n%u %u\n255\n", gdi->width, gdi->height);
	uint8_t *row = malloc((size_t)gdi->width * 3);
	if (!row) {
		fclose(f);
		return false;
	}
	for (int y = 0; y < (int)gdi->height; y++) {
		for (int x = 0; x < (int)gdi->width; x++) {
			uint32_t p = pixel(gdi, x, y);
			row[x * 3] = p >> 16;
			row[x * 3 + 1] = p >> 8;
			row[x * 3 + 2] = p;
		}
		fwrite(row, 3, gdi->width, f);
	}
	free(row);
	return fclose(f) == 0;
}

static void painted_reset(struct client *c, int w, int h)
{
	free(c->painted);
	c->painted = calloc((size_t)w * h, 1);
	c->painted_w = w;
	c->painted_h = h;
	c->unpainted = (uint64_t)w * h;
}

static void painted_mark(struct client *c, int x, int y, int w, int h)
{
	if (!c->painted)
		return;
	int x1 = x + w > c->painted_w ? c->painted_w : x + w;
	int y1 = y + h > c->painted_h ? c->painted_h : y + h;
	for (int yy = y < 0 ? 0 : y; yy < y1; yy++)
		for (int xx = x < 0 ? 0 : x; xx < x1; xx++) {
			uint8_t *p = &c->painted[(size_t)yy * c->painted_w + xx];
			c->unpainted -= !*p;
			*p = 1;
		}
}

/* ---- what the server sends ------------------------------------------- */

static void codec_once(struct client *c, unsigned slot, const char *name)
{
	if (slot < 64 && !c->codec_seen[slot]) {
		c->codec_seen[slot] = true;
		rdp_client_say("codec %s", name);
	}
}

static BOOL begin_paint(rdpContext *context)
{
	HGDI_WND hwnd = context->gdi->primary->hdc->hwnd;
	hwnd->invalid->null = TRUE;
	hwnd->ninvalid = 0;
	return TRUE;
}

static BOOL end_paint(rdpContext *context)
{
	struct client *c = (struct client *)context;
	rdpGdi *gdi = context->gdi;
	HGDI_WND hwnd = gdi->primary->hdc->hwnd;
	if (hwnd->invalid->null || hwnd->ninvalid <= 0)
		return TRUE;
	uint64_t t = rdp_client_now_ns();
	c->paints++;
	for (int i = 0; i < hwnd->ninvalid; i++) {
		const GDI_RGN *r = &hwnd->cinvalid[i];
		if (r->w <= 0 || r->h <= 0)
			continue;
		c->rects++;
		painted_mark(c, r->x, r->y, r->w, r->h);
		if (!c->opts->no_rects)
			rdp_client_say("update %d %d %d %d", r->x, r->y, r->w, r->h);
	}
	uint64_t bytes = bytes_received(c);
	rdp_client_say("frame %d %llu %llu", hwnd->ninvalid, (unsigned long long)bytes,
	    (unsigned long long)t);
	if (c->opts->counter || c->opts->cursor_w) {
		long n = c->opts->cursor_w ? decode_cursor(c, gdi) : decode_counter(c, gdi);
		if (n >= 0 && n != c->last_counter) {
			c->last_counter = n;
			c->counters++;
			rdp_client_say("counter %ld %llu %llu", n, (unsigned long long)t, (unsigned long long)bytes);
		}
	}
	return TRUE;
}

/*
 * A graphics reset resizes the desktop in FreeRDP's channel thread, while
 * commands read the screen in the main one: a new screen is not freed
 * under a snapshot.
 */
static pthread_mutex_t screen_lock = PTHREAD_MUTEX_INITIALIZER;

static BOOL desktop_resize(rdpContext *context)
{
	struct client *c = (struct client *)context;
	rdpSettings *s = context->settings;
	pthread_mutex_lock(&screen_lock);
	BOOL ok = gdi_resize(context->gdi, s->DesktopWidth, s->DesktopHeight);
	if (ok && c->painted)
		painted_reset(c, (int)s->DesktopWidth, (int)s->DesktopHeight);
	pthread_mutex_unlock(&screen_lock);
	if (!ok)
		return FALSE;
	rdp_client_say("resize %u %u", s->DesktopWidth, s->DesktopHeight);
	return TRUE;
}

static bool write_screen(const rdpGdi *gdi, const char *path)
{
	pthread_mutex_lock(&screen_lock);
	bool ok = write_ppm(gdi, path);
	pthread_mutex_unlock(&screen_lock);
	return ok;
}

static BOOL surface_bits(rdpContext *context, const SURFACE_BITS_COMMAND *cmd)
{
	struct client *c = (struct client *)context;
	switch (cmd->bmp.codecID) {
	case RDP_CODEC_ID_REMOTEFX: codec_once(c, 1, "rfx"); break;
	case RDP_CODEC_ID_NSCODEC: codec_once(c, 2, "nsc"); break;
	case RDP_CODEC_ID_NONE: codec_once(c, 3, "uncompressed"); break;
	default: codec_once(c, 4, "surface-bits-other"); break;
	}
	return c->surface_bits(context, cmd);
}

static BOOL bitmap_update(rdpContext *context, const BITMAP_UPDATE *bitmap)
{
	struct client *c = (struct client *)context;
	for (UINT32 i = 0; i < bitmap->number; i++) {
		const BITMAP_DATA *b = &bitmap->rectangles[i];
		if (!b->compressed)
			codec_once(c, 5, "bitmap");
		else if (b->bitsPerPixel == 32)
			codec_once(c, 6, "planar");
		else
			codec_once(c, 7, "interleaved");
	}
	return c->bitmap_update(context, bitmap);
}

static UINT gfx_surface_command(RdpgfxClientContext *gfx, const RDPGFX_SURFACE_COMMAND *cmd)
{
	struct client *c = (struct client *)((rdpGdi *)gfx->custom)->context;
	static const struct { UINT32 id; const char *name; } names[] = {
		{RDPGFX_CODECID_UNCOMPRESSED, "gfx-uncompressed"},
		{RDPGFX_CODECID_CAVIDEO, "gfx-remotefx"},
		{RDPGFX_CODECID_CLEARCODEC, "gfx-clearcodec"},
		{RDPGFX_CODECID_PLANAR, "gfx-planar"},
		{RDPGFX_CODECID_AVC420, "gfx-avc420"},
		{RDPGFX_CODECID_ALPHA, "gfx-alpha"},
		{RDPGFX_CODECID_AVC444, "gfx-avc444"},
		{RDPGFX_CODECID_AVC444v2, "gfx-avc444v2"},
		{RDPGFX_CODECID_CAPROGRESSIVE, "gfx-progressive"},
		{RDPGFX_CODECID_CAPROGRESSIVE_V2, "gfx-progressive-v2"},
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].id == cmd->codecId)
			codec_once(c, 16 + (unsigned)i, names[i].name);
	if (cmd->codecId == RDPGFX_CODECID_AVC444 || cmd->codecId == RDPGFX_CODECID_AVC444v2) {
		const RDPGFX_AVC444_BITMAP_STREAM *avc444 = cmd->extra;
		if (avc444->LC == 1)
			c->avc444_luma++;
		else
			c->avc444_both++;
	}
	return c->gfx_surface_command(gfx, cmd);
}

static UINT gfx_solid_fill(RdpgfxClientContext *gfx, const RDPGFX_SOLID_FILL_PDU *pdu)
{
	struct client *c = (struct client *)((rdpGdi *)gfx->custom)->context;
	codec_once(c, 40, "gfx-solidfill");
	return c->gfx_solid_fill(gfx, pdu);
}

static UINT gfx_surface_to_surface(RdpgfxClientContext *gfx,
				   const RDPGFX_SURFACE_TO_SURFACE_PDU *pdu)
{
	struct client *c = (struct client *)((rdpGdi *)gfx->custom)->context;
	codec_once(c, 41, "gfx-surface-to-surface");
	return c->gfx_surface_to_surface(gfx, pdu);
}

static UINT gfx_cache_to_surface(RdpgfxClientContext *gfx, const RDPGFX_CACHE_TO_SURFACE_PDU *pdu)
{
	struct client *c = (struct client *)((rdpGdi *)gfx->custom)->context;
	codec_once(c, 42, "gfx-cache");
	return c->gfx_cache_to_surface(gfx, pdu);
}

static UINT gfx_caps_confirm(RdpgfxClientContext *gfx, const RDPGFX_CAPS_CONFIRM_PDU *pdu)
{
	struct client *c = (struct client *)((rdpGdi *)gfx->custom)->context;
	if (pdu->capsSet)
		rdp_client_say("gfx-caps %x %x", pdu->capsSet->version, pdu->capsSet->flags);
	return c->gfx_caps_confirm ? c->gfx_caps_confirm(gfx, pdu) : CHANNEL_RC_OK;
}

static void channel_connected(void *ctx, ChannelConnectedEventArgs *e)
{
	struct client *c = (struct client *)ctx;
	if (strcmp(e->name, DISP_DVC_CHANNEL_NAME) == 0) {
		c->disp = e->pInterface;
		rdp_client_say("disp-ready");
		return;
	}
	if (strcmp(e->name, RDPGFX_DVC_CHANNEL_NAME) != 0)
		return;
	RdpgfxClientContext *gfx = e->pInterface;
	gdi_graphics_pipeline_init(c->context.gdi, gfx);
	/* Look at what passes, then let the GDI decode it. */
	c->gfx_surface_command = gfx->SurfaceCommand;
	gfx->SurfaceCommand = gfx_surface_command;
	c->gfx_solid_fill = gfx->SolidFill;
	gfx->SolidFill = gfx_solid_fill;
	c->gfx_surface_to_surface = gfx->SurfaceToSurface;
	gfx->SurfaceToSurface = gfx_surface_to_surface;
	c->gfx_cache_to_surface = gfx->CacheToSurface;
	gfx->CacheToSurface = gfx_cache_to_surface;
	c->gfx_caps_confirm = gfx->CapsConfirm;
	gfx->CapsConfirm = gfx_caps_confirm;
}

static void channel_disconnected(void *ctx, ChannelDisconnectedEventArgs *e)
{
	struct client *c = (struct client *)ctx;
	if (strcmp(e->name, DISP_DVC_CHANNEL_NAME) == 0)
		c->disp = NULL;
	if (strcmp(e->name, RDPGFX_DVC_CHANNEL_NAME) == 0)
		gdi_graphics_pipeline_uninit(c->context.gdi, e->pInterface);
}

/* ---- --no-redirection ------------------------------------------------ */

static bool clear_redirection_flag;

/*
 * libfreerdp 2 writes REDIRECTION_SUPPORTED into its cluster data
 * (TS_UD_CS_CLUSTER) whatever its settings say. This program's SSL_write
 * comes before OpenSSL's for libfreerdp too: with --no-redirection it
 * clears the flag in the MCS Connect Initial on its way into TLS.
 */
struct ssl_st;
int SSL_write(struct ssl_st *ssl, const void *buf, int num);
int SSL_write(struct ssl_st *ssl, const void *buf, int num)
{
	static int (*real)(struct ssl_st *, const void *, int);
	if (!real)
		real = (int (*)(struct ssl_st *, const void *, int))dlsym(RTLD_NEXT, "SSL_write");
	const uint8_t *p = buf;
	/* TPKT, X.224 Data, BER Connect-Initial */
	if (!clear_redirection_flag || num < 9 || p[0] != 3 || p[4] != 2 || p[5] != 0xf0 ||
	    p[7] != 0x7f || p[8] != 0x65)
		return real(ssl, buf, num);
	static const uint8_t cluster_header[] = {0x04, 0xc0, 0x0c, 0x00}; /* CS_CLUSTER, 12 */
	uint8_t *copy = malloc((size_t)num);
	if (!copy)
		return -1;
	memcpy(copy, buf, (size_t)num);
	uint8_t *block = memmem(copy, (size_t)num, cluster_header, sizeof cluster_header);
	if (block && block + 8 <= copy + num)
		block[4] &= (uint8_t)~0x01; /* REDIRECTION_SUPPORTED */
	int rc = real(ssl, copy, num);
	free(copy);
	return rc;
}

/* ---- connection ------------------------------------------------------ */

static DWORD check_certificate(struct client *c, const char *fingerprint)
{
	if (!c->opts->fingerprint)
		return 2; /* for this session only: nothing is stored */
	if (fingerprint && strcasecmp(fingerprint, c->opts->fingerprint) == 0)
		return 2;
	fprintf(stderr, "oriel-test-rdpclient: the certificate's fingerprint %s is not %s\n",
		fingerprint ? fingerprint : "(none)", c->opts->fingerprint);
	return 0;
}

/*
 * FreeRDP follows a Server Redirection by itself: it reconnects with the
 * routing token in its X.224 request and the cookie as its password. The
 * reconnection's TLS handshake comes here before the Client Info goes, so
 * the token is said (and the cookie altered for --bad-cookie) here.
 */
static void note_redirection(struct client *c, rdpSettings *s)
{
	static const char prefix[] = "Cookie: msts=";
	if (c->redirect_seen || !(s->RedirectionFlags & LB_LOAD_BALANCE_INFO) ||
	    !s->LoadBalanceInfo || s->LoadBalanceInfoLength <= sizeof(prefix) - 1 + 2 ||
	    s->LoadBalanceInfoLength > 256)
		return;
	c->redirect_seen = true;
	char token[256];
	size_t n = s->LoadBalanceInfoLength - (sizeof(prefix) - 1) - 2;
	memcpy(token, s->LoadBalanceInfo + sizeof(prefix) - 1, n);
	token[n] = 0;
	rdp_client_say("redirected %s", token);
	if (c->opts->bad_cookie && s->RedirectionPassword && s->RedirectionPasswordLength >= 2)
		s->RedirectionPassword[0] ^= 1; /* UTF-16: a hex digit becomes another character */
}

static DWORD verify_certificate(freerdp *instance, const char *host, UINT16 port,
				const char *common_name, const char *subject, const char *issuer,
				const char *fingerprint, DWORD flags)
{
	(void)host, (void)port, (void)common_name, (void)subject, (void)issuer, (void)flags;
	note_redirection((struct client *)instance->context, instance->settings);
	return check_certificate((struct client *)instance->context, fingerprint);
}

static DWORD verify_changed_certificate(freerdp *instance, const char *host, UINT16 port,
					const char *common_name, const char *subject,
					const char *issuer, const char *fingerprint,
					const char *old_subject, const char *old_issuer,
					const char *old_fingerprint, DWORD flags)
{
	(void)host, (void)port, (void)common_name, (void)subject, (void)issuer;
	(void)old_subject, (void)old_issuer, (void)old_fingerprint, (void)flags;
	return check_certificate((struct client *)instance->context, fingerprint);
}

static BOOL pre_connect(freerdp *instance)
{
	struct client *c = (struct client *)instance->context;
	rdpSettings *s = instance->settings;
	s->OsMajorType = OSMAJORTYPE_UNIX;
	s->OsMinorType = OSMINORTYPE_NATIVE_WAYLAND;
	/* Pixels only (and sound with --sound): no clipboard or drives, whichever server. */
	s->AudioPlayback = FALSE;
	s->AudioCapture = FALSE;
	s->RedirectClipboard = FALSE;
	s->DeviceRedirection = FALSE;
	PubSub_SubscribeChannelConnected(instance->context->pubSub, channel_connected);
	PubSub_SubscribeChannelDisconnected(instance->context->pubSub, channel_disconnected);
	if (c->opts->sound && !rdp_client_sound_settings(s, c->opts->sound_dvc,
							      c->opts->sound_format))
		return FALSE;
	if (c->opts->microphone > 0 && !rdp_client_microphone_settings(s, c->opts->microphone))
		return FALSE;
	return freerdp_client_load_addins(instance->context->channels, s);
}

static BOOL post_connect(freerdp *instance)
{
	struct client *c = (struct client *)instance->context;
	if (!gdi_init(instance, PIXEL_FORMAT_BGRX32))
		return FALSE;
	rdpUpdate *u = instance->update;
	u->BeginPaint = begin_paint;
	u->EndPaint = end_paint;
	u->DesktopResize = desktop_resize;
	c->surface_bits = u->SurfaceBits;
	u->SurfaceBits = surface_bits;
	c->bitmap_update = u->BitmapUpdate;
	u->BitmapUpdate = bitmap_update;
	if (!strcmp(c->opts->mode, "snapshot"))
		painted_reset(c, (int)instance->context->gdi->width,
			      (int)instance->context->gdi->height);
	return TRUE;
}

static void post_disconnect(freerdp *instance)
{
	gdi_free(instance);
}

static BOOL client_new(freerdp *instance, rdpContext *context)
{
	(void)context;
	instance->PreConnect = pre_connect;
	instance->PostConnect = post_connect;
	instance->PostDisconnect = post_disconnect;
	instance->VerifyCertificateEx = verify_certificate;
	instance->VerifyChangedCertificateEx = verify_changed_certificate;
	return TRUE;
}

static char *read_password(const char *path)
{
	if (!path) {
		const char *env = getenv("ORIEL_RDP_PASSWORD");
		return strdup(env ? env : "");
	}
	char buf[512];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	return strdup(buf);
}

static bool apply_settings(rdpSettings *s, const struct opts *o)
{
	char *password = read_password(o->password_file);
	if (!password)
		return false;
	const char *user = o->user ? o->user : getenv("ORIEL_RDP_USER");
	bool ok = freerdp_settings_set_string(s, FreeRDP_ServerHostname, o->host) &&
		  freerdp_settings_set_uint32(s, FreeRDP_ServerPort, (UINT32)o->port) &&
		  freerdp_settings_set_string(s, FreeRDP_Username, user ? user : "") &&
		  freerdp_settings_set_string(s, FreeRDP_Password, password);
	memset(password, 0, strlen(password));
	free(password);
	if (!ok)
		return false;
	s->DesktopWidth = (UINT32)o->width;
	s->DesktopHeight = (UINT32)o->height;
	s->ColorDepth = (UINT32)o->bpp;
	s->SoftwareGdi = TRUE;
	/* TLS only, as xfreerdp /sec:tls: the logon goes inside TLS. */
	s->RdpSecurity = FALSE;
	s->TlsSecurity = TRUE;
	s->NlaSecurity = FALSE;
	s->ExtSecurity = FALSE;
	s->IgnoreCertificate = FALSE;
	s->AutoLogonEnabled = TRUE;
	/*
	 * The whole of --timeout for the connection, activation included (9 s
	 * by default, as xfreerdp's /timeout): through the gateway that covers
	 * the start of her session, on a machine the tests load.
	 */
	if (o->timeout * 1000 > s->TcpAckTimeout)
		s->TcpAckTimeout = (UINT32)(o->timeout * 1000);
	s->RemoteFxCodec = o->rfx;
	s->KeyboardLayout = o->kbd;
	s->NSCodec = FALSE;
	s->FastPathOutput = TRUE;
	s->FrameMarkerCommandEnabled = TRUE;
	s->SurfaceFrameMarkerEnabled = TRUE;
	s->SupportGraphicsPipeline = o->gfx != GFX_OFF;
	s->GfxH264 = o->gfx == GFX_AVC420 || o->gfx == GFX_AVC444;
	s->GfxAVC444 = o->gfx == GFX_AVC444;
	s->GfxAVC444v2 = o->gfx == GFX_AVC444;
	s->GfxProgressive = o->gfx == GFX_NONH264;
	s->GfxSmallCache = TRUE;
	s->GfxThinClient = FALSE;
	if (o->n_monitors > 0) {
		/* As xfreerdp /multimon: Client Monitor Data, and Display Control. */
		s->UseMultimon = TRUE;
		s->ForceMultimon = TRUE;
		s->SupportDisplayControl = TRUE;
		if (s->MonitorDefArraySize < (UINT32)o->n_monitors)
			return false;
		s->MonitorCount = (UINT32)o->n_monitors;
		int x1 = 0, y1 = 0, x2 = 0, y2 = 0;
		for (int i = 0; i < o->n_monitors; i++) {
			s->MonitorDefArray[i] = o->monitors[i];
			const rdpMonitor *m = &o->monitors[i];
			x1 = m->x < x1 ? m->x : x1;
			y1 = m->y < y1 ? m->y : y1;
			x2 = m->x + m->width > x2 ? m->x + m->width : x2;
			y2 = m->y + m->height > y2 ? m->y + m->height : y2;
		}
		s->DesktopWidth = (UINT32)(x2 - x1);
		s->DesktopHeight = (UINT32)(y2 - y1);
	}
	return true;
}

/* WxH+X+Y,... into monitors (the first primary); their number, or -1. */
static int parse_monitors(const char *spec, rdpMonitor *monitors, int max)
{
	int n = 0;
	for (const char *p = spec; *p;) {
		int w, h, x, y, used = 0;
		if (n == max || sscanf(p, "%dx%d%d%d%n", &w, &h, &x, &y, &used) != 4 || w <= 0 ||
		    h <= 0)
			return -1;
		monitors[n] = (rdpMonitor){.x = x, .y = y, .width = w, .height = h,
					   .is_primary = n == 0};
		n++;
		p += used;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return n > 0 ? n : -1;
}

/* Display Control: a new layout. */
static bool send_layout(struct client *c, const char *spec)
{
	rdpMonitor m[16];
	int n = parse_monitors(spec, m, 16);
	if (n < 0 || !c->disp)
		return false;
	DISPLAY_CONTROL_MONITOR_LAYOUT layout[16];
	for (int i = 0; i < n; i++)
		layout[i] = (DISPLAY_CONTROL_MONITOR_LAYOUT){
			.Flags = m[i].is_primary ? DISPLAY_CONTROL_MONITOR_PRIMARY : 0,
			.Left = m[i].x, .Top = m[i].y,
			.Width = (UINT32)m[i].width, .Height = (UINT32)m[i].height,
			.Orientation = ORIENTATION_LANDSCAPE,
			.DesktopScaleFactor = 100, .DeviceScaleFactor = 100,
		};
	return c->disp->SendMonitorLayout(c->disp, (UINT32)n, layout) == CHANNEL_RC_OK;
}

/* A left click at desktop coordinates x,y. */
static bool click(struct client *c, const char *args)
{
	int x, y;
	if (sscanf(args, "%d %d", &x, &y) != 2 || x < 0 || y < 0 || x > 65535 || y > 65535)
		return false;
	rdpInput *input = c->context.input;
	return freerdp_input_send_mouse_event(input, PTR_FLAGS_MOVE, (UINT16)x, (UINT16)y) &&
	       freerdp_input_send_mouse_event(input, PTR_FLAGS_DOWN | PTR_FLAGS_BUTTON1,
					      (UINT16)x, (UINT16)y) &&
	       freerdp_input_send_mouse_event(input, PTR_FLAGS_BUTTON1, (UINT16)x, (UINT16)y);
}

static int entry_points(RDP_CLIENT_ENTRY_POINTS *ep)
{
	memset(ep, 0, sizeof *ep);
	ep->Version = RDP_CLIENT_INTERFACE_VERSION;
	ep->Size = sizeof(RDP_CLIENT_ENTRY_POINTS_V1);
	ep->ContextSize = sizeof(struct client);
	ep->ClientNew = client_new;
	return 0;
}

/* ---- the loop -------------------------------------------------------- */

static void stats(struct client *c)
{
	rdp_client_say("stats %llu %llu %llu %llu %llu %llu", (unsigned long long)c->paints,
	    (unsigned long long)c->rects, (unsigned long long)bytes_received(c),
	    (unsigned long long)c->counters, (unsigned long long)c->avc444_both,
	    (unsigned long long)c->avc444_luma);
}

/* Types utf8 as Unicode keyboard events; false on bad UTF-8. */
static bool type_unicode(struct client *c, const char *utf8)
{
	rdpInput *input = c->context.input;
	for (const unsigned char *p = (const unsigned char *)utf8; *p;) {
		uint32_t cp;
		int n = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 :
			(*p >> 3) == 30 ? 4 : 0;
		if (!n)
			return false;
		cp = n == 1 ? *p : *p & (0x7f >> n);
		for (int i = 1; i < n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		p += n;
		if (cp == '\\' && *p == 'n') {
			cp = '\r'; /* the line's end, typed as Return */
			p++;
		}
		UINT16 units[2] = { (UINT16)cp, 0 };
		int n_units = 1;
		if (cp >= 0x10000) {
			units[0] = (UINT16)(0xd800 + ((cp - 0x10000) >> 10));
			units[1] = (UINT16)(0xdc00 + ((cp - 0x10000) & 0x3ff));
			n_units = 2;
		}
		for (int i = 0; i < n_units; i++) {
			if (!freerdp_input_send_unicode_keyboard_event(input, 0, units[i]) ||
			    !freerdp_input_send_unicode_keyboard_event(input, KBD_FLAGS_RELEASE,
									units[i]))
				return false;
		}
	}
	return true;
}

/* Sends "1d+ e038+ 10 e038- 1d-" style scancodes; false on a bad one. */
static bool send_keys(struct client *c, char *keys)
{
	rdpInput *input = c->context.input;
	for (char *key = strtok(keys, " "); key; key = strtok(NULL, " ")) {
		UINT16 flags = 0;
		if (!strncmp(key, "e0", 2) && strlen(key) > 3) {
			flags |= KBD_FLAGS_EXTENDED;
			key += 2;
		}
		char *end;
		unsigned long code = strtoul(key, &end, 16);
		if (end == key || code == 0 || code > 0xff || (*end && end[1]) ||
		    (*end && *end != '+' && *end != '-'))
			return false;
		bool press = *end != '-', release = *end != '+';
		if ((press && !freerdp_input_send_keyboard_event(input, flags, (UINT16)code)) ||
		    (release && !freerdp_input_send_keyboard_event(input, flags | KBD_FLAGS_RELEASE,
								   (UINT16)code)))
			return false;
	}
	return true;
}

/* One command from stdin; false when told to quit. */
static bool command(struct client *c, char *line)
{
	line[strcspn(line, "\r\n")] = 0;
	if (!*line)
		return true;
	if (!strcmp(line, "quit"))
		return false;
	if (!strncmp(line, "snapshot ", 9)) {
		if (!write_screen(c->context.gdi, line + 9)) {
			rdp_client_say("error cannot write %s", line + 9);
			return true;
		}
	} else if (!strcmp(line, "stats")) {
		stats(c);
	} else if (!strncmp(line, "click ", 6)) {
		if (!click(c, line + 6)) {
			rdp_client_say("error cannot click %s", line + 6);
			return true;
		}
	} else if (!strncmp(line, "layout ", 7)) {
		if (!send_layout(c, line + 7)) {
			rdp_client_say("error cannot send the layout %s", line + 7);
			return true;
		}
	} else if (!strncmp(line, "keys ", 5)) {
		char *keys = strdup(line + 5); /* strtok cuts it; `done` says the line */
		bool ok = keys && send_keys(c, keys);
		free(keys);
		if (!ok) {
			rdp_client_say("error cannot send the keys %s", line + 5);
			return true;
		}
	} else if (!strncmp(line, "unicode ", 8)) {
		if (!type_unicode(c, line + 8)) {
			rdp_client_say("error cannot type %s", line + 8);
			return true;
		}
	} else {
		rdp_client_say("error unknown command %s", line);
		return true;
	}
	rdp_client_say("done %s", line);
	return true;
}

static int exit_for_error(rdpContext *context)
{
	UINT32 e = freerdp_get_last_error(context);
	switch (e) {
	case FREERDP_ERROR_AUTHENTICATION_FAILED:
	case FREERDP_ERROR_CONNECT_LOGON_FAILURE:
	case FREERDP_ERROR_CONNECT_WRONG_PASSWORD:
	case FREERDP_ERROR_CONNECT_ACCESS_DENIED:
	case FREERDP_ERROR_CONNECT_ACCOUNT_RESTRICTION:
	case FREERDP_ERROR_SERVER_INSUFFICIENT_PRIVILEGES:
		rdp_client_say("auth-failed");
		return 2;
	case FREERDP_ERROR_TLS_CONNECT_FAILED:
		rdp_client_say("tls-failed");
		return 4;
	default:
		break;
	}
	rdp_client_say("error %s (0x%08x)", freerdp_get_last_error_string(e), e);
	return 1;
}

static int run(struct client *c)
{
	freerdp *instance = c->context.instance;
	struct opts *o = c->opts;
	uint64_t deadline = rdp_client_now_ns() + (uint64_t)(o->timeout * 1e9);
	bool snapshot = !strcmp(o->mode, "snapshot");
	bool input = !snapshot;
	HANDLE in_event = input ? CreateFileDescriptorEvent(NULL, TRUE, FALSE, STDIN_FILENO,
							    WINPR_FD_READ)
				: NULL;
	char buf[4096];
	size_t have = 0;
	int status = 0;

	while (!freerdp_shall_disconnect(instance)) {
		HANDLE handles[MAXIMUM_WAIT_OBJECTS];
		DWORD n = freerdp_get_event_handles(&c->context, handles, MAXIMUM_WAIT_OBJECTS - 1);
		if (n == 0) {
			rdp_client_say("error no event handles");
			return 1;
		}
		if (in_event)
			handles[n++] = in_event;
		WaitForMultipleObjects(n, handles, FALSE, 100);
		if (!freerdp_check_event_handles(&c->context)) {
			if (freerdp_get_last_error(&c->context) == FREERDP_ERROR_SUCCESS ||
			    freerdp_shall_disconnect(instance))
				break;
			return exit_for_error(&c->context);
		}
		if (snapshot) {
			if (c->painted && c->unpainted == 0) {
				if (!write_screen(c->context.gdi, o->arg)) {
					rdp_client_say("error cannot write %s", o->arg);
					return 1;
				}
				rdp_client_say("done snapshot %s", o->arg);
				return 0;
			}
			if (rdp_client_now_ns() > deadline) {
				rdp_client_say("error timed out: %llu pixels never painted",
				    (unsigned long long)c->unpainted);
				return 1;
			}
			continue;
		}
		struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
		while (in_event && poll(&pfd, 1, 0) > 0) {
			ssize_t r = read(STDIN_FILENO, buf + have, sizeof buf - 1 - have);
			if (r <= 0) {
				CloseHandle(in_event);
				in_event = NULL;
				status = -1;
				break;
			}
			have += (size_t)r;
			buf[have] = 0;
			char *nl;
			while ((nl = memchr(buf, '\n', have))) {
				*nl = 0;
				bool go_on = command(c, buf);
				size_t used = (size_t)(nl + 1 - buf);
				memmove(buf, nl + 1, have - used);
				have -= used;
				if (!go_on)
					goto quit;
			}
			if (have == sizeof buf - 1)
				have = 0; /* a line too long: dropped */
		}
		if (status < 0)
			goto quit;
	}
	if (in_event)
		CloseHandle(in_event);
	rdp_client_say("disconnected");
	return 3;
quit:
	if (in_event)
		CloseHandle(in_event);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: oriel-test-rdpclient [--user NAME] [--password-file FILE]\n"
		"         [--fingerprint FP] [--gfx off|avc420|avc444|nonh264] [--rfx]\n"
		"         [--size WxH] [--bpp N] [--monitors WxH+X+Y,...] [--no-rects]\n"
		"         [--counter | --cursor WxH]\n"
		"         [--timeout SECONDS] [--bad-cookie] [--no-redirection] [--bind ADDR]\n"
		"         [--kbd ID] [--sound FILE [--sound-dvc] [--sound-format pcm|aac]\n"
		"         [--sound-slow FACTOR]] [--microphone FREQ]\n"
		"         HOST:PORT snapshot FILE.ppm | watch\n");
}

/* --bind: every connection FreeRDP makes to the relay goes on from bind_addr. */
struct relay {
	int listen_fd;
	struct sockaddr_in local, remote;
};

static void *relay_pump(void *data)
{
	int *fds = data;
	struct pollfd p[2] = {{.fd = fds[0], .events = POLLIN}, {.fd = fds[1], .events = POLLIN}};
	char buf[16384];
	for (;;) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		bool done = false;
		for (int i = 0; i < 2 && !done; i++) {
			if (!p[i].revents)
				continue;
			ssize_t n = read(p[i].fd, buf, sizeof(buf));
			done = n <= 0 || write(p[1 - i].fd, buf, (size_t)n) != n;
		}
		if (done)
			break;
	}
	close(fds[0]);
	close(fds[1]);
	free(fds);
	return NULL;
}

static void *relay_accept(void *data)
{
	struct relay *r = data;
	for (;;) {
		int in = accept(r->listen_fd, NULL, NULL);
		if (in < 0)
			continue;
		int out = socket(AF_INET, SOCK_STREAM, 0);
		if (out < 0 || bind(out, (struct sockaddr *)&r->local, sizeof(r->local)) < 0 ||
		    connect(out, (struct sockaddr *)&r->remote, sizeof(r->remote)) < 0) {
			fprintf(stderr, "oriel-test-rdpclient: the relay cannot connect: %s\n",
				strerror(errno));
			close(in);
			if (out >= 0)
				close(out);
			continue;
		}
		int *fds = malloc(2 * sizeof(int));
		fds[0] = in;
		fds[1] = out;
		pthread_t thread;
		if (pthread_create(&thread, NULL, relay_pump, fds) == 0)
			pthread_detach(thread);
	}
	return NULL;
}

/* The relay's port on 127.0.0.1, or -1. */
static int relay_start(const char *bind_addr, const char *host, int port)
{
	static struct relay r;
	r.local = (struct sockaddr_in){.sin_family = AF_INET};
	r.remote = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	if (inet_pton(AF_INET, bind_addr, &r.local.sin_addr) != 1 ||
	    inet_pton(AF_INET, host, &r.remote.sin_addr) != 1) {
		rdp_client_say("error --bind wants IPv4 addresses (%s, %s)", bind_addr, host);
		return -1;
	}
	struct sockaddr_in relay = {.sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(relay);
	r.listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	pthread_t thread;
	if (r.listen_fd < 0 || bind(r.listen_fd, (struct sockaddr *)&relay, sizeof(relay)) < 0 ||
	    listen(r.listen_fd, 4) < 0 ||
	    getsockname(r.listen_fd, (struct sockaddr *)&relay, &len) < 0 ||
	    pthread_create(&thread, NULL, relay_accept, &r) != 0) {
		rdp_client_say("error cannot start the relay: %s", strerror(errno));
		return -1;
	}
	pthread_detach(thread);
	return ntohs(relay.sin_port);
}

int main(int argc, char **argv)
{
	struct opts o = {.width = 1024, .height = 768, .timeout = 20, .gfx = GFX_OFF, .bpp = 32};
	const char *bind_addr = NULL;
	static const struct option longopts[] = {
		{"user", required_argument, 0, 'u'},
		{"password-file", required_argument, 0, 'p'},
		{"fingerprint", required_argument, 0, 'f'},
		{"gfx", required_argument, 0, 'g'},
		{"rfx", no_argument, 0, 'r'},
		{"size", required_argument, 0, 's'},
		{"monitors", required_argument, 0, 'm'},
		{"no-rects", no_argument, 0, 'n'},
		{"counter", no_argument, 0, 'c'},
		{"cursor", required_argument, 0, 'C'},
		{"timeout", required_argument, 0, 't'},
		{"bad-cookie", no_argument, 0, 'B'},
		{"no-redirection", no_argument, 0, 'R'},
		{"kbd", required_argument, 0, 'k'},
		{"bind", required_argument, 0, 'b'},
		{"bpp", required_argument, 0, 'd'},
		{"sound", required_argument, 0, 'S'},
		{"sound-dvc", no_argument, 0, 'D'},
		{"sound-format", required_argument, 0, 'F'},
		{"microphone", required_argument, 0, 'M'},
		{"sound-slow", required_argument, 0, 'L'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'u': o.user = optarg; break;
		case 'p': o.password_file = optarg; break;
		case 'f': o.fingerprint = optarg; break;
		case 'g': {
			bool found = false;
			for (int i = 0; i < 4; i++)
				if (!strcmp(optarg, gfx_names[i])) {
					o.gfx = (enum gfx_mode)i;
					found = true;
				}
			if (!found) {
				usage();
				return 1;
			}
			break;
		}
		case 'r': o.rfx = true; break;
		case 'd':
			o.bpp = atoi(optarg);
			if (o.bpp != 8 && o.bpp != 15 && o.bpp != 16 && o.bpp != 24 && o.bpp != 32) {
				usage();
				return 1;
			}
			break;
		case 's':
			if (sscanf(optarg, "%dx%d", &o.width, &o.height) != 2 || o.width < 64 ||
			    o.height < 64 || o.width > 8192 || o.height > 8192) {
				usage();
				return 1;
			}
			break;
		case 'm':
			o.n_monitors = parse_monitors(optarg, o.monitors, 16);
			if (o.n_monitors < 0) {
				usage();
				return 1;
			}
			break;
		case 'n': o.no_rects = true; break;
		case 'c': o.counter = true; break;
		case 'C':
			if (sscanf(optarg, "%dx%d", &o.cursor_w, &o.cursor_h) != 2 || o.cursor_w <= 0 ||
			    o.cursor_h <= 0) {
				usage();
				return 1;
			}
			break;
		case 't': o.timeout = atof(optarg); break;
		case 'B': o.bad_cookie = true; break;
		case 'R': clear_redirection_flag = true; break;
		case 'k': o.kbd = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'b': bind_addr = optarg; break;
		case 'S': o.sound = optarg; break;
		case 'D': o.sound_dvc = true; break;
		case 'F':
			if (!strcmp(optarg, "pcm"))
				o.sound_format = WAVE_FORMAT_PCM;
			else if (!strcmp(optarg, "aac"))
				o.sound_format = WAVE_FORMAT_AAC_MS;
			else {
				usage();
				return 1;
			}
			break;
		case 'M': o.microphone = atof(optarg); break;
		case 'L': o.sound_slow = atof(optarg); break;
		default: usage(); return opt == 'h' ? 0 : 1;
		}
	}
	if (argc - optind < 2) {
		usage();
		return 1;
	}
	char *colon = strrchr(argv[optind], ':');
	if (!colon) {
		usage();
		return 1;
	}
	*colon = 0;
	o.host = argv[optind];
	o.port = atoi(colon + 1);
	if (bind_addr) {
		o.port = relay_start(bind_addr, o.host, o.port);
		if (o.port < 0)
			return 1;
		o.host = "localhost";
	}
	o.mode = argv[optind + 1];
	o.arg = argc - optind > 2 ? argv[optind + 2] : NULL;
	if (strcmp(o.mode, "watch") && !(strcmp(o.mode, "snapshot") == 0 && o.arg)) {
		usage();
		return 1;
	}

	if (o.sound && !rdp_client_sound_init(o.sound, o.sound_slow)) {
		rdp_client_say("error cannot write %s", o.sound);
		return 1;
	}
	RDP_CLIENT_ENTRY_POINTS ep;
	entry_points(&ep);
	rdpContext *context = freerdp_client_context_new(&ep);
	if (!context) {
		rdp_client_say("error cannot make a FreeRDP context");
		return 1;
	}
	/* After the context, which registers FreeRDP's own provider. */
	freerdp_register_addin_provider(rdp_client_sound_addins, 0);
	struct client *c = (struct client *)context;
	c->opts = &o;
	c->sock = -1;
	c->last_counter = -1;
	if (!apply_settings(context->settings, &o)) {
		rdp_client_say("error cannot read the password or apply the settings");
		freerdp_client_context_free(context);
		return 1;
	}
	if (freerdp_client_start(context) != 0) {
		rdp_client_say("error freerdp_client_start failed");
		freerdp_client_context_free(context);
		return 1;
	}
	int status;
	if (!freerdp_connect(context->instance)) {
		status = exit_for_error(context);
	} else {
		rdp_client_say("connected %u %u %s", context->gdi->width, context->gdi->height,
			       gfx_names[o.gfx]);
		if (o.n_monitors > 0)
			rdp_client_say("monitors %u", context->settings->MonitorCount);
		status = run(c);
		freerdp_disconnect(context->instance);
	}
	freerdp_client_stop(context);
	free(c->painted);
	freerdp_client_context_free(context);
	return status;
}
