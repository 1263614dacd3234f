// SPDX-License-Identifier: GPL-2.0
/*
 * gpu_devices.c - find DRM cards under a sysfs root and sample device-wide state.
 *
 * File names are the kernel's ABI (Documentation/drm-usage.rst lists them):
 *   class/drm/cardN/device/uevent        DRIVER=, PCI_SLOT_NAME=
 *   cardN/gt_cur_freq_mhz, gt_max_freq_mhz               (i915)
 *   cardN/gt/gt0/rps_cur_freq_mhz, rps_max_freq_mhz      (i915, per gt)
 *   cardN/device/tile0/gt0/freq0/cur_freq, max_freq      (xe, MHz)
 *   cardN/device/pp_dpm_sclk             "N: <MHz>Mhz[ *]" (amdgpu, * = current)
 *   cardN/device/mem_info_vram_total, mem_info_vram_used  (amdgpu, bytes)
 *   cardN/device/tile0/physical_vram_size_bytes           (xe)
 *   cardN/device/hwmon/hwmonM/energy1_input (uJ), power1_average, power1_input
 *   (uW), the lowest tempN_input (millidegree C: amdgpu's temp1 is "edge",
 *   xe's temp1 has only a label and temp2 is "pkg")
 *   bus/event_source/devices/i915[_<pdev>]/events/<engine>-busy  (ns counters)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "gpu_devices.h"
#include "pmu/pmu_internal.h"

/* Read a small sysfs file at <dir>/<name> into @buf; its length or -1. */
static int read_text(const char *dir, const char *name, char *buf, size_t size)
{
	char path[8192];
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (f < 0)
		return -1;
	n = read(f, buf, size - 1);
	close(f);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return (int)n;
}

/* A decimal u64 file ("123\n"); 0 ok, -1 absent or not a number. */
static int read_u64(const char *dir, const char *name, uint64_t *v)
{
	char buf[64], *end;

	if (read_text(dir, name, buf, sizeof(buf)) <= 0 || buf[0] < '0' || buf[0] > '9')
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || (*end && *end != '\n'))
		return -1;
	return 0;
}

static int64_t read_opt(const char *dir, const char *name)
{
	uint64_t v;

	return read_u64(dir, name, &v) || v > INT64_MAX ? -1 : (int64_t)v;
}

static void parse_uevent(struct gpu_device *d)
{
	char buf[4096];

	if (read_text(d->dir, "device/uevent", buf, sizeof(buf)) <= 0)
		return;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		if (!strncmp(l, "DRIVER=", 7))
			snprintf(d->driver, sizeof(d->driver), "%s", l + 7);
		else if (!strncmp(l, "PCI_SLOT_NAME=", 14))
			snprintf(d->pdev, sizeof(d->pdev), "%s", l + 14);
	}
}

static void find_hwmon(struct gpu_device *d)
{
	char path[8192];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/device/hwmon", d->dir);
	dir = opendir(path);
	if (!dir)
		return;
	/* the first hwmonM: a GPU registers one */
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "hwmon", 5) && (!d->hwmon[0] ||
		    strcmp(de->d_name, strrchr(d->hwmon, '/') + 1) < 0) &&
		    snprintf(d->hwmon, sizeof(d->hwmon), "%s/%s", path, de->d_name) >=
		    (int)sizeof(d->hwmon))
			d->hwmon[0] = 0;	/* a path too long to be real */
	closedir(dir);
}

static long perf_open(struct perf_event_attr *attr, int cpu)
{
	return syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * The i915 PMU is "i915" for the integrated GPU and "i915_<pdev, ':' as '_'>"
 * for discrete ones; its <engine>-busy events count busy ns.
 */
static int load_engines(struct gpu_device *d, const char *sys, bool open_pmu)
{
	char name[128], err[256];
	struct hwt_pmu *pmu;
	int n, cpus[1];

	if (strcmp(d->driver, "i915"))
		return 0;
	snprintf(name, sizeof(name), "i915_%s", d->pdev);
	for (char *p = name; *p; p++)
		if (*p == ':')
			*p = '_';
	pmu = hwt_pmu__new_sysfs_err(sys, name, err, sizeof(err));
	if (!pmu)
		pmu = hwt_pmu__new_sysfs_err(sys, "i915", err, sizeof(err));
	if (!pmu)
		return 0;
	snprintf(d->pmu, sizeof(d->pmu), "%s", hwt_pmu__name(pmu));
	n = hwt_pmu__nevents(pmu);
	d->engines = calloc(n ? n : 1, sizeof(*d->engines));
	if (!d->engines) {
		hwt_pmu__delete(pmu);
		return -1;
	}
	if (hwt_pmu__cpus(pmu, cpus, 1) < 1)
		cpus[0] = 0;
	for (int i = 0; i < n; i++) {
		const char *value, *ev = hwt_pmu__event(pmu, i, &value);
		size_t len = strlen(ev);
		struct gpu_engine *e = &d->engines[d->nengines];
		struct perf_event_attr attr;

		if (len <= 5 || strcmp(ev + len - 5, "-busy") || len - 5 >= sizeof(e->name))
			continue;
		snprintf(e->name, sizeof(e->name), "%.*s", (int)(len - 5), ev);
		e->fd = -1;
		e->busy_pct = NAN;
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		if (open_pmu && !hwt_pmu__encode_err(pmu, value, &attr, err, sizeof(err))) {
			attr.type = hwt_pmu__type(pmu);
			e->fd = (int)perf_open(&attr, cpus[0]);
		}
		d->nengines++;
	}
	hwt_pmu__delete(pmu);
	return 0;
}

static int cmp_card(const void *a, const void *b)
{
	const struct gpu_device *x = a, *y = b;

	return atoi(x->card + 4) - atoi(y->card + 4);
}

int gpu_devices__scan(struct gpu_devices *g, const char *sys)
{
	bool open_pmu = !strcmp(sys, "/sys");
	char path[4096];
	struct dirent *de;
	DIR *dir;
	int cap = 0;

	memset(g, 0, sizeof(*g));
	g->sys = sys;
	snprintf(path, sizeof(path), "%s/class/drm", sys);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		const char *p = de->d_name + 4;
		struct gpu_device *d;

		/* cardN only: not the connectors (card0-DP-1) nor renderD nodes */
		if (strncmp(de->d_name, "card", 4) || !*p || strspn(p, "0123456789") != strlen(p))
			continue;
		if (g->n == cap) {
			struct gpu_device *nd = realloc(g->dev, (cap ? cap * 2 : 4) * sizeof(*nd));

			if (!nd)
				goto nomem;
			g->dev = nd;
			cap = cap ? cap * 2 : 4;
		}
		d = &g->dev[g->n++];
		memset(d, 0, sizeof(*d));
		if (strlen(de->d_name) >= sizeof(d->card) ||
		    snprintf(d->dir, sizeof(d->dir), "%s/%s", path, de->d_name) >= (int)sizeof(d->dir)) {
			g->n--;
			continue;
		}
		memcpy(d->card, de->d_name, strlen(de->d_name) + 1);
		d->cur_mhz = d->max_mhz = d->vram_total = d->vram_used = -1;
		d->power_w = d->temp_c = NAN;
		parse_uevent(d);
		find_hwmon(d);
		if (load_engines(d, sys, open_pmu))
			goto nomem;
	}
	closedir(dir);
	qsort(g->dev, g->n, sizeof(*g->dev), cmp_card);
	return g->n;
nomem:
	closedir(dir);
	gpu_devices__exit(g);
	return -1;
}

/* amdgpu pp_dpm_sclk: "0: 500Mhz\n1: 2100Mhz *\n"; the starred level is current. */
static void read_dpm(struct gpu_device *d)
{
	char buf[4096];

	if (read_text(d->dir, "device/pp_dpm_sclk", buf, sizeof(buf)) <= 0)
		return;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		char *c = strchr(l, ':');
		long mhz;

		if (!c)
			continue;
		mhz = strtol(c + 1, NULL, 10);
		if (mhz <= 0)
			continue;
		if (mhz > d->max_mhz)
			d->max_mhz = mhz;
		if (strchr(c, '*'))
			d->cur_mhz = mhz;
	}
}

static void read_freq(struct gpu_device *d)
{
	static const char *const pairs[][2] = {
		{ "gt_cur_freq_mhz", "gt_max_freq_mhz" },
		{ "gt/gt0/rps_cur_freq_mhz", "gt/gt0/rps_max_freq_mhz" },
		{ "device/tile0/gt0/freq0/cur_freq", "device/tile0/gt0/freq0/max_freq" },
	};

	d->cur_mhz = d->max_mhz = -1;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]) && d->cur_mhz < 0; i++) {
		d->cur_mhz = read_opt(d->dir, pairs[i][0]);
		d->max_mhz = read_opt(d->dir, pairs[i][1]);
	}
	if (d->cur_mhz < 0 && d->max_mhz < 0)
		read_dpm(d);
}

/*
 * The device's temperature: the lowest-numbered channel that has an input
 * (hwmon channels count from 1; a driver may give one only a label, as xe
 * does temp1), found at the first read.
 */
static void read_temp(struct gpu_device *d)
{
	uint64_t v;

	if (!d->temp_file[0]) {
		strcpy(d->temp_file, "-");	/* none: not looked for again */
		for (int ch = 1; ch <= 16; ch++) {
			char name[sizeof(d->temp_file)];

			snprintf(name, sizeof(name), "temp%d_input", ch);
			if (!read_u64(d->hwmon, name, &v)) {
				strcpy(d->temp_file, name);
				break;
			}
		}
	}
	if (d->temp_file[0] != '-' && !read_u64(d->hwmon, d->temp_file, &v))
		d->temp_c = v / 1000.0;
}

static void read_hwmon(struct gpu_device *d, uint64_t now)
{
	uint64_t v;

	d->temp_c = NAN;
	d->power_w = NAN;
	if (!d->hwmon[0])
		return;
	read_temp(d);
	/* energy over the interval is the real average; power1_* is the driver's estimate */
	if (!read_u64(d->hwmon, "energy1_input", &v)) {
		if (d->has_energy && now > d->t_energy && v >= d->energy_uj)
			d->power_w = (v - d->energy_uj) / 1e6 / ((now - d->t_energy) / 1e9);
		d->energy_uj = v;
		d->t_energy = now;
		d->has_energy = true;
		if (!isnan(d->power_w))
			return;
	}
	if (!read_u64(d->hwmon, "power1_average", &v) || !read_u64(d->hwmon, "power1_input", &v))
		d->power_w = v / 1e6;
}

/* busy ns over the monotonic interval since the last sample */
static void read_engines(struct gpu_device *d, uint64_t now)
{
	for (int i = 0; i < d->nengines; i++) {
		struct gpu_engine *e = &d->engines[i];
		uint64_t v;

		e->busy_pct = NAN;
		if (e->fd < 0 || read(e->fd, &v, sizeof(v)) != sizeof(v))
			continue;
		e->prev = e->cur;
		e->cur = v;
		if (e->has_prev && now > d->t_last)
			e->busy_pct = (e->cur >= e->prev ? e->cur - e->prev : 0) * 100.0 /
				      (double)(now - d->t_last);
		e->has_prev = true;
	}
}

void gpu_devices__sample(struct gpu_devices *g, uint64_t now)
{
	for (int i = 0; i < g->n; i++) {
		struct gpu_device *d = &g->dev[i];

		read_freq(d);
		d->vram_total = read_opt(d->dir, "device/mem_info_vram_total");
		d->vram_used = read_opt(d->dir, "device/mem_info_vram_used");
		if (d->vram_total < 0)
			d->vram_total = read_opt(d->dir, "device/tile0/physical_vram_size_bytes");
		read_engines(d, now);
		read_hwmon(d, now);
		d->t_last = now;
	}
}

void gpu_devices__exit(struct gpu_devices *g)
{
	for (int i = 0; i < g->n; i++) {
		for (int k = 0; k < g->dev[i].nengines; k++)
			if (g->dev[i].engines[k].fd >= 0)
				close(g->dev[i].engines[k].fd);
		free(g->dev[i].engines);
	}
	free(g->dev);
	memset(g, 0, sizeof(*g));
}
