/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <png.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "capture/png_writer.h"
#include "common/util.h"

/* How long a pipe or socket reader may leave the PNG unread. */
#define WRITE_TIMEOUT_MS 5000
/* Screenshots favour speed: level 1 is several times faster than 6. */
#define COMPRESSION_LEVEL 1

struct png_memory {
	uint8_t *data;
	size_t size, capacity;
	int error; /* negative errno that stopped encoding */
};

static void handle_png_error(png_structp png, png_const_charp message) {
	wlr_log(WLR_ERROR, "libpng: %s", message);
	png_longjmp(png, 1);
}

static void handle_png_warning(png_structp png, png_const_charp message) {
	wlr_log(WLR_DEBUG, "libpng: %s", message);
}

static void write_memory(png_structp png, png_bytep bytes, png_size_t length) {
	struct png_memory *mem = png_get_io_ptr(png);
	if (length > SIZE_MAX - mem->size) {
		mem->error = -EOVERFLOW;
		png_error(png, "PNG too large");
	}
	if (mem->size + length > mem->capacity) {
		size_t capacity = mem->capacity ? mem->capacity : 64 * 1024;
		while (capacity < mem->size + length) {
			capacity = capacity > SIZE_MAX / 2 ? mem->size + length : capacity * 2;
		}
		/* Sized by the peer's request: fail the request, not the compositor. */
		uint8_t *data = realloc(mem->data, capacity);
		if (!data) {
			mem->error = -ENOMEM;
			png_error(png, "out of memory");
		}
		mem->data = data;
		mem->capacity = capacity;
	}
	memcpy(mem->data + mem->size, bytes, length);
	mem->size += length;
}

static void flush_memory(png_structp png) {
}

int png_encode(const struct png_pixels *pixels, uint8_t **png_out, size_t *png_size) {
	if (!pixels->data || pixels->width == 0 || pixels->height == 0 ||
			pixels->width > PNG_UINT_31_MAX / 4 || pixels->height > PNG_UINT_31_MAX ||
			pixels->stride < pixels->width * 4) {
		return -EINVAL;
	}
	struct png_memory mem = {0};
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
		handle_png_error, handle_png_warning);
	if (!png) {
		return -ENOMEM;
	}
	png_infop info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(mem.data);
		return mem.error ? mem.error : -EIO;
	}
	png_set_write_fn(png, &mem, write_memory, flush_memory);
	png_set_IHDR(png, info, pixels->width, pixels->height, 8,
		pixels->alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
		PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_compression_level(png, COMPRESSION_LEVEL);
	png_write_info(png, info);
	/* Input rows always have 4 bytes a pixel; libpng reorders and strips. */
	if (pixels->order == PNG_PIXELS_BGRA) {
		png_set_bgr(png);
	}
	if (!pixels->alpha) {
		png_set_filler(png, 0, PNG_FILLER_AFTER);
	}
	for (uint32_t y = 0; y < pixels->height; y++) {
		png_write_row(png, (png_const_bytep)(pixels->data + (size_t)y * pixels->stride));
	}
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	*png_out = mem.data;
	*png_size = mem.size;
	return 0;
}


/* Waits until fd takes more bytes, at most until deadline. */
static int wait_writable(int fd, int64_t deadline) {
	for (;;) {
		int64_t left = deadline - monotonic_ms();
		if (left <= 0) {
			return -ETIMEDOUT;
		}
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		int n = poll(&pfd, 1, (int)left);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			return -errno;
		}
		if (n == 0) {
			return -ETIMEDOUT;
		}
		if (pfd.revents & POLLERR) {
			return -EPIPE; /* the read end is closed */
		}
		if (pfd.revents & POLLNVAL) {
			return -EBADF;
		}
		return 0;
	}
}

/*
 * A pipe: poll says at least PIPE_BUF bytes fit, and writes of at most
 * PIPE_BUF then never block, whatever O_NONBLOCK the peer's shared file
 * description has. SIGPIPE from a closed read end is blocked and consumed,
 * so it turns into -EPIPE instead of ending the compositor.
 */
static int write_pipe(int fd, const uint8_t *buf, size_t len) {
	sigset_t sigpipe, old_mask, pending;
	sigemptyset(&sigpipe);
	sigaddset(&sigpipe, SIGPIPE);
	sigpending(&pending);
	bool was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &sigpipe, &old_mask);

	int64_t deadline = monotonic_ms() + WRITE_TIMEOUT_MS;
	int ret = 0;
	while (len > 0) {
		ret = wait_writable(fd, deadline);
		if (ret < 0) {
			break;
		}
		ssize_t n = write(fd, buf, len < PIPE_BUF ? len : PIPE_BUF);
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			continue;
		}
		if (n < 0) {
			ret = -errno;
			break;
		}
		buf += n;
		len -= n;
	}

	if (!was_pending) {
		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE)) {
			const struct timespec zero = {0};
			sigtimedwait(&sigpipe, NULL, &zero);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	return ret;
}

/* A socket: MSG_DONTWAIT and MSG_NOSIGNAL work per call, no flags shared. */
static int write_socket(int fd, const uint8_t *buf, size_t len) {
	int64_t deadline = monotonic_ms() + WRITE_TIMEOUT_MS;
	while (len > 0) {
		ssize_t n = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			int ret = wait_writable(fd, deadline);
			if (ret < 0) {
				return ret;
			}
			continue;
		}
		if (n < 0) {
			return -errno;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/* A file or device: it takes what is written without waiting on a peer. */
static int write_file(int fd, const uint8_t *buf, size_t len) {
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			return -errno;
		}
		if (n == 0) {
			return -EIO;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

int png_write_fd(const struct png_pixels *pixels, int fd) {
	if (fd < 0) {
		return -EBADF;
	}
	uint8_t *png = NULL;
	size_t size = 0;
	int ret = png_encode(pixels, &png, &size);
	if (ret < 0) {
		return ret;
	}
	/* Our own descriptor: the caller's fd is never closed under it. */
	int out = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (out < 0) {
		ret = -errno;
		free(png);
		return ret;
	}
	struct stat st;
	if (fstat(out, &st) < 0) {
		ret = -errno;
	} else if (S_ISFIFO(st.st_mode)) {
		ret = write_pipe(out, png, size);
	} else if (S_ISSOCK(st.st_mode)) {
		ret = write_socket(out, png, size);
	} else if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
	} else {
		ret = write_file(out, png, size);
	}
	close(out);
	free(png);
	return ret;
}
