// SPDX-License-Identifier: GPL-2.0
/*
 * pipe_peek.c - read the head of a pipe without taking it out of the pipe.
 *
 * A self-describing raw input (an IGT recording) is told from a perf.data
 * by its first bytes, and from a pipe those bytes can be read only once:
 * whichever reader then runs would miss them.  tee(2) copies what a pipe
 * holds into another pipe without consuming it; reading that copy back
 * gives the head while the input pipe is left as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "pipe_peek.h"

/* read exactly @n bytes (all there: tee() put them in) from our pipe */
static ssize_t drain(int fd, uint8_t *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

ssize_t pipe_peek(int fd, uint8_t *buf, size_t len, size_t want,
		  const volatile int *stop)
{
	ssize_t have = 0;
	int p[2];

	if (len > 4096)
		len = 4096;	/* our pipe holds it at once: no writer waits on it */
	if (want > len)
		want = len;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t t = tee(fd, p[1], len, SPLICE_F_NONBLOCK);

		if (t > 0) {
			have = drain(p[0], buf, (size_t)t);
			if (have < 0 || (size_t)have >= want)
				break;
		} else if (t == 0) {
			break;		/* empty, and no writer left: what we have */
		} else if (errno != EAGAIN && errno != EINTR) {
			have = -1;	/* EINVAL: not a pipe */
			break;
		}
		if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
			break;
		/*
		 * Fewer than @want bytes so far.  An empty pipe: wait for data
		 * or the writer's end.  A few bytes: poll() would return at
		 * once, so sleep a little unless the writer is gone.
		 */
		if (poll(&pfd, 1, t > 0 ? 0 : -1) < 0 && errno != EINTR) {
			have = -1;
			break;
		}
		if (t > 0) {
			if (pfd.revents & (POLLHUP | POLLERR))
				break;	/* the writer is gone: that is all */
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
		}
	}
	close(p[0]);
	close(p[1]);
	return have;
}
