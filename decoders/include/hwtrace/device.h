/* SPDX-License-Identifier: GPL-2.0 */
/*
 * device.h - one device, one place.
 *
 * Everything hwtrace knows about a device is one struct hwt_device, defined
 * in the device's folder (decoders/<device>/device.c) and listed once in the
 * device table (decoders/core/devices.c).  record, synth, decode, inject,
 * report, script and the Python module walk that table; none of them names
 * a device.
 */
#ifndef HWTRACE_DEVICE_H
#define HWTRACE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "decoder.h"
#include "metrics.h"

/**
 * struct hwt_dev_opt - a decoder option a device takes (`--KEY VALUE`)
 * @key:	the option's name without the dashes ("hdm", "top")
 * @arg:	what the value looks like, for help ("N", "FILE")
 * @help:	one line for help
 * @file:	the value names a file whose contents are the option's value
 * @check:	optional: validate @val before any input is read; return 0, or
 *		-1 with the reason (without the option's name) in @err
 */
struct hwt_dev_opt {
	const char *key;
	const char *arg;
	const char *help;
	bool file;
	int (*check)(const char *val, char *err, size_t errlen);
};

/**
 * struct hwt_auxinfo_lookup - where an AUXTRACE_INFO encoder gets its values
 * @get:	set *@v to the value of @key ("gpu_id", "oa_format", ...) and
 *		return 0, or return -1 when there is none (the encoder's
 *		default stays).  `record` reads the event's sysfs format terms
 *		and <pmu>/caps/<key> files; `synth` answers from its model.
 * @ctx:	passed to @get
 */
struct hwt_auxinfo_lookup {
	int (*get)(void *ctx, const char *key, uint64_t *v);
	void *ctx;
};

struct hwt_synth;

/**
 * struct hwt_device - one device
 * @name:	its name for `--type` ("cxl-hmu", "panthor", "i915-oa")
 * @summary:	one line for lists and help
 * @auxtrace_type: the AUXTRACE_INFO type its carriage uses (design.rst 4)
 * @pmu_pattern: fnmatch() pattern of its PMU names, e.g. cxl_hmu_mem*
 * @decoder:	its payload decoder
 * @record_types: NULL-terminated record types its decoder emits
 * @auxinfo:	fill the AUXTRACE_INFO priv words after the PMU type (which
 *		is set) from @lk, in at most @max words; return the number of
 *		priv words, or -1 with the reason in @err.  No I/O.
 * @synth:	its perf.data generator (`perf hwtrace synth`)
 * @options:	decoder options, terminated by an entry with @key NULL
 * @metrics:	optional: its metrics computer (metrics.h)
 * @ts_freq:	optional: the frequency (Hz) of the device timestamps in the
 *		records of stream @ctx, or 0 when the stream does not say it (a
 *		sink that puts ticks on a timeline asks this, not priv[])
 */
struct hwt_device {
	const char *name;
	const char *summary;
	uint32_t auxtrace_type;
	const char *pmu_pattern;
	const struct hwt_decoder_ops *decoder;
	const struct hwt_record_type *const *record_types;
	int (*auxinfo)(const struct hwt_auxinfo_lookup *lk, const char *pmu_name, uint64_t *priv,
		       uint32_t max, char *err, size_t errlen);
	const struct hwt_synth *synth;
	const struct hwt_dev_opt *options;
	const struct hwt_metrics_ops *metrics;
	uint64_t (*ts_freq)(const struct hwt_aux_ctx *ctx);
};

/*
 * The device table, NULL-terminated (decoders/core/devices.c): the one list
 * of devices, and through their @record_types the one list of record types.
 */
HWT_API extern const struct hwt_device *const hwt_devices[];

/*
 * Walk every record type of every device, in table order:
 *	hwt_devices__for_each_type(d, t) use(*t);
 * (two nested loops: `break` leaves the inner one only)
 */
#define hwt_devices__for_each_type(d, t) \
	for (const struct hwt_device *const *d = hwt_devices; *d; d++) \
		for (const struct hwt_record_type *const *t = (*d)->record_types; *t; t++)

/**
 * hwt_device__find - the device named @name, or NULL
 */
HWT_API const struct hwt_device *hwt_device__find(const char *name);

/**
 * hwt_device__by_pmu - the device whose PMU names match @pmu_name, or NULL
 * @pmu_name:	a sysfs PMU name ("panthor_perf0"); an event name with its
 *		terms ("cxl_hmu_mem0.0.0/epoch_type=0/") matches as its PMU
 */
HWT_API const struct hwt_device *hwt_device__by_pmu(const char *pmu_name);

/**
 * hwt_device__match - the first device whose decoder claims stream @ctx, or NULL
 */
HWT_API const struct hwt_device *hwt_device__match(const struct hwt_aux_ctx *ctx);

/**
 * hwt_device__probe - the device whose decoder recognises a plain file
 * starting with @head (@n bytes), or NULL
 */
HWT_API const struct hwt_device *hwt_device__probe(const uint8_t *head, size_t n);

/**
 * hwt_device__opt - @dev's option @key (@len bytes, not NUL-terminated), or NULL
 */
HWT_API const struct hwt_dev_opt *hwt_device__opt(const struct hwt_device *dev, const char *key,
						  size_t len);

#endif
