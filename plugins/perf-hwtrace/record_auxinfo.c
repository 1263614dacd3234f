// SPDX-License-Identifier: GPL-2.0
/*
 * record_auxinfo.c - the PERF_RECORD_AUXTRACE_INFO a recording starts with:
 * the event's device (matched by PMU name) encodes it (decoders/<device>/
 * auxinfo.c, design.rst 4.1-4.3); this file supplies the values it looks up.
 *
 * For each key the value comes from the first of: a sysfs format term of
 * that name (its value in the event's attr), the file <pmu>/caps/<key>, the
 * device's default.
 */
#include <stdio.h>
#include <string.h>

#include "hwtrace/device.h"
#include "hwtrace/pmu_format.h"
#include "pmu/pmu_internal.h"
#include "record_state.h"
#include "core/decoder_internal.h"

struct lookup_ctx {
	const char *sysfs;
	const struct rec_event *ev;
};

static int lookup(void *ctx, const char *key, uint64_t *v)
{
	const struct lookup_ctx *lc = ctx;
	char file[256];

	if (!hwt_pmu__term_value(lc->ev->pmu, &lc->ev->attr, key, v))
		return 0;
	snprintf(file, sizeof(file), "caps/%s", key);
	return hwt_pmu__sysfs_u64(lc->sysfs, hwt_pmu__name(lc->ev->pmu), file, v);
}

/**
 * rec_aux__info - build the AUXTRACE_INFO record of an AUX event
 * @sysfs:	sysfs root
 * @ev:		the event (opened; ev->pmu set)
 * @buf:	record buffer of @max u64 words
 * @max:	room in @buf
 * @err:	reason on failure
 * @errlen:	size of @err
 *
 * Returns the record size in bytes, 0 when the PMU has no device of ours,
 * -1 with @err set.
 */
int rec_aux__info(const char *sysfs, const struct rec_event *ev, uint64_t *buf, size_t max,
		  char *err, size_t errlen)
{
	struct lookup_ctx lc = { .sysfs = sysfs, .ev = ev };
	struct hwt_auxinfo_lookup lk = { .get = lookup, .ctx = &lc };

	if (ev->aux != REC_AUX_DEVICE || !ev->dev)
		return 0;
	return hwt_device__auxinfo(ev->dev, ev->attr.type, hwt_pmu__name(ev->pmu), &lk, buf, max,
				   err, errlen);
}
