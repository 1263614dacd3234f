// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cxl_hmu.c - the CXL HMU decoder on arbitrary payloads, fed in pieces.
 *
 * Input: byte 0 = flags, bytes 1-2 = piece size, byte 3 = record split, then
 * the payload.  The payload is cut into two AUXTRACE records, each handed to
 * the decoder in pieces the way the session does (unconsumed bytes carried
 * into the next piece).  Checks: no crash, decode() never claims more than it
 * was given, takes everything on the last piece, and every byte is counted
 * exactly once as decoded or skipped.  Flag 0x80 fuzzes the HDM parser instead.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cxl_hmu/cxl_hmu_internal.h"

static uint64_t sink;

static void on_record(void *ctx, const struct hwt_record *rec)
{
	const struct hwt_record_type *t = rec->type;

	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (!hwt_field__present(f, rec->data))
			continue;
		if (f->type == HWT_FT_STR)
			sink += strlen(*(const char *const *)((const char *)rec->data + f->offset));
		else
			sink += hwt_field__u64(f, rec->data, 0);
	}
}

static void feed_record(void *st, const uint8_t *p, size_t n, size_t piece,
			const struct hwt_emit *e)
{
	uint8_t *carry = malloc(n ? n : 1);
	size_t pos = 0, have = 0;
	bool first = true;

	if (!carry)
		return;
	for (;;) {
		size_t take = n - pos < piece ? n - pos : piece;
		struct hwt_chunk c;
		size_t used;

		memcpy(carry + have, p + pos, take);
		pos += take;
		have += take;
		c = (struct hwt_chunk){
			.data = carry, .size = have, .file_offset = pos - have,
			.last = pos == n, .first = first, .cpu = 1, .tid = -1, .time = 5,
		};
		used = hwt_cxl_hmu_decoder.decode(st, &c, e);
		if (used > have || (c.last && used != have))
			__builtin_trap();
		if (c.last)
			break;
		first = false;
		have -= used;
		memmove(carry, carry + used, have);
	}
	free(carry);
}

static void fuzz_hdm(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct hwt_cxl_hdm h;
	char err[128];
	uint64_t hpa;

	if (!s)
		return;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!hwt_cxl_hdm__parse(s, &h, err, sizeof(err))) {
		for (uint64_t dpa = 0; dpa < 8; dpa++)
			if (hwt_cxl_hdm__dpa_to_hpa(&h, dpa * 0x12345677, &hpa))
				sink += hpa;
		if (hwt_cxl_hdm__dpa_to_hpa(&h, UINT64_MAX, &hpa))
			sink += hpa;
	}
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwt_opt opts[3];
	uint32_t nopts = 0;
	struct hwt_attr attr;
	struct hwt_aux_ctx ctx = { .auxtrace_type = 7, .pmu_name = "cxl_hmu_mem0.0.0" };
	struct hwt_diag diag = { 0 };
	struct hwt_emit e = { .record = on_record, .diag = &diag };
	size_t piece, split;
	uint8_t flags;
	void *st;

	if (size < 4)
		return 0;
	flags = data[0];
	piece = 1 + (data[1] | (size_t)data[2] << 8);
	split = data[3];
	data += 4;
	size -= 4;
	if (flags & 0x80) {
		fuzz_hdm(data, size);
		return 0;
	}
	if (flags & 1)
		opts[nopts++] = (struct hwt_opt){ "hdm",
			"base=0x1000000000,size=3G,ways=3,granularity=4096,pos=1" };
	if (flags & 2)
		opts[nopts++] = (struct hwt_opt){ "width", flags & 4 ? "64" : "7" };
	if (flags & 8)
		opts[nopts++] = (struct hwt_opt){ "top", "0" };
	ctx.opts = opts;
	ctx.nopts = nopts;
	memset(&attr, 0, sizeof(attr));
	attr.attr.config1 = (uint64_t)(flags >> 4 & 7) * 9 << 32;	/* granual 0..63 */
	if (!(flags & 0x40))
		ctx.attr = &attr;

	st = hwt_cxl_hmu_decoder.new(&ctx, &diag);
	if (!st)
		__builtin_trap();
	if (split > size)
		split = size;
	feed_record(st, data, split, piece, &e);
	feed_record(st, data + split, size - split, piece, &e);
	hwt_cxl_hmu_decoder.finish(st, &e);
	hwt_cxl_hmu_decoder.free(st);
	if (diag.bytes.decoded + diag.bytes.skipped != size || diag.bytes.lost)
		__builtin_trap();
	return 0;
}
