// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_metrics.c - panthor's derived metrics (Documentation/panthor.rst
 * names the public source of every formula): per sample, on the block record
 * that completes the sample, and per run.  A metrics computer
 * (hwtrace/metrics.h): it sees the decoder's records and does no I/O.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "panthor_internal.h"

/* The raw counters the formulas read, by block kind and hardware name. */
enum {
	IN_GPU_ACTIVE, IN_ITER_FRAG, IN_ITER_COMP, IN_ITER_TILER, IN_TILER_ACTIVE,
	IN_CORE_ACTIVE, IN_FRAG_ACTIVE, IN_COMPUTE_ACTIVE, IN_EXEC_ACTIVE,
	IN_EXT_RD_BEATS, IN_EXT_WR_BEATS, IN_TRIANGLES, IN_LINES, IN_POINTS, IN_PRIM_VISIBLE,
	NIN,
};

static const struct {
	uint8_t kind;
	const char *name;
} inputs[NIN] = {
	[IN_GPU_ACTIVE] = { HWT_PANTHOR_CSHW, "GPU_ACTIVE" },
	[IN_ITER_FRAG] = { HWT_PANTHOR_CSHW, "ITER_FRAG_ACTIVE" },
	[IN_ITER_COMP] = { HWT_PANTHOR_CSHW, "ITER_COMP_ACTIVE" },
	[IN_ITER_TILER] = { HWT_PANTHOR_CSHW, "ITER_TILER_ACTIVE" },
	[IN_TILER_ACTIVE] = { HWT_PANTHOR_TILER, "TILER_ACTIVE" },
	[IN_CORE_ACTIVE] = { HWT_PANTHOR_SHADER, "SHADER_CORE_ACTIVE" },
	[IN_FRAG_ACTIVE] = { HWT_PANTHOR_SHADER, "FRAG_ACTIVE" },
	[IN_COMPUTE_ACTIVE] = { HWT_PANTHOR_SHADER, "COMPUTE_ACTIVE" },
	[IN_EXEC_ACTIVE] = { HWT_PANTHOR_SHADER, "EXEC_CORE_ACTIVE" },
	[IN_EXT_RD_BEATS] = { HWT_PANTHOR_MEMSYS, "L2_EXT_READ_BEATS" },
	[IN_EXT_WR_BEATS] = { HWT_PANTHOR_MEMSYS, "L2_EXT_WRITE_BEATS" },
	[IN_TRIANGLES] = { HWT_PANTHOR_TILER, "TRIANGLES" },
	[IN_LINES] = { HWT_PANTHOR_TILER, "LINES" },
	[IN_POINTS] = { HWT_PANTHOR_TILER, "POINTS" },
	[IN_PRIM_VISIBLE] = { HWT_PANTHOR_TILER, "PRIM_VISIBLE" },
};

/* Bytes per external bus beat: a 128-bit AXI bus (panthor.rst says why). */
#define BEAT_BYTES	16

enum {
	M_GPU_ACTIVE_CY, M_GPU_ACTIVE_PCT, M_GPU_CLOCK, M_FRAG_QUEUE, M_COMP_QUEUE,
	M_TILER_QUEUE, M_TILER_UTIL, M_CORE_COUNT, M_CORE_ACTIVE_CY, M_CORE_UTIL, M_FRAG_UTIL,
	M_COMP_UTIL, M_ENG_UTIL, M_EXT_RD_BY, M_EXT_WR_BY, M_EXT_RD_BW, M_EXT_WR_BW,
	M_PRIMS, M_VISIBLE, M_INTERVAL, NMET,
};

static const struct hwt_metric_def defs[NMET] = {
	[M_GPU_ACTIVE_CY] = { "MaliGPUActiveCy", "cycles", "GPU_ACTIVE: cycles the GPU had work" },
	[M_GPU_ACTIVE_PCT] = { "MaliGPUActivePct", "percent",
			       "GPU_ACTIVE / toplevel clock cycles of the sample headers" },
	[M_GPU_CLOCK] = { "MaliGPUClock", "Hz", "toplevel clock cycles / interval" },
	[M_FRAG_QUEUE] = { "MaliFragQueueUtil", "percent", "ITER_FRAG_ACTIVE / GPU_ACTIVE" },
	[M_COMP_QUEUE] = { "MaliCompQueueUtil", "percent", "ITER_COMP_ACTIVE / GPU_ACTIVE" },
	[M_TILER_QUEUE] = { "MaliTilerQueueUtil", "percent", "ITER_TILER_ACTIVE / GPU_ACTIVE" },
	[M_TILER_UTIL] = { "MaliTilerUtil", "percent", "TILER_ACTIVE / GPU_ACTIVE" },
	[M_CORE_COUNT] = { "MaliCoreCount", "cores", "shader cores powered (mean per sample)" },
	[M_CORE_ACTIVE_CY] = { "MaliCoreActiveCy", "cycles", "SHADER_CORE_ACTIVE, all cores" },
	[M_CORE_UTIL] = { "MaliCoreUtil", "percent",
			  "SHADER_CORE_ACTIVE / (cores x GPU_ACTIVE)" },
	[M_FRAG_UTIL] = { "MaliFragUtil", "percent", "FRAG_ACTIVE / SHADER_CORE_ACTIVE" },
	[M_COMP_UTIL] = { "MaliCompUtil", "percent", "COMPUTE_ACTIVE / SHADER_CORE_ACTIVE" },
	[M_ENG_UTIL] = { "MaliEngUtil", "percent", "EXEC_CORE_ACTIVE / SHADER_CORE_ACTIVE" },
	[M_EXT_RD_BY] = { "MaliExtBusRdBy", "bytes", "L2_EXT_READ_BEATS x 16, all slices" },
	[M_EXT_WR_BY] = { "MaliExtBusWrBy", "bytes", "L2_EXT_WRITE_BEATS x 16, all slices" },
	[M_EXT_RD_BW] = { "MaliExtBusRdBw", "bytes/s", "MaliExtBusRdBy / interval" },
	[M_EXT_WR_BW] = { "MaliExtBusWrBw", "bytes/s", "MaliExtBusWrBy / interval" },
	[M_PRIMS] = { "MaliGeomTotalPrim", "primitives", "TRIANGLES + LINES + POINTS" },
	[M_VISIBLE] = { "MaliGeomVisibleRate", "percent", "PRIM_VISIBLE / MaliGeomTotalPrim" },
	[M_INTERVAL] = { "IntervalNs", "ns", "the time the counters cover" },
};

/* Sums over the blocks of one sample, or over the samples of a run. */
struct pm_acc {
	double in[NIN];
	bool have[NIN];
	double cycles;		/* toplevel clock cycles of the sample headers */
	double interval_ns;
	double cores;		/* live shader blocks, summed over samples */
	double cores_x_active;	/* cores x GPU_ACTIVE, summed over samples */
	uint64_t samples;
};

struct pm {
	int32_t idx[NIN];	/* counter index of each input, -1 if this GPU has none */
	uint8_t of_kind[HWT_PANTHOR_NKINDS][NIN];	/* the inputs a block kind has */
	uint8_t nof_kind[HWT_PANTHOR_NKINDS];
	uint64_t sample;	/* the sample being gathered */
	uint32_t expect, got;	/* its blocks */
	bool open;
	bool groups_only;	/* report: the run's metrics only, none per sample */
	struct pm_acc cur, run;
	double vals[NMET];
	struct hwt_metrics m;
};

static void *pm_new(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag)
{
	struct hwt_panthor_info info;
	struct pm *p;
	bool any = false;

	if (hwt_panthor_info__from_priv(&info, ctx->priv, ctx->npriv, ctx->info_offset, diag))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	for (int i = 0; i < NIN; i++) {
		p->idx[i] = -1;
		for (uint32_t c = HWT_PANTHOR_HDR_COUNTERS; c < info.counters_per_block; c++) {
			const char *n = hwt_panthor__counter_name(info.gpu_id, inputs[i].kind, c);

			if (n && !strcmp(n, inputs[i].name)) {
				uint8_t k = inputs[i].kind;

				p->idx[i] = (int32_t)c;
				p->of_kind[k][p->nof_kind[k]++] = (uint8_t)i;
				any = true;
				break;
			}
		}
	}
	if (!any)
		hwt_diag__warn(diag, ctx->info_offset, ctx->raw ? "panthor metrics" :
			       "PERF_RECORD_AUXTRACE_INFO", "GPU_ID %#x has no counter names: "
			       "its metrics cannot be computed (all null)", info.gpu_id);
	p->groups_only = ctx->metrics_groups_only;
	p->m = (struct hwt_metrics){ .set = "panthor", .defs = defs, .vals = p->vals, .n = NMET,
				     .group_key = "run", .group = "all" };
	return p;
}

static double div0(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

/* Input @i of @a, or NaN when no block that has it was seen. */
static double in(const struct pm_acc *a, int i)
{
	return a->have[i] ? a->in[i] : NAN;
}

static void compute(struct pm *p, const struct pm_acc *a)
{
	double *v = p->vals, active = in(a, IN_GPU_ACTIVE), core = in(a, IN_CORE_ACTIVE);
	double secs = a->interval_ns / 1e9;
	double prims = in(a, IN_TRIANGLES) + in(a, IN_LINES) + in(a, IN_POINTS);

	v[M_GPU_ACTIVE_CY] = active;
	v[M_GPU_ACTIVE_PCT] = 100 * div0(active, a->cycles);
	/* v6 leaves the header cycles 0: no clock is known, not a stopped one */
	v[M_GPU_CLOCK] = a->cycles > 0 ? div0(a->cycles, secs) : NAN;
	v[M_FRAG_QUEUE] = 100 * div0(in(a, IN_ITER_FRAG), active);
	v[M_COMP_QUEUE] = 100 * div0(in(a, IN_ITER_COMP), active);
	v[M_TILER_QUEUE] = 100 * div0(in(a, IN_ITER_TILER), active);
	v[M_TILER_UTIL] = 100 * div0(in(a, IN_TILER_ACTIVE), active);
	v[M_CORE_COUNT] = div0(a->cores, (double)a->samples);
	v[M_CORE_ACTIVE_CY] = core;
	v[M_CORE_UTIL] = a->have[IN_GPU_ACTIVE] ? 100 * div0(core, a->cores_x_active) : NAN;
	v[M_FRAG_UTIL] = 100 * div0(in(a, IN_FRAG_ACTIVE), core);
	v[M_COMP_UTIL] = 100 * div0(in(a, IN_COMPUTE_ACTIVE), core);
	v[M_ENG_UTIL] = 100 * div0(in(a, IN_EXEC_ACTIVE), core);
	v[M_EXT_RD_BY] = in(a, IN_EXT_RD_BEATS) * BEAT_BYTES;
	v[M_EXT_WR_BY] = in(a, IN_EXT_WR_BEATS) * BEAT_BYTES;
	v[M_EXT_RD_BW] = div0(v[M_EXT_RD_BY], secs);
	v[M_EXT_WR_BW] = div0(v[M_EXT_WR_BY], secs);
	v[M_PRIMS] = prims;
	v[M_VISIBLE] = 100 * div0(in(a, IN_PRIM_VISIBLE), prims);
	v[M_INTERVAL] = a->interval_ns > 0 ? a->interval_ns : NAN;
}

static void add_block(struct pm *p, const struct hwt_panthor_block_rec *b)
{
	struct pm_acc *a = &p->cur;

	if (b->block_states & (HWT_PANTHOR_STATE_OFF | HWT_PANTHOR_STATE_UNAVAILABLE))
		return;		/* its counters did not count */
	if (b->block_type == HWT_PANTHOR_SHADER)
		a->cores++;
	if (b->block_type >= HWT_PANTHOR_NKINDS)
		return;
	for (uint32_t j = 0; j < p->nof_kind[b->block_type]; j++) {
		int i = p->of_kind[b->block_type][j];
		int32_t c = p->idx[i];

		if ((uint32_t)c >= b->nvalues || c >= PANTHOR_MASK_BITS ||
		    !(b->enable_mask[c / 64] >> (c % 64) & 1))
			continue;
		a->in[i] += (double)b->values[c];
		a->have[i] = true;
	}
}

/* The sample is whole: its metrics (not for report), and its sums into the run's. */
static const struct hwt_metrics *close_sample(struct pm *p)
{
	struct pm_acc *a = &p->cur, *r = &p->run;

	p->open = false;
	a->samples = 1;
	a->cores_x_active = a->cores * a->in[IN_GPU_ACTIVE];
	if (!p->groups_only)
		compute(p, a);
	if (a->interval_ns > 0) {
		/* the run is the samples whose time is known, as for the rates */
		for (int i = 0; i < NIN; i++) {
			r->in[i] += a->in[i];
			r->have[i] |= a->have[i];
		}
		r->cycles += a->cycles;
		r->interval_ns += a->interval_ns;
		r->cores += a->cores;
		r->cores_x_active += a->cores_x_active;
		r->samples++;
	}
	return p->groups_only ? NULL : &p->m;
}

static const struct hwt_metrics *pm_record(void *state, const struct hwt_record *rec)
{
	struct pm *p = state;

	if (rec->type == &hwt_rt_panthor_sample) {
		const struct hwt_panthor_sample_rec *s = rec->data;

		/* a sample that lost a block (reported by the decoder) has no metrics */
		memset(&p->cur, 0, sizeof(p->cur));
		p->open = s->blocks > 0;
		p->sample = s->sample;
		p->expect = s->blocks;
		p->got = 0;
		p->cur.cycles = (double)s->toplevel_clock_cycles;
		return NULL;
	}
	if (rec->type == &hwt_rt_panthor_block && p->open) {
		const struct hwt_panthor_block_rec *b = rec->data;

		if (b->sample != p->sample)
			return NULL;
		p->cur.interval_ns = (double)b->interval_ns;
		add_block(p, b);
		if (++p->got == p->expect)
			return close_sample(p);
	}
	return NULL;
}

static const struct hwt_metrics *pm_group(void *state, uint32_t i)
{
	struct pm *p = state;

	if (i)
		return NULL;
	compute(p, &p->run);
	return &p->m;
}

static void pm_free(void *state)
{
	free(state);
}

static const char *pm_known(const char *name, size_t len)
{
	for (int i = 0; i < NMET; i++)
		if (strlen(defs[i].name) == len && !strncmp(defs[i].name, name, len))
			return defs[i].name;
	return NULL;
}

const struct hwt_metrics_ops hwt_panthor_metrics = {
	.new = pm_new,
	.record = pm_record,
	.group = pm_group,
	.free = pm_free,
	.known = pm_known,
};
