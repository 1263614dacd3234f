// SPDX-License-Identifier: GPL-2.0
/*
 * i915_perf_stream.c - walk the records read() returns on an i915 perf fd.
 *
 * Each record is struct drm_i915_perf_record_header {u32 type; u16 pad;
 * u16 size} plus a body; size counts the header.  The walker trusts
 * header.size and nothing else: a size below 8 (which would loop forever), a
 * size past the end or a non-zero pad is an error, after which it looks for
 * the next record the caller recognises, 4 bytes at a time.
 */
#include <string.h>

#include "i915_oa_internal.h"

#define HDR 8
/*
 * Records are read once, in order, from a fresh mapping: ask for the lines a
 * few records ahead, so that a report's header is not a memory round trip
 */
#define PREFETCH_AHEAD 2048

struct hdr {
	uint32_t type;
	uint16_t pad;
	uint16_t size;
};

static struct hdr read_hdr(const uint8_t *p)
{
	struct hdr h;

	memcpy(&h.type, p, 4);
	memcpy(&h.pad, p + 4, 2);
	memcpy(&h.size, p + 6, 2);
	return h;
}

/* Is there a record the caller knows at @p (with @left bytes after it)? */
static bool plausible(const uint8_t *p, size_t left, bool last, const struct hwt_i915_walk *w)
{
	struct hdr h = read_hdr(p);

	return h.pad == 0 && h.size >= HDR && (h.size <= left || !last) && !(h.size & 3) &&
	       w->known(w->ctx, h.type, h.size - HDR);
}

/*
 * How many whole records of @size bytes at @p repeat its 8-byte header, up
 * to RUN_MAX: the caller then reads the run while it is still in cache.
 */
#define RUN_MAX 256

static size_t run_length(const uint8_t *p, size_t left, size_t size)
{
	uint64_t first, h;
	size_t count = 1;

	memcpy(&first, p, HDR);
	for (size_t at = size; count < RUN_MAX && size <= left - at; at += size, count++) {
		memcpy(&h, p + at, HDR);
		if (h != first)
			break;
	}
	return count;
}

size_t hwt_i915_stream__walk(const uint8_t *buf, size_t n, uint64_t off, bool last,
			     const struct hwt_i915_walk *w, struct hwt_diag *diag)
{
	size_t pos = 0;

	while (n - pos >= HDR) {
		struct hdr h = read_hdr(buf + pos);
		const char *why = NULL;
		size_t skip;

		if (h.size < HDR)
			why = "size below the 8-byte header";
		else if (h.pad)
			why = "non-zero pad";
		else if (h.size > n - pos && last)
			why = "size runs past the end of the input";
		if (!why && h.size > n - pos)
			return pos;	/* the rest comes with the next chunk */
		if (!why && w->run) {
			size_t count = run_length(buf + pos, n - pos, h.size);

			if (count > 1) {
				if (diag)
					diag->bytes.decoded += HDR * count;
				w->run(w->ctx, h.type, buf + pos + HDR, h.size - HDR, h.size, count,
				       off + pos);
				pos += count * h.size;
				continue;
			}
		}
		if (!why) {
			/* every line of the record that far ahead (a report spans five) */
			for (size_t l = 0; l < h.size && pos + PREFETCH_AHEAD + l < n; l += 64)
				__builtin_prefetch(buf + pos + PREFETCH_AHEAD + l);
			w->record(w->ctx, h.type, buf + pos + HDR, h.size - HDR, off + pos);
			if (w->stop && *w->stop)
				return pos;	/* not taken: it comes again */
			if (diag)
				diag->bytes.decoded += HDR;
			pos += h.size;
			continue;
		}
		hwt_diag__error(diag, off + pos, "i915 perf record",
				"bad record header (type %u, pad %u, size %u): %s; resyncing",
				h.type, h.pad, h.size, why);
		/* resync: next 4-aligned position holding a record we know */
		for (skip = 4; pos + skip + HDR <= n; skip += 4)
			if (plausible(buf + pos + skip, n - pos - skip, last, w))
				break;
		if (pos + skip + HDR > n) {
			/* not last: keep the unchecked tail, it may start a record */
			if (!last) {
				if (diag)
					diag->bytes.skipped += skip;
				return pos + skip;
			}
			skip = n - pos;
		}
		if (diag)
			diag->bytes.skipped += skip;
		if (pos + skip < n)
			hwt_diag__warn(diag, off + pos + skip, "i915 perf record",
				       "resynced after %zu bytes of garbage", skip);
		pos += skip;
	}
	if (last && pos < n) {
		hwt_diag__error(diag, off + pos, "i915 perf record",
				"%zu trailing bytes, too short for a record header", n - pos);
		if (diag)
			diag->bytes.skipped += n - pos;
		pos = n;
	}
	return pos;
}
