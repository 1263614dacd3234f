// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - `synth --type i915-oa`: a perf.data carrying an i915 perf stream
 * in AUX (design.rst 4.3).
 *
 * The model: free-running counters started near their wraps (ticks and the
 * timestamp 32-bit, the first 40-bit A counter near 2^40), a context switch
 * from 0x10 to 0x20 a third of the way and back at two thirds, one
 * OA_REPORT_LOST at the middle and one OA_BUFFER_LOST at five sixths (--lost 0:
 * none; --switch-back 0: one timeline per context, which i915-perf-reader's
 * totals need to be per context).  Every AUXTRACE chunk holds whole records.
 * Counters are placed with the format table; the layouts themselves are
 * tested against hand-made reports in tests/unit/test_i915_oa.c.
 *
 * AUXTRACE_INFO layout 2 carries the model's device (model_topology()) and
 * --devid, --ts-freq, --uuid, so that --metrics works on the file.
 *
 * Manifest: "report N ts=T ctx=C ticks=K dts=D dticks=E" (no d* after a
 * break) and "lost report_lost|buffer_lost", in stream order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i915_oa_internal.h"
#include "synth_run.h"

#define PMU_TYPE	48
#define RECS_PER_CHUNK	64

struct model {
	const struct hwt_i915_oa_format *fmt;
	uint32_t fmt_id, gen;
	uint64_t devid, ts_freq;
	char uuid[HWT_I915_OA_UUID_LEN];
	uint8_t topo[HWT_I915_OA_TOPO_MAX];
	uint32_t topo_size;
	uint64_t rng, ts, ticks;
	uint64_t a[I915_OA_MAX_A], b[I915_OA_MAX_BC], c[I915_OA_MAX_BC];
};

/*
 * The model's device for layout 2's words: a drm_i915_query_topology_info of
 * 1 slice, 6 subslices of 16 EUs (all present), a 300 MHz - 1.1 GHz GT
 */
#define GT_MIN_HZ	300000000ull
#define GT_MAX_HZ	1100000000ull

static void model_topology(struct model *m)
{
	static const uint16_t hdr[8] = {
		0,	/* flags */
		1, 6, 16,	/* max slices, subslices, EUs per subslice */
		1, 1,	/* subslice mask offset, stride */
		2, 2,	/* EU mask offset, stride */
	};

	memcpy(m->topo, hdr, sizeof(hdr));
	m->topo[16] = 0x01;		/* slice 0 */
	m->topo[17] = 0x3f;		/* subslices 0-5 */
	memset(m->topo + 18, 0xff, 6 * 2);	/* 16 EUs each */
	m->topo_size = 32;		/* 30, padded to a word as IGT's record */
}

static uint64_t rnd(struct model *m, uint64_t lim)
{
	m->rng = m->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (m->rng >> 33) % lim;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* lay the model out as one report of m->fmt */
static void place(const struct model *m, uint8_t *r, uint32_t reason, uint32_t ctx)
{
	const struct hwt_i915_oa_format *f = m->fmt;
	uint32_t ia = 0, ib = 0, ic = 0;
	uint32_t id = reason << 19 | (m->gen == 800 ? 1u << 25 : 1u << 16);
	uint64_t raw_ts = m->ts << hwt_i915_oa__ts_shift(f->hdr64, m->gen);

	memset(r, 0, f->size);
	if (f->hdr64) {
		memcpy(r, &(uint64_t){ id }, 8);
		memcpy(r + 8, &raw_ts, 8);
		put32(r + 16, ctx);
		memcpy(r + 24, &m->ticks, 8);
	} else {
		put32(r, id);
		put32(r + 4, (uint32_t)raw_ts);
		put32(r + 8, ctx);
		if (m->gen >= 800)
			put32(r + 12, (uint32_t)m->ticks);
	}
	for (uint32_t s = 0; s < f->nsegs; s++) {
		const struct hwt_i915_oa_seg *g = &f->segs[s];

		for (uint32_t i = 0; i < g->count; i++) {
			uint64_t v = g->kind == 'a' ? m->a[ia++] : g->kind == 'b' ? m->b[ib++] :
				     m->c[ic++];

			if (g->bits == 64) {
				memcpy(r + g->off + 8 * i, &v, 8);
				continue;
			}
			put32(r + g->off + 4 * i, (uint32_t)v);
			if (g->bits == 40)
				r[g->hi_off + i] = (uint8_t)(v >> 32);
		}
	}
}

static uint64_t mask_of(uint8_t bits)
{
	return bits == 64 ? ~0ull : (1ull << bits) - 1;
}

/*
 * One AUX drain, a PERF_RECORD_AUX at @cpu_ns (the model's CPU time of its
 * last report) plus a DRAIN_LATENCY_NS, as the kernel drains after writing
 */
#define CPU_T0_NS		1000000000ull
#define DRAIN_LATENCY_NS	100000ull

static int write_chunk(struct hwt_synth_run *run, const uint8_t *buf, size_t n, uint64_t *off,
		       uint64_t cpu_ns)
{
	int err = hwt_synth_run__drain(run, 1, cpu_ns + DRAIN_LATENCY_NS, *off, buf, n);

	*off += n;
	return err;
}

/* The model's stream, as the keys of the AUXTRACE_INFO encoder (auxinfo.c). */
static int info_value(void *ctx, const char *key, uint64_t *v)
{
	const struct model *m = ctx;

	unsigned i;

	if (!strcmp(key, "oa_format"))
		*v = m->fmt_id;
	else if (!strcmp(key, "graphics_ver"))
		*v = m->gen;
	else if (!strcmp(key, "devid") && m->devid)
		*v = m->devid;
	else if (!strcmp(key, "ts_freq") && m->ts_freq)
		*v = m->ts_freq;
	else if (!strcmp(key, "gt_min"))
		*v = GT_MIN_HZ;
	else if (!strcmp(key, "gt_max"))
		*v = GT_MAX_HZ;
	else if (sscanf(key, "uuid.%u", &i) == 1 && i < sizeof(m->uuid) / 8)
		memcpy(v, m->uuid + 8 * i, 8);
	else if (!strcmp(key, "topology_size"))
		*v = m->topo_size;
	else if (sscanf(key, "topology.%u", &i) == 1 && i < sizeof(m->topo) / 8)
		memcpy(v, m->topo + 8 * i, 8);
	else
		return -1;
	return 0;
}

static int i915_write(struct hwt_synth_run *run)
{
	const struct hwt_synth_opts *o = run->o;
	struct hwt_writer *w = run->w;
	const char *fname = hwt_synth_run__opt(run, "oa-format", "A32u40_A4u32_B8_C8");
	const char *gen = hwt_synth_run__opt(run, "gen", NULL), *uuid;
	uint32_t id = hwt_i915_oa_format__by_name(fname);
	struct model m = { .rng = o->seed * 2654435761u + 1 };
	uint64_t id0 = 1;
	struct hwt_writer_attr a = { .ids = &id0, .nr_ids = 1, .name = "i915_oa//" };
	struct hwt_pmu_mapping map = { PMU_TYPE, (char *)"i915_oa" };
	static const struct hwt_synth_host host = { .arch = "x86_64" };
	struct hwt_auxinfo_lookup lk = { .get = info_value, .ctx = &m };
	uint8_t bits[3][I915_OA_MAX_A];
	uint32_t nbits[3] = { 0 }, rs, n, ctx = 0x10;
	uint8_t *buf;
	size_t len = 0;
	uint64_t aux_off = 0, lost, back, cpu_ns = CPU_T0_NS;
	int err = 0, inchunk = 0;
	bool broken = true;

	if (!id)
		return hwt_synth_run__error(run, "i915-oa: unknown --oa-format '%s'", fname);
	m.fmt_id = id;
	m.gen = gen ? hwt_i915_oa__parse_gen(gen) : hwt_i915_oa__default_gen(id);
	if (!m.gen)
		return hwt_synth_run__error(run, "i915-oa: bad --gen '%s' (e.g. 9, 12, 12.5)",
					    gen);
	m.fmt = hwt_i915_oa_format__find(id, m.gen);
	if (hwt_synth_run__u64(run, "lost", 1, 0, 1, &lost) ||
	    hwt_synth_run__u64(run, "switch-back", 1, 0, 1, &back) ||
	    hwt_synth_run__u64(run, "devid", 0, 0, 0xffff, &m.devid) ||
	    hwt_synth_run__u64(run, "ts-freq", 0, 1, UINT64_MAX, &m.ts_freq))
		return -1;
	uuid = hwt_synth_run__opt(run, "uuid", "");
	if (strlen(uuid) >= sizeof(m.uuid))
		return hwt_synth_run__error(run, "i915-oa: --uuid '%s' is longer than %zu bytes",
					    uuid, sizeof(m.uuid) - 1);
	strncpy(m.uuid, uuid, sizeof(m.uuid));
	model_topology(&m);
	rs = m.fmt->size;
	for (uint32_t s = 0; s < m.fmt->nsegs; s++) {
		const struct hwt_i915_oa_seg *g = &m.fmt->segs[s];
		int k = g->kind == 'a' ? 0 : g->kind == 'b' ? 1 : 2;

		for (uint32_t i = 0; i < g->count; i++)
			bits[k][nbits[k]++] = g->bits;
	}
	n = (uint32_t)(o->size / (8 + rs));
	if (n < 12)
		n = 12;
	buf = hwt_synth_run__buffer(run, (size_t)RECS_PER_CHUNK * (8 + rs) + 16);
	if (!buf)
		return -1;

	a.attr.type = PMU_TYPE;
	a.attr.sample_period = 1;
	a.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			     PERF_SAMPLE_IDENTIFIER;
	a.attr.sample_id_all = 1;
	err |= hwt_writer__add_attr(w, &a);
	err |= hwt_writer__set_pmu_mappings(w, &map, 1);
	err |= hwt_synth_run__host(run, &host);
	if (err || hwt_synth_run__auxinfo(run, &hwt_device_i915_oa, PMU_TYPE, "i915_oa", &lk,
					  false))
		return err ? hwt_synth_run__error(run, "cannot set up the file") : -1;

	m.ts = 0xffffffffull - 19200 * 4;	/* 32-bit timestamp wrap after 4 reports */
	m.ticks = 0xffffffffull - 5000000;
	for (uint32_t i = 0; i < nbits[0]; i++)
		m.a[i] = rnd(&m, 1 << 20);
	m.a[0] = mask_of(bits[0][0]) - 3000000;
	m.b[0] = 0xffffffffull - 1000000;
	m.c[0] = 0xffffffffull - 900000;

	for (uint32_t r = 0; r < n && !err; r++) {
		uint64_t dts = 19200 * (1 + rnd(&m, 3)), dticks = 500000 + rnd(&m, 1000000);
		uint32_t reason = 1;

		if (lost && (r == n / 2 || r == 5 * n / 6)) {
			bool b = r != n / 2;

			memcpy(buf + len, &(uint32_t){ b ? 3 : 2 }, 4);
			memcpy(buf + len + 4, &(uint32_t){ 8u << 16 }, 4);
			len += 8;
			hwt_synth_run__printf(run, "lost %s\n", b ? "buffer_lost" : "report_lost");
			broken |= b;
		}
		if (r == n / 3 || (back && r == 2 * n / 3)) {
			ctx = ctx == 0x10 ? 0x20 : 0x10;
			reason = I915_OA_REASON_CTX_SWITCH;
		}
		if (r) {
			cpu_ns += dts * 1000000000ull / (m.ts_freq ? m.ts_freq : 19200000);
			m.ts = (m.ts + dts) & 0xffffffffull;
			m.ticks = (m.ticks + dticks) & 0xffffffffull;
			for (uint32_t i = 0; i < nbits[0]; i++)
				m.a[i] = (m.a[i] + rnd(&m, 1 << 22)) & mask_of(bits[0][i]);
			for (uint32_t i = 0; i < nbits[1]; i++)
				m.b[i] = (m.b[i] + rnd(&m, 1 << 18)) & mask_of(bits[1][i]);
			for (uint32_t i = 0; i < nbits[2]; i++)
				m.c[i] = (m.c[i] + rnd(&m, 1 << 18)) & mask_of(bits[2][i]);
		}
		/* DG2 stores ts << 1 in 32 bits: the model keeps 31 (report 0 too) */
		if (hwt_i915_oa__ts_shift(m.fmt->hdr64, m.gen))
			m.ts &= 0x7fffffff;
		memcpy(buf + len, &(uint32_t){ 1 }, 4);
		memcpy(buf + len + 4, &(uint32_t){ (8 + rs) << 16 }, 4);
		place(&m, buf + len + 8, reason, ctx);
		len += 8 + rs;
		if (hwt_synth_run__has_manifest(run)) {
			hwt_synth_run__printf(run, "report %u ts=%llu ctx=%u ticks=%llu a0=%llu", r,
					      (unsigned long long)m.ts, ctx,
					      (unsigned long long)m.ticks,
					      (unsigned long long)m.a[0]);
			if (!broken)
				hwt_synth_run__printf(run, " dts=%llu dticks=%llu",
						      (unsigned long long)dts,
						      (unsigned long long)dticks);
			hwt_synth_run__put(run, "\n", 1);
		}
		broken = false;
		if (++inchunk == RECS_PER_CHUNK - 1) {
			err |= write_chunk(run, buf, len, &aux_off, cpu_ns);
			len = 0;
			inchunk = 0;
		}
	}
	if (len && !err)
		err |= write_chunk(run, buf, len, &aux_off, cpu_ns);
	if (!err)
		err |= hwt_synth_run__drains_end(run);
	if (err)
		return hwt_synth_run__error(run, "i915-oa: write failed");
	return 0;
}

const struct hwt_synth hwt_i915_oa_synth = {
	.write = i915_write,
	.help = "i915 OA stream in AUX; --oa-format NAME (A32u40_A4u32_B8_C8), --gen N, "
		"--devid ID, --ts-freq HZ, --uuid UUID (metric set), --lost 0|1 (1), "
		"--switch-back 0|1 (1)",
};
