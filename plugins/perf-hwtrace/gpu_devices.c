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
 *   bus/event_source/devices/xe_<pdev>/events/engine-{active,total}-ticks,
 *   per engine of DRM_XE_DEVICE_QUERY_ENGINES on /dev/dri/cardN (xe, 6.15+)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

static long perf_open(struct perf_event_attr *attr, int cpu, int group)
{
	return syscall(SYS_perf_event_open, attr, -1, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

/*
 * xe's engine query (include/uapi/drm/xe_drm.h, Linux 6.8+), declared here:
 * Debian 12's headers are 6.1's, which have no xe.
 */
struct xe_device_query {
	uint64_t extensions;
	uint32_t query;		/* 0: DRM_XE_DEVICE_QUERY_ENGINES */
	uint32_t size;		/* 0 asks for the size */
	uint64_t data;
	uint64_t reserved[2];
};
#define XE_QUERY_ENGINES	0
#define XE_IOCTL_DEVICE_QUERY	_IOWR('d', 0x40 + 0x00, struct xe_device_query)
#define XE_ENGINE_SIZE		32	/* struct drm_xe_engine: class instance, u64 reserved[3] */

int gpu_xe__engines(const void *buf, size_t len, struct gpu_xe_engine *out, int max)
{
	const uint8_t *p = buf;
	uint32_t n;
	int k = 0;

	if (len < 8)
		return -1;
	memcpy(&n, p, 4);
	if (n > (len - 8) / XE_ENGINE_SIZE)
		return -1;
	for (uint32_t i = 0; i < n && k < max; i++) {
		const uint8_t *e = p + 8 + (size_t)i * XE_ENGINE_SIZE;

		memcpy(&out[k].engine_class, e, 2);
		memcpy(&out[k].engine_instance, e + 2, 2);
		memcpy(&out[k].gt_id, e + 4, 2);
		k++;
	}
	return k;
}

void gpu_xe__engine_name(const struct gpu_xe_engine *e, bool other_gt, char *buf, size_t size)
{
	/* DRM_XE_ENGINE_CLASS_*, named as xe's fdinfo names them (drm-engine-rcs, ...) */
	static const char *const cls[] = { "rcs", "bcs", "vcs", "vecs", "ccs" };

	if (e->engine_class < sizeof(cls) / sizeof(cls[0]))
		snprintf(buf, size, "%s%u", cls[e->engine_class], e->engine_instance);
	else
		snprintf(buf, size, "class%u-%u", e->engine_class, e->engine_instance);
	if (other_gt) {
		size_t l = strlen(buf);

		snprintf(buf + l, size - l, "-gt%u", e->gt_id);
	}
}

void gpu_xe__terms(const char *value, const struct gpu_xe_engine *e, char *buf, size_t size)
{
	/* xe_pmu.c: gt, engine_class and engine_instance as the engine query gives them */
	snprintf(buf, size, "%s,gt=%u,engine_class=%u,engine_instance=%u", value, e->gt_id,
		 e->engine_class, e->engine_instance);
}

/*
 * The node to ask @d's driver through: its render node (device/drm/renderD*,
 * which DRM_XE_DEVICE_QUERY allows, and which any user of the GPU may
 * open), else its primary node (often group video only).
 */
static int open_node(const struct gpu_device *d)
{
	char path[8192];
	struct dirent *de;
	DIR *dir;
	int f = -1;

	snprintf(path, sizeof(path), "%s/device/drm", d->dir);
	dir = opendir(path);
	while (dir && f < 0 && (de = readdir(dir)))
		if (!strncmp(de->d_name, "renderD", 7) && strlen(de->d_name) < 32) {
			snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
			f = open(path, O_RDONLY | O_CLOEXEC);
		}
	if (dir)
		closedir(dir);
	if (f < 0) {
		snprintf(path, sizeof(path), "/dev/dri/%s", d->card);
		f = open(path, O_RDONLY | O_CLOEXEC);
	}
	return f;
}

/* @d's engines as the xe driver lists them; their number, 0 if it will not say */
static int xe_query_engines(const struct gpu_device *d, struct gpu_xe_engine *out, int max)
{
	struct xe_device_query q = { .query = XE_QUERY_ENGINES };
	uint32_t size;
	void *buf;
	int f, n = 0;

	f = open_node(d);
	if (f < 0)
		return 0;
	if (ioctl(f, XE_IOCTL_DEVICE_QUERY, &q) || !q.size || !(buf = calloc(1, q.size))) {
		close(f);
		return 0;
	}
	size = q.size;	/* the reply is parsed within what was allocated */
	q.data = (uintptr_t)buf;
	if (!ioctl(f, XE_IOCTL_DEVICE_QUERY, &q) && q.size == size)
		n = gpu_xe__engines(buf, size, out, max);
	free(buf);
	close(f);
	return n > 0 ? n : 0;
}

/* The driver's PMU: "<drv>_<pdev, ':' as '_'>", else @plain (NULL: none); its name in d->pmu. */
static struct hwt_pmu *driver_pmu(struct gpu_device *d, const char *sys, const char *plain)
{
	char name[128], err[256];
	struct hwt_pmu *pmu;

	snprintf(name, sizeof(name), "%s_%s", d->driver, d->pdev);
	for (char *p = name; *p; p++)
		if (*p == ':')
			*p = '_';
	pmu = hwt_pmu__new_sysfs_err(sys, name, err, sizeof(err));
	if (!pmu && plain)
		pmu = hwt_pmu__new_sysfs_err(sys, plain, err, sizeof(err));
	if (pmu)
		snprintf(d->pmu, sizeof(d->pmu), "%s", hwt_pmu__name(pmu));
	return pmu;
}

static struct gpu_engine *engine_new(struct gpu_device *d, const char *name)
{
	struct gpu_engine *e = &d->engines[d->nengines++];

	snprintf(e->name, sizeof(e->name), "%s", name);
	e->fd = e->fd2 = -1;
	e->busy_pct = NAN;
	return e;
}

/* perf_event_open() of @terms on @pmu (in @group's, or leading one); -1 on failure */
static int open_terms(const struct hwt_pmu *pmu, const char *terms, int cpu, int group,
		      uint64_t read_format)
{
	struct perf_event_attr attr;
	char err[256];

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	if (hwt_pmu__encode_err(pmu, terms, &attr, err, sizeof(err)))
		return -1;
	attr.type = hwt_pmu__type(pmu);
	attr.read_format = read_format;
	return (int)perf_open(&attr, cpu, group);
}

/*
 * The i915 PMU is "i915" for the integrated GPU and "i915_<pdev, ':' as '_'>"
 * for discrete ones; its <engine>-busy events count busy ns.
 */
static int load_i915(struct gpu_device *d, const struct hwt_pmu *pmu, bool open_pmu, int cpu)
{
	int n = hwt_pmu__nevents(pmu);

	d->engines = calloc(n ? n : 1, sizeof(*d->engines));
	if (!d->engines)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *value, *ev = hwt_pmu__event(pmu, i, &value);
		size_t len = strlen(ev);
		char name[sizeof(d->engines->name)];
		struct gpu_engine *e;

		if (len <= 5 || strcmp(ev + len - 5, "-busy") || len - 5 >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - 5), ev);
		e = engine_new(d, name);
		if (open_pmu)
			e->fd = open_terms(pmu, value, cpu, -1, 0);
	}
	return 0;
}

/*
 * The xe PMU (6.15+) counts per engine, chosen by the gt, engine_class and
 * engine_instance terms of DRM_XE_DEVICE_QUERY_ENGINES: engine-active-ticks
 * over engine-total-ticks is its busy share, read together in one group as
 * the driver asks.  The engines come from the device node, so a recorded
 * tree (no PMU opened) lists none.
 */
static int load_xe(struct gpu_device *d, const struct hwt_pmu *pmu, bool open_pmu, int cpu)
{
	struct gpu_xe_engine xe[64];
	const char *active = NULL, *total = NULL;
	int n;

	for (int i = 0; i < hwt_pmu__nevents(pmu); i++) {
		const char *value, *ev = hwt_pmu__event(pmu, i, &value);

		if (!strcmp(ev, "engine-active-ticks"))
			active = value;
		else if (!strcmp(ev, "engine-total-ticks"))
			total = value;
	}
	n = active && total && open_pmu ? xe_query_engines(d, xe, 64) : 0;
	d->engines = calloc(n ? n : 1, sizeof(*d->engines));
	if (!d->engines)
		return -1;
	for (int i = 0; i < n; i++) {
		char name[sizeof(d->engines->name)], terms[512];
		bool other_gt = false;
		struct gpu_engine *e;

		for (int j = 0; j < n; j++)
			other_gt |= xe[i].gt_id && xe[j].gt_id != xe[i].gt_id &&
				    xe[j].engine_class == xe[i].engine_class &&
				    xe[j].engine_instance == xe[i].engine_instance;
		gpu_xe__engine_name(&xe[i], other_gt, name, sizeof(name));
		e = engine_new(d, name);
		gpu_xe__terms(total, &xe[i], terms, sizeof(terms));
		e->fd = open_terms(pmu, terms, cpu, -1, PERF_FORMAT_GROUP);
		if (e->fd < 0)
			continue;
		gpu_xe__terms(active, &xe[i], terms, sizeof(terms));
		e->fd2 = open_terms(pmu, terms, cpu, e->fd, PERF_FORMAT_GROUP);
		if (e->fd2 < 0) {
			close(e->fd);
			e->fd = -1;
		}
	}
	return 0;
}

static int load_engines(struct gpu_device *d, const char *sys, bool open_pmu)
{
	bool i915 = !strcmp(d->driver, "i915"), xe = !strcmp(d->driver, "xe");
	struct hwt_pmu *pmu;
	int cpus[1], ret;

	if (!i915 && !xe)
		return 0;
	pmu = driver_pmu(d, sys, i915 ? "i915" : NULL);
	if (!pmu)
		return 0;
	if (hwt_pmu__cpus(pmu, cpus, 1) < 1)
		cpus[0] = 0;
	ret = i915 ? load_i915(d, pmu, open_pmu, cpus[0]) : load_xe(d, pmu, open_pmu, cpus[0]);
	hwt_pmu__delete(pmu);
	return ret;
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
 * file (hwmon channels count from 1; a driver may give one only a label, as
 * xe does temp1), chosen at the first sample by the file being there, not
 * by a read that worked: amdgpu's reads fail while the GPU is runtime-
 * suspended, and a channel found so is read again at every sample.
 */
static void read_temp(struct gpu_device *d)
{
	uint64_t v;

	if (!d->temp_file[0]) {
		strcpy(d->temp_file, "-");	/* none: not looked for again */
		for (int ch = 1; ch <= 16; ch++) {
			char name[sizeof(d->temp_file)], path[8192];

			snprintf(name, sizeof(name), "temp%d_input", ch);
			snprintf(path, sizeof(path), "%s/%s", d->hwmon, name);
			if (!access(path, F_OK)) {
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

/*
 * xe: the group's total and active ticks; the share of the interval the
 * engine was busy, added to @e's busy ns as i915 counts them
 */
void gpu_xe__sample(struct gpu_engine *e, const uint64_t v[3], uint64_t now)
{
	uint64_t wall = e->has_prev && now > e->t_read ? now - e->t_read : 0;

	if (v[0] != 2)
		return;
	if (e->has_prev && v[1] > e->ticks[0] && v[2] >= e->ticks[1]) {
		double share = (double)(v[2] - e->ticks[1]) / (double)(v[1] - e->ticks[0]);

		share = share > 1 ? 1 : share;
		e->busy_pct = 100 * share;
		e->prev = e->cur;
		e->cur += (uint64_t)(share * (double)wall + 0.5);
	}
	e->ticks[0] = v[1];
	e->ticks[1] = v[2];
	e->t_read = now;
	e->has_prev = true;
}

static void read_xe_engine(struct gpu_engine *e, uint64_t now)
{
	uint64_t v[3];	/* PERF_FORMAT_GROUP: nr, then the leader's and the member's */

	if (read(e->fd, v, sizeof(v)) == sizeof(v))
		gpu_xe__sample(e, v, now);
}

/* busy ns over the monotonic interval since each engine's last read that worked */
static void read_engines(struct gpu_device *d, uint64_t now)
{
	for (int i = 0; i < d->nengines; i++) {
		struct gpu_engine *e = &d->engines[i];
		uint64_t v;

		e->busy_pct = NAN;
		if (e->fd2 >= 0) {
			read_xe_engine(e, now);
			continue;
		}
		if (e->fd < 0 || read(e->fd, &v, sizeof(v)) != sizeof(v))
			continue;
		e->prev = e->cur;
		e->cur = v;
		if (e->has_prev && now > e->t_read)
			e->busy_pct = (e->cur >= e->prev ? e->cur - e->prev : 0) * 100.0 /
				      (double)(now - e->t_read);
		e->t_read = now;
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
		for (int k = 0; k < g->dev[i].nengines; k++) {
			if (g->dev[i].engines[k].fd2 >= 0)
				close(g->dev[i].engines[k].fd2);
			if (g->dev[i].engines[k].fd >= 0)
				close(g->dev[i].engines[k].fd);
		}
		free(g->dev[i].engines);
	}
	free(g->dev);
	memset(g, 0, sizeof(*g));
}
