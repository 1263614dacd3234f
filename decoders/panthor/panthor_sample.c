// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_sample.c - walk one panthor perf sample: the sample header, then
 * per block a block header and counters_per_block u64 counters.
 *
 * Every size comes from the context (struct hwt_panthor_info) and every
 * offset inside a header from the layout row, so a revision with a larger
 * header is skipped past rather than misread.
 */
#include <string.h>

#include "panthor_internal.h"
#include "le.h"

/* Must-be-zero bytes as one number (at most 4 of them in any layout). */
static uint32_t pad_bytes(const uint8_t *p, uint32_t len)
{
	uint32_t v = 0;

	for (uint32_t i = 0; i < len && i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static void read_header(const struct hwt_panthor_layout *l, const uint8_t *p,
			struct hwt_panthor_sample *s)
{
	s->timestamp_start_ns = hwt_le64(p + l->sh_ts_start);
	s->timestamp_end_ns = hwt_le64(p + l->sh_ts_end);
	s->block_set = p[l->sh_block_set];
	s->pad = pad_bytes(p + l->sh_pad, l->sh_pad_len);
	s->flags = hwt_le32(p + l->sh_flags);
	s->user_data = hwt_le64(p + l->sh_user_data);
	for (int c = 0; c < HWT_PANTHOR_NCLOCKS; c++)
		s->cycles[c] = hwt_le64(p + l->sh_cycles[c]);
}

static void check_header(const struct hwt_panthor_sample *s, struct hwt_diag *diag)
{
	if (s->pad)
		hwt_diag__warn(diag, s->offset, "panthor sample header",
			       "sample %llu: must-be-zero padding after block_set is 0x%06x",
			       (unsigned long long)s->index, s->pad);
	if (s->flags & ~(HWT_PANTHOR_FLAG_OVERFLOW | HWT_PANTHOR_FLAG_ERROR))
		hwt_diag__warn(diag, s->offset, "panthor sample header",
			       "sample %llu: unknown flag bits 0x%x", (unsigned long long)s->index,
			       s->flags & ~(HWT_PANTHOR_FLAG_OVERFLOW | HWT_PANTHOR_FLAG_ERROR));
	if (s->block_set > 2)
		hwt_diag__warn(diag, s->offset, "panthor sample header",
			       "sample %llu: block_set %u is not PRIMARY, SECONDARY or TERTIARY",
			       (unsigned long long)s->index, s->block_set);
}

static void read_block(const struct hwt_panthor_info *info, const uint8_t *p,
		       struct hwt_panthor_block *b)
{
	const struct hwt_panthor_layout *l = info->layout;

	b->uapi_type = p[l->bh_type];
	b->kind = b->uapi_type < 8 ? l->kind_of_type[b->uapi_type] : HWT_PANTHOR_UNKNOWN;
	b->idx = p[l->bh_idx];
	b->states = p[l->bh_states];
	b->clock = p[l->bh_clock];
	b->pad = pad_bytes(p + l->bh_pad, l->bh_pad_len);
	b->enable_mask[0] = hwt_le64(p + l->bh_enable_mask);
	b->enable_mask[1] = hwt_le64(p + l->bh_enable_mask + 8);
	b->counters = p + info->block_header_size;
}

/* Report what is wrong with @b; false when it cannot be attributed to a block. */
static bool check_block(const struct hwt_panthor_info *info, const struct hwt_panthor_sample *s,
			struct hwt_panthor_block *b, uint8_t seen[HWT_PANTHOR_NKINDS][32],
			struct hwt_diag *diag)
{
	const char *rt = "panthor block header";
	unsigned long long si = s->index;
	uint32_t cpb = info->counters_per_block;

	if (b->kind == HWT_PANTHOR_UNKNOWN) {
		hwt_diag__error(diag, b->offset, rt, "sample %llu: unknown block type %u in layout %s",
				si, b->uapi_type, info->layout->name);
		return false;
	}
	if (b->idx >= info->blocks[b->kind]) {
		hwt_diag__error(diag, b->offset, rt,
				"sample %llu: %s block index %u beyond its count %u", si,
				hwt_panthor_kind_names[b->kind], b->idx, info->blocks[b->kind]);
		return false;
	}
	if (seen[b->kind][b->idx / 8] & (1u << (b->idx % 8)))
		hwt_diag__warn(diag, b->offset, rt, "sample %llu: %s block %u appears twice", si,
			       hwt_panthor_kind_names[b->kind], b->idx);
	seen[b->kind][b->idx / 8] |= 1u << (b->idx % 8);
	if (b->pad)
		hwt_diag__warn(diag, b->offset, rt,
			       "sample %llu: %s block %u: must-be-zero padding is 0x%08x", si,
			       hwt_panthor_kind_names[b->kind], b->idx, b->pad);
	if (b->states & ~0x3fu)
		hwt_diag__warn(diag, b->offset, rt, "sample %llu: %s block %u: unknown state bits 0x%x",
			       si, hwt_panthor_kind_names[b->kind], b->idx, b->states & ~0x3fu);
	if ((b->states & HWT_PANTHOR_STATE_ON) && (b->states & HWT_PANTHOR_STATE_OFF))
		hwt_diag__warn(diag, b->offset, rt, "sample %llu: %s block %u: both ON and OFF",
			       si, hwt_panthor_kind_names[b->kind], b->idx);
	if (b->clock >= HWT_PANTHOR_NCLOCKS)
		hwt_diag__warn(diag, b->offset, rt, "sample %llu: %s block %u: unknown clock %u",
			       si, hwt_panthor_kind_names[b->kind], b->idx, b->clock);
	if ((cpb < 64 && (b->enable_mask[0] >> cpb)) || (cpb <= 64 && b->enable_mask[1]) ||
	    (cpb > 64 && cpb < 128 && (b->enable_mask[1] >> (cpb - 64))))
		hwt_diag__warn(diag, b->offset, rt,
			       "sample %llu: %s block %u: enable_mask has bits beyond counter %u",
			       si, hwt_panthor_kind_names[b->kind], b->idx, cpb - 1);
	return true;
}

int hwt_panthor_sample__walk(const struct hwt_panthor_info *info, const uint8_t *p, size_t n,
			     struct hwt_panthor_sample *s,
			     void (*block)(void *ctx, const struct hwt_panthor_sample *s,
					   const struct hwt_panthor_block *b),
			     void *ctx, struct hwt_diag *diag)
{
	uint8_t seen[HWT_PANTHOR_NKINDS][32];
	uint32_t nblocks = 0, bsize;
	size_t pos;
	int valid = 0;

	if (n < info->sample_header_size) {
		hwt_diag__error(diag, s->offset, "panthor sample",
				"sample %llu truncated: %zu bytes, its header needs %u",
				(unsigned long long)s->index, n, info->sample_header_size);
		return -1;
	}
	read_header(info->layout, p, s);
	check_header(s, diag);
	memset(seen, 0, sizeof(seen));
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
		nblocks += info->blocks[k];
	bsize = info->block_header_size + 8 * info->counters_per_block;
	pos = info->sample_header_size;
	for (uint32_t i = 0; i < nblocks; i++, pos += bsize) {
		struct hwt_panthor_block b = { .offset = s->offset + pos };

		if (n - pos < bsize) {
			hwt_diag__error(diag, s->offset + pos, "panthor sample",
					"sample %llu truncated: block %u of %u needs %u bytes, %zu left",
					(unsigned long long)s->index, i, nblocks, bsize, n - pos);
			break;
		}
		read_block(info, p + pos, &b);
		b.valid = check_block(info, s, &b, seen, diag);
		valid += b.valid;
		if (block)
			block(ctx, s, &b);
	}
	return valid;
}
