/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_file.h - a small file read whole, as a string.
 */
#ifndef PERF_HWTRACE_TEXT_FILE_H
#define PERF_HWTRACE_TEXT_FILE_H

#include <stddef.h>

/**
 * text_file__read() - the whole of @path, NUL-terminated (malloc'd)
 * @max:	the most bytes taken: a larger file is refused, never cut
 *
 * Reads until end of file, so procfs and sysfs files, which a single
 * read() may return in pieces, come whole.
 *
 * Return: the text, or NULL with errno set (EFBIG: more than @max bytes).
 */
char *text_file__read(const char *path, size_t max);

#endif
