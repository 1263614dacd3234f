// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_decoder.c - the "panthor" payload decoder (design.rst 4.2).
 *
 * In perf.data the AUX payload is whole samples back to back.  Raw decode
 * also reads a dump of the uAPI ring BO, in ring order from extract_idx to
 * insert_idx, with the control words either in front of it in the file or
 * given as --extract/--insert.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "le.h"
#include "panthor_internal.h"
#include "core/decoder_internal.h"

#define MAX_SCALED	8	/* scaled counters of one block kind (G715: 1) */

struct panthor_dec {
	struct hwt_panthor_info info;
	uint32_t raw_format;
	uint64_t extract, insert, slots;
	bool ring_seen;
	uint64_t nsample;
	uint64_t prev_end;
	bool have_prev;
	const char **names[HWT_PANTHOR_NKINDS];	/* key per counter index */
	/* per block kind, the counters libGPUCounters scales: index, then NAME = shift */
	uint32_t scaled_idx[HWT_PANTHOR_NKINDS][MAX_SCALED];
	struct hwt_kv scaled[HWT_PANTHOR_NKINDS][MAX_SCALED];
	uint32_t nscaled[HWT_PANTHOR_NKINDS];
	struct hwt_kv blk_scaled[MAX_SCALED];	/* the block's enabled ones */
	char (*numkeys)[8];			/* "42" for unnamed indices (< 1024) */
	uint64_t *values;
	struct hwt_kv *kv;
	struct panthor_stats stats;
	bool warned_off, warned_unavail;
	bool no_kv;		/* summary_only: blocks are counted, their keys never read */
	/* the sample being walked */
	const struct hwt_emit *emit;
	struct hwt_panthor_sample_rec srec;
	uint64_t srec_off;
	bool srec_sent;
	uint64_t interval;
	uint64_t used;
};

static bool panthor_match(const struct hwt_aux_ctx *ctx)
{
	return ctx->auxtrace_type == HWT_AUXTRACE_PANTHOR;
}

static int opt_u64(const struct hwt_aux_ctx *ctx, const char *key, uint64_t *v,
		   struct hwt_diag *diag)
{
	const char *s = hwt_aux_ctx__opt(ctx, key);

	if (!s)
		return 0;
	if (panthor__parse_u64(s, v)) {
		hwt_diag__error(diag, 0, "panthor options", "--%s '%s' is not a number", key, s);
		return -1;
	}
	return 1;
}

static int panthor_ctx_from_opts(const struct hwt_aux_ctx *ctx, uint64_t *priv, uint32_t max,
				 struct hwt_diag *diag)
{
	const char *json = hwt_aux_ctx__opt(ctx, "info");
	const char *fmt = hwt_aux_ctx__opt(ctx, "format");
	uint64_t v;
	int have_i, have_e;

	if (max < HWT_PANTHOR_NPRIV_RAW) {
		hwt_diag__error(diag, 0, "panthor options", "no room for the context");
		return -1;
	}
	memset(priv, 0, HWT_PANTHOR_NPRIV_RAW * sizeof(*priv));
	priv[HWT_PANTHOR_PRIV_LAYOUT] = 6;
	if (!json) {
		hwt_diag__error(diag, 0, "panthor options",
				"--info FILE (perf_info fields as JSON) is required");
		return -1;
	}
	if (hwt_panthor_info__parse_json(json, priv, diag))
		return -1;
	if (opt_u64(ctx, "layout", &v, diag) < 0)
		return -1;
	if (hwt_aux_ctx__opt(ctx, "layout"))
		priv[HWT_PANTHOR_PRIV_LAYOUT] = v;
	have_e = opt_u64(ctx, "extract", &priv[HWT_PANTHOR_PRIV_EXTRACT], diag);
	have_i = opt_u64(ctx, "insert", &priv[HWT_PANTHOR_PRIV_INSERT], diag);
	if (have_e < 0 || have_i < 0 ||
	    opt_u64(ctx, "slots", &priv[HWT_PANTHOR_PRIV_SLOTS], diag) < 0)
		return -1;
	if (have_e != have_i) {
		hwt_diag__error(diag, 0, "panthor options", "give both --insert and --extract");
		return -1;
	}
	priv[HWT_PANTHOR_PRIV_RAW_FORMAT] = have_i ? HWT_PANTHOR_RAW_RING : HWT_PANTHOR_RAW_RING_CTRL;
	if (fmt && !strcmp(fmt, "samples")) {
		priv[HWT_PANTHOR_PRIV_RAW_FORMAT] = HWT_PANTHOR_RAW_SAMPLES;
	} else if (fmt && strcmp(fmt, "ring")) {
		hwt_diag__error(diag, 0, "panthor options",
				"--format '%s': use 'ring' (default) or 'samples'", fmt);
		return -1;
	}
	return HWT_PANTHOR_NPRIV_RAW;
}

static void panthor_free(void *state)
{
	struct panthor_dec *d = state;

	if (!d)
		return;
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
		free(d->names[k]);
	free(d->numkeys);
	free(d->values);
	free(d->kv);
	panthor_stats__free(&d->stats);
	free(d);
}

/* Resolve every counter's key once, so the per-block path only indexes. */
static int build_names(struct panthor_dec *d)
{
	uint32_t cpb = d->info.counters_per_block;

	d->numkeys = calloc(cpb, sizeof(*d->numkeys));
	if (!d->numkeys)
		return -1;
	for (uint32_t i = 0; i < cpb; i++)
		snprintf(d->numkeys[i], sizeof(d->numkeys[i]), "%u", i % 100000);
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++) {
		d->names[k] = calloc(cpb, sizeof(char *));
		if (!d->names[k])
			return -1;
		for (uint32_t i = 0; i < cpb; i++) {
			const char *n = hwt_panthor__counter_name(d->info.gpu_id, k, i);
			uint32_t sh = hwt_panthor__counter_shift(d->info.gpu_id, k, i);

			d->names[k][i] = n ? n : d->numkeys[i];
			/* only a counter with an enable bit (the mask's 128) can be in a block */
			if (sh && i < PANTHOR_MASK_BITS && d->nscaled[k] < MAX_SCALED) {
				d->scaled_idx[k][d->nscaled[k]] = i;
				d->scaled[k][d->nscaled[k]++] = (struct hwt_kv){ d->names[k][i], sh };
			}
		}
	}
	return 0;
}

/* The enabled ones of the block's scaled counters, in r->scaled (none: absent). */
static void fill_scaled(struct panthor_dec *d, const struct hwt_panthor_block *b,
			struct hwt_panthor_block_rec *r)
{
	uint32_t n = 0;

	for (uint32_t j = 0; j < d->nscaled[b->kind]; j++) {
		uint32_t i = d->scaled_idx[b->kind][j];

		if (b->enable_mask[i / 64] >> (i % 64) & 1)
			d->blk_scaled[n++] = d->scaled[b->kind][j];
	}
	r->scaled = d->blk_scaled;
	r->nscaled = n;
	r->has_scaled = n > 0;
}

/* --sort and --top (checked before any input was read; bad values here are from a library user) */
static int report_opts(struct panthor_dec *d, const struct hwt_aux_ctx *ctx, struct hwt_diag *diag)
{
	const char *sort = hwt_aux_ctx__opt(ctx, "sort");

	if (sort && panthor__sort_key(sort) < 0) {
		hwt_diag__error(diag, 0, "panthor options", "--sort '%s' is not a sort key", sort);
		return -1;
	}
	d->stats.sort = sort ? (enum panthor_sort)panthor__sort_key(sort) : PANTHOR_SORT_BLOCK;
	return opt_u64(ctx, "top", &d->stats.top, diag) < 0 ? -1 : 0;
}

static void *panthor_new(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag)
{
	struct panthor_dec *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (hwt_panthor_info__from_priv(&d->info, ctx->priv, ctx->npriv, ctx->info_offset, diag))
		goto fail;
	if (ctx->raw && ctx->npriv >= HWT_PANTHOR_NPRIV_RAW) {
		d->raw_format = (uint32_t)ctx->priv[HWT_PANTHOR_PRIV_RAW_FORMAT];
		d->extract = ctx->priv[HWT_PANTHOR_PRIV_EXTRACT];
		d->insert = ctx->priv[HWT_PANTHOR_PRIV_INSERT];
		d->slots = ctx->priv[HWT_PANTHOR_PRIV_SLOTS];
	}
	d->values = calloc(d->info.counters_per_block, sizeof(*d->values));
	d->kv = calloc(PANTHOR_MASK_BITS, sizeof(*d->kv));
	if (!d->values || !d->kv || build_names(d) || panthor_stats__init(&d->stats, &d->info))
		goto fail;
	if (report_opts(d, ctx, diag))
		goto fail;
	d->stats.no_rows = ctx->no_summary;	/* nobody reads the report's rows */
	d->no_kv = ctx->summary_only;
	return d;
fail:
	panthor_free(d);
	return NULL;
}

static void send_sample_rec(struct panthor_dec *d)
{
	if (!d->srec_sent) {
		hwt_emit__record(d->emit, &hwt_rt_panthor_sample, &d->srec, d->srec_off);
		d->srec_sent = true;
	}
}

static void warn_state(struct panthor_dec *d, const struct hwt_panthor_block *b)
{
	const char *what = NULL;
	bool *warned = NULL;

	if (b->states & HWT_PANTHOR_STATE_OFF) {
		d->stats.off_blocks++;
		what = "powered off";
		warned = &d->warned_off;
	} else if (b->states & HWT_PANTHOR_STATE_UNAVAILABLE) {
		d->stats.unavailable_blocks++;
		what = "unavailable";
		warned = &d->warned_unavail;
	}
	if (what && !*warned) {
		hwt_diag__warn(d->emit->diag, b->offset, "panthor block header",
			       "%s block %u %s in sample %llu: its counters do not count "
			       "(further ones are counted in the report)",
			       hwt_panthor_kind_names[b->kind], b->idx, what,
			       (unsigned long long)d->srec.sample);
		*warned = true;
	}
}

/*
 * The block's counters as host u64s: in place when the payload is little
 * endian like the host and aligned (perf.data keeps AUX payloads 8-byte
 * aligned), else a copy.  Either stays valid while the record is out.
 */
static const uint64_t *block_values(struct panthor_dec *d, const uint8_t *p)
{
	uint32_t cpb = d->info.counters_per_block;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!((uintptr_t)p % _Alignof(uint64_t)))
		return (const uint64_t *)(const void *)p;
	memcpy(d->values, p, 8 * (size_t)cpb);
#else
	for (uint32_t i = 0; i < cpb; i++)
		d->values[i] = hwt_le64(p + 8 * i);
#endif
	return d->values;
}

/* The enabled counters of a block as (key, value) pairs; returns how many. */
static uint32_t fill_kv(struct hwt_kv *kv, const char *const *names, const uint64_t *values,
			const uint64_t mask[2], uint32_t cpb)
{
	uint32_t n = 0;

	for (uint32_t w = 0; w < 2 && 64 * w < cpb; w++) {
		if (mask[w] == ~0ull && cpb >= 64 * (w + 1)) {
			/* the common all-enabled word: a plain loop */
			for (uint32_t i = 64 * w; i < 64 * (w + 1); i++)
				kv[n++] = (struct hwt_kv){ names[i], values[i] };
			continue;
		}
		/* walk the set bits only: sparse masks */
		for (uint64_t m = mask[w]; m; m &= m - 1) {
			uint32_t i = 64 * w + __builtin_ctzll(m);

			if (i >= cpb)
				break;
			kv[n++] = (struct hwt_kv){ names[i], values[i] };
		}
	}
	return n;
}

static void on_block(void *ctx, const struct hwt_panthor_sample *s,
		     const struct hwt_panthor_block *b)
{
	struct panthor_dec *d = ctx;
	uint32_t cpb = d->info.counters_per_block;
	uint32_t bsize = d->info.block_header_size + 8 * cpb;
	struct hwt_panthor_block_rec r;

	send_sample_rec(d);
	if (!b->valid) {
		d->emit->diag->bytes.skipped += bsize;
		d->used += bsize;
		return;
	}
	d->emit->diag->bytes.decoded += bsize;
	d->used += bsize;
	r = (struct hwt_panthor_block_rec){
		.sample = s->index, .timestamp_start_ns = s->timestamp_start_ns,
		.timestamp_end_ns = s->timestamp_end_ns, .interval_ns = d->interval,
		.user_data = s->user_data,
		.flags = s->flags, .block_type = b->kind, .block_idx = b->idx,
		.block_states = b->states, .clock = b->clock,
		.cycles = b->clock < HWT_PANTHOR_NCLOCKS ? s->cycles[b->clock] : 0,
		.enable_mask = { b->enable_mask[0], b->enable_mask[1] },
		.values = block_values(d, b->counters), .nvalues = cpb, .counters = d->kv,
	};
	if (!d->no_kv) {
		r.ncounters = fill_kv(d->kv, d->names[b->kind], r.values, b->enable_mask, cpb);
		if (b->kind < HWT_PANTHOR_NKINDS && d->nscaled[b->kind])
			fill_scaled(d, b, &r);
	}
	warn_state(d, b);
	d->stats.blocks++;
	if (!d->stats.no_rows)
		panthor_stats__block(&d->stats, b, r.values, r.cycles, d->interval);
	hwt_emit__record(d->emit, &hwt_rt_panthor_block, &r, b->offset);
}

/* Decode the @n bytes at @p (file offset @off) as sample number d->nsample. */
static void decode_sample(struct panthor_dec *d, const uint8_t *p, size_t n, uint64_t off)
{
	struct hwt_diag *diag = d->emit->diag;
	struct hwt_panthor_sample s = { .index = d->nsample++, .offset = off };
	const struct hwt_panthor_layout *l = d->info.layout;
	int valid;

	d->srec_sent = false;
	d->srec_off = off;
	d->used = 0;
	d->interval = 0;
	if (n >= l->sample_header_size) {
		/* the interval must be known before the blocks are counted */
		uint64_t end = hwt_le64(p + l->sh_ts_end);

		d->interval = hwt_panthor__interval(end, d->prev_end, d->have_prev);
		if (d->have_prev && !d->interval)
			hwt_diag__warn(diag, off, "panthor sample header",
				       "sample %llu: timestamp_end_ns %llu does not advance past "
				       "%llu: no interval for it", (unsigned long long)s.index,
				       (unsigned long long)end, (unsigned long long)d->prev_end);
	}
	d->srec = (struct hwt_panthor_sample_rec){ .sample = s.index };
	if (n >= d->info.sample_header_size) {
		/* fill the framing record before the first block goes out */
		struct hwt_panthor_sample h = s;

		hwt_panthor_sample__walk(&d->info, p, d->info.sample_header_size, &h, NULL, NULL,
					 NULL);
		d->srec = (struct hwt_panthor_sample_rec){
			.sample = s.index, .timestamp_start_ns = h.timestamp_start_ns,
			.timestamp_end_ns = h.timestamp_end_ns, .block_set = h.block_set,
			.flags = h.flags, .user_data = h.user_data,
			.toplevel_clock_cycles = h.cycles[0], .coregroup_clock_cycles = h.cycles[1],
			.shader_clock_cycles = h.cycles[2],
		};
		for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
			d->srec.blocks += d->info.blocks[k];
	}
	valid = hwt_panthor_sample__walk(&d->info, p, n, &s, on_block, d, diag);
	if (valid < 0) {
		diag->bytes.skipped += n;
		d->stats.bad_samples++;
		return;
	}
	send_sample_rec(d);
	diag->bytes.decoded += d->info.sample_header_size;
	d->used += d->info.sample_header_size;
	diag->bytes.skipped += n - d->used;	/* blocks we do not know, a cut tail */
	if (n < d->info.sample_size || (uint32_t)valid < d->srec.blocks)
		d->stats.bad_samples++;
	d->stats.samples++;
	if (s.flags & HWT_PANTHOR_FLAG_OVERFLOW) {
		d->stats.overflow++;
		hwt_diag__warn(diag, off, "panthor sample header",
			       "sample %llu: OVERFLOW: counter data was lost before it",
			       (unsigned long long)s.index);
	}
	if (s.flags & HWT_PANTHOR_FLAG_ERROR) {
		d->stats.error++;
		hwt_diag__warn(diag, off, "panthor sample header",
			       "sample %llu: ERROR flag set by the kernel: values unreliable",
			       (unsigned long long)s.index);
	}
	if (!d->stats.have_end)
		d->stats.first_end = s.timestamp_end_ns;
	d->stats.have_end = true;
	d->stats.last_end = s.timestamp_end_ns;
	d->stats.interval_ns += d->interval;
	d->have_prev = true;
	d->prev_end = s.timestamp_end_ns;
}

static size_t decode_stream(struct panthor_dec *d, const struct hwt_chunk *c)
{
	size_t ss = d->info.sample_size, pos = 0;

	for (; c->size - pos >= ss; pos += ss)
		decode_sample(d, c->data + pos, ss, c->file_offset + pos);
	if (c->last && pos < c->size) {
		decode_sample(d, c->data + pos, c->size - pos, c->file_offset + pos);
		pos = c->size;
	}
	return pos;
}

static uint64_t pow2_floor(uint64_t v)
{
	while (v & (v - 1))
		v &= v - 1;
	return v;
}

/* The whole ring dump is in @c (the session carried it until the last piece). */
static void decode_ring(struct panthor_dec *d, const struct hwt_chunk *c)
{
	struct hwt_diag *diag = d->emit->diag;
	const uint8_t *ring = c->data;
	uint64_t base = c->file_offset, len = c->size, slots, ss = d->info.sample_size;
	uint64_t extract = d->extract, insert = d->insert;
	uint64_t have, done = 0;
	struct hwt_panthor_ring plan;

	if (d->raw_format == HWT_PANTHOR_RAW_RING_CTRL) {
		if (len < 16) {
			hwt_diag__error(diag, base, "panthor ring control",
					"file of %llu bytes is shorter than the 16-byte control "
					"words (extract_idx, insert_idx)", (unsigned long long)len);
			diag->bytes.skipped += len;
			return;
		}
		extract = hwt_le64(ring);
		insert = hwt_le64(ring + 8);
		diag->bytes.decoded += 16;
		ring += 16;
		base += 16;
		len -= 16;
	}
	slots = d->slots ? d->slots : pow2_floor(len / ss);
	if (!slots) {
		hwt_diag__error(diag, base, "panthor ring",
				"ring of %llu bytes holds no whole %llu-byte sample",
				(unsigned long long)len, (unsigned long long)ss);
		diag->bytes.skipped += len;
		return;
	}
	if (hwt_panthor_ring__plan(slots, extract, insert, &plan, c->file_offset, diag)) {
		diag->bytes.skipped += len;
		return;
	}
	/*
	 * --slots may name a ring larger than the dump: slots from @have on
	 * are missing.  They are reported as one run up to the ring's end, so
	 * the loop is bounded by the dump, not by the (input) slot count, and
	 * slot * ss is only formed for slots inside the dump.
	 */
	have = len / ss;
	for (uint64_t k = 0; k < plan.count;) {
		uint64_t slot = (plan.first + k) & (slots - 1), miss;

		if (slot >= have) {
			miss = slots - slot < plan.count - k ? slots - slot : plan.count - k;
			hwt_diag__error(diag, base + len, "panthor ring",
					"slots %llu..%llu (%llu samples) lie beyond the end of the "
					"%llu-byte ring dump", (unsigned long long)slot,
					(unsigned long long)(slot + miss - 1),
					(unsigned long long)miss, (unsigned long long)len);
			d->stats.bad_samples += miss;
			k += miss;
			continue;
		}
		decode_sample(d, ring + slot * ss, ss, base + slot * ss);
		done++;
		k++;
	}
	/* stale slots and page padding */
	diag->bytes.skipped += len - done * ss;
}

static size_t panthor_decode(void *state, const struct hwt_chunk *c, const struct hwt_emit *emit)
{
	struct panthor_dec *d = state;

	d->emit = emit;
	if (d->raw_format == HWT_PANTHOR_RAW_SAMPLES)
		return decode_stream(d, c);
	if (!c->last)
		return 0;	/* a ring is read in ring order: wait for all of it */
	d->ring_seen = true;
	decode_ring(d, c);
	return c->size;
}

static void panthor_finish(void *state, const struct hwt_emit *emit)
{
	struct panthor_dec *d = state;

	if (d->raw_format != HWT_PANTHOR_RAW_SAMPLES && !d->ring_seen)
		hwt_diag__error(emit->diag, 0, "panthor ring", "empty file: no ring to decode");
	if (d->stats.nomem)
		hwt_diag__error(emit->diag, 0, "panthor", "out of memory: report figures incomplete");
	panthor_stats__emit(&d->stats, &d->info, (const char *const *const *)d->names, emit);
}

const struct hwt_decoder_ops hwt_panthor_decoder = {
	.dump_title = "PANTHOR",
	.dump_align = 1,
	.match = panthor_match,
	.ctx_from_opts = panthor_ctx_from_opts,
	.new = panthor_new,
	.decode = panthor_decode,
	.finish = panthor_finish,
	.free = panthor_free,
};
