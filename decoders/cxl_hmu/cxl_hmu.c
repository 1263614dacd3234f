// SPDX-License-Identifier: GPL-2.0
/*
 * cxl_hmu.c - CXL Hotness Monitoring Unit hotlist decoder (design.rst 4.1).
 *
 * The RFC driver drains the device hotlist into the AUX buffer as packets:
 * u64 hdr0 (bits 15:0 entries, 23:16 counter width), u64 hdr1 = 0xdeadbeef,
 * then the entries, each (unit << width) | count, little-endian.  A packet
 * never straddles an AUXTRACE record, so parsing restarts at each record.
 *
 * The session hands a record's payload in pieces; decode() consumes whole
 * packets only, except when a single packet is larger than the piece: then
 * its entries are decoded as they arrive and the rest is expected in the
 * next piece (the only case where entries of a packet that later turns out
 * truncated have already been emitted).
 */
#include <stdlib.h>
#include <string.h>

#include "cxl_hmu_internal.h"
#include "cxl_hmu_opts.h"
#include "le.h"
#include "core/decoder_internal.h"
#include "rank_workers.h"

#define HMU_RT			"cxl_hmu packet"
#define HMU_OPT_RT		"cxl_hmu options"
#define HMU_DEFAULT_GRANUAL	12
#define HMU_DEFAULT_TOP		10
#define HMU_PREFETCH		64	/* entries ahead: hides a DRAM miss */

struct hmu_state {
	char pmu[64];
	uint32_t granual;
	uint32_t width_opt;	/* 0: use each header's counter width */
	uint32_t top;		/* 0: no ranking, no hash table */
	bool summary_only;	/* report: entries only ranked and counted */
	bool has_hdm;
	struct hwt_cxl_hdm hdm;

	/* position in the current AUXTRACE record */
	bool bad;		/* lost packet framing: skip to the next record */
	uint32_t remain;	/* entries still due of a packet larger than a piece */
	uint32_t claimed;
	uint32_t cur_width;
	uint64_t pkt_offset;

	/* totals */
	uint64_t packets;
	uint64_t units;
	uint64_t bad_packets;
	uint32_t last_width;
	bool width_warned;

	/* unit -> total count; none when top is 0; on threads for report */
	struct hmu_rank_workers rank;
	bool ranking;
	uint64_t rank_memory;
	uint64_t rank_summary;	/* counters kept past rank_memory */

	struct hwt_cxl_hmu_unit rec;	/* reused for every entry */
};

/* --- record types ---------------------------------------------------------- */

static const struct hwt_field unit_fields[] = {
	{ .name = "cpu", .type = HWT_FT_U32, .offset = offsetof(struct hwt_cxl_hmu_unit, cpu),
	  .flags = HWT_FF_SIGNED },	/* -1: unknown */
	HWT_FIELD(struct hwt_cxl_hmu_unit, time, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_unit, pmu, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_unit, unit, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_unit, count, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_unit, counter_width, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_unit, dpa, HWT_FT_U64, HWT_FH_HEX),
	HWT_FIELD_OPT(struct hwt_cxl_hmu_unit, hpa, HWT_FT_U64, HWT_FH_HEX, has_hpa),
	{ .name = "raw", .type = HWT_FT_U64, .offset = offsetof(struct hwt_cxl_hmu_unit, raw),
	  .hint = HWT_FH_HEX, .flags = HWT_FF_NODUMP },
};

const struct hwt_record_type hwt_rt_cxl_hmu_unit = {
	.name = "cxl_hmu_unit",
	.id = 1001,
	.fields = unit_fields,
	.nfields = sizeof(unit_fields) / sizeof(unit_fields[0]),
	.dump_fmt = "{raw:016x}",	/* the RFC tool prints each entry as %016lx */
	.kind = HWT_RK_DATA,
};

static const struct hwt_field packet_fields[] = {
	{ .name = "cpu", .type = HWT_FT_U32, .offset = offsetof(struct hwt_cxl_hmu_packet, cpu),
	  .flags = HWT_FF_SIGNED },	/* -1: unknown */
	HWT_FIELD(struct hwt_cxl_hmu_packet, units, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_packet, counter_width, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_packet, hdr0, HWT_FT_U64, HWT_FH_HEX),
	HWT_FIELD(struct hwt_cxl_hmu_packet, hdr1, HWT_FT_U64, HWT_FH_HEX),
};

const struct hwt_record_type hwt_rt_cxl_hmu_packet = {
	.name = "cxl_hmu_packet",
	.id = 1002,
	.fields = packet_fields,
	.nfields = sizeof(packet_fields) / sizeof(packet_fields[0]),
	/* byte-identical to the RFC perf tool's cxl_hmu_dump() */
	.dump_fmt = "Header 0: units: {units:x} counter_width {counter_width:x}\n"
		    "Header 1 : {hdr1:x}",
	.kind = HWT_RK_FRAMING,
};

static const struct hwt_field summary_fields[] = {
	HWT_FIELD(struct hwt_cxl_hmu_summary, pmu, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_summary, packets, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_summary, units, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_summary, bad_packets, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_OPT(struct hwt_cxl_hmu_summary, distinct_units, HWT_FT_U64, HWT_FH_DEC,
		      counts_exact),
	HWT_FIELD(struct hwt_cxl_hmu_summary, max_overcount, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_summary, counter_width, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_summary, hotness_granual, HWT_FT_U32, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_cxl_hmu_summary = {
	.name = "cxl_hmu_summary",
	.id = 1003,
	.fields = summary_fields,
	.nfields = sizeof(summary_fields) / sizeof(summary_fields[0]),
	.kind = HWT_RK_SUMMARY,
};

static const struct hwt_field hot_fields[] = {
	HWT_FIELD(struct hwt_cxl_hmu_hot, rank, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_hot, unit, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_hot, dpa, HWT_FT_U64, HWT_FH_HEX),
	HWT_FIELD_OPT(struct hwt_cxl_hmu_hot, hpa, HWT_FT_U64, HWT_FH_HEX, has_hpa),
	HWT_FIELD(struct hwt_cxl_hmu_hot, total_count, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_cxl_hmu_hot, reports, HWT_FT_U64, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_cxl_hmu_hot = {
	.name = "cxl_hmu_hot",
	.id = 1004,
	.fields = hot_fields,
	.nfields = sizeof(hot_fields) / sizeof(hot_fields[0]),
	.kind = HWT_RK_SUMMARY,
};

/* --- helpers --------------------------------------------------------------- */

static bool hmu_name_ok(const char *s)
{
	return hwt_device__by_pmu(s) == &hwt_device_cxl_hmu;
}

/* Type 7 is also upstream's VPA_DTL, 6 is hisi_ptt (synth --auxtrace-type 6): trust the PMU. */
static bool hmu_match(const struct hwt_aux_ctx *ctx)
{
	if (ctx->auxtrace_type != HWT_AUXTRACE_CXL_HMU &&
	    ctx->auxtrace_type != HWT_AUXTRACE_HISI_PTT)
		return false;
	if (hmu_name_ok(ctx->pmu_name) || (ctx->attr && hmu_name_ok(ctx->attr->name)))
		return true;
	if (ctx->auxtrace_type != HWT_AUXTRACE_CXL_HMU)
		return false;
	/*
	 * Raw decode, or a perf.data that names no PMU at all (a cut file has
	 * lost its feature sections): type 7 is then most likely the RFC's;
	 * hmu_new() says that it assumed so.
	 */
	return ctx->raw || (!ctx->pmu_name && !(ctx->attr && ctx->attr->name));
}

/* Raw decode: priv[0] is the PMU type, unknown outside perf.data. */
static int hmu_ctx_from_opts(const struct hwt_aux_ctx *ctx, uint64_t *priv, uint32_t max,
			     struct hwt_diag *diag)
{
	if (max < 1)
		return 0;
	priv[0] = 0;
	return 1;
}

static void hmu_set_pmu(struct hmu_state *st, const struct hwt_aux_ctx *ctx)
{
	const char *name = hwt_aux_ctx__opt(ctx, "pmu");
	size_t n;

	if (!name)
		name = ctx->pmu_name;
	if (!name && ctx->attr)
		name = ctx->attr->name;
	if (!name)
		name = "cxl_hmu";
	/* an event name carries its terms: "cxl_hmu_mem0.0.0/epoch_type=0,.../" */
	n = strcspn(name, "/");
	if (n >= sizeof(st->pmu))
		n = sizeof(st->pmu) - 1;
	memcpy(st->pmu, name, n);
	st->pmu[n] = '\0';
}

static inline void hmu_entries(struct hmu_state *st, const uint8_t *p, uint32_t n,
			       uint32_t width, uint64_t foff, const struct hwt_emit *emit)
{
	struct hwt_cxl_hmu_unit *r = &st->rec;
	struct hmu_rank *rank;
	uint64_t mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;
	uint32_t shift = width >= 64 ? 0 : width;

	if (st->summary_only) {
		if (st->ranking)
			hmu_rank_workers__add_packed(&st->rank, p, n, width >= 64 ? 64 : shift);
		hwt_emit__count(emit, n);
		st->units += n;
		return;
	}
	r->counter_width = width;
	rank = st->ranking ? &st->rank.part[0].rank : NULL;
	for (uint32_t i = 0; i < n; i++, p += 8) {
		uint64_t raw = hwt_le64(p);

		/* the table outgrows the caches: fetch the slot of a later entry now */
		if (rank && i + HMU_PREFETCH < n) {
			uint64_t u = width >= 64 ? 0 : hwt_le64(p + 8 * HMU_PREFETCH) >> shift;

			__builtin_prefetch(&rank->tab[hmu_rank__slot(rank, u)], 1);
		}

		r->raw = raw;
		/* width 64: every bit is count and the unit is 0 */
		r->unit = width >= 64 ? 0 : raw >> shift;
		r->count = raw & mask;
		r->dpa = r->unit << st->granual;
		if (st->has_hdm)
			r->has_hpa = hwt_cxl_hdm__dpa_to_hpa(&st->hdm, r->dpa, &r->hpa);
		if (rank)
			hmu_rank__add(rank, r->unit, r->count);
		hwt_emit__record(emit, &hwt_rt_cxl_hmu_unit, r, foff + 8ULL * i);
	}
	st->units += n;
}

/* --- ops ------------------------------------------------------------------- */

static void *hmu_new(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag)
{
	struct hmu_state *st = calloc(1, sizeof(*st));
	const char *s;
	uint64_t v;

	if (!st) {
		hwt_diag__error(diag, 0, HMU_OPT_RT, "out of memory");
		return NULL;
	}
	hmu_set_pmu(st, ctx);
	st->rec.pmu = st->pmu;
	if (!ctx->raw && !hmu_name_ok(ctx->pmu_name) && !(ctx->attr && hmu_name_ok(ctx->attr->name)))
		hwt_diag__warn(diag, 0, "PERF_RECORD_AUXTRACE_INFO",
			       "no PMU name in the file (no PMU_MAPPINGS or EVENT_DESC); auxtrace "
			       "type 7 decoded as CXL HMU, though it is also upstream's VPA_DTL");

	s = hwt_aux_ctx__opt(ctx, "granual");
	if (s) {
		if (!hmu_opt_u64(s, 63, &v)) {
			hwt_diag__error(diag, 0, HMU_OPT_RT,
					"granual '%s' is not a number in 0..63 (log2 of unit size)",
					s);
			goto fail;
		}
		st->granual = (uint32_t)v;
	} else if (ctx->attr) {
		/* hotness_granual is config1:32-63 */
		st->granual = (uint32_t)(ctx->attr->attr.config1 >> 32);
		if (st->granual > 63) {
			hwt_diag__error(diag, 0, HMU_OPT_RT,
					"event's hotness_granual %u is not below 64: use --granual",
					st->granual);
			goto fail;
		}
	} else {
		st->granual = HMU_DEFAULT_GRANUAL;
		hwt_diag__warn(diag, 0, HMU_OPT_RT,
			       "no event attr: hotness_granual defaults to %u (4 KiB units); "
			       "use --granual",
			       HMU_DEFAULT_GRANUAL);
	}

	s = hwt_aux_ctx__opt(ctx, "width");
	if (s) {
		if (!hmu_opt_u64(s, 64, &v) || !v) {
			hwt_diag__error(diag, 0, HMU_OPT_RT,
					"width '%s' is not a counter width in 1..64", s);
			goto fail;
		}
		st->width_opt = (uint32_t)v;
	}

	st->top = HMU_DEFAULT_TOP;
	s = hwt_aux_ctx__opt(ctx, "top");
	if (s) {
		if (!hmu_opt_u64(s, HMU_MAX_TOP, &v)) {
			hwt_diag__error(diag, 0, HMU_OPT_RT, "top '%s' is not a number in 0..%u",
					s, HMU_MAX_TOP);
			goto fail;
		}
		st->top = (uint32_t)v;
	}
	if (ctx->no_summary)
		st->top = 0;	/* the ranking is only read by report */
	st->summary_only = ctx->summary_only;

	s = hwt_aux_ctx__opt(ctx, "hdm");
	if (s) {
		char err[200];

		if (hwt_cxl_hdm__parse(s, &st->hdm, err, sizeof(err))) {
			hwt_diag__error(diag, 0, HMU_OPT_RT, "%s", err);
			goto fail;
		}
		st->has_hdm = true;
	}

	st->rank_memory = HMU_RANK_DEFAULT_MEMORY;
	s = hwt_aux_ctx__opt(ctx, "rank-memory");
	if (s && !hmu_opt_bytes(s, &st->rank_memory)) {
		hwt_diag__error(diag, 0, HMU_OPT_RT, "rank-memory '%s' is not " HMU_RANK_MEMORY_WHAT,
				s);
		goto fail;
	}

	st->rank_summary = HMU_RANK_DEFAULT_SUMMARY;
	s = hwt_aux_ctx__opt(ctx, "rank-counters");
	if (s && (!hmu_opt_u64(s, HMU_MAX_RANK_COUNTERS, &st->rank_summary) || !st->rank_summary)) {
		hwt_diag__error(diag, 0, HMU_OPT_RT, "rank-counters '%s' is not a number in 1..%llu",
				s, (unsigned long long)HMU_MAX_RANK_COUNTERS);
		goto fail;
	}
	/*
	 * threads only where every entry goes to the ranking alone, and more
	 * than one CPU to run them: on one, the workers and the decoding
	 * thread take turns, at a tenth more time than one thread alone
	 */
	if (st->top && !hmu_rank_workers__init(&st->rank, st->rank_memory, st->rank_summary,
					       st->summary_only && (!ctx->cpus || ctx->cpus() > 1))) {
		hwt_diag__error(diag, 0, HMU_OPT_RT, "out of memory");
		goto fail;
	}
	st->ranking = st->top != 0;
	return st;
fail:
	free(st);
	return NULL;
}

static size_t hmu_decode(void *state, const struct hwt_chunk *c, const struct hwt_emit *emit)
{
	struct hmu_state *st = state;
	struct hwt_diag dummy = { 0 };
	struct hwt_diag *d = emit->diag ? emit->diag : &dummy;
	const uint8_t *p = c->data;
	size_t n = c->size, off = 0, tail;

	st->rec.cpu = (uint32_t)c->cpu;
	st->rec.time = c->time;

	if (c->first) {
		if (st->remain)
			hwt_diag__error(d, st->pkt_offset, HMU_RT,
					"packet claims %u units but its AUXTRACE record ended "
					"after %u",
					st->claimed, st->claimed - st->remain);
		st->remain = 0;
		st->bad = false;
	}
	if (st->bad) {
		d->bytes.skipped += n;
		st->bad = !c->last;
		return n;
	}

	/* the rest of a packet larger than the previous piece */
	if (st->remain) {
		uint32_t k = n / 8 < st->remain ? (uint32_t)(n / 8) : st->remain;

		hmu_entries(st, p, k, st->cur_width, c->file_offset, emit);
		off = 8 * (size_t)k;
		d->bytes.decoded += off;
		st->remain -= k;
		if (st->remain) {
			if (!c->last)
				return off;
			hwt_diag__error(d, st->pkt_offset, HMU_RT,
					"packet claims %u units but only %u entries are present",
					st->claimed, st->claimed - st->remain);
			st->bad_packets++;
			st->remain = 0;
			d->bytes.skipped += n - off;
			return n;
		}
	}

	while (n - off >= 16) {
		const uint8_t *h = p + off;
		uint64_t h0 = hwt_le64(h), h1 = hwt_le64(h + 8);
		uint32_t units = CXL_HMU_HDR_UNITS(h0), width = CXL_HMU_HDR_WIDTH(h0);
		uint64_t foff = c->file_offset + off;
		size_t avail = (n - off - 16) / 8;
		struct hwt_cxl_hmu_packet pkt;
		uint32_t k;

		if (st->width_opt) {
			if (width != st->width_opt && !st->width_warned) {
				st->width_warned = true;
				hwt_diag__warn(d, foff, HMU_RT,
					       "header says counter width %u, using --width %u",
					       width, st->width_opt);
			}
			width = st->width_opt;
		}
		if (!units || !width || width > 64) {
			hwt_diag__error(d, foff, HMU_RT,
					"header 0 0x%016llx has %s: packet framing lost, skipping "
					"%zu bytes to the end of the AUXTRACE record",
					(unsigned long long)h0,
					!units ? "0 units" : "an invalid counter width",
					n - off);
			st->bad_packets++;
			d->bytes.skipped += n - off;
			st->bad = !c->last;
			return n;
		}
		if (units > avail) {
			if (c->last) {
				hwt_diag__error(d, foff, HMU_RT,
						"packet claims %u units but only %zu entries "
						"are present",
						units, avail);
				st->bad_packets++;
				d->bytes.skipped += n - off;
				return n;
			}
			if (off)
				return off;	/* whole packets; the rest comes again */
		}
		if (h1 != CXL_HMU_HDR1_MAGIC)
			hwt_diag__warn(d, foff + 8, HMU_RT,
				       "header 1 is 0x%llx, expected 0xdeadbeef (decoded anyway)",
				       (unsigned long long)h1);

		pkt.cpu = (uint32_t)c->cpu;
		pkt.units = units;
		pkt.counter_width = CXL_HMU_HDR_WIDTH(h0);
		pkt.hdr0 = h0;
		pkt.hdr1 = h1;
		hwt_emit__record(emit, &hwt_rt_cxl_hmu_packet, &pkt, foff);
		st->packets++;
		st->last_width = width;

		k = units < avail ? units : (uint32_t)avail;
		hmu_entries(st, h + 16, k, width, foff + 16, emit);
		d->bytes.decoded += 16 + 8 * (size_t)k;
		off += 16 + 8 * (size_t)k;
		if (k < units) {
			/* a packet larger than this piece: take the rest from the next one */
			st->remain = units - k;
			st->claimed = units;
			st->cur_width = width;
			st->pkt_offset = foff;
			return off;
		}
	}
	if (!c->last)
		return off;

	tail = n - off;
	if (tail >= 8) {
		hwt_diag__error(d, c->file_offset + off, HMU_RT,
				"%zu bytes at the end of the AUXTRACE record are too short "
				"for a packet header",
				tail);
		st->bad_packets++;
	} else if (tail) {
		hwt_diag__warn(d, c->file_offset + off, HMU_RT,
			       "%zu trailing bytes after the last packet skipped", tail);
	}
	d->bytes.skipped += tail;
	return n;
}

static void hmu_finish(void *state, const struct hwt_emit *emit)
{
	struct hmu_state *st = state;
	struct hwt_cxl_hmu_summary sum = {
		.pmu = st->pmu,
		.packets = st->packets,
		.units = st->units,
		.bad_packets = st->bad_packets,
		.distinct_units = 0,
		.counts_exact = true,
		.counter_width = st->last_width,
		.hotness_granual = st->granual,
	};
	struct hmu_slot *best;
	uint32_t n;

	if (st->ranking) {
		hmu_rank_workers__finish(&st->rank);
		sum.distinct_units = hmu_rank_workers__used(&st->rank);
		sum.counts_exact = !hmu_rank_workers__purged(&st->rank);
		sum.max_overcount = hmu_rank_workers__error(&st->rank);
	}
	hwt_emit__record(emit, &hwt_rt_cxl_hmu_summary, &sum, 0);
	if (!st->ranking)
		return;
	st->ranking = false;
	n = st->top < sum.distinct_units ? st->top : (uint32_t)sum.distinct_units;
	best = malloc((n ? n : 1) * sizeof(*best));
	if (best)
		n = hmu_rank_workers__top(&st->rank, best, n);
	if (!best || (n == 0 && sum.distinct_units)) {
		if (emit->diag)
			hwt_diag__error(emit->diag, 0, HMU_OPT_RT, "out of memory for the ranking");
		free(best);
		hmu_rank_workers__free(&st->rank);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		/* totals are reported ones: kept + the partition's error */
		struct hwt_cxl_hmu_hot hot = {
			.rank = i + 1,
			.unit = best[i].key - 1,
			.total_count = best[i].total,
			.reports = best[i].reports,
		};

		hot.dpa = hot.unit << st->granual;
		if (st->has_hdm)
			hot.has_hpa = hwt_cxl_hdm__dpa_to_hpa(&st->hdm, hot.dpa, &hot.hpa);
		hwt_emit__record(emit, &hwt_rt_cxl_hmu_hot, &hot, 0);
	}
	free(best);
	hmu_rank_workers__free(&st->rank);
}

static void hmu_free(void *state)
{
	struct hmu_state *st = state;

	if (!st)
		return;
	hmu_rank_workers__free(&st->rank);
	free(st);
}


const struct hwt_decoder_ops hwt_cxl_hmu_decoder = {
	.dump_title = "CXL_HMU",
	.dump_align = 8,
	.match = hmu_match,
	.ctx_from_opts = hmu_ctx_from_opts,
	.new = hmu_new,
	.decode = hmu_decode,
	.finish = hmu_finish,
	.free = hmu_free,
};
