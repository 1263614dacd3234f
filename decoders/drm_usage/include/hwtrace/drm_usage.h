/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drm_usage.h - the drm-usage device: DRM client and GPU samples that
 * `perf hwtrace top --record` writes (Documentation/design.rst 4.5,
 * Documentation/drm-usage.rst): its AUXTRACE_INFO words, payload record
 * types and the record structs its decoder emits.
 */
#ifndef HWTRACE_DRM_USAGE_H
#define HWTRACE_DRM_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#define HWT_DRM_USAGE_LAYOUT	1
#define HWT_DRM_USAGE_PRIV_LAYOUT 1	/* priv[1]: payload layout version */
#define HWT_DRM_USAGE_NPRIV	2
#define HWT_DRM_USAGE_PMU	"drm_usage"
#define HWT_DRM_USAGE_MAX_REC	4096	/* a record is at most this many bytes */

enum hwt_drm_usage_rtype {
	HWT_DRM_USAGE_ENGINE = 1,	/* one engine of one client */
	HWT_DRM_USAGE_MEMORY = 2,	/* one region and kind of one client */
	HWT_DRM_USAGE_GPU = 3,		/* one GPU's device-wide values */
	HWT_DRM_USAGE_GPU_ENGINE = 4,	/* one engine of one GPU */
};

/* which optional values an engine record has (payload flags word) */
#define HWT_DU_HAS_ID		0x01
#define HWT_DU_HAS_BUSY		0x02
#define HWT_DU_HAS_CYCLES	0x04
#define HWT_DU_HAS_TOTAL	0x08
#define HWT_DU_HAS_UTIL		0x10
/* engine and memory records: no client id; the client_id word holds the fd */
#define HWT_DU_HAS_FD		0x20
/* GPU record */
#define HWT_DU_HAS_CUR		0x01
#define HWT_DU_HAS_MAX		0x02
#define HWT_DU_HAS_POWER	0x04
#define HWT_DU_HAS_TEMP		0x08
#define HWT_DU_HAS_VRAM_TOTAL	0x10
#define HWT_DU_HAS_VRAM_USED	0x20

/* client identity shared by engine and memory records */
struct hwt_du_client {
	uint64_t time;		/* monotonic ns of the sample */
	const char *driver, *pdev, *comm;
	uint64_t client_id;
	bool has_client_id;
	uint32_t pid;		/* lowest pid holding the client */
};

struct hwt_drm_usage_engine_rec {
	uint64_t time;
	const char *driver, *pdev;
	uint64_t client_id;
	bool has_client_id;
	uint32_t pid;
	const char *comm, *engine;
	uint64_t busy_ns, cycles, total_cycles;
	bool has_busy_ns, has_cycles, has_total_cycles, has_util;
	uint32_t capacity;
	uint32_t util_ppm;	/* utilisation, 1000000 = the whole capacity */
	uint32_t fd;		/* a client without drm-client-id: its fd (of @pid) */
	bool has_fd;
};

struct hwt_drm_usage_memory_rec {
	uint64_t time;
	const char *driver, *pdev;
	uint64_t client_id;
	bool has_client_id;
	uint32_t pid;
	const char *comm, *region;
	uint32_t kind;
	uint64_t bytes;
	uint32_t fd;		/* as the engine record's */
	bool has_fd;
};

struct hwt_drm_usage_gpu_rec {
	uint64_t time;
	const char *card, *driver, *pdev;
	uint64_t cur_mhz, max_mhz, power_mw, vram_total, vram_used;
	int64_t temp_mc;	/* millidegrees Celsius */
	bool has_cur, has_max, has_power, has_temp, has_vram_total, has_vram_used;
};

struct hwt_drm_usage_gpu_engine_rec {
	uint64_t time;
	const char *card, *engine;
	uint32_t busy_ppm;
	bool has_busy;
};

#endif
