/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipe_peek.h - read the head of a pipe without taking it out of the pipe.
 */
#ifndef HWTRACE_PIPE_PEEK_H
#define HWTRACE_PIPE_PEEK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * pipe_peek - copy the first bytes pipe @fd holds into @buf, leaving them there
 * @len:	room in @buf (at most 4096 bytes are looked at)
 * @want:	wait until this many bytes are in the pipe, or its writers are
 *		gone, or *@stop is set
 * @stop:	optional, as struct hwt_session_opts' stop
 *
 * Returns the bytes copied (0: an empty pipe without writers), or -1 when
 * @fd is not a pipe or a call failed.  A later read() of @fd still gets
 * every byte.
 */
ssize_t pipe_peek(int fd, uint8_t *buf, size_t len, size_t want,
		  const volatile int *stop);

#endif
