// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_stats.c - derived figures for `report`: per block instance totals,
 * per-second rates over the sampled intervals, counts per clock cycle, and
 * the shader-core and L2-slice aggregates (Documentation/panthor.rst).
 */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/diag.h"

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
		a->tot_noiv = a->tot + st->cpb;
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
		uint64_t *t = a->tot + 64 * w, *tn = a->tot_noiv + 64 * w;
		const uint64_t *v = values + 64 * w;

		if (b->enable_mask[w] == ~0ull && st->cpb >= 64 * (w + 1)) {
			/* the common all-enabled word: a loop the compiler vectorises */
			for (uint32_t i = 0; i < 64; i++)
				t[i] += v[i];
			if (!interval)	/* rare: the first sample */
				for (uint32_t i = 0; i < 64; i++)
					tn[i] += v[i];
			continue;
		}
		for (uint64_t m = b->enable_mask[w]; m; m &= m - 1) {
			uint32_t i = 64 * w + __builtin_ctzll(m);

			if (i >= st->cpb)
				break;
			a->tot[i] += values[i];
			if (!interval)
				a->tot_noiv[i] += values[i];
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
		return "no interval, no cycles";
	if (!interval)
		return "no interval";
	if (!cycles)
		return "no cycles";
	return "";
}

static uint64_t scale(uint64_t v, uint32_t shift)
{
	return shift && v > UINT64_MAX >> shift ? UINT64_MAX : v << shift;
}

/* Descending by the chosen figure, then block order (the order rows were made). */
static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_counter(const void *pa, const void *pb, void *key)
{
	const struct panthor_row *a = pa, *b = pb;
	int c = 0;

	switch (*(const enum panthor_sort *)key) {
	case PANTHOR_SORT_TOTAL:
		c = cmp_u64(a->c.total, b->c.total);
		break;
	case PANTHOR_SORT_PER_SECOND:
		c = cmp_u64(a->c.has_per_second ? a->c.per_second : 0,
			    b->c.has_per_second ? b->c.per_second : 0);
		break;
	case PANTHOR_SORT_PER_MCYCLE:
		c = cmp_u64(a->c.has_per_mcycle ? a->c.per_mcycle : 0,
			    b->c.has_per_mcycle ? b->c.per_mcycle : 0);
		break;
	case PANTHOR_SORT_NAME:
		c = strcmp(a->c.counter, b->c.counter);
		break;
	case PANTHOR_SORT_BLOCK:
		break;
	}
	return c ? c : a->order < b->order ? -1 : a->order > b->order;
}

static int cmp_aggregate(const void *pa, const void *pb, void *key)
{
	const struct panthor_row *a = pa, *b = pb;
	int c = 0;

	switch (*(const enum panthor_sort *)key) {
	case PANTHOR_SORT_TOTAL:
		c = cmp_u64(a->g.sum, b->g.sum);
		break;
	case PANTHOR_SORT_PER_SECOND:
	case PANTHOR_SORT_PER_MCYCLE:	/* aggregates have no per-cycle figure */
		c = cmp_u64(a->g.has_per_second ? a->g.per_second : 0,
			    b->g.has_per_second ? b->g.per_second : 0);
		break;
	case PANTHOR_SORT_NAME:
		c = strcmp(a->g.counter, b->g.counter);
		break;
	case PANTHOR_SORT_BLOCK:
		break;
	}
	return c ? c : a->order < b->order ? -1 : a->order > b->order;
}

/* Sort @n rows as --sort says and emit the first --top of them. */
static void emit_rows(struct panthor_stats *st, struct panthor_row *rows, size_t n,
		      const struct hwt_record_type *type, const struct hwt_emit *emit)
{
	if (st->sort != PANTHOR_SORT_BLOCK)
		qsort_r(rows, n, sizeof(*rows),
			type == &hwt_rt_panthor_counter ? cmp_counter : cmp_aggregate, &st->sort);
	if (st->top && n > st->top)
		n = st->top;
	for (size_t i = 0; i < n; i++)
		hwt_emit__record(emit, type, type == &hwt_rt_panthor_counter ?
				 (const void *)&rows[i].c : (const void *)&rows[i].g, 0);
}

static size_t counter_rows(struct panthor_stats *st, const char *const *const *names,
			   const struct hwt_panthor_info *info, struct panthor_row *rows,
			   const struct hwt_emit *emit)
{
	size_t n = 0;

	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++) {
		for (uint32_t idx = 0; idx < st->nblocks[k]; idx++) {
			const struct panthor_acc *a = &st->acc[k][idx];
			struct hwt_panthor_block_total t = {
				.block_type = k, .block_idx = idx, .samples = a->samples,
				.interval_ns = a->interval_ns, .cycles = a->cycles, .off = a->off,
				.unavailable = a->unavailable,
				.note = block_note(a->interval_ns, a->cycles),
			};

			if (!a->samples || !a->tot)
				continue;
			hwt_emit__record(emit, &hwt_rt_panthor_block_total, &t, 0);
			for (uint32_t i = HWT_PANTHOR_HDR_COUNTERS; i < last_counter(st->cpb); i++) {
				uint32_t sh = hwt_panthor__counter_shift(info->gpu_id, k, i);
				struct panthor_row *r = &rows[n];

				if (!enabled(a->en, i))
					continue;
				*r = (struct panthor_row){ .order = n, .c = {
					.block_type = k, .block_idx = idx, .counter = names[k][i],
					.total = scale(a->tot[i], sh), .scaled = sh,
				} };
				if (a->interval_ns) {
					r->c.per_second = per(scale(a->tot[i] - a->tot_noiv[i], sh),
							      1000000000u,
							      a->interval_ns);
					r->c.has_per_second = true;
				}
				if (a->cycles) {
					r->c.per_mcycle = per(scale(a->tot[i], sh), 1000000u, a->cycles);
					r->c.has_per_mcycle = true;
				}
				n++;
			}
		}
	}
	return n;
}

/* Shader cores: sum and mean over present cores; L2 slices: sum. */
static size_t aggregate_rows(struct panthor_stats *st, int k, const char *const *names,
			     const struct hwt_panthor_info *info, struct panthor_row *rows)
{
	uint64_t en[2] = { 0, 0 };
	uint32_t instances = 0;
	size_t n = 0;
	bool any = false;

	for (uint32_t idx = 0; idx < st->nblocks[k]; idx++) {
		const struct panthor_acc *a = &st->acc[k][idx];

		if (!a->samples || !a->tot)
			continue;
		any = true;
		instances += a->live > 0;
		en[0] |= a->en[0];
		en[1] |= a->en[1];
	}
	if (!any)
		return 0;
	for (uint32_t i = HWT_PANTHOR_HDR_COUNTERS; i < last_counter(st->cpb); i++) {
		uint32_t sh = hwt_panthor__counter_shift(info->gpu_id, k, i);
		uint64_t sum = 0, sum_iv = 0;
		struct panthor_row *r = &rows[n];

		if (!enabled(en, i))
			continue;
		for (uint32_t idx = 0; idx < st->nblocks[k]; idx++) {
			const struct panthor_acc *a = &st->acc[k][idx];

			if (a->tot) {
				sum += a->tot[i];
				sum_iv += a->tot[i] - a->tot_noiv[i];
			}
		}
		*r = (struct panthor_row){ .order = n, .g = {
			.block_type = k, .counter = names[i], .instances = instances,
			.sum = scale(sum, sh),
		} };
		if (k == HWT_PANTHOR_SHADER && instances) {
			r->g.mean = per(scale(sum, sh), 1, instances);
			r->g.has_mean = true;
		}
		if (st->interval_ns) {
			r->g.per_second = per(scale(sum_iv, sh), 1000000000u, st->interval_ns);
			r->g.has_per_second = true;
		}
		n++;
	}
	return n;
}

static const char *summary_note(const struct panthor_stats *st)
{
	bool cycles = false;

	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
		for (uint32_t idx = 0; idx < st->nblocks[k]; idx++)
			cycles |= st->acc[k][idx].cycles > 0;
	if (!st->interval_ns)
		return "no interval: rates need two samples with increasing timestamp_end_ns";
	if (!cycles)
		return "no clock cycles in the headers (v6 leaves them 0): no per_mcycle";
	return "rate = sum of values / sum of intervals (end_ns - previous end_ns)";
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
		.note = summary_note(st),
	};
	size_t nmax = 0, n;
	struct panthor_row *rows;

	hwt_emit__record(emit, &hwt_rt_panthor_summary, &s, 0);
	if (st->no_rows)
		return;
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
		nmax += (size_t)(st->nblocks[k] + 1) * PANTHOR_MASK_BITS;
	rows = calloc(nmax, sizeof(*rows));
	if (!rows) {
		hwt_diag__error(emit->diag, 0, "panthor", "out of memory: no per-counter rows");
		return;
	}
	n = counter_rows(st, names, info, rows, emit);
	emit_rows(st, rows, n, &hwt_rt_panthor_counter, emit);
	n = aggregate_rows(st, HWT_PANTHOR_SHADER, names[HWT_PANTHOR_SHADER], info, rows);
	n += aggregate_rows(st, HWT_PANTHOR_MEMSYS, names[HWT_PANTHOR_MEMSYS], info, rows + n);
	for (size_t i = 0; i < n; i++)
		rows[i].order = i;
	emit_rows(st, rows, n, &hwt_rt_panthor_aggregate, emit);
	free(rows);
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
