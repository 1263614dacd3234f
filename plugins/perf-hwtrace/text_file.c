// SPDX-License-Identifier: GPL-2.0
/*
 * text_file.c - a small file read whole, as a string.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "text_file.h"

char *text_file__read(const char *path, size_t max)
{
	size_t len = 0, cap = 4096;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap || !buf) {
			char *nb;

			if (buf)
				cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				err = ENOMEM;
				goto fail;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			goto fail;
		}
		if (!n)
			break;
		len += (size_t)n;
		if (len > max) {
			err = EFBIG;
			goto fail;
		}
	}
	close(fd);
	buf[len] = 0;
	return buf;
fail:
	close(fd);
	free(buf);
	errno = err;
	return NULL;
}
