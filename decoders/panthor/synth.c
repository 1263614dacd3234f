// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - `synth --type panthor`: panthor perf-counter samples carried in
 * perf AUX as design.rst 4.2 defines it:
 *
 *   attrs	panthor_perf// (type --pmu-type, 43) and dummy:u
 *   records	AUXTRACE_INFO type 0x48570001 with the 16 priv words, FINISHED_INIT,
 *		then per drain a PERF_RECORD_AUX and a PERF_RECORD_AUXTRACE whose
 *		payload is whole samples back to back; FINISHED_ROUND every 4 drains.
 *
 * The GPU is an RK3588-like Mali-G610 MC4 (GPU_ID 0xa8670000, shader_present
 * 0x50005, 64 counters) or, with --counters 128, a Mali-G715 (0xb0020000).
 * Blocks per sample: FW 1, [CSG 2 in RFC v2], CSHW 1, TILER 1, MEMSYS (4 in
 * v6, 1 in RFC v2), SHADER 4.  Sample k (from 0):
 *	timestamp_end_ns = 1e9 + (k + 1) * 1e6, timestamp_start_ns = end - 2e5
 *	user_data = seed << 32 | k; flags OVERFLOW when k % 16 == 5, ERROR when
 *	k % 64 == 37; cycles toplevel = coregroup = 800000 + k % 7,
 *	shader = 1000000 + k % 5
 *	states ON|AVAILABLE|NORMAL, except shader 3: OFF when k % 10 == 9;
 *	clock: toplevel for FW/CSG/CSHW, coregroup for TILER/MEMSYS, shader
 *	enable_mask all counters, except shader blocks: counters 0-55 (and
 *	64-71 with 128 counters), so masks with holes are exercised
 *	counters: [0],[1] GPU timestamp lo/hi, [2] 0xffffffff, [3] 0; others a
 *	hash of (seed, k, type, idx, i) below 10^6, 0 when not enabled or OFF.
 * --unset 1 mimics the v5/v6 kernel code: flags, cycles and states stay 0.
 *
 * Manifest (--manifest FILE):
 *	# layout L samples S blocks B sample_size Z	first line
 *	<sample> <block_type> <block_idx> <states> <flags> <enable_mask0> \
 *		<enable_mask1> <v0> ... <vN-1>			one line per block
 * all decimal; block_type is the name ("shader").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panthor_internal.h"
#include "synth_run.h"

#define PT_ID		21
#define DUMMY_ID	22
#define T0_NS		1000000000ULL
#define PERIOD_NS	1000000ULL
#define ALL_STATES	(HWT_PANTHOR_STATE_ON | HWT_PANTHOR_STATE_AVAILABLE | \
			 HWT_PANTHOR_STATE_NORMAL)

struct pt_cfg {
	const struct hwt_panthor_layout *l;
	struct hwt_panthor_info info;
	uint64_t seed;
	uint32_t pmu_type;
	bool unset;
};

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static int cfg_init(struct pt_cfg *c, struct hwt_synth_run *run)
{
	uint64_t layout, cpb, pmu, unset;
	struct hwt_panthor_info *i = &c->info;

	memset(c, 0, sizeof(*c));
	if (hwt_synth_run__u64(run, "layout", 6, 0, UINT64_MAX, &layout) ||
	    hwt_synth_run__u64(run, "counters", 64, 0, UINT64_MAX, &cpb) ||
	    hwt_synth_run__u64(run, "pmu-type", 43, 0, UINT64_MAX, &pmu) ||
	    hwt_synth_run__u64(run, "unset", 0, 0, UINT64_MAX, &unset))
		return -1;
	c->l = layout <= UINT32_MAX ? hwt_panthor_layout__get((uint32_t)layout) : NULL;
	if (!c->l || (cpb != 64 && cpb != 128) || pmu > UINT32_MAX)
		return hwt_synth_run__error(run, "panthor wants --layout 2|6, --counters 64|128");
	c->seed = run->o->seed;
	c->pmu_type = (uint32_t)pmu;
	c->unset = unset != 0;
	i->layout = c->l;
	i->gpu_id = cpb == 64 ? 0xa8670000u : 0xb0020000u;
	i->counters_per_block = (uint32_t)cpb;
	i->sample_header_size = c->l->sample_header_size;
	i->block_header_size = c->l->block_header_size;
	i->flags = c->unset ? 0 : HWT_PANTHOR_INFO_BLOCK_STATES;
	i->supported_clocks = c->unset ? 0 : 7;
	i->blocks[HWT_PANTHOR_FW] = 1;
	i->blocks[HWT_PANTHOR_CSG] = c->l->type_of_kind[HWT_PANTHOR_CSG] != 0xff ? 2 : 0;
	i->blocks[HWT_PANTHOR_CSHW] = 1;
	i->blocks[HWT_PANTHOR_TILER] = 1;
	i->blocks[HWT_PANTHOR_MEMSYS] = layout == 2 ? 1 : 4;
	i->blocks[HWT_PANTHOR_SHADER] = 4;
	i->shader_present = 0x50005;
	return hwt_panthor_info__check(i, 0, NULL);
}

static uint32_t block_clock(int kind)
{
	if (kind == HWT_PANTHOR_SHADER)
		return HWT_PANTHOR_CLOCK_SHADER;
	if (kind == HWT_PANTHOR_TILER || kind == HWT_PANTHOR_MEMSYS)
		return HWT_PANTHOR_CLOCK_COREGROUP;
	return HWT_PANTHOR_CLOCK_TOPLEVEL;
}

/* Lay out sample @k at @p (info.sample_size bytes); manifest lines to @mf, if any. */
static void gen_sample(const struct pt_cfg *c, uint64_t k, uint8_t *p, struct hwt_synth_run *mf)
{
	const struct hwt_panthor_info *in = &c->info;
	const struct hwt_panthor_layout *l = c->l;
	uint32_t cpb = in->counters_per_block, flags = 0;
	uint64_t end = T0_NS + (k + 1) * PERIOD_NS;
	size_t pos = in->sample_header_size;

	memset(p, 0, in->sample_size);
	if (!c->unset) {
		flags = (k % 16 == 5 ? HWT_PANTHOR_FLAG_OVERFLOW : 0) |
			(k % 64 == 37 ? HWT_PANTHOR_FLAG_ERROR : 0);
		put64(p + l->sh_cycles[0], 800000 + k % 7);
		put64(p + l->sh_cycles[1], 800000 + k % 7);
		put64(p + l->sh_cycles[2], 1000000 + k % 5);
	}
	put64(p + l->sh_ts_start, end - 200000);
	put64(p + l->sh_ts_end, end);
	put64(p + l->sh_user_data, c->seed << 32 | (k & 0xffffffff));
	p[l->sh_flags] = (uint8_t)flags;
	for (int kind = 0; kind < HWT_PANTHOR_NKINDS; kind++) {
		for (uint32_t idx = 0; idx < in->blocks[kind]; idx++) {
			uint8_t *b = p + pos;
			uint64_t em[2] = { ~0ULL, cpb > 64 ? ~0ULL : 0 };
			uint32_t states = ALL_STATES;
			uint64_t ts = 24000 * k + 0x100000000ULL * (k % 3);

			if (kind == HWT_PANTHOR_SHADER)
				em[0] = 0xffffffffffffffULL, em[1] = cpb > 64 ? 0xff : 0;
			if (kind == HWT_PANTHOR_SHADER && idx == 3 && k % 10 == 9)
				states = HWT_PANTHOR_STATE_OFF | HWT_PANTHOR_STATE_AVAILABLE;
			if (c->unset)
				states = 0;
			b[l->bh_type] = l->type_of_kind[kind];
			b[l->bh_idx] = (uint8_t)idx;
			b[l->bh_states] = (uint8_t)states;
			b[l->bh_clock] = c->unset ? 0 : (uint8_t)block_clock(kind);
			put64(b + l->bh_enable_mask, em[0]);
			put64(b + l->bh_enable_mask + 8, em[1]);
			b += in->block_header_size;
			if (mf)
				hwt_synth_run__printf(mf, "%llu %s %u %u %u %llu %llu",
					(unsigned long long)k,
					hwt_panthor_kind_names[kind], idx, states, flags,
					(unsigned long long)em[0], (unsigned long long)em[1]);
			for (uint32_t i = 0; i < cpb; i++) {
				uint64_t v;

				if (i == 0 || i == 1)
					v = i ? ts >> 32 : ts & 0xffffffff;
				else if (i == 2)
					v = 0xffffffff;
				else if (i == 3 || !(em[i / 64] >> (i % 64) & 1) ||
					 (states & HWT_PANTHOR_STATE_OFF))
					v = 0;
				else
					v = mix(c->seed ^ mix(k << 20 | (uint64_t)kind << 16 |
							      idx << 8 | i)) % 1000000;
				put64(b + 8 * i, v);
				if (mf)
					hwt_synth_run__printf(mf, " %llu", (unsigned long long)v);
			}
			if (mf)
				hwt_synth_run__put(mf, "\n", 1);
			pos += in->block_header_size + 8 * (size_t)cpb;
		}
	}
}

static int write_header(struct hwt_synth_run *run, const struct pt_cfg *c)
{
	static const struct hwt_synth_host host = {
		.osrelease = "6.19.0-panthor-perf-v6", .version = "6.19.0", .arch = "aarch64",
		.ncpus = 8, .cpudesc = "Cortex-A76", .cpuid = "0x00000000410fd0b0",
	};
	struct hwt_writer *w = run->w;
	static const uint64_t pt_id = PT_ID;
	const struct hwt_pmu_mapping maps[] = {
		{ 4, "cpu" }, { c->pmu_type, "panthor_perf" }, { 1, "software" },
	};
	struct hwt_writer_attr pt = { .ids = &pt_id, .nr_ids = 1, .name = "panthor_perf//" };
	int err = 0;

	pt.attr.type = c->pmu_type;
	err |= hwt_synth_run__aux_events(run, &pt, DUMMY_ID, false);
	err |= hwt_synth_run__host(run, &host);
	err |= hwt_writer__set_pmu_mappings(w, maps, sizeof(maps) / sizeof(maps[0]));
	return err ? -1 : 0;
}

/* The model's perf info, as the keys of the AUXTRACE_INFO encoder (auxinfo.c). */
static int info_value(void *ctx, const char *key, uint64_t *v)
{
	static const char *const blocks[HWT_PANTHOR_NKINDS] = {
		"fw_blocks", "csg_blocks", "cshw_blocks", "tiler_blocks", "memsys_blocks",
		"shader_blocks",
	};
	const struct pt_cfg *c = ctx;
	const struct hwt_panthor_info *in = &c->info;

	if (!strcmp(key, "layout"))
		*v = c->l->rev;
	else if (!strcmp(key, "gpu_id"))
		*v = in->gpu_id;
	else if (!strcmp(key, "counters_per_block"))
		*v = in->counters_per_block;
	else if (!strcmp(key, "sample_header_size"))
		*v = in->sample_header_size;
	else if (!strcmp(key, "block_header_size"))
		*v = in->block_header_size;
	else if (!strcmp(key, "sample_size"))
		/* RFC v2 has no sample_size: 0 says "compute it from the counts" */
		*v = c->l->has_sample_size ? in->sample_size : 0;
	else if (!strcmp(key, "flags"))
		*v = in->flags;
	else if (!strcmp(key, "supported_clocks"))
		*v = in->supported_clocks;
	else if (!strcmp(key, "shader_present"))
		*v = in->shader_present;
	else
		for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
			if (!strcmp(key, blocks[k]))
				*v = in->blocks[k];
	return 0;
}

static int pt_write(struct hwt_synth_run *run)
{
	const struct hwt_synth_opts *o = run->o;
	struct hwt_synth_run *mf = hwt_synth_run__has_manifest(run) ? run : NULL;
	struct hwt_auxinfo_lookup lk = { .get = info_value };
	uint64_t nsamples, per_chunk, k = 0, nblocks = 0;
	struct pt_cfg c;
	size_t ss, target;
	uint8_t *buf;

	if (cfg_init(&c, run))
		return -1;
	lk.ctx = &c;
	ss = c.info.sample_size;
	for (int i = 0; i < HWT_PANTHOR_NKINDS; i++)
		nblocks += c.info.blocks[i];
	nsamples = (o->size + ss - 1) / ss;
	if (!nsamples)
		nsamples = 1;
	target = o->size / 256;
	target = target < 65536 ? 65536 : target > (4 << 20) ? (4 << 20) : target;
	per_chunk = target / ss ? target / ss : 1;
	buf = hwt_synth_run__buffer(run, per_chunk * ss);
	if (!buf)
		return -1;
	if (write_header(run, &c))
		return hwt_synth_run__error(run, "write failed: %s", strerror(errno));
	if (hwt_synth_run__auxinfo(run, &hwt_device_panthor, c.pmu_type, "panthor_perf", &lk,
				   true))
		return -1;
	hwt_synth_run__printf(run, "# layout %u samples %llu blocks %llu sample_size %zu\n",
			c.l->rev, (unsigned long long)nsamples,
			(unsigned long long)(nsamples * nblocks), ss);
	while (k < nsamples) {
		uint64_t n = nsamples - k < per_chunk ? nsamples - k : per_chunk;
		uint64_t time = T0_NS + (k + n) * PERIOD_NS;

		for (uint64_t j = 0; j < n; j++)
			gen_sample(&c, k + j, buf + j * ss, mf);
		if (hwt_synth_run__drain(run, PT_ID, time, k * ss, buf, n * ss))
			return -1;
		k += n;
	}
	return hwt_synth_run__drains_end(run);
}

const struct hwt_synth hwt_panthor_synth = {
	.write = pt_write,
	.help = "panthor perf samples [--layout 2|6 (6)] [--counters 64|128 (64)] "
		"[--unset 0|1 (0)] [--pmu-type N (43)]",
};
