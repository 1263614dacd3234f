// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_i915_oa.c - the i915 perf record walker and OA report decoder.
 *
 * Byte 0 picks the OA format (and so the report layout), byte 1 the graphics
 * version; the rest is the stream, fed in two chunks split at byte 2 + byte 2.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "i915_oa/i915_oa_internal.h"

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
	size_t split, used;
	void *st;
	int np;

	if (size < 3)
		return 0;
	snprintf(fmt, sizeof(fmt), "%u", data[0] % 15);
	opts[0] = (struct hwt_opt){ "oa-format", data[0] % 15 ? fmt : "A13" };
	opts[1] = (struct hwt_opt){ "gen", gens[data[1] % 7] };
	ctx.nopts = data[0] >= 128 ? 1 : 2;	/* sometimes learn gen from the format */
	split = data[2];
	data += 3;
	size -= 3;
	if (split > size)
		split = size;
	np = ops->ctx_from_opts(&ctx, priv, HWT_I915_OA_NPRIV, &diag);
	if (np < 0)
		return 0;
	ctx.priv = priv;
	ctx.npriv = (uint32_t)np;
	st = ops->new(&ctx, &diag);
	if (!st)
		return 0;
	used = ops->decode(st, &(struct hwt_chunk){ .data = data, .size = split }, &e);
	if (used > split)
		abort();
	used = ops->decode(st, &(struct hwt_chunk){ .data = data + used, .size = size - used,
						    .file_offset = used, .last = true }, &e);
	ops->finish(st, &e);
	ops->free(st);
	if (diag.bytes.decoded + diag.bytes.skipped != size)
		abort();	/* every byte must be accounted for */
	return 0;
}
