// SPDX-License-Identifier: GPL-2.0
/*
 * test_pipe_peek.c - reading the head of a pipe leaves it in the pipe
 * (decoders/core/pipe_peek.c).
 *
 * Every byte the writer wrote must still be read from the pipe after a
 * peek, the peek must wait for the bytes it wants while a writer is there
 * (a thread writes the rest later), stop at the writer's end or at the
 * stop flag, and refuse what is not a pipe.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/pipe_peek.h"

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 7 + 3);
}

/* everything left in @fd, checked against pattern(); returns the count or -1 */
static ssize_t read_rest(int fd)
{
	uint8_t buf[4096];
	size_t total = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] != pattern(total + i))
				return -1;
		total += n;
	}
	return n < 0 ? -1 : (ssize_t)total;
}

static void write_pattern(int fd, size_t from, size_t n)
{
	uint8_t buf[256];

	for (size_t i = 0; i < n; i++)
		buf[i] = pattern(from + i);
	CHECK(write(fd, buf, n) == (ssize_t)n);
}

/*
 * @n bytes written, the writer gone: the peek (of up to 64, wanting 16)
 * returns @want bytes, the pattern's, and the pipe still holds all @n
 */
static void check_closed(size_t n, ssize_t want)
{
	uint8_t head[64];
	ssize_t got;
	int p[2];

	CHECK(pipe(p) == 0);
	write_pattern(p[1], 0, n);
	close(p[1]);
	got = pipe_peek(p[0], head, sizeof(head), 16, NULL);
	CHECK_EQ(got, want);
	for (ssize_t i = 0; i < got; i++)
		CHECK_EQ(head[i], pattern(i));
	CHECK_EQ(read_rest(p[0]), (ssize_t)n);
	close(p[0]);
}

/* all there: the head, then every byte from the pipe itself */
static void test_whole(void)
{
	check_closed(100, 64);
}

struct late {
	int fd;
	size_t from, n;
};

static void *late_writer(void *arg)
{
	struct late *l = arg;

	nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000000 }, NULL);
	write_pattern(l->fd, l->from, l->n);
	close(l->fd);
	return NULL;
}

/* 5 bytes now, 20 later: the peek waits for the 16 it wants */
static void test_waits(void)
{
	uint8_t head[64];
	pthread_t t;
	struct late l;
	int p[2];
	ssize_t n;

	CHECK(pipe(p) == 0);
	write_pattern(p[1], 0, 5);
	l = (struct late){ .fd = p[1], .from = 5, .n = 20 };
	CHECK(pthread_create(&t, NULL, late_writer, &l) == 0);
	n = pipe_peek(p[0], head, sizeof(head), 16, NULL);
	CHECK(n >= 16);
	for (ssize_t i = 0; i < n; i++)
		CHECK_EQ(head[i], pattern(i));
	pthread_join(t, NULL);
	CHECK_EQ(read_rest(p[0]), 25);
	close(p[0]);
}

/* fewer than wanted, then the writer's end: what there is; empty: 0 */
static void test_short(void)
{
	check_closed(10, 10);
	check_closed(0, 0);
}

/* a writer that sends nothing: the stop flag ends the wait */
static void test_stop(void)
{
	volatile int stop = 1;
	uint8_t head[16];
	int p[2];

	CHECK(pipe(p) == 0);
	CHECK_EQ(pipe_peek(p[0], head, sizeof(head), 16, &stop), 0);
	close(p[0]);
	close(p[1]);
}

/* a regular file is no pipe */
static void test_not_pipe(void)
{
	uint8_t head[16];
	FILE *f = tmpfile();

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("0123456789abcdefgh", f);
	fflush(f);
	CHECK_EQ(pipe_peek(fileno(f), head, sizeof(head), 16, NULL), -1);
	fclose(f);
}

int main(void)
{
	RUN(test_whole);
	RUN(test_waits);
	RUN(test_short);
	RUN(test_stop);
	RUN(test_not_pipe);
	return check_done("pipe_peek");
}
