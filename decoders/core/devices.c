// SPDX-License-Identifier: GPL-2.0
/*
 * devices.c - the device table: the one list of devices, and through each
 * device's record types the one list of record types.
 *
 * Adding a device: write its folder under decoders/ (decoder, record types,
 * AUXTRACE_INFO encoder, synth generator, options, struct hwt_device) and add
 * one line below.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "cxl_hmu/cxl_hmu_internal.h"
#include "drm_usage/drm_usage_internal.h"
#include "hwtrace/device.h"
#include "i915_oa/i915_oa_internal.h"
#include "panthor/panthor_internal.h"
#include "decoder_internal.h"

const struct hwt_device *const hwt_devices[] = {
	&hwt_device_cxl_hmu,
	&hwt_device_i915_oa,
	&hwt_device_panthor,
	&hwt_device_drm_usage,
	NULL,
};

const struct hwt_device *hwt_device__find(const char *name)
{
	for (const struct hwt_device *const *d = hwt_devices; *d; d++)
		if (!strcmp((*d)->name, name))
			return *d;
	return NULL;
}

const struct hwt_device *hwt_device__by_pmu(const char *pmu_name)
{
	/* no FNM_PATHNAME: '*' also takes an event name's "/terms/" */
	for (const struct hwt_device *const *d = hwt_devices; pmu_name && *d; d++)
		if ((*d)->pmu_pattern && !fnmatch((*d)->pmu_pattern, pmu_name, 0))
			return *d;
	return NULL;
}

const struct hwt_device *hwt_device__match(const struct hwt_aux_ctx *ctx)
{
	for (const struct hwt_device *const *d = hwt_devices; *d; d++)
		if ((*d)->decoder->match && (*d)->decoder->match(ctx))
			return *d;
	return NULL;
}

const struct hwt_device *hwt_device__probe(const uint8_t *head, size_t n)
{
	for (const struct hwt_device *const *d = hwt_devices; *d; d++)
		if ((*d)->decoder->probe && (*d)->decoder->probe(head, n))
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

int hwt_device__auxinfo(const struct hwt_device *dev, uint32_t pmu_type, const char *pmu_name,
			const struct hwt_auxinfo_lookup *lk, uint64_t *buf, size_t max,
			char *err, size_t errlen)
{
	struct hwt_auxtrace_info *info = (struct hwt_auxtrace_info *)buf;
	size_t hdr = sizeof(*info) / sizeof(uint64_t);
	int n;

	if (max <= hdr) {
		snprintf(err, errlen, "%s: no room for AUXTRACE_INFO", dev->name);
		return -1;
	}
	memset(buf, 0, max * sizeof(*buf));
	info->priv[HWT_AUXTRACE_PRIV_PMU] = pmu_type;
	n = dev->auxinfo ? dev->auxinfo(lk, pmu_name ? pmu_name : dev->name, info->priv,
					(uint32_t)(max - hdr), err, errlen) : 1;
	if (n < 0)
		return -1;
	info->header.type = HWT_REC_AUXTRACE_INFO;
	info->header.size = (uint16_t)(sizeof(*info) + n * sizeof(uint64_t));
	info->type = dev->auxtrace_type;
	return info->header.size;
}
