/* SPDX-License-Identifier: MIT */
/*
 * The framebuffer's channel order follows the viewers. libvncserver
 * translates every pixel it sends through lookup tables unless the
 * viewer's pixel format is the server's; most viewers ask for 32-bit
 * true colour with 8-bit channels, noVNC and libvncclient with red in the
 * low byte, TigerVNC with red in the high byte. So when a viewer chooses
 * such a format, the framebuffer takes that byte order (the pixels are
 * swapped in place once) and its raw and Tight updates go out untranslated;
 * the other viewers are translated from the new order.
 */
#include <stdlib.h>
#include <wlr/util/log.h>
#include "capture/pixel_copy.h"
#include "remote/vnc/vnc_private.h"

/* Whether format is 32-bit 8-bit-channel true colour, and its byte order. */
static bool plain_32bit(const rfbPixelFormat *format, bool *rgbx) {
	if (format->bitsPerPixel != 32 || format->depth < 24 || !format->trueColour ||
			format->bigEndian || format->redMax != 255 || format->greenMax != 255 ||
			format->blueMax != 255 || format->greenShift != 8) {
		return false;
	}
	if (format->redShift == 0 && format->blueShift == 16) {
		*rgbx = true;
		return true;
	}
	if (format->redShift == 16 && format->blueShift == 0) {
		*rgbx = false;
		return true;
	}
	return false;
}

void vnc_format_apply(struct vnc_server *vnc) {
	rfbPixelFormat *format = &vnc->screen->serverFormat;
	/*
	 * 24 bits of colour in 32-bit pixels, as viewers ask: with the
	 * default depth 32 no viewer's format would ever equal the server's.
	 */
	format->depth = 24;
	format->redShift = vnc->fb_rgbx ? 0 : 16;
	format->greenShift = 8;
	format->blueShift = vnc->fb_rgbx ? 16 : 0;
	/* Every viewer's translation depends on the server's format. */
	rfbClientIteratorPtr it = rfbGetClientIterator(vnc->screen);
	rfbClientPtr cl;
	while ((cl = rfbClientIteratorNext(it))) {
		rfbSetTranslateFunction(cl);
	}
	rfbReleaseClientIterator(it);
}

/* libvncserver's setTranslateFunction: a viewer chose its pixel format. */
static rfbBool set_translate_function(rfbClientPtr cl) {
	struct vnc_server *vnc = cl->screen->screenData;
	bool rgbx;
	if (plain_32bit(&cl->format, &rgbx) && rgbx != vnc->fb_rgbx) {
		size_t pixels = (size_t)vnc->width * vnc->height;
		if (!vnc->fb_released) {
			/* A released framebuffer comes back in the new order (vnc_fb.c). */
			pixel_swap_rb(vnc->fb, pixels);
		}
		vnc->fb_rgbx = rgbx;
		wlr_log(WLR_DEBUG, "VNC: framebuffer bytes are now %s", rgbx ? "RGBX" : "BGRX");
		vnc_format_apply(vnc); /* this viewer included */
		return TRUE;
	}
	return rfbSetTranslateFunction(cl);
}

void vnc_format_init(struct vnc_server *vnc) {
	vnc->fb_rgbx = true;
	vnc->screen->setTranslateFunction = set_translate_function;
	vnc_format_apply(vnc);
}
