/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drm_fdinfo_internal.h - the layout of struct hwt_drm_fdinfo (not installed).
 *
 * Like libperf's include/internal/: the library and the perf-hwtrace tool,
 * which links libhwtrace statically, read the fields directly in `top`'s
 * refresh loop; programs using the shared library go through the accessors
 * of hwtrace/drm_fdinfo.h and never see this layout.
 */
#ifndef HWTRACE_DRM_FDINFO_INTERNAL_H
#define HWTRACE_DRM_FDINFO_INTERNAL_H

#include "hwtrace/drm_fdinfo.h"

struct hwt_drm_step;

/*
 * struct hwt_drm_names - open-addressing index of engine or region names,
 * kept once a client has more than a few (a linear scan is quicker below
 * that): @slot holds index + 1 (0 empty), @cap a power of two, @n the
 * names indexed so far.  The index is valid while @n equals the count.
 */
struct hwt_drm_names {
	uint32_t *slot;
	uint32_t cap, n;
};

/**
 * struct hwt_drm_fdinfo - one parsed fdinfo text
 * @driver:	drm-driver, or NULL (then this is not a DRM fd)
 * @pdev:	drm-pdev, or NULL (platform devices have none)
 * @client_name: drm-client-name, or NULL
 * @client_id:	the first drm-client-id (amdgpu once printed two)
 * @has_client_id: whether one was seen
 * @engines, @nengines: engines in order of first appearance
 * @regions, @nregions: memory regions in order of first appearance
 * @other, @nother: every other line, in order (pos:, flags:, amd-*, ...)
 *
 * Slots of @engines and @regions past @nengines/@nregions may hold names of an
 * earlier parse, kept for the next hwt_drm_fdinfo__parse() to reuse.  The
 * rest are allocation sizes, lookup hints, name indexes and the line keys of
 * the last NO_OTHER parse, replayed by the next one.  @name_probes counts
 * the name comparisons and index probes of the parses (for tests: the work
 * per engine must not grow with the number of engines).
 */
struct hwt_drm_fdinfo {
	char *driver;
	char *pdev;
	char *client_name;
	uint64_t client_id;
	bool has_client_id;
	struct hwt_drm_engine *engines;
	uint32_t nengines;
	struct hwt_drm_region *regions;
	uint32_t nregions;
	struct hwt_drm_kv *other;
	uint32_t nother;
	uint32_t cap_engines, cap_regions, cap_other;
	uint32_t last_engine, last_region;
	struct hwt_drm_names engine_idx, region_idx;
	uint64_t name_probes;
	struct hwt_drm_step *plan;
	char *plan_keys;
	uint32_t nplan, cap_plan, plan_keys_len, cap_plan_keys;
	uint32_t plan_nengines, plan_nregions;
	bool plan_ok;
};

/*
 * For objects embedded by value (the tool's client table): __init empties
 * @fi, __exit frees what it holds and empties it again.
 */
void hwt_drm_fdinfo__init(struct hwt_drm_fdinfo *fi);
void hwt_drm_fdinfo__exit(struct hwt_drm_fdinfo *fi);

/**
 * hwt_drm_fdinfo__update - parse @text into @fi in place, if it is @fi's text
 * with only numbers changed
 * @fi:		the result of a hwt_drm_fdinfo__parse() with HWT_DRM_PARSE_NO_OTHER
 * @text, @len:	the new text
 * @old, @old_len: the text @fi was last parsed or updated from, or NULL
 * @diag:	counts the bytes as the parse does; the update never warns
 *
 * The lines must have the keys of @fi's last parse in the same order, the
 * same driver, pdev, client name and client id, and numbers that parse
 * without a warning: what a monitor re-reading a busy client gets.  Unlike
 * a parse into another object, this touches only @fi's own memory, and each
 * engine and region keeps its slot, so a caller can pair old and new values
 * by index.  With @old, the lines before the first byte that differs from
 * it are not read again: they keep the values @fi holds for them (a caller
 * that changed those since must pass NULL).
 *
 * Return: 1 when @fi now holds what hwt_drm_fdinfo__parse() of @text would
 * give, 0 when @text is not such an update (@fi is left as it was).
 */
int hwt_drm_fdinfo__update(struct hwt_drm_fdinfo *fi, const char *text, size_t len,
			   const char *old, size_t old_len, struct hwt_diag *diag);

#define HWT_PREFETCH_LINES 16

/*
 * A hint for the first HWT_PREFETCH_LINES cache lines of the @n bytes at @p
 * (NULL: none): the fdinfo samples, and a monitor's texts and views of them.
 */
static inline void hwt_prefetch_bytes(const void *p, size_t n)
{
	const char *b = p;

	if (!b)
		return;
	if (n > HWT_PREFETCH_LINES * 64)
		n = HWT_PREFETCH_LINES * 64;
	for (size_t off = 0; off < n; off += 64)
		__builtin_prefetch(b + off);
}

/*
 * Ask the cache for what the next parse into @fi, or a reader of it, will
 * touch: __prefetch() its plan, key texts, engine and region slots (loading
 * only @fi's own fields), __prefetch_names() the names behind the slots
 * (which loads the slots: call it once they were prefetched).  A monitor
 * re-reading thousands of clients calls them ahead of a client's read(),
 * whose system call then hides the memory latency.  Only hints.
 */
void hwt_drm_fdinfo__prefetch(const struct hwt_drm_fdinfo *fi);
void hwt_drm_fdinfo__prefetch_names(const struct hwt_drm_fdinfo *fi);

#endif
