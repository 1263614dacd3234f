/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drm_fdinfo.h - DRM client usage stats (drm-* keys of /proc/<pid>/fdinfo/<fd>).
 *
 * Follows Documentation/gpu/drm-usage-stats.rst: one "key: value [unit]"
 * per line, split at the first ':', any whitespace after it.  The parser
 * works on text already in memory (the caller reads the file) and keeps
 * every key it does not know.  All numbers are u64.
 */
#ifndef HWTRACE_DRM_FDINFO_H
#define HWTRACE_DRM_FDINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/api.h"
#include "hwtrace/diag.h"

/* Which counters an engine carries (struct hwt_drm_engine.have). */
#define HWT_DRM_HAVE_NS		0x01	/* drm-engine-<e>: busy ns */
#define HWT_DRM_HAVE_CYCLES	0x02	/* drm-cycles-<e> */
#define HWT_DRM_HAVE_TOTAL	0x04	/* drm-total-cycles-<e> */
#define HWT_DRM_HAVE_CAPACITY	0x08	/* drm-engine-capacity-<e> */
#define HWT_DRM_HAVE_MAXFREQ	0x10	/* drm-maxfreq-<e> */

/**
 * struct hwt_drm_engine - one engine (class) of a client
 * @name:	the <e> of the keys, e.g. "render", "rcs", "gfx"
 * @busy_ns:	drm-engine-<e>
 * @cycles:	drm-cycles-<e>
 * @total_cycles: drm-total-cycles-<e>
 * @capacity:	drm-engine-capacity-<e>, 1 when absent
 * @maxfreq_hz:	drm-maxfreq-<e> in Hz
 * @have:	HWT_DRM_HAVE_* bits of the keys seen
 */
struct hwt_drm_engine {
	char *name;
	uint64_t busy_ns;
	uint64_t cycles;
	uint64_t total_cycles;
	uint64_t capacity;
	uint64_t maxfreq_hz;
	uint32_t have;
};

enum hwt_drm_mem {
	HWT_DRM_MEM_TOTAL,
	HWT_DRM_MEM_SHARED,
	HWT_DRM_MEM_RESIDENT,
	HWT_DRM_MEM_PURGEABLE,
	HWT_DRM_MEM_ACTIVE,
	HWT_DRM_MEM_N,
};

/**
 * hwt_drm_mem__name - "total", "shared", "resident", "purgeable" or "active"
 *
 * Returns NULL for a value outside enum hwt_drm_mem.
 */
HWT_API const char *hwt_drm_mem__name(enum hwt_drm_mem m);

/**
 * struct hwt_drm_region - memory of one region, in bytes
 * @name:	the <region> of the keys, e.g. "system0", "vram", "memory"
 * @bytes:	indexed by enum hwt_drm_mem
 * @legacy:	the deprecated drm-memory-<region> (amdgpu), an alias of resident
 * @have:	bit (1 << enum hwt_drm_mem) per key seen, HWT_DRM_HAVE_LEGACY for
 *		drm-memory-; when drm-resident- is absent the parser copies
 *		@legacy into bytes[RESIDENT] (never the sum of both)
 */
struct hwt_drm_region {
	char *name;
	uint64_t bytes[HWT_DRM_MEM_N];
	uint64_t legacy;
	uint32_t have;
};

#define HWT_DRM_HAVE_LEGACY	(1u << HWT_DRM_MEM_N)

/**
 * struct hwt_drm_kv - a line kept as text (unknown or driver-specific key)
 */
struct hwt_drm_kv {
	char *key;
	char *val;
};

/**
 * struct hwt_drm_fdinfo - one parsed fdinfo text (opaque)
 *
 * Made by hwt_drm_fdinfo__new(), filled by hwt_drm_fdinfo__parse() as often
 * as needed (each parse replaces the content and reuses the memory of the
 * previous one), read through the accessors below, freed by
 * hwt_drm_fdinfo__delete().  Engines and regions are listed in order of first
 * appearance; pointers to them and to strings stay valid until the next parse.
 */
struct hwt_drm_fdinfo;

/* hwt_drm_fdinfo__parse() flags */
#define HWT_DRM_PARSE_NO_OTHER	0x1	/* do not keep unknown lines (hwt_drm_fdinfo__nother() is 0) */

/**
 * hwt_drm_fdinfo__new - an empty fdinfo object
 *
 * Returns NULL when memory runs out.
 */
HWT_API struct hwt_drm_fdinfo *hwt_drm_fdinfo__new(void);

/**
 * hwt_drm_fdinfo__delete - free @fi and everything it holds (NULL is allowed)
 */
HWT_API void hwt_drm_fdinfo__delete(struct hwt_drm_fdinfo *fi);

/**
 * hwt_drm_fdinfo__parse - parse one fdinfo text into @fi, replacing its content
 * @fi:		from hwt_drm_fdinfo__new(), empty or holding an earlier parse
 * @text:	the text (need not be NUL-terminated)
 * @len:	its length; any length
 * @flags:	HWT_DRM_PARSE_* (HWT_DRM_PARSE_NO_OTHER: unknown lines are not
 *		kept, their bytes still count as skipped)
 * @diag:	malformed standard keys are reported here (may be NULL); bytes of
 *		drm-* lines understood count as decoded, others as skipped
 *
 * Never fails on content: unknown keys are kept, bad values are reported and
 * kept as text.  Strings, engine and region names of the earlier content are
 * reused when they match, so re-reading a client whose keys did not change
 * allocates nothing: the hot path of a refreshing monitor.  With NO_OTHER the
 * sequence of keys is remembered too: when the next text has the same keys
 * in the same order (and gave no warning), each line is only checked against
 * its remembered key and its number stored, without any lookup.  Returns 0,
 * or -1 if memory runs out (@fi then stays valid for hwt_drm_fdinfo__delete()).
 */
HWT_API int hwt_drm_fdinfo__parse(struct hwt_drm_fdinfo *fi, const char *text, size_t len,
				  unsigned int flags, struct hwt_diag *diag);

/* drm-driver, or NULL (then this is not a DRM fd) */
HWT_API const char *hwt_drm_fdinfo__driver(const struct hwt_drm_fdinfo *fi);
/* drm-pdev, or NULL (platform devices have none) */
HWT_API const char *hwt_drm_fdinfo__pdev(const struct hwt_drm_fdinfo *fi);
/* drm-client-name, or NULL */
HWT_API const char *hwt_drm_fdinfo__client_name(const struct hwt_drm_fdinfo *fi);

/**
 * hwt_drm_fdinfo__client_id - the first drm-client-id (amdgpu once printed two)
 * @fi:		the fdinfo
 * @id:		set to the id when there is one
 *
 * Returns whether the text had a drm-client-id.
 */
HWT_API bool hwt_drm_fdinfo__client_id(const struct hwt_drm_fdinfo *fi, uint64_t *id);

/*
 * Number of engines, and engine @i (NULL past the end; not const:
 * hwt_drm_usage__engine() raises its counters)
 */
HWT_API uint32_t hwt_drm_fdinfo__nengines(const struct hwt_drm_fdinfo *fi);
HWT_API struct hwt_drm_engine *hwt_drm_fdinfo__engine_at(const struct hwt_drm_fdinfo *fi,
							 uint32_t i);

/**
 * hwt_drm_fdinfo__engine - engine @name of @fi, or NULL
 */
HWT_API struct hwt_drm_engine *hwt_drm_fdinfo__engine(const struct hwt_drm_fdinfo *fi,
						      const char *name);

/* Number of memory regions, and region @i (NULL past the end) */
HWT_API uint32_t hwt_drm_fdinfo__nregions(const struct hwt_drm_fdinfo *fi);
HWT_API const struct hwt_drm_region *hwt_drm_fdinfo__region_at(const struct hwt_drm_fdinfo *fi,
							       uint32_t i);

/**
 * hwt_drm_fdinfo__region - region @name of @fi, or NULL
 */
HWT_API const struct hwt_drm_region *hwt_drm_fdinfo__region(const struct hwt_drm_fdinfo *fi,
							    const char *name);

/* Number of kept lines (pos:, flags:, amd-*, ...), and line @i in order (NULL past the end) */
HWT_API uint32_t hwt_drm_fdinfo__nother(const struct hwt_drm_fdinfo *fi);
HWT_API const struct hwt_drm_kv *hwt_drm_fdinfo__other_at(const struct hwt_drm_fdinfo *fi,
							  uint32_t i);

/**
 * hwt_drm_fdinfo__other - value text of the first kept line with key @key, or NULL
 */
HWT_API const char *hwt_drm_fdinfo__other(const struct hwt_drm_fdinfo *fi, const char *key);

/* Where an engine's utilisation came from (the spec's precedence). */
enum hwt_drm_util_src {
	HWT_DRM_UTIL_NONE,		/* first sample, new engine, or no usable counter */
	HWT_DRM_UTIL_TOTAL_CYCLES,	/* d(cycles) / d(total-cycles) */
	HWT_DRM_UTIL_BUSY_NS,		/* d(busy ns) / d(wall ns) */
	HWT_DRM_UTIL_MAXFREQ,		/* d(cycles) / (d(wall s) * maxfreq) */
};

/**
 * struct hwt_drm_util - utilisation of one engine between two samples
 * @src:	which counters gave @percent; NONE means null
 * @percent:	busy share in percent of the engine's capacity (100 = every
 *		instance of the class busy all the time); not clamped
 * @held:	a counter went backwards and its previous high value was kept
 */
struct hwt_drm_util {
	enum hwt_drm_util_src src;
	double percent;
	bool held;
};

/**
 * hwt_drm_usage__engine - utilisation of engine @cur between @prev and @cur
 * @prev:	the same engine in the previous sample, or NULL (new engine,
 *		first sample): the result is then null
 * @cur:	the engine now; its counters that are lower than @prev's are
 *		raised to @prev's (the spec: "stay with that larger previous
 *		value until a monotonic update is seen"), so keep @cur as the
 *		next call's @prev
 * @wall_ns:	monotonic time between the two reads
 */
HWT_API struct hwt_drm_util hwt_drm_usage__engine(const struct hwt_drm_engine *prev,
					  struct hwt_drm_engine *cur, uint64_t wall_ns);

/**
 * hwt_drm_usage__compute - utilisation of every engine of @cur
 * @prev:	previous sample of the same client, or NULL
 * @cur:	this sample (counters raised to high-water marks, see above)
 * @wall_ns:	monotonic time between the two reads
 * @util:	one entry per @cur engine, same order (hwt_drm_fdinfo__nengines(@cur))
 */
HWT_API void hwt_drm_usage__compute(const struct hwt_drm_fdinfo *prev, struct hwt_drm_fdinfo *cur,
			    uint64_t wall_ns, struct hwt_drm_util *util);

#endif
