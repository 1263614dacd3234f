// SPDX-License-Identifier: GPL-2.0
/*
 * perf_data_outfile.c - an output file that appears whole or not at all
 * (design.rst 6): the bytes go to a temporary file beside the target
 * (".NAME.XXXXXX" in the same directory, so the rename stays on one
 * filesystem) that replaces the target only when the caller says the output
 * is complete; otherwise it is removed and the old file is left as it was.
 *
 * "-" is standard output, and a target that exists but is not a regular
 * file (/dev/null, /dev/full, a FIFO) is written in place: there is nothing
 * to replace and a rename over a device node would be wrong.  A symlink is
 * followed, so the file it points at is replaced, not the link.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hwtrace/perf_data.h"

#define TMP_TRIES	100

struct hwt_outfile {
	int fd;
	char *target;		/* the file the temporary one replaces */
	char *tmp;		/* NULL: written in place */
};

/* ".NAME.XXXXXX" beside @target, created exclusively (mode 0644 & ~umask). */
static int open_tmp(struct hwt_outfile *f, const struct stat *old)
{
	const char *slash = strrchr(f->target, '/');
	size_t dirlen = slash ? (size_t)(slash - f->target) + 1 : 0;
	const char *base = f->target + dirlen;
	struct timespec ts;
	unsigned long seed;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16);
	f->tmp = malloc(dirlen + strlen(base) + 9);
	if (!f->tmp)
		return -1;
	for (int i = 0; i < TMP_TRIES; i++) {
		static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
		char sfx[7];

		for (int k = 0; k < 6; k++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			sfx[k] = set[(seed >> 33) % (sizeof(set) - 1)];
		}
		sfx[6] = 0;
		sprintf(f->tmp, "%.*s.%s.%s", (int)dirlen, f->target, base, sfx);
		f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (f->fd >= 0) {
			/* a replaced file keeps its permissions */
			if (old)
				fchmod(f->fd, old->st_mode & 07777);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	free(f->tmp);
	f->tmp = NULL;
	return -1;
}

/**
 * hwt_outfile__new - start writing @path
 * @path:	the file to write, or "-" for standard output
 *
 * Opens a temporary file beside @path (or @path itself when it is "-" or
 * exists and is not a regular file).  Nothing at @path changes until
 * hwt_outfile__delete() with @complete set.
 *
 * Returns the outfile, or NULL with errno set.
 */
struct hwt_outfile *hwt_outfile__new(const char *path)
{
	struct hwt_outfile *f;
	struct stat st, lst;
	bool exists;
	int e;

	if (!path || !*path) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->fd = -1;
	if (!strcmp(path, "-")) {
		f->fd = STDOUT_FILENO;
		return f;
	}
	exists = !stat(path, &st);
	if (exists && !S_ISREG(st.st_mode)) {
		f->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (f->fd < 0)
			goto fail;
		return f;
	}
	f->target = NULL;
	if (exists && !lstat(path, &lst) && S_ISLNK(lst.st_mode))
		f->target = realpath(path, NULL);
	if (!f->target)
		f->target = strdup(path);
	if (!f->target || open_tmp(f, exists ? &st : NULL) < 0)
		goto fail;
	return f;
fail:
	e = errno;
	free(f->target);
	free(f);
	errno = e;
	return NULL;
}

/**
 * hwt_outfile__fd - the descriptor to write to
 */
int hwt_outfile__fd(const struct hwt_outfile *f)
{
	return f->fd;
}

/**
 * hwt_outfile__delete - finish an output and free @f
 * @f:		the outfile (NULL: nothing to do)
 * @complete:	true: the temporary file replaces the target; false: it is
 *		removed and the target stays as it was
 *
 * Returns 0, or -1 with errno set when closing or renaming failed (the
 * temporary file is removed then too).
 */
int hwt_outfile__delete(struct hwt_outfile *f, bool complete)
{
	int err = 0;

	if (!f)
		return 0;
	if (f->fd != STDOUT_FILENO && close(f->fd) < 0)
		err = errno;
	if (f->tmp) {
		if (complete && !err && rename(f->tmp, f->target) < 0)
			err = errno;
		if (!complete || err)
			unlink(f->tmp);
	}
	free(f->tmp);
	free(f->target);
	free(f);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
