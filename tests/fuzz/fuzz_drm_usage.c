// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_drm_usage.c - the drm-usage record walker (top --record's payload)
 * on hostile bytes, fed in pieces cut where the first input byte says, as
 * the session feeds AUXTRACE payloads; every field a sink reads is touched.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "drm_usage/drm_usage_internal.h"

static void sink(void *ctx, const struct hwt_record *rec)
{
	(void)ctx;
	for (uint32_t i = 0; i < rec->type->nfields; i++) {
		const struct hwt_field *f = &rec->type->fields[i];
		volatile uint64_t v = 0;

		if (!hwt_field__present(f, rec->data))
			continue;
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
	uint64_t priv[HWT_DRM_USAGE_NPRIV] = { 0, HWT_DRM_USAGE_LAYOUT };
	struct hwt_diag diag = { 0 };
	struct hwt_aux_ctx ctx = {
		.auxtrace_type = HWT_AUXTRACE_DRM_USAGE, .priv = priv,
		.npriv = HWT_DRM_USAGE_NPRIV,
	};
	uint64_t records = 0;
	struct hwt_emit emit = { .record = sink, .diag = &diag, .records = &records };
	const struct hwt_decoder_ops *ops = &hwt_drm_usage_decoder;
	size_t pos = 1, piece;
	void *st;

	if (size < 1)
		return 0;
	piece = 8 + data[0] * 8;
	st = ops->new(&ctx, &diag);
	if (!st)
		return 0;
	/* pieces as the session hands them: what is not consumed comes again */
	while (pos < size) {
		size_t end = size - pos > piece ? pos + piece : size;
		struct hwt_chunk c = {
			.data = data + pos, .size = end - pos, .file_offset = pos,
			.last = end == size, .first = pos == 1, .cpu = -1, .tid = -1,
		};
		size_t used = ops->decode(st, &c, &emit);

		if (!used) {
			if (c.last)
				break;
			piece *= 2;	/* a record longer than the piece */
			continue;
		}
		pos += used;
	}
	ops->free(st);
	return 0;
}
