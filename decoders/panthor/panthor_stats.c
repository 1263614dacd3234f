// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_stats.c - derived figures for `report`: per block instance totals,
 * per-second rates over the sampled intervals, counts per clock cycle, and
 * the shader-core and L2-slice aggregates (Documentation/panthor.rst).
 */
#include <stdlib.h>
#include <string.h>

#include "panthor_internal.h"

int panthor_stats__init(struct panthor_stats *st, const struct hwt_panthor_info *info)
{
	memset(st, 0, sizeof(*st));
	st->cpb = info->counters_per_block;
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++) {
		st->nblocks[k] = info->blocks[k];
		if (!info->blocks[k])
			continue;
		st->acc[k] = calloc(info->blocks[k], sizeof(*st->acc[k]));
		if (!st->acc[k])
			return -1;
	}
	return 0;
}

void panthor_stats__block(struct panthor_stats *st, const struct hwt_panthor_block *b,
			  const uint64_t *values, uint64_t cycles, uint64_t interval)
{
	struct panthor_acc *a;

	if (b->kind >= HWT_PANTHOR_NKINDS || b->idx >= st->nblocks[b->kind])
		return;
	a = &st->acc[b->kind][b->idx];
	if (!a->tot) {
		a->tot = calloc(2 * (size_t)st->cpb, sizeof(uint64_t));
		if (!a->tot) {
			st->nomem = true;
			return;
		}
		a->tot_iv = a->tot + st->cpb;
	}
	a->samples++;
	a->cycles += cycles;
	a->interval_ns += interval;
	if (b->states & HWT_PANTHOR_STATE_OFF)
		a->off++;
	else if (b->states & HWT_PANTHOR_STATE_UNAVAILABLE)
		a->unavailable++;
	else
		a->live++;
	a->en[0] |= b->enable_mask[0];
	a->en[1] |= b->enable_mask[1];
	/* only enabled event counters are ever reported */
	for (uint32_t w = 0; w < 2; w++) {
		uint64_t *t = a->tot + 64 * w, *ti = a->tot_iv + 64 * w;
		const uint64_t *v = values + 64 * w;

		if (b->enable_mask[w] == ~0ull && st->cpb >= 64 * (w + 1)) {
			/* the common all-enabled word: a loop the compiler vectorises */
			for (uint32_t i = 0; i < 64; i++)
				t[i] += v[i];
			if (interval)
				for (uint32_t i = 0; i < 64; i++)
					ti[i] += v[i];
			continue;
		}
		for (uint64_t m = b->enable_mask[w]; m; m &= m - 1) {
			uint32_t i = 64 * w + __builtin_ctzll(m);

			if (i >= st->cpb)
				break;
			a->tot[i] += values[i];
			if (interval)
				a->tot_iv[i] += values[i];
		}
	}
}

/* @v events in @ns nanoseconds, per second, rounded; saturates. */
static uint64_t per(uint64_t v, uint64_t scale, uint64_t base)
{
	unsigned __int128 q = ((unsigned __int128)v * scale + base / 2) / base;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static bool enabled(const uint64_t en[2], uint32_t i)
{
	return i < PANTHOR_MASK_BITS && (en[i / 64] >> (i % 64) & 1);
}

static uint32_t last_counter(uint32_t cpb)
{
	return cpb < PANTHOR_MASK_BITS ? cpb : PANTHOR_MASK_BITS;
}

static const char *block_note(uint64_t interval, uint64_t cycles)
{
	if (!interval && !cycles)
		return "no interval (needs two samples with increasing timestamp_end_ns); "
		       "no clock cycles in the headers";
	if (!interval)
		return "no interval (needs two samples with increasing timestamp_end_ns)";
	if (!cycles)
		return "no clock cycles in the headers (v6 leaves them 0): no per-cycle figures";
	return "";
}

static void emit_totals(struct panthor_stats *st, const char *const *const *names,
			struct hwt_kv *kv, const struct hwt_emit *emit)
{
	struct hwt_kv *ps = kv + PANTHOR_MASK_BITS, *pc = ps + PANTHOR_MASK_BITS;

	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++) {
		for (uint32_t idx = 0; idx < st->nblocks[k]; idx++) {
			const struct panthor_acc *a = &st->acc[k][idx];
			struct hwt_panthor_block_total t = {
				.block_type = k, .block_idx = idx, .samples = a->samples,
				.interval_ns = a->interval_ns, .cycles = a->cycles, .off = a->off,
				.unavailable = a->unavailable,
				.note = block_note(a->interval_ns, a->cycles),
				.totals = kv, .per_second = ps, .per_mcycle = pc,
			};

			if (!a->samples || !a->tot)
				continue;
			for (uint32_t i = HWT_PANTHOR_HDR_COUNTERS; i < last_counter(st->cpb); i++) {
				if (!enabled(a->en, i))
					continue;
				kv[t.ntotals++] = (struct hwt_kv){ names[k][i], a->tot[i] };
				if (a->interval_ns)
					ps[t.nper_second++] = (struct hwt_kv){
						names[k][i], per(a->tot_iv[i], 1000000000u,
								 a->interval_ns) };
				if (a->cycles)
					pc[t.nper_mcycle++] = (struct hwt_kv){
						names[k][i], per(a->tot[i], 1000000u, a->cycles) };
			}
			hwt_emit__record(emit, &hwt_rt_panthor_block_total, &t, 0);
		}
	}
}

/* Shader cores: sum and mean over present cores; L2 slices: sum. */
static void emit_aggregate(struct panthor_stats *st, int k, const char *const *names,
			   struct hwt_kv *kv, const struct hwt_emit *emit)
{
	struct hwt_kv *mean = kv + PANTHOR_MASK_BITS, *ps = mean + PANTHOR_MASK_BITS;
	struct hwt_panthor_aggregate g = {
		.block_type = k, .interval_ns = st->interval_ns, .sum = kv, .mean = mean,
		.per_second = ps,
		.how = k == HWT_PANTHOR_SHADER ? "sum and mean over present shader cores"
					       : "sum over L2 slices",
	};
	uint64_t en[2] = { 0, 0 };
	bool any = false;

	for (uint32_t idx = 0; idx < st->nblocks[k]; idx++) {
		const struct panthor_acc *a = &st->acc[k][idx];

		if (!a->samples || !a->tot)
			continue;
		any = true;
		g.instances += a->live > 0;
		en[0] |= a->en[0];
		en[1] |= a->en[1];
	}
	if (!any)
		return;
	for (uint32_t i = HWT_PANTHOR_HDR_COUNTERS; i < last_counter(st->cpb); i++) {
		uint64_t sum = 0, sum_iv = 0;

		if (!enabled(en, i))
			continue;
		for (uint32_t idx = 0; idx < st->nblocks[k]; idx++) {
			const struct panthor_acc *a = &st->acc[k][idx];

			if (a->tot) {
				sum += a->tot[i];
				sum_iv += a->tot_iv[i];
			}
		}
		kv[g.nsum++] = (struct hwt_kv){ names[i], sum };
		if (k == HWT_PANTHOR_SHADER && g.instances)
			mean[g.nmean++] = (struct hwt_kv){ names[i], per(sum, 1, g.instances) };
		if (st->interval_ns)
			ps[g.nper_second++] = (struct hwt_kv){
				names[i], per(sum_iv, 1000000000u, st->interval_ns) };
	}
	hwt_emit__record(emit, &hwt_rt_panthor_aggregate, &g, 0);
}

void panthor_stats__emit(struct panthor_stats *st, const struct hwt_panthor_info *info,
			 const char *const *const *names, const struct hwt_emit *emit)
{
	const char *gpu = hwt_panthor__gpu_name(info->gpu_id);
	struct hwt_panthor_summary s = {
		.layout = info->layout->rev, .gpu_id = info->gpu_id, .gpu = gpu ? gpu : "unknown",
		.counters_per_block = info->counters_per_block, .sample_size = info->sample_size,
		.samples = st->samples, .blocks = st->blocks, .bad_samples = st->bad_samples,
		.overflow = st->overflow, .error = st->error, .off_blocks = st->off_blocks,
		.unavailable_blocks = st->unavailable_blocks,
		.span_ns = st->have_end ? st->last_end - st->first_end : 0,
		.note = st->interval_ns ? "rates use the gap between consecutive timestamp_end_ns"
					: "no interval: rates need two samples with increasing "
					  "timestamp_end_ns",
	};
	struct hwt_kv *kv = calloc(3 * PANTHOR_MASK_BITS, sizeof(*kv));

	hwt_emit__record(emit, &hwt_rt_panthor_summary, &s, 0);
	if (!kv)
		return;
	emit_totals(st, names, kv, emit);
	emit_aggregate(st, HWT_PANTHOR_SHADER, names[HWT_PANTHOR_SHADER], kv, emit);
	emit_aggregate(st, HWT_PANTHOR_MEMSYS, names[HWT_PANTHOR_MEMSYS], kv, emit);
	free(kv);
}

void panthor_stats__free(struct panthor_stats *st)
{
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++) {
		for (uint32_t i = 0; st->acc[k] && i < st->nblocks[k]; i++)
			free(st->acc[k][i].tot);
		free(st->acc[k]);
		st->acc[k] = NULL;
	}
}
