// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_layout.c - one row per panthor perf uAPI revision.
 *
 * Sources (Documentation/panthor.rst): RFC v2 (11 Dec 2024) numbers
 * blocks FW=1, CSG=2, CSHW=3, TILER=4, MEMSYS=5, SHADER=6 and has a 48-byte
 * perf_info with csg_blocks and a trailing pad; v3 dropped CSG and renumbered
 * (METADATA=0 is kernel-internal), v4 inserted sample_size after
 * block_header_size (44 bytes), v5 and v6 kept that.  The sample header (56
 * bytes) and block header (24 bytes) are the same in both; review of v6 says
 * the block header will change, which would be a new row here.
 */
#include <stddef.h>

#include "panthor_internal.h"

#define U 0xff		/* no such kind in this revision */
#define X HWT_PANTHOR_UNKNOWN

static const char *const info_rfc_v2[] = {
	"counters_per_block", "sample_header_size", "block_header_size", "flags",
	"supported_clocks", "fw_blocks", "csg_blocks", "cshw_blocks", "tiler_blocks",
	"memsys_blocks", "shader_blocks", "pad",
};

static const char *const info_v6[] = {
	"counters_per_block", "sample_header_size", "block_header_size", "sample_size",
	"flags", "supported_clocks", "fw_blocks", "cshw_blocks", "tiler_blocks",
	"memsys_blocks", "shader_blocks",
};

/* Header offsets shared by both revisions (56-byte sample, 24-byte block header). */
#define HEADERS \
	.sample_header_size = 56, .block_header_size = 24, \
	.sh_ts_start = 0, .sh_ts_end = 8, .sh_block_set = 16, .sh_pad = 17, .sh_pad_len = 3, \
	.sh_flags = 20, .sh_user_data = 24, .sh_cycles = { 32, 40, 48 }, \
	.bh_type = 0, .bh_idx = 1, .bh_states = 2, .bh_clock = 3, .bh_pad = 4, .bh_pad_len = 4, \
	.bh_enable_mask = 8

static const struct hwt_panthor_layout layouts[] = {
	{
		.rev = 2, .name = "RFC v2", .info_size = 48,
		.info_fields = info_rfc_v2,
		.ninfo_fields = sizeof(info_rfc_v2) / sizeof(info_rfc_v2[0]),
		.has_sample_size = false,
		.kind_of_type = { X, HWT_PANTHOR_FW, HWT_PANTHOR_CSG, HWT_PANTHOR_CSHW,
				  HWT_PANTHOR_TILER, HWT_PANTHOR_MEMSYS, HWT_PANTHOR_SHADER, X },
		.type_of_kind = { 1, 2, 3, 4, 5, 6 },
		HEADERS,
	},
	{
		.rev = 6, .name = "v6", .info_size = 44,
		.info_fields = info_v6,
		.ninfo_fields = sizeof(info_v6) / sizeof(info_v6[0]),
		.has_sample_size = true,
		/* 0 is METADATA: internal to the kernel, never in a user sample */
		.kind_of_type = { X, HWT_PANTHOR_FW, HWT_PANTHOR_CSHW, HWT_PANTHOR_TILER,
				  HWT_PANTHOR_MEMSYS, HWT_PANTHOR_SHADER, X, X },
		.type_of_kind = { 1, U, 2, 3, 4, 5 },
		HEADERS,
	},
};

const struct hwt_panthor_layout *hwt_panthor_layout__get(uint32_t rev)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].rev == rev)
			return &layouts[i];
	return NULL;
}
