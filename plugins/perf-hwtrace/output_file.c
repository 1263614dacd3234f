// SPDX-License-Identifier: GPL-2.0
/*
 * output_file.c - before and while a verb writes an output file: the output
 * is not an input, it fits, and a long write shows progress (output_file.h).
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "output_file.h"

bool output_file__same(const char *out, const char *in)
{
	struct stat so, si;
	int r;

	if (!strcmp(out, "-") || stat(out, &so))
		return false;
	r = strcmp(in, "-") ? stat(in, &si) : fstat(STDIN_FILENO, &si);
	return !r && so.st_dev == si.st_dev && so.st_ino == si.st_ino;
}

int output_file__not_input(const char *verb, const char *out, const char *in)
{
	if (!output_file__same(out, in))
		return 0;
	return usage_error(verb, "output '%s' is the input '%s' (the same file); "
			   "write to another file", out, strcmp(in, "-") ? in : "standard input");
}

char *output_file__size(char *buf, size_t size, uint64_t bytes)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = -1;

	if (bytes < 1024) {
		snprintf(buf, size, "%llu B", (unsigned long long)bytes);
		return buf;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.1f %s", v, unit[u]);
	return buf;
}

int output_file__check_space(const char *verb, const char *out, uint64_t need)
{
	struct statvfs fs;
	struct stat st;
	char *copy, *dir, a[32], b[32];
	uint64_t avail;
	int ret = 0;

	if (!strcmp(out, "-") || (!stat(out, &st) && !S_ISREG(st.st_mode)))
		return 0;
	copy = strdup(out);
	if (!copy)
		return 0;
	dir = dirname(copy);
	/* a directory that cannot be looked at fails at open, with its reason */
	if (!statvfs(dir, &fs)) {
		avail = (uint64_t)fs.f_bavail * fs.f_frsize;
		if (need > avail) {
			fprintf(stderr, "perf hwtrace %s: %s: about %s needed, %s free on that "
				"filesystem; nothing written\n", verb, out,
				output_file__size(a, sizeof(a), need),
				output_file__size(b, sizeof(b), avail));
			ret = EXIT_INPUT_ERROR;
		}
	}
	free(copy);
	return ret;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

char *output_progress__format(char *buf, size_t size, const char *verb, uint64_t bytes,
			      uint64_t total, double elapsed)
{
	char done[32], all[32], rate[32];
	int n;

	output_file__size(done, sizeof(done), bytes);
	n = snprintf(buf, size, "%s: %s", verb, done);
	if (total && n >= 0 && (size_t)n < size) {
		unsigned pct = bytes >= total ? 100 : (unsigned)(bytes * 100.0 / total);

		n += snprintf(buf + n, size - n, " of %s (%u%%)",
			      output_file__size(all, sizeof(all), total), pct);
	}
	if (elapsed > 0 && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - n, ", %.0f s, %s/s", elapsed,
			 output_file__size(rate, sizeof(rate), (uint64_t)(bytes / elapsed)));
	return buf;
}

int output_progress__start(struct output_progress *p, const char *verb, uint64_t total)
{
	memset(p, 0, sizeof(*p));
	if (!isatty(STDERR_FILENO))
		return 0;
	p->verb = verb;
	p->total = total;
	p->start = now();
	return 1;
}

void output_progress__update(void *ctx, uint64_t bytes)
{
	struct output_progress *p = ctx;
	double t = now();
	char line[160];

	/* short runs stay quiet; long ones redraw twice a second */
	if (t - p->start < 1.0 || t - p->last < 0.5)
		return;
	p->last = t;
	p->shown = 1;
	/* "\r" and clear to the end of line: the line can get shorter */
	fprintf(stderr, "\r%s\033[K", output_progress__format(line, sizeof(line), p->verb, bytes,
							      p->total, t - p->start));
}

void output_progress__end(struct output_progress *p)
{
	/* the line was only ever an estimate: take it away */
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
