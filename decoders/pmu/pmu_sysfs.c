// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_sysfs.c - read a PMU's description from <sysfs>/bus/event_source/devices/<pmu>/.
 *
 * The one place in libhwtrace that reads files: small sysfs text files
 * (type, cpumask, format/<term>, events/<alias>[.unit|.scale], caps/<key>).
 * The encoding itself is in pmu_format.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu_priv.h"
#include "pmu_internal.h"

#define DEVICES "/bus/event_source/devices"

/* Read a small text file relative to @dirfd; NUL-terminated, -1 on error. */
static int read_small(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -1;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = 0;
	return (int)len;
}

/* A sysfs number: digits (decimal, 0x hex, 0 octal), then at most a newline. */
static int parse_number(const char *buf, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (buf[0] < '0' || buf[0] > '9')
		return -1;	/* strtoull() would take "-1" as 2^64 - 1 */
	errno = 0;
	x = strtoull(buf, &end, 0);
	if (errno || (*end && strcmp(end, "\n")))
		return -1;
	*v = x;
	return 0;
}

int hwt_pmu__sysfs_u64(const char *sysfs, const char *pmu, const char *file, uint64_t *v)
{
	char path[4096], buf[64];
	int dfd, n;

	if (!*pmu || strchr(pmu, '/') || !strcmp(pmu, ".") || !strcmp(pmu, ".."))
		return -1;
	snprintf(path, sizeof(path), "%s" DEVICES "/%s", sysfs, pmu);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	n = read_small(dfd, file, buf, sizeof(buf));
	close(dfd);
	return n > 0 ? parse_number(buf, v) : -1;
}

/**
 * hwt_cpulist__online - the online CPUs
 * @sysfs:	sysfs root: <sysfs>/devices/system/cpu/online, else /sys's
 * @cpus:	filled with CPU numbers
 * @max:	room in @cpus
 *
 * Falls back to 0 .. _SC_NPROCESSORS_ONLN - 1 when no list can be read.
 * Returns the count written.
 */
int hwt_cpulist__online(const char *sysfs, int *cpus, int max)
{
	char path[4096], buf[4096];
	int n = -1;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", sysfs);
	if (read_small(AT_FDCWD, path, buf, sizeof(buf)) > 0 ||
	    read_small(AT_FDCWD, "/sys/devices/system/cpu/online", buf, sizeof(buf)) > 0)
		n = hwt_cpulist__parse(buf, cpus, max);
	if (n <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		for (n = 0; n < c && n < max; n++)
			cpus[n] = n;
	}
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in directory @dirfd/@sub (regular entries, no dot files). */
static int list_dir(int dirfd, const char *sub, char ***out)
{
	int fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **names = NULL;
	struct dirent *de;
	int n = 0, cap = 0;
	DIR *d;

	*out = NULL;
	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap ? cap * 2 : 16) * sizeof(*nn));

			if (!nn)
				break;
			names = nn;
			cap = cap ? cap * 2 : 16;
		}
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	return n;
}

void hwt_pmu__list_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int hwt_pmu__list(const char *sysfs, char ***names)
{
	char path[4096];
	int fd, n;

	snprintf(path, sizeof(path), "%s" DEVICES, sysfs);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		*names = NULL;
		return -1;
	}
	n = list_dir(fd, ".", names);
	close(fd);
	return n;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && !strcmp(s + a - b, suf);
}

static int load_dir(struct hwt_pmu *pmu, int dirfd, const char *sub, bool events, char *err,
		    size_t errlen)
{
	int sfd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **names, buf[4096];
	int n, ret = 0;

	if (sfd < 0)
		return 0;	/* no format/ or events/: fine (software PMU) */
	n = list_dir(dirfd, sub, &names);
	for (int pass = 0; pass < 2 && !ret; pass++) {
		for (int i = 0; i < n && !ret; i++) {
			const char *nm = names[i];
			bool info = events && (has_suffix(nm, ".unit") || has_suffix(nm, ".scale") ||
					       has_suffix(nm, ".per-pkg") ||
					       has_suffix(nm, ".snapshot"));

			/* aliases first, then their .unit/.scale */
			if (info != (pass == 1) || read_small(sfd, nm, buf, sizeof(buf)) < 0)
				continue;
			if (!events) {
				char e2[200];

				/* one bad file costs its term, not the PMU (a newer kernel's syntax) */
				e2[0] = 0;
				if (hwt_pmu__add_format(pmu, nm, buf, e2, sizeof(e2)) && e2[0])
					hwt_pmu__add_warning(pmu, "%s/format/%s: %s; term dropped",
							     pmu->name, nm, e2);
			} else if (!info) {
				ret = hwt_pmu__add_event(pmu, nm, buf);
			} else {
				char base[256];
				const char *dot = strrchr(nm, '.');

				snprintf(base, sizeof(base), "%.*s", (int)(dot - nm), nm);
				if (!strcmp(dot, ".unit"))
					hwt_pmu__set_event_info(pmu, base, buf, NULL);
				else if (!strcmp(dot, ".scale"))
					hwt_pmu__set_event_info(pmu, base, NULL, buf);
			}
		}
	}
	hwt_pmu__list_free(names, n);
	close(sfd);
	return ret;
}

struct hwt_pmu *hwt_pmu__new_sysfs_err(const char *sysfs, const char *name, char *err,
				       size_t errlen)
{
	char path[4096], buf[4096];
	struct hwt_pmu *pmu;
	uint64_t type;
	int dfd;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		hwt_pmu__seterr(err, errlen, "bad PMU name '%s'", name);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s" DEVICES "/%s", sysfs, name);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		hwt_pmu__seterr(err, errlen, "unknown PMU '%s' (no %s: %s)", name, path, strerror(errno));
		return NULL;
	}
	if (read_small(dfd, "type", buf, sizeof(buf)) < 0) {
		hwt_pmu__seterr(err, errlen, "PMU '%s': cannot read %s/type", name, path);
		close(dfd);
		return NULL;
	}
	if (parse_number(buf, &type) || type > UINT32_MAX) {
		hwt_pmu__seterr(err, errlen, "PMU '%s': bad type '%s'", name, buf);
		close(dfd);
		return NULL;
	}
	pmu = hwt_pmu__new(name, (uint32_t)type);
	if (!pmu) {
		hwt_pmu__seterr(err, errlen, "out of memory");
		close(dfd);
		return NULL;
	}
	/* "cpus" is what hybrid core PMUs have instead of cpumask */
	if ((read_small(dfd, "cpumask", buf, sizeof(buf)) >= 0 ||
	     read_small(dfd, "cpus", buf, sizeof(buf)) >= 0) && hwt_pmu__set_cpumask(pmu, buf))
		goto fail;
	if (load_dir(pmu, dfd, "format", false, err, errlen) ||
	    load_dir(pmu, dfd, "events", true, err, errlen))
		goto fail;
	close(dfd);
	return pmu;
fail:
	close(dfd);
	hwt_pmu__delete(pmu);
	return NULL;
}

int hwt_pmu__parse_event_err(const char *sysfs, const char *event, struct perf_event_attr *attr,
			     struct hwt_pmu **pmup, char *err, size_t errlen)
{
	const char *slash = strchr(event, '/'), *last;
	struct hwt_pmu *pmu;
	char name[256], *terms;
	int ret;

	if (pmup)
		*pmup = NULL;
	attr->size = sizeof(*attr);
	attr->config = attr->config1 = attr->config2 = 0;
	if (!slash) {
		uint32_t type;
		uint64_t cfg;

		if (hwt_event__generic(event, &type, &cfg)) {
			hwt_pmu__seterr(err, errlen, "unknown event '%s' (expected pmu/term=value,.../ or a "
			       "generic name such as cpu-clock)", event);
			return -1;
		}
		attr->type = type;
		attr->config = cfg;
		return 0;
	}
	last = strrchr(event, '/');
	if (last == slash || last[1]) {
		hwt_pmu__seterr(err, errlen, "event '%s': expected pmu/terms/ with nothing after the "
		       "closing '/'", event);
		return -1;
	}
	if ((size_t)(slash - event) >= sizeof(name)) {
		hwt_pmu__seterr(err, errlen, "event '%s': PMU name too long", event);
		return -1;
	}
	memcpy(name, event, slash - event);
	name[slash - event] = 0;
	pmu = hwt_pmu__new_sysfs_err(sysfs, name, err, errlen);
	if (!pmu)
		return -1;
	terms = strndup(slash + 1, last - slash - 1);
	if (!terms) {
		hwt_pmu__delete(pmu);
		hwt_pmu__seterr(err, errlen, "out of memory");
		return -1;
	}
	ret = hwt_pmu__encode_err(pmu, terms, attr, err, errlen);
	free(terms);
	if (ret || !pmup)
		hwt_pmu__delete(pmu);
	else
		*pmup = pmu;
	return ret;
}

/* Each line of hwt_pmu__warnings() as a warning to @diag. */
static void report_warnings(const struct hwt_pmu *pmu, struct hwt_diag *diag)
{
	const char *w = pmu ? hwt_pmu__warnings(pmu) : NULL;

	while (w && *w) {
		const char *nl = strchr(w, '\n');
		int n = nl ? (int)(nl - w) : (int)strlen(w);

		hwt_diag__warn(diag, 0, "sysfs PMU", "%.*s", n, w);
		w += n + (nl ? 1 : 0);
	}
}

/* The public forms: the reason goes to @diag, as for every input libhwtrace reads. */
struct hwt_pmu *hwt_pmu__new_sysfs(const char *sysfs, const char *name, struct hwt_diag *diag)
{
	char err[256];
	struct hwt_pmu *pmu = hwt_pmu__new_sysfs_err(sysfs, name, err, sizeof(err));

	if (!pmu)
		hwt_diag__error(diag, 0, "sysfs PMU", "%s", err);
	report_warnings(pmu, diag);
	return pmu;
}

int hwt_pmu__parse_event(const char *sysfs, const char *event, struct perf_event_attr *attr,
			 struct hwt_pmu **pmup, struct hwt_diag *diag)
{
	char err[256];
	int ret = hwt_pmu__parse_event_err(sysfs, event, attr, pmup, err, sizeof(err));

	if (ret)
		hwt_diag__error(diag, 0, "event", "%s", err);
	else if (pmup)
		report_warnings(*pmup, diag);
	return ret;
}
