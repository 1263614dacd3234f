// SPDX-License-Identifier: GPL-2.0
/*
 * devices.c - the device table: the one list of devices.
 *
 * Adding a device: write its folder under decoders/ (decoder, record types,
 * options, struct hwt_device) and add one line below.
 */
#include <stddef.h>
#include <string.h>

#include "hwtrace/cxl_hmu.h"
#include "hwtrace/device.h"
#include "hwtrace/i915_oa.h"
#include "hwtrace/panthor.h"

const struct hwt_device *const hwt_devices[] = {
	&hwt_device_cxl_hmu,
	&hwt_device_i915_oa,
	&hwt_device_panthor,
	NULL,
};

const struct hwt_record_type *const hwt_record_types[] = {
	&hwt_rt_cxl_hmu_unit,
	&hwt_rt_cxl_hmu_packet,
	&hwt_rt_cxl_hmu_summary,
	&hwt_rt_cxl_hmu_hot,
	&hwt_rt_i915_oa_report,
	&hwt_rt_i915_oa_lost,
	&hwt_rt_i915_oa_context,
	&hwt_rt_i915_oa_stream,
	&hwt_rt_panthor_block, &hwt_rt_panthor_sample, &hwt_rt_panthor_summary,
	&hwt_rt_panthor_block_total, &hwt_rt_panthor_aggregate,
	NULL,
};

const struct hwt_device *hwt_device__find(const char *name)
{
	for (const struct hwt_device *const *d = hwt_devices; *d; d++)
		if (!strcmp((*d)->name, name))
			return *d;
	return NULL;
}

const struct hwt_dev_opt *hwt_device__opt(const struct hwt_device *dev, const char *key,
					  size_t len)
{
	for (const struct hwt_dev_opt *o = dev->options; o && o->key; o++)
		if (strlen(o->key) == len && !strncmp(o->key, key, len))
			return o;
	return NULL;
}
