// SPDX-License-Identifier: GPL-2.0
/*
 * i915_perf_lib.c - load IGT's libi915_perf (intel-gpu-tools) at run time.
 *
 * The library holds the equations of every metric set IGT knows, generated
 * from Intel's metric XML files.  It is loaded when a metrics computer
 * starts, never by the decoder itself: without it everything but --metrics
 * works, and --metrics says why it has none.  Loading it (relocating a
 * 10 MB library) takes as long as decoding a few megabytes of reports, so
 * a thread loads it while the decoder runs; the first use waits for it.
 * Building a device's view of it (intel_perf_for_devinfo(): every metric
 * set of the platform) takes a third as long again; the device is known
 * from the recording's first records, so the same thread builds that
 * view too once loaded, for the metrics computer that asked
 * (hwt_i915_perf__prepare()).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/lazy_lib.h"
#include "i915_perf_lib.h"
#include "i915_oa_internal.h"

/* the soname of intel-gpu-tools 1.27 (Debian bookworm's libi915-perf) */
#define I915_PERF_SONAME "libi915_perf.so.1.5"

static struct {
	struct igt_perf *(*for_devinfo)(uint32_t, uint32_t, uint64_t, uint64_t, uint64_t,
					const void *);
	void (*free)(struct igt_perf *);
	void *accumulate;	/* only looked for: 1.27 has the accumulator API */
} igt;

/* not HWT_LAZY_SYM: even the static tool loads it, never links it */
static const struct hwt_lazy_sym syms[] = {
	{ (void **)&igt.for_devinfo, "intel_perf_for_devinfo", NULL },
	{ (void **)&igt.free, "intel_perf_free", NULL },
	{ &igt.accumulate, "intel_perf_accumulate_reports", NULL },
};

/*
 * Lazy: the library calls its own 2,700 exported functions through the
 * PLT, and binding them all up front costs milliseconds where one
 * platform's sets call a few hundred
 */
static struct hwt_lazy_lib lib =
	HWT_LAZY_LIB(I915_PERF_SONAME, RTLD_LAZY, "intel-gpu-tools 1.27", syms);

/* the largest topology a view is prepared for (IGT's records are a few hundred bytes) */
#define PREP_TOPO_MAX	4096

/*
 * The one device view the loading thread builds after the load.  It is
 * asked for only while @loading (the thread has work left), and taken or
 * released only once the thread is done: @dev does not change under it.
 */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool loading;
	const void *owner;		/* who asked, or NULL */
	struct hwt_i915_oa_device dev;	/* its device, @topo its topology's copy */
	uint64_t topo[PREP_TOPO_MAX / 8];
	struct igt_perf *perf;		/* the view built, or NULL */
} prep = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static void *load_thread(void *arg)
{
	bool loaded = hwt_lazy_lib__load(&lib);
	struct igt_perf *perf = NULL;

	pthread_mutex_lock(&prep.mu);
	if (loaded && prep.owner) {
		pthread_mutex_unlock(&prep.mu);
		perf = igt.for_devinfo(prep.dev.devid, prep.dev.revision, prep.dev.ts_freq,
				       prep.dev.gt_min, prep.dev.gt_max, prep.dev.topology);
		pthread_mutex_lock(&prep.mu);
	}
	prep.perf = perf;
	prep.loading = false;
	pthread_cond_broadcast(&prep.cv);
	pthread_mutex_unlock(&prep.mu);
	return NULL;
}

static void start_load(void)
{
	pthread_attr_t a;
	pthread_t t;

	/* if no thread starts, the first hwt_i915_perf__open() loads it */
	if (pthread_attr_init(&a))
		return;
	pthread_mutex_lock(&prep.mu);
	prep.loading = !pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) &&
		       !pthread_create(&t, &a, load_thread, NULL);
	pthread_mutex_unlock(&prep.mu);
	pthread_attr_destroy(&a);
}

void hwt_i915_perf__load_async(void)
{
	static pthread_once_t started = PTHREAD_ONCE_INIT;

	pthread_once(&started, start_load);
}

bool hwt_i915_perf__open(char *why, size_t n)
{
	if (hwt_lazy_lib__load(&lib))
		return true;
	snprintf(why, n, "%s", lib.why);
	return false;
}

struct igt_perf *hwt_i915_perf__for_devinfo(uint32_t devid, uint32_t revision,
					    uint64_t ts_freq, uint64_t gt_min, uint64_t gt_max,
					    const void *topology)
{
	return hwt_lazy_lib__load(&lib) ?
	       igt.for_devinfo(devid, revision, ts_freq, gt_min, gt_max, topology) : NULL;
}

void hwt_i915_perf__free(struct igt_perf *perf)
{
	if (perf && hwt_lazy_lib__load(&lib))
		igt.free(perf);
}

void hwt_i915_perf__prepare(const void *owner, const struct hwt_i915_oa_device *dev)
{
	if (!owner || !dev->topology || !dev->topology_size || dev->topology_size > PREP_TOPO_MAX)
		return;
	pthread_mutex_lock(&prep.mu);
	if (prep.loading && !prep.owner) {
		prep.owner = owner;
		prep.dev = *dev;
		prep.dev.metric_set = NULL;
		prep.dev.uuid = NULL;
		memcpy(prep.topo, dev->topology, dev->topology_size);
		prep.dev.topology = prep.topo;
	}
	pthread_mutex_unlock(&prep.mu);
}

/* whether a view of @a is one of @b: intel_perf_for_devinfo()'s arguments alike */
static bool same_device(const struct hwt_i915_oa_device *a, const struct hwt_i915_oa_device *b)
{
	return a->devid == b->devid && a->revision == b->revision && a->ts_freq == b->ts_freq &&
	       a->gt_min == b->gt_min && a->gt_max == b->gt_max && b->topology &&
	       a->topology_size == b->topology_size &&
	       !memcmp(a->topology, b->topology, a->topology_size);
}

/* what @owner prepared, once the thread is done; the slot is free again */
static struct igt_perf *prepared(const void *owner, const struct hwt_i915_oa_device *dev)
{
	struct igt_perf *perf = NULL, *stale = NULL;

	pthread_mutex_lock(&prep.mu);
	if (owner && prep.owner == owner) {
		while (prep.loading)
			pthread_cond_wait(&prep.cv, &prep.mu);
		if (dev && same_device(&prep.dev, dev))
			perf = prep.perf;
		else
			stale = prep.perf;
		prep.perf = NULL;
		prep.owner = NULL;
	}
	pthread_mutex_unlock(&prep.mu);
	hwt_i915_perf__free(stale);
	return perf;
}

struct igt_perf *hwt_i915_perf__take(const void *owner, const struct hwt_i915_oa_device *dev)
{
	return prepared(owner, dev);
}

void hwt_i915_perf__release(const void *owner)
{
	prepared(owner, NULL);
}

#define SET_OF(l) ((const struct igt_metric_set *)((const char *)(l) - \
			offsetof(struct igt_metric_set, link)))

const struct igt_metric_set *hwt_i915_perf__find_set(const struct igt_perf *perf,
						     const char *name)
{
	const struct igt_list_head *head = &perf->metric_sets;

	for (const struct igt_list_head *l = head->next; l && l != head; l = l->next) {
		const struct igt_metric_set *s = SET_OF(l);

		if ((s->symbol_name && !strcmp(s->symbol_name, name)) ||
		    (s->hw_config_guid && !strcmp(s->hw_config_guid, name)))
			return s;
	}
	return NULL;
}

bool hwt_i915_perf__set_sane(const struct igt_metric_set *set)
{
	if (set->n_counters <= 0 || set->n_counters > 4096 || !set->counters)
		return false;
	for (int i = 0; i < set->n_counters; i++) {
		const struct igt_counter *c = &set->counters[i];

		if (c->metric_set != set || !c->symbol_name || c->storage > IGT_STORAGE_BOOL32 ||
		    !c->read_uint64)
			return false;
	}
	/* every slot the deltas are written to (i915_oa_metrics.c deltas()) */
	return set->gpu_time_offset >= 0 && set->gpu_time_offset < IGT_PERF_MAX_DELTAS &&
	       set->gpu_clock_offset >= 0 && set->gpu_clock_offset < IGT_PERF_MAX_DELTAS &&
	       set->a_offset >= 0 && set->a_offset < IGT_PERF_MAX_DELTAS &&
	       set->b_offset >= 0 && set->b_offset + 8 <= IGT_PERF_MAX_DELTAS &&
	       set->c_offset >= 0 && set->c_offset + 8 <= IGT_PERF_MAX_DELTAS;
}

/*
 * A full topology (1 slice, 6 subslices of 16 EUs; drm_i915_query_topology_info
 * layout): enough for the library to build a platform's metric sets when
 * only names are wanted, never for values.
 */
static const void *names_topology(void)
{
	static uint64_t t[8];
	uint8_t *b = (uint8_t *)t;
	uint16_t hdr[8] = { 0, 1, 6, 16, 1, 1, 2, 2 };

	memcpy(b, hdr, sizeof(hdr));
	b[16] = 1;
	b[17] = 0x3f;
	memset(b + 18, 0xff, 12);
	return t;
}

/*
 * Build each platform libi915_perf knows (one device id per graphics version
 * and DG2 part) until @fn returns non-NULL; that is returned.
 */
static const char *each_platform(const char *(*fn)(const struct igt_perf *p, const char *name,
						   size_t len),
				 const char *name, size_t len)
{
	const char *found = NULL;

	for (uint32_t devid = 0; devid <= 0xffff && !found; devid++) {
		struct igt_perf *p;

		if (!hwt_i915_oa__gen_for_devid(devid) || (devid != 0x56a0 && devid != 0x56a5 &&
		    devid != 0x56b0 && hwt_i915_oa__gen_for_devid(devid - 1)))
			continue;
		p = hwt_i915_perf__for_devinfo(devid, 0, 12000000, 300000000, 1100000000,
					       names_topology());
		if (!p)
			continue;
		found = fn(p, name, len);
		hwt_i915_perf__free(p);
	}
	return found;
}

static const char *has_set(const struct igt_perf *p, const char *name, size_t len)
{
	const struct igt_metric_set *s = hwt_i915_perf__find_set(p, name);

	return s ? s->symbol_name : NULL;
}

/* symbol names are string literals of the library, which stays loaded */
static const char *has_counter(const struct igt_perf *p, const char *name, size_t len)
{
	const struct igt_list_head *head = &p->metric_sets;

	for (const struct igt_list_head *l = head->next; l && l != head; l = l->next) {
		const struct igt_metric_set *s = SET_OF(l);

		for (int i = 0; i < s->n_counters; i++) {
			const char *sym = s->counters[i].symbol_name;

			if (sym && !strncmp(sym, name, len) && !sym[len])
				return sym;
		}
	}
	return NULL;
}

bool hwt_i915_perf__set_known(const char *name)
{
	char why[256];

	if (!hwt_i915_perf__open(why, sizeof(why)))
		return true;	/* cannot tell: the metrics computer will say why */
	return each_platform(has_set, name, strlen(name)) != NULL;
}

const char *hwt_i915_perf__counter_known(const char *name, size_t len)
{
	char why[256];

	if (!hwt_i915_perf__open(why, sizeof(why)))
		return NULL;
	return each_platform(has_counter, name, len);
}

bool hwt_i915_perf__names_unknowable(char *why, size_t n)
{
	return !hwt_i915_perf__open(why, n);
}

size_t hwt_i915_perf__set_names(const struct igt_perf *perf, char *buf, size_t n)
{
	const struct igt_list_head *head = &perf->metric_sets;
	size_t len = 0;

	if (n)
		buf[0] = 0;
	for (const struct igt_list_head *l = head->next; l && l != head && len < n; l = l->next)
		len += (size_t)snprintf(buf + len, n - len, " %s", SET_OF(l)->symbol_name);
	return len;
}
