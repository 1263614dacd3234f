/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915_perf_lib.h - the part of IGT's libi915_perf ABI (intel-gpu-tools 1.27,
 * lib/i915/perf.h) that the metrics computer uses.  The library ships no
 * headers, so the layouts are declared here and checked when loaded.
 */
#ifndef HWTRACE_I915_PERF_LIB_H
#define HWTRACE_I915_PERF_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/i915_oa.h"

#define IGT_PERF_MAX_DELTAS	64	/* struct intel_perf_accumulator.deltas[] */

struct igt_list_head {
	struct igt_list_head *prev, *next;
};

struct igt_perf;
struct igt_metric_set;

enum {
	IGT_STORAGE_UINT64, IGT_STORAGE_UINT32, IGT_STORAGE_DOUBLE, IGT_STORAGE_FLOAT,
	IGT_STORAGE_BOOL32,
};

struct igt_counter {
	const struct igt_metric_set *metric_set;
	const char *name;
	const char *symbol_name;
	const char *desc;
	uint32_t storage;
	uint32_t type;
	uint32_t unit;
	void *max;
	union {
		uint64_t (*read_uint64)(const struct igt_perf *perf,
					const struct igt_metric_set *set, uint64_t *deltas);
		double (*read_float)(const struct igt_perf *perf,
				     const struct igt_metric_set *set, uint64_t *deltas);
	};
	struct igt_list_head link;
};

struct igt_metric_set {
	const char *name;
	const char *symbol_name;
	const char *hw_config_guid;
	struct igt_counter *counters;
	int n_counters;
	uint64_t perf_oa_metrics_set;
	int perf_oa_format;
	int perf_raw_size;
	int gpu_time_offset;
	int gpu_clock_offset;
	int a_offset;
	int b_offset;
	int c_offset;
	int perfcnt_offset;
	const void *b_counter_regs;
	uint32_t n_b_counter_regs;
	const void *mux_regs;
	uint32_t n_mux_regs;
	const void *flex_regs;
	uint32_t n_flex_regs;
	struct igt_list_head link;
};

struct igt_perf {
	const char *name;
	void *root_group;
	struct igt_list_head metric_sets;
	/* struct intel_perf_devinfo follows: only the library reads it */
};

/**
 * hwt_i915_perf__open - load libi915_perf once; false with the reason in @why
 *
 * Waits for a load hwt_i915_perf__load_async() started.
 */
bool hwt_i915_perf__open(char *why, size_t n);

/* start loading libi915_perf in a thread of its own, once; hwt_i915_perf__open() then waits for it */
void hwt_i915_perf__load_async(void);

/* intel_perf_for_devinfo(); @topology is a drm_i915_query_topology_info or NULL */
struct igt_perf *hwt_i915_perf__for_devinfo(uint32_t devid, uint32_t revision,
					    uint64_t ts_freq, uint64_t gt_min, uint64_t gt_max,
					    const void *topology);
void hwt_i915_perf__free(struct igt_perf *perf);

/**
 * hwt_i915_perf__prepare - have the loading thread build @dev's view
 * @owner: who takes it (a metrics computer's state)
 * @dev: the device, with its topology (both copied)
 *
 * While hwt_i915_perf__load_async()'s thread is loading the library, it
 * builds the view of @dev (hwt_i915_perf__for_devinfo()) as soon as the
 * library is loaded, so that the first report need not wait for it.  One
 * view at a time: a call while another owner's is pending, or once the
 * thread is done, does nothing.
 */
void hwt_i915_perf__prepare(const void *owner, const struct hwt_i915_oa_device *dev);

/**
 * hwt_i915_perf__take - the view @owner prepared, if it is @dev's, or NULL
 *
 * Waits for the loading thread.  A view of another device (the recording
 * said more since) is freed.  On NULL, build one with
 * hwt_i915_perf__for_devinfo().  The caller frees the view.
 */
struct igt_perf *hwt_i915_perf__take(const void *owner, const struct hwt_i915_oa_device *dev);

/* free the view @owner prepared and did not take (waits for the loading thread) */
void hwt_i915_perf__release(const void *owner);

/* the metric set named @name (symbol name, e.g. "RenderBasic") or with uuid @name */
const struct igt_metric_set *hwt_i915_perf__find_set(const struct igt_perf *perf,
						     const char *name);

/* false when @set's counters do not look like the declared ABI */
bool hwt_i915_perf__set_sane(const struct igt_metric_set *set);

/* whether some platform libi915_perf knows has metric set @name (true if unloadable) */
bool hwt_i915_perf__set_known(const char *name);

/* the symbol name @name (@len bytes) if some metric set of some platform has it */
const char *hwt_i915_perf__counter_known(const char *name, size_t len);

/* whether no counter name can be told: the library cannot be loaded (why in @why) */
bool hwt_i915_perf__names_unknowable(char *why, size_t n);

/* " Name1 Name2 ..." of @perf's metric sets in @buf (truncated to @n) */
size_t hwt_i915_perf__set_names(const struct igt_perf *perf, char *buf, size_t n);

#endif
