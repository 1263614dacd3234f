/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output_file.h - the checks a verb makes before it writes an output file
 * (design.rst 6): an input is never an output, a file that cannot fit is
 * not started, and a long write shows how far it got.  The file itself is
 * written by the library (hwt_writer, hwt_outfile: temporary file renamed
 * when complete).
 */
#ifndef PERF_HWTRACE_OUTPUT_FILE_H
#define PERF_HWTRACE_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Is existing file @out the file @in ("-": standard input)?  By device and
 * inode; false when either cannot be looked at or @out is "-".
 */
bool output_file__same(const char *out, const char *in);

/**
 * output_file__not_input - refuse an output that is an input
 * @verb:	for the message
 * @out:	the output path ("-": standard output, always fine)
 * @in:		the input path ("-": standard input)
 *
 * Compares device and inode, so ./x, a symlink and a hard link to the
 * input are all caught.  An output that does not exist yet, or an input
 * that cannot be looked at (the reader reports that), passes.
 *
 * Returns 0, or EXIT_USAGE with both paths named on stderr.
 */
int output_file__not_input(const char *verb, const char *out, const char *in);

/**
 * output_file__check_space - refuse to start an output that cannot fit
 * @verb:	for the message
 * @out:	the output path ("-" and non-regular files are not checked)
 * @need:	the bytes the output is expected to take
 *
 * Returns 0, or EXIT_INPUT_ERROR with the need and the free space of the
 * output's filesystem on stderr.
 */
int output_file__check_space(const char *verb, const char *out, uint64_t need);

/**
 * struct output_progress - "VERB: 1.5 GiB of 4.0 GiB (37%)" on a terminal
 * @verb:	the prefix
 * @total:	the expected size (0: unknown, no percentage)
 * @start:	monotonic seconds at the start
 * @last:	when the line was last drawn (0: never)
 * @shown:	a line is on the terminal and needs ending
 */
struct output_progress {
	const char *verb;
	uint64_t total;
	double start, last;
	int shown;
};

/*
 * Start @p when standard error is a terminal; returns whether it did (then
 * hand output_progress__update to hwt_writer__set_progress()).
 */
int output_progress__start(struct output_progress *p, const char *verb, uint64_t total);
/* hwt_writer__set_progress() callback: redraws at most twice a second, after 1 s. */
void output_progress__update(void *ctx, uint64_t bytes);
/* Erase the line (if one was drawn). */
void output_progress__end(struct output_progress *p);
/* The line for @bytes of @total after @elapsed seconds, without "\r"; returns @buf. */
char *output_progress__format(char *buf, size_t size, const char *verb, uint64_t bytes,
			      uint64_t total, double elapsed);
/* "1.5 GiB", "12.0 KiB", "512 B" */
char *output_file__size(char *buf, size_t size, uint64_t bytes);

#endif
