// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_names.c - counter names for a GPU_ID and block kind.
 *
 * GPUs are matched as libGPUCounters' product_id.cpp does: on
 * (arch_major << 8) | product_major, ignoring arch minor/rev and version
 * (Documentation/panthor.rst).  The per-GPU tables are data in
 * panthor_names_*.c.
 */
#include <stddef.h>

#include "panthor_internal.h"

const char *const hwt_panthor_kind_names[HWT_PANTHOR_NKINDS + 1] = {
	[HWT_PANTHOR_FW] = "fw",
	[HWT_PANTHOR_CSG] = "csg",
	[HWT_PANTHOR_CSHW] = "cshw",
	[HWT_PANTHOR_TILER] = "tiler",
	[HWT_PANTHOR_MEMSYS] = "memsys",
	[HWT_PANTHOR_SHADER] = "shader",
	[HWT_PANTHOR_UNKNOWN] = "unknown",
};

/* The four words at the start of every block (kbase/panthor FW layout). */
static const char *const header_names[HWT_PANTHOR_HDR_COUNTERS] = {
	"TIMESTAMP_LO", "TIMESTAMP_HI", "PRFCNT_EN", "RESERVED",
};

/* Product names per (arch_major << 8) | product_major (Mali-ProductInfo.xml). */
static const struct {
	uint16_t id;
	const char *name;
} products[] = {
	{ 0xa02, "Mali-G710" }, { 0xa03, "Mali-G510" }, { 0xa04, "Mali-G310" },
	{ 0xa07, "Mali-G610" }, { 0xb02, "Mali-G715" }, { 0xb03, "Mali-G615" },
	{ 0xc00, "Mali-G720" }, { 0xc01, "Mali-G620" }, { 0xd00, "Mali-G725" },
	{ 0xd01, "Mali-G625" }, { 0xe00, "Mali-G1-Ultra" }, { 0xe01, "Mali-G1-Premium" },
	{ 0xe03, "Mali-G1-Pro" },
};

static const struct hwt_panthor_names *const tables[] = {
	&hwt_panthor_names_g710,
	&hwt_panthor_names_g715,
};

static uint16_t product_id(uint32_t gpu_id)
{
	/* a 16-bit id is GPU_ID >> 16, as dmesg and the XML print it */
	if (gpu_id <= 0xffff)
		gpu_id <<= 16;
	return (uint16_t)((gpu_id >> 28) << 8 | ((gpu_id >> 16) & 0xf));
}

const char *hwt_panthor__gpu_name(uint32_t gpu_id)
{
	uint16_t id = product_id(gpu_id);

	for (size_t i = 0; i < sizeof(products) / sizeof(products[0]); i++)
		if (products[i].id == id)
			return products[i].name;
	return NULL;
}

static const struct hwt_panthor_names *table_of(uint32_t gpu_id)
{
	uint16_t id = product_id(gpu_id);

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (uint32_t p = 0; p < tables[t]->nproducts; p++)
			if (tables[t]->products[p] == id)
				return tables[t];
	return NULL;
}

const char *hwt_panthor__counter_name(uint32_t gpu_id, enum hwt_panthor_kind kind, uint32_t idx)
{
	const struct hwt_panthor_names *n;

	if (idx < HWT_PANTHOR_HDR_COUNTERS)
		return header_names[idx];
	if (kind >= HWT_PANTHOR_NKINDS)
		return NULL;
	n = table_of(gpu_id);
	return n && n->block[kind] && idx < n->size ? n->block[kind][idx] : NULL;
}

uint32_t hwt_panthor__counter_shift(uint32_t gpu_id, enum hwt_panthor_kind kind, uint32_t idx)
{
	const struct hwt_panthor_names *n = table_of(gpu_id);

	for (uint32_t i = 0; n && i < n->nshifts; i++)
		if (n->shifts[i].kind == kind && n->shifts[i].idx == idx)
			return n->shifts[i].shift;
	return 0;
}
