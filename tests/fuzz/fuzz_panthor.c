// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_panthor.c - the panthor sample walker and ring reader on hostile bytes.
 *
 * The first 16 input bytes pick a context (layout, counters per block, header
 * sizes, block counts, sample_size, raw format and ring indices); the rest is
 * the payload, decoded through the decoder ops in pieces like the session does,
 * every record shown to the metrics computer as the session shows it.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "panthor/panthor_internal.h"

static void touch_metrics(const struct hwt_metrics *m)
{
	volatile double v = 0;

	for (uint32_t i = 0; m && i < m->n; i++)
		v += m->vals[i] + (double)strlen(m->defs[i].name);
	(void)v;
}

static void sink(void *ctx, const struct hwt_record *rec)
{
	if (ctx)
		touch_metrics(hwt_panthor_metrics.record(ctx, rec));
	/* touch every field the sinks would read */
	for (uint32_t i = 0; i < rec->type->nfields; i++) {
		const struct hwt_field *f = &rec->type->fields[i];
		volatile uint64_t v = 0;

		if (f->type == HWT_FT_STR)
			v = strlen(*(const char *const *)((const char *)rec->data + f->offset));
		else
			for (uint32_t j = 0; j < hwt_field__len(f, rec->data); j++)
				v += hwt_field__u64(f, rec->data, j);
		(void)v;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t priv[HWT_PANTHOR_NPRIV_RAW] = { 0 };
	struct hwt_diag diag = { 0 };
	struct hwt_aux_ctx ctx = {
		.auxtrace_type = HWT_AUXTRACE_PANTHOR, .priv = priv,
		.npriv = HWT_PANTHOR_NPRIV_RAW, .raw = true,
	};
	struct hwt_emit emit = { .record = sink, .diag = &diag };
	size_t pos = 0, piece;
	void *st, *met;

	if (size < 16)
		return 0;
	priv[HWT_PANTHOR_PRIV_LAYOUT] = data[0] & 1 ? 6 : 2;
	priv[HWT_PANTHOR_PRIV_GPU_ID] = data[1] & 1 ? 0xa8670000u : 0xb0020000u;
	priv[HWT_PANTHOR_PRIV_CPB] = 4 + (data[2] & 0x7f);
	priv[HWT_PANTHOR_PRIV_SHS] = 56 + (data[3] & 0xf);
	priv[HWT_PANTHOR_PRIV_BHS] = 24 + (data[3] >> 4);
	priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE] = data[4] & 0x80 ? (uint64_t)data[5] << 4 : 0;
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
		priv[HWT_PANTHOR_PRIV_BLOCKS + k] = (data[6 + k / 2] >> (4 * (k % 2))) & 3;
	priv[HWT_PANTHOR_PRIV_RAW_FORMAT] = data[9] % 3;
	priv[HWT_PANTHOR_PRIV_EXTRACT] = data[10] & 0x1f;
	priv[HWT_PANTHOR_PRIV_INSERT] = data[11] & 0x1f;
	priv[HWT_PANTHOR_PRIV_SLOTS] = data[12] & 0x80 ? data[12] & 0xf : 0;
	piece = 1 + data[13] * 16;
	data += 16;
	size -= 16;
	st = hwt_panthor_decoder.new(&ctx, &diag);
	if (!st)
		return 0;
	met = hwt_panthor_metrics.new(&ctx, &diag);
	emit.ctx = met;
	/* pieces, carrying what the decoder leaves, like session.c's feed() */
	while (pos < size) {
		size_t n = size - pos < piece ? size - pos : piece, used, end = pos + n;
		struct hwt_chunk c = { .data = data, .size = end, .last = end == size };

		used = hwt_panthor_decoder.decode(st, &c, &emit);
		if (used > end)
			__builtin_trap();
		data += used;
		size -= used;
		pos = end - used;
		if (c.last)
			break;
	}
	hwt_panthor_decoder.finish(st, &emit);
	hwt_panthor_decoder.free(st);
	if (met) {
		touch_metrics(hwt_panthor_metrics.group(met, 0));
		if (hwt_panthor_metrics.group(met, 1))
			__builtin_trap();
		hwt_panthor_metrics.free(met);
	}
	return 0;
}
