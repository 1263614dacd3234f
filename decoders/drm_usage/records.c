// SPDX-License-Identifier: GPL-2.0
/*
 * records.c - field tables of the drm-usage record types (design.rst 7):
 * every sink (script, report, inject, Python, Perfetto) walks these.
 */
#include <stddef.h>

#include "drm_usage_internal.h"

const char *const hwt_drm_usage_kind_names[5] = {
	"total", "shared", "resident", "purgeable", "active",
};

#define ENG struct hwt_drm_usage_engine_rec
static const struct hwt_field engine_fields[] = {
	HWT_FIELD(ENG, time, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(ENG, driver, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(ENG, pdev, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_OPT(ENG, client_id, HWT_FT_U64, HWT_FH_DEC, has_client_id),
	HWT_FIELD_OPT(ENG, fd, HWT_FT_U32, HWT_FH_DEC, has_fd),
	HWT_FIELD(ENG, pid, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(ENG, comm, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(ENG, engine, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_OPT(ENG, busy_ns, HWT_FT_U64, HWT_FH_DEC, has_busy_ns),
	HWT_FIELD_OPT(ENG, cycles, HWT_FT_U64, HWT_FH_DEC, has_cycles),
	HWT_FIELD_OPT(ENG, total_cycles, HWT_FT_U64, HWT_FH_DEC, has_total_cycles),
	HWT_FIELD(ENG, capacity, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD_OPT(ENG, util_ppm, HWT_FT_U32, HWT_FH_DEC, has_util),
};

const struct hwt_record_type hwt_rt_drm_usage_engine = {
	.name = "drm_usage_engine",
	.id = 4001,
	.fields = engine_fields,
	.nfields = sizeof(engine_fields) / sizeof(engine_fields[0]),
	.kind = HWT_RK_DATA,
};

#define MEM struct hwt_drm_usage_memory_rec
static const struct hwt_field memory_fields[] = {
	HWT_FIELD(MEM, time, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(MEM, driver, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(MEM, pdev, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_OPT(MEM, client_id, HWT_FT_U64, HWT_FH_DEC, has_client_id),
	HWT_FIELD_OPT(MEM, fd, HWT_FT_U32, HWT_FH_DEC, has_fd),
	HWT_FIELD(MEM, pid, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(MEM, comm, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(MEM, region, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_ENUM(MEM, kind, HWT_FT_U32, hwt_drm_usage_kind_names),
	HWT_FIELD(MEM, bytes, HWT_FT_U64, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_drm_usage_memory = {
	.name = "drm_usage_memory",
	.id = 4002,
	.fields = memory_fields,
	.nfields = sizeof(memory_fields) / sizeof(memory_fields[0]),
	.kind = HWT_RK_DATA,
};

#define GPU struct hwt_drm_usage_gpu_rec
static const struct hwt_field gpu_fields[] = {
	HWT_FIELD(GPU, time, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(GPU, card, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(GPU, driver, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(GPU, pdev, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_OPT(GPU, cur_mhz, HWT_FT_U64, HWT_FH_DEC, has_cur),
	HWT_FIELD_OPT(GPU, max_mhz, HWT_FT_U64, HWT_FH_DEC, has_max),
	HWT_FIELD_OPT(GPU, power_mw, HWT_FT_U64, HWT_FH_DEC, has_power),
	{ .name = "temp_mc", .type = HWT_FT_S64, .offset = offsetof(GPU, temp_mc),
	  .flags = HWT_FF_OPTIONAL, .present_offset = offsetof(GPU, has_temp) },
	HWT_FIELD_OPT(GPU, vram_total, HWT_FT_U64, HWT_FH_DEC, has_vram_total),
	HWT_FIELD_OPT(GPU, vram_used, HWT_FT_U64, HWT_FH_DEC, has_vram_used),
};

const struct hwt_record_type hwt_rt_drm_usage_gpu = {
	.name = "drm_usage_gpu",
	.id = 4003,
	.fields = gpu_fields,
	.nfields = sizeof(gpu_fields) / sizeof(gpu_fields[0]),
	.kind = HWT_RK_DATA,
};

#define GEN struct hwt_drm_usage_gpu_engine_rec
static const struct hwt_field gpu_engine_fields[] = {
	HWT_FIELD(GEN, time, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(GEN, card, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(GEN, engine, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_OPT(GEN, busy_ppm, HWT_FT_U32, HWT_FH_DEC, has_busy),
};

const struct hwt_record_type hwt_rt_drm_usage_gpu_engine = {
	.name = "drm_usage_gpu_engine",
	.id = 4004,
	.fields = gpu_engine_fields,
	.nfields = sizeof(gpu_engine_fields) / sizeof(gpu_engine_fields[0]),
	.kind = HWT_RK_DATA,
};
