// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_i915_oa.c - the i915 perf record walker and OA report decoder.
 *
 * Byte 0 picks the OA format (and so the report layout), byte 1 the graphics
 * version; the rest is the stream, fed in two chunks split at byte 16 x byte 2.
 * When byte 1 has bit 7 set, the stream is decoded again as report --metrics
 * does (summary_only, metrics, groups only), and the per-context sums the
 * decoder then hands over (i915_oa_ctx_sums) must equal what the metrics
 * computer would have summed from the first run's report records.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/decoder_internal.h"
#include "i915_oa/i915_oa_internal.h"

#define NSUM	(I915_OA_MAX_A + 2 * I915_OA_MAX_BC)
#define MAXCTX	64

/* per-context sums, in the order of each context's first delta */
struct sums {
	uint32_t gen;
	uint32_t n;
	uint32_t ctx[MAXCTX];
	uint64_t v[MAXCTX][2 + NSUM];	/* dts, dticks, A, B, C */
	bool overflow;
	/* the metrics computer's attribution (i915_oa_metrics.c met_record) */
	bool have_prev;
	uint32_t prev_key;
	uint64_t data_records, reports;
};

static void add(struct sums *s, uint32_t ctx, const struct hwt_i915_oa_report *r)
{
	uint32_t i = 0;
	uint64_t *v;

	while (i < s->n && s->ctx[i] != ctx)
		i++;
	if (i == MAXCTX) {
		s->overflow = true;
		return;
	}
	if (i == s->n)
		s->ctx[s->n++] = ctx;
	v = s->v[i];
	v[0] += r->dts;
	v[1] += r->dticks;
	for (uint32_t k = 0; k < r->na; k++)
		v[2 + k] += r->da[k];
	for (uint32_t k = 0; k < r->nb; k++)
		v[2 + r->na + k] += r->db[k];
	for (uint32_t k = 0; k < r->nc; k++)
		v[2 + r->na + r->nb + k] += r->dc[k];
}

/* the records of a plain decode, summed as the metrics computer would */
static void sum_reports(void *ctx, const struct hwt_record *rec)
{
	struct sums *s = ctx;
	const struct hwt_i915_oa_report *r = rec->data;

	if (rec->type->kind == HWT_RK_DATA)
		s->data_records++;
	if (rec->type == &hwt_rt_i915_oa_lost) {
		s->have_prev = false;
	} else if (rec->type == &hwt_rt_i915_oa_report) {
		s->reports++;
		if (r->has_delta && s->have_prev)
			add(s, s->prev_key, r);
		s->prev_key = hwt_i915_oa__ctx_key(s->gen, r->ctx, r->ctx_valid);
		s->have_prev = true;
	}
}

/* the decoder's own sums (report --metrics) */
static void take_sums(void *ctx, const struct hwt_record *rec)
{
	struct sums *s = ctx;

	if (rec->type->kind == HWT_RK_DATA)
		s->data_records++;
	if (rec->type == &hwt_rt_i915_oa_report)
		s->reports++;
	if (rec->type == &hwt_rt_i915_oa_ctx_sums)
		add(s, ((const struct hwt_i915_oa_report *)rec->data)->ctx, rec->data);
}

static void sink(void *ctx, const struct hwt_record *rec)
{
	const struct hwt_record_type *t = rec->type;

	/* touch every field so that bad pointers or counts show up */
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (f->type == HWT_FT_STR || !hwt_field__present(f, rec->data))
			continue;
		for (uint32_t j = 0; j < hwt_field__len(f, rec->data); j++)
			*(volatile uint64_t *)ctx += hwt_field__u64(f, rec->data, j);
	}
}

/*
 * One piece, in bytes of its own that are freed after the call, as the
 * session unmaps its windows: ASan then catches a decoder that keeps a
 * pointer into a piece past it.
 */
static size_t piece(void *st, const uint8_t *data, size_t n, uint64_t off, bool last,
		    const struct hwt_emit *e)
{
	uint8_t *copy = malloc(n ? n : 1);
	size_t used;

	if (!copy)
		abort();
	memcpy(copy, data, n);
	used = hwt_i915_oa_decoder.decode(st, &(struct hwt_chunk){ .data = copy, .size = n,
					   .file_offset = off, .last = last }, e);
	free(copy);
	return used;
}

/* decode @data (@split bytes, then the rest) with @ctx; false if the decoder would not start */
static bool decode(struct hwt_aux_ctx *ctx, const uint8_t *data, size_t size, size_t split,
		   const struct hwt_emit *e)
{
	const struct hwt_decoder_ops *ops = &hwt_i915_oa_decoder;
	void *st = ops->new(ctx, e->diag);
	size_t used;

	if (!st)
		return false;
	used = piece(st, data, split, 0, false, e);
	if (used > split)
		abort();
	piece(st, data + used, size - used, used, true, e);
	ops->finish(st, e);
	ops->free(st);
	if (e->diag->bytes.decoded + e->diag->bytes.skipped != size)
		abort();	/* every byte must be accounted for */
	return true;
}

/* report --metrics' sums equal the computer's over a plain decode's records */
static void check_sums(struct hwt_aux_ctx *ctx, const uint8_t *data, size_t size, size_t split)
{
	static struct sums plain, fused;
	struct hwt_diag d1 = { 0 }, d2 = { 0 };
	uint64_t counted = 0, unused = 0;
	struct hwt_emit e1 = { .record = sum_reports, .ctx = &plain, .diag = &d1,
			       .records = &unused };
	struct hwt_emit e2 = { .record = take_sums, .ctx = &fused, .diag = &d2,
			       .records = &counted };
	const char *g = hwt_aux_ctx__opt(ctx, "gen");
	uint32_t fmt = (uint32_t)ctx->priv[HWT_I915_OA_PRIV_FORMAT];

	memset(&plain, 0, sizeof(plain));
	memset(&fused, 0, sizeof(fused));
	/* the decoder's graphics version: given, else the format's */
	plain.gen = g ? hwt_i915_oa__parse_gen(g) : hwt_i915_oa__default_gen(fmt);
	/* as script and report --metrics run it: nobody reads summaries */
	ctx->no_summary = true;
	ctx->summary_only = false;
	ctx->metrics = ctx->metrics_groups_only = false;
	if (!decode(ctx, data, size, split, &e1))
		return;
	ctx->summary_only = ctx->metrics = ctx->metrics_groups_only = true;
	if (!decode(ctx, data, size, split, &e2))
		abort();
	if (fused.reports)
		return;		/* HSW: no sums in the decoder, reports as before */
	/* every report counted, the lost records emitted as before */
	if (counted + fused.data_records != plain.data_records || plain.overflow != fused.overflow)
		abort();
	if (plain.overflow)
		return;
	if (plain.n != fused.n || d1.errors != d2.errors || d1.warnings != d2.warnings)
		abort();
	for (uint32_t i = 0; i < plain.n; i++)
		if (plain.ctx[i] != fused.ctx[i] ||
		    memcmp(plain.v[i], fused.v[i], sizeof(plain.v[i])))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const gens[] = { "7.5", "8", "9", "11", "12", "12.55", "12.70" };
	char fmt[8];
	uint64_t sum = 0, priv[HWT_I915_OA_NPRIV];
	struct hwt_diag diag = { 0 };
	struct hwt_opt opts[2];
	struct hwt_aux_ctx ctx = { .opts = opts, .nopts = 2, .raw = true };
	struct hwt_emit e = { .record = sink, .ctx = &sum, .diag = &diag };
	const struct hwt_decoder_ops *ops = &hwt_i915_oa_decoder;
	bool ctx_sums;
	size_t split;
	int np;

	if (size < 3)
		return 0;
	snprintf(fmt, sizeof(fmt), "%u", data[0] % 15);
	opts[0] = (struct hwt_opt){ "oa-format", data[0] % 15 ? fmt : "A13" };
	opts[1] = (struct hwt_opt){ "gen", gens[data[1] % 7] };
	ctx.nopts = data[0] >= 128 ? 1 : 2;	/* sometimes learn gen from the format */
	ctx_sums = data[1] >= 128;
	split = (size_t)data[2] * 16;	/* room for a few 256-byte reports */
	data += 3;
	size -= 3;
	if (split > size)
		split = size;
	np = ops->ctx_from_opts(&ctx, priv, HWT_I915_OA_NPRIV, &diag);
	if (np < 0)
		return 0;
	ctx.priv = priv;
	ctx.npriv = (uint32_t)np;
	if (ctx_sums) {
		check_sums(&ctx, data, size, split);
		return 0;
	}
	decode(&ctx, data, size, split, &e);
	return 0;
}
