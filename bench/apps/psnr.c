/* SPDX-License-Identifier: MIT */
/*
 * psnr — how far one picture is from another: PSNR over R, G and B (dB;
 * "inf" when equal), the largest difference of a channel, and how many
 * pixels differ. Each picture is a PNG (orielctl screenshot) or a binary
 * PPM (oriel-test-rdpclient's snapshot). Prints
 *   psnr DB MAXDIFF DIFFERING_PIXELS PIXELS
 *
 * Build: cc -O2 -o psnr psnr.c -lpng -lm
 */
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct picture {
	unsigned w, h;
	uint8_t *rgb;
};

static int read_ppm(const char *path, struct picture *p)
{
	FILE *f = fopen(path, "rb");
	int maxval;
	if (!f || fscanf(f, "P6 %u %u %d", &p->w, &p->h, &maxval) != 3 || maxval != 255 ||
	    fgetc(f) == EOF) {
		if (f)
			fclose(f);
		return -1;
	}
	size_t size = (size_t)p->w * p->h * 3;
	p->rgb = malloc(size);
	int ok = p->rgb && fread(p->rgb, 1, size, f) == size;
	fclose(f);
	return ok ? 0 : -1;
}

static int read_png(const char *path, struct picture *p)
{
	png_image image = {.version = PNG_IMAGE_VERSION};
	if (!png_image_begin_read_from_file(&image, path))
		return -1;
	image.format = PNG_FORMAT_RGB;
	p->w = image.width;
	p->h = image.height;
	p->rgb = malloc(PNG_IMAGE_SIZE(image));
	if (!p->rgb || !png_image_finish_read(&image, NULL, p->rgb, 0, NULL)) {
		png_image_free(&image);
		return -1;
	}
	return 0;
}

static int read_picture(const char *path, struct picture *p)
{
	FILE *f = fopen(path, "rb");
	char magic[2] = {0};
	if (!f)
		return -1;
	size_t got = fread(magic, 1, 2, f);
	fclose(f);
	if (got == 2 && magic[0] == 'P' && magic[1] == '6')
		return read_ppm(path, p);
	return read_png(path, p);
}

int main(int argc, char **argv)
{
	struct picture a = {0}, b = {0};
	if (argc != 3) {
		fprintf(stderr, "usage: psnr A B (PNG or binary PPM)\n");
		return 2;
	}
	if (read_picture(argv[1], &a) < 0 || read_picture(argv[2], &b) < 0) {
		fprintf(stderr, "psnr: cannot read %s or %s\n", argv[1], argv[2]);
		return 1;
	}
	if (a.w != b.w || a.h != b.h) {
		fprintf(stderr, "psnr: %ux%u against %ux%u\n", a.w, a.h, b.w, b.h);
		return 1;
	}
	size_t pixels = (size_t)a.w * a.h, differing = 0;
	double sum = 0;
	int maxdiff = 0;
	for (size_t i = 0; i < pixels; i++) {
		int differs = 0;
		for (int ch = 0; ch < 3; ch++) {
			int d = abs((int)a.rgb[i * 3 + ch] - (int)b.rgb[i * 3 + ch]);
			sum += (double)d * d;
			maxdiff = d > maxdiff ? d : maxdiff;
			differs |= d;
		}
		differing += differs != 0;
	}
	double mse = sum / ((double)pixels * 3);
	if (mse == 0)
		printf("psnr inf 0 0 %zu\n", pixels);
	else
		printf("psnr %.2f %d %zu %zu\n", 10 * log10(255.0 * 255.0 / mse), maxdiff, differing,
		       pixels);
	return 0;
}
