// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_decoder.c - the "i915-oa" payload decoder: i915 perf streams carried
 * in perf AUX (design.rst 4.3), raw stream dumps and IGT recorder files.
 */
#include <stdlib.h>
#include <string.h>

#include "i915_oa_internal.h"
#include "core/decoder_internal.h"

#define RT "i915 perf record"
#define MAX_CORR (1u << 20)

/* ---- record types ----------------------------------------------------------- */

#define OPT_VEC(st, memb, cnt, has) HWT_FIELD_VEC_OPT(st, memb, cnt, HWT_FT_U64_VEC, has)

static const struct hwt_field report_fields[] = {
	HWT_FIELD_FLAGS(struct hwt_i915_oa_report, reason, HWT_FT_U32, hwt_i915_oa_reason_names),
	HWT_FIELD(struct hwt_i915_oa_report, ts, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_report, ctx, HWT_FT_U32, HWT_FH_HEX),
	HWT_FIELD(struct hwt_i915_oa_report, ctx_valid, HWT_FT_BOOL, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_report, ticks, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_VEC(struct hwt_i915_oa_report, a, na, HWT_FT_U64_VEC),
	HWT_FIELD_VEC(struct hwt_i915_oa_report, b, nb, HWT_FT_U64_VEC),
	HWT_FIELD_VEC(struct hwt_i915_oa_report, c, nc, HWT_FT_U64_VEC),
	HWT_FIELD_OPT(struct hwt_i915_oa_report, dts, HWT_FT_U64, HWT_FH_DEC, has_delta),
	HWT_FIELD_OPT(struct hwt_i915_oa_report, dticks, HWT_FT_U64, HWT_FH_DEC, has_delta),
	OPT_VEC(struct hwt_i915_oa_report, da, na, has_delta),
	OPT_VEC(struct hwt_i915_oa_report, db, nb, has_delta),
	OPT_VEC(struct hwt_i915_oa_report, dc, nc, has_delta),
	HWT_FIELD_OPT(struct hwt_i915_oa_report, time, HWT_FT_U64, HWT_FH_DEC, has_time),
};

const struct hwt_record_type hwt_rt_i915_oa_report = {
	.name = "i915_oa_report",
	.id = 3001,
	.fields = report_fields,
	.nfields = sizeof(report_fields) / sizeof(report_fields[0]),
	.dump_fmt = ". OA report ts {ts:x} ctx {ctx:x} valid {ctx_valid} ticks {ticks} reason {reason}",
	.kind = HWT_RK_DATA,
};

static const char *const lost_kinds[] = { "report_lost", "buffer_lost" };

static const struct hwt_field lost_fields[] = {
	HWT_FIELD_ENUM(struct hwt_i915_oa_lost, kind, HWT_FT_U32, lost_kinds),
	/* so that perf, which orders samples by time, keeps it after that report */
	HWT_FIELD_OPT(struct hwt_i915_oa_lost, time, HWT_FT_U64, HWT_FH_DEC, has_time),
};

const struct hwt_record_type hwt_rt_i915_oa_lost = {
	.name = "i915_oa_lost",
	.id = 3002,
	.fields = lost_fields,
	.nfields = sizeof(lost_fields) / sizeof(lost_fields[0]),
	.dump_fmt = ". OA {kind}",
	.kind = HWT_RK_DATA,
};

static const struct hwt_field device_fields[] = {
	HWT_FIELD(struct hwt_i915_oa_device, devid, HWT_FT_U32, HWT_FH_HEX),
	HWT_FIELD(struct hwt_i915_oa_device, gen, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_device, ts_freq, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_device, metric_set, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_device, uuid, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_device, topology_size, HWT_FT_U32, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_i915_oa_device = {
	.name = "i915_oa_device",
	.id = 3005,
	.fields = device_fields,
	.nfields = sizeof(device_fields) / sizeof(device_fields[0]),
	.dump_fmt = ". OA device {devid:x} gen {gen} metric set {metric_set} {uuid}",
	.kind = HWT_RK_FRAMING,
};

/* report --metrics: what the metrics computer would have summed per context */
static const struct hwt_field ctx_sums_fields[] = {
	HWT_FIELD(struct hwt_i915_oa_report, ctx, HWT_FT_U32, HWT_FH_HEX),
	HWT_FIELD(struct hwt_i915_oa_report, dts, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_report, dticks, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_VEC(struct hwt_i915_oa_report, da, na, HWT_FT_U64_VEC),
	HWT_FIELD_VEC(struct hwt_i915_oa_report, db, nb, HWT_FT_U64_VEC),
	HWT_FIELD_VEC(struct hwt_i915_oa_report, dc, nc, HWT_FT_U64_VEC),
};

const struct hwt_record_type hwt_rt_i915_oa_ctx_sums = {
	.name = "i915_oa_ctx_sums",
	.id = 3006,
	.fields = ctx_sums_fields,
	.nfields = sizeof(ctx_sums_fields) / sizeof(ctx_sums_fields[0]),
	.kind = HWT_RK_SUMMARY,
};

static const struct hwt_field context_fields[] = {
	HWT_FIELD(struct hwt_i915_oa_context, ctx, HWT_FT_U32, HWT_FH_HEX),
	HWT_FIELD(struct hwt_i915_oa_context, reports, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_context, lost, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_OPT(struct hwt_i915_oa_context, GpuTime, HWT_FT_U64, HWT_FH_DEC, has_time),
	HWT_FIELD(struct hwt_i915_oa_context, GpuCoreClocks, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_OPT(struct hwt_i915_oa_context, AvgGpuCoreFrequency, HWT_FT_U64, HWT_FH_DEC,
		      has_time),
	HWT_FIELD_OPT(struct hwt_i915_oa_context, cpu_start, HWT_FT_U64, HWT_FH_DEC, has_cpu),
	HWT_FIELD_OPT(struct hwt_i915_oa_context, cpu_end, HWT_FT_U64, HWT_FH_DEC, has_cpu),
};

const struct hwt_record_type hwt_rt_i915_oa_context = {
	.name = "i915_oa_context",
	.id = 3003,
	.fields = context_fields,
	.nfields = sizeof(context_fields) / sizeof(context_fields[0]),
	.kind = HWT_RK_SUMMARY,
};

static const char *const sources[] = { "raw", "igt", "perf" };

static const struct hwt_field stream_fields[] = {
	HWT_FIELD_ENUM(struct hwt_i915_oa_stream, source, HWT_FT_U32, sources),
	HWT_FIELD(struct hwt_i915_oa_stream, format, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, gen, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, devid, HWT_FT_U32, HWT_FH_HEX),
	HWT_FIELD(struct hwt_i915_oa_stream, ts_freq, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, metric_set, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, samples, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, report_lost, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, buffer_lost, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, zero_reports, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, unknown_records, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(struct hwt_i915_oa_stream, correlations, HWT_FT_U64, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_i915_oa_stream = {
	.name = "i915_oa_stream",
	.id = 3004,
	.fields = stream_fields,
	.nfields = sizeof(stream_fields) / sizeof(stream_fields[0]),
	.kind = HWT_RK_SUMMARY,
};

/* ---- state ---------------------------------------------------------------------- */

struct oa_state {
	const struct hwt_i915_oa_format *fmt;
	uint32_t fmt_id, gen, devid;
	uint64_t ts_freq;
	bool gen_given, freq_given, acc_ready;
	bool header_only;	/* reports are only counted: skip their counters */
	bool no_time;		/* no sink reads records: no per-report CPU time */
	bool no_summary;	/* nobody reads summary records: no per-context totals */
	bool want_sums;		/* only per-context metrics are read (report --metrics) */
	bool sums;		/* want_sums, and the format allows: see sample() */
	bool fused;		/* counters and their deltas decoded in one pass */
	struct hwt_i915_oa_accum acc;
	struct hwt_i915_oa_plan plan;	/* the format's, for the sums and the fused decode */
	struct hwt_i915_oa_sums sums_of;
	struct hwt_i915_oa_delta d;
	struct hwt_i915_oa_report rep;	/* the record sample() emits */
	struct hwt_igt_correlation *corr;
	uint32_t ncorr, corr_cap;
	uint32_t corr_cur;		/* bracket of the last report's time */
	uint32_t corr_checked;		/* points found in order so far (corr_in_order()) */
	bool corr_disorder;		/* a point went back */
	uint64_t corr_seen;		/* file offset past the last point taken */
	/* the piece being walked, for the look-ahead of IGT files (scan_ahead()) */
	const uint8_t *piece;
	size_t piece_size;
	uint64_t piece_off, scan_pos;	/* scan_pos: file offset scanned up to */
	uint64_t scan_wait;		/* scan_pos of a record ending in the next piece */
	bool scan_odd;			/* the scan met a bad header in this piece */
	bool piece_last;		/* no piece follows */
	bool defer;			/* leave the report just given for the next piece */
	uint32_t defer_mark;		/* ncorr + 1 at the last deferral (defer_report()) */
	/* perf.data: the AUX drain time and the last report it covers (aux_time()) */
	uint64_t time, anchor_time, anchor_ts, last_cpu;
	uint64_t last_report_time;	/* CPU time of the last report, 0: none */
	bool anchor_valid;
	char metric_set[256];
	char uuid[40];
	struct hwt_i915_oa_device dev;
	uint8_t *topology;
	struct hwt_i915_oa_stream st;
	uint32_t warned_unknown, warned_size, warned_nofmt;
	const struct hwt_emit *emit;
	struct hwt_diag *diag;
};

static void set_format(struct oa_state *s, uint32_t id)
{
	if (!s->gen)
		s->gen = hwt_i915_oa__default_gen(id);
	s->fmt_id = id;
	s->fmt = hwt_i915_oa_format__find(id, s->gen);
	if (!s->fmt)
		return;
	hwt_i915_oa_accum__init(&s->acc, s->fmt, s->gen);
	s->acc.no_ctxs = s->no_summary;
	s->acc_ready = true;
	/* HSW's ticks are a counter (C2): decode_report() knows that, the sums do not */
	s->sums = s->want_sums && s->gen >= 800 && s->fmt->size <= sizeof(s->sums_of.keep);
	s->fused = !s->header_only && s->gen >= 800 && hwt_cpu__have_avx2();
	hwt_i915_oa__plan(s->fmt, &s->plan);
	s->sums_of.plan = &s->plan;
	s->st.format = s->fmt->name;
	s->st.gen = s->gen;
}

static bool match(const struct hwt_aux_ctx *ctx)
{
	return ctx->auxtrace_type == HWT_AUXTRACE_I915_OA;
}

static bool probe(const uint8_t *head, size_t n)
{
	return hwt_igt__probe(head, n);
}

static int ctx_from_opts(const struct hwt_aux_ctx *ctx, uint64_t *priv, uint32_t max,
			 struct hwt_diag *diag)
{
	const char *fmt = hwt_aux_ctx__opt(ctx, "oa-format");
	const char *gen = hwt_aux_ctx__opt(ctx, "gen");
	const char *freq = hwt_aux_ctx__opt(ctx, "ts-freq");
	const char *devid = hwt_aux_ctx__opt(ctx, "devid");
	char *end;

	if (max < HWT_I915_OA_NPRIV)
		return -1;
	memset(priv, 0, HWT_I915_OA_NPRIV * sizeof(*priv));
	priv[HWT_I915_OA_PRIV_LAYOUT] = 1;
	priv[HWT_I915_OA_PRIV_CTX] = ~0ull;
	if (fmt) {
		priv[HWT_I915_OA_PRIV_FORMAT] = hwt_i915_oa_format__by_name(fmt);
		if (!priv[HWT_I915_OA_PRIV_FORMAT]) {
			hwt_diag__error(diag, 0, "i915-oa options", "unknown OA format '%s'", fmt);
			return -1;
		}
	}
	if (gen) {
		priv[HWT_I915_OA_PRIV_GEN] = hwt_i915_oa__parse_gen(gen);
		if (!priv[HWT_I915_OA_PRIV_GEN]) {
			hwt_diag__error(diag, 0, "i915-oa options",
					"bad graphics version '%s' (e.g. 9, 12, 12.5)", gen);
			return -1;
		}
	}
	if (freq) {
		priv[HWT_I915_OA_PRIV_TS_FREQ] = strtoull(freq, &end, 0);
		if (*end || !priv[HWT_I915_OA_PRIV_TS_FREQ]) {
			hwt_diag__error(diag, 0, "i915-oa options", "bad --ts-freq '%s'", freq);
			return -1;
		}
	}
	if (devid) {
		priv[HWT_I915_OA_PRIV_DEVID] = strtoull(devid, &end, 0);
		if (*end || priv[HWT_I915_OA_PRIV_DEVID] > 0xffff) {
			hwt_diag__error(diag, 0, "i915-oa options", "bad --devid '%s'", devid);
			return -1;
		}
	}
	return HWT_I915_OA_NPRIV;
}

static void *oa_new(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag)
{
	struct oa_state *s;
	uint64_t p[HWT_I915_OA_NPRIV] = { 0 }, rsize;

	for (uint32_t i = 0; i < ctx->npriv && i < HWT_I915_OA_NPRIV; i++)
		p[i] = ctx->priv[i];
	if (ctx->npriv <= HWT_I915_OA_PRIV_FORMAT || p[HWT_I915_OA_PRIV_LAYOUT] < 1 ||
	    p[HWT_I915_OA_PRIV_LAYOUT] > 2) {
		hwt_diag__error(diag, ctx->info_offset, "PERF_RECORD_AUXTRACE_INFO",
				"i915-oa: %u priv words, layout version %llu (want >= 5 and 1 or 2)",
				ctx->npriv, (unsigned long long)p[HWT_I915_OA_PRIV_LAYOUT]);
		return NULL;
	}
	if (p[HWT_I915_OA_PRIV_FORMAT] > I915_OA_FORMAT_MAX) {
		hwt_diag__error(diag, ctx->info_offset, "PERF_RECORD_AUXTRACE_INFO",
				"i915-oa: unknown OA format %llu",
				(unsigned long long)p[HWT_I915_OA_PRIV_FORMAT]);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->st.source = ctx->raw ? 0 : 2;
	/* a metrics computer reads the counters even when no sink does */
	s->header_only = ctx->summary_only && !ctx->metrics;
	s->no_time = ctx->summary_only;
	s->no_summary = ctx->no_summary;
	s->want_sums = ctx->summary_only && ctx->metrics && ctx->metrics_groups_only;
	hwt_i915_oa_sums__init(&s->sums_of);
	s->st.format = "";
	s->st.metric_set = s->metric_set;
	s->devid = (uint32_t)p[HWT_I915_OA_PRIV_DEVID];
	s->gen = p[HWT_I915_OA_PRIV_GEN] <= 9999 ? (uint32_t)p[HWT_I915_OA_PRIV_GEN] : 0;
	s->gen_given = s->gen != 0;
	if (!s->gen)
		s->gen = hwt_i915_oa__gen_for_devid(s->devid);
	s->ts_freq = p[HWT_I915_OA_PRIV_TS_FREQ];
	s->freq_given = p[HWT_I915_OA_PRIV_TS_FREQ] != 0;
	if (p[HWT_I915_OA_PRIV_FORMAT])
		set_format(s, (uint32_t)p[HWT_I915_OA_PRIV_FORMAT]);
	rsize = p[HWT_I915_OA_PRIV_REPORT_SIZE];
	if (s->fmt && rsize && rsize != s->fmt->size)
		hwt_diag__warn(diag, ctx->info_offset, "PERF_RECORD_AUXTRACE_INFO",
			       "i915-oa: report size %llu differs from %s's %u; using %u",
			       (unsigned long long)rsize, s->fmt->name, s->fmt->size, s->fmt->size);
	s->st.devid = s->devid;
	s->st.ts_freq = s->ts_freq;
	/* layout 2 names the metric set by its uuid (an IGT file's DEVICE_INFO by name) */
	if (ctx->npriv >= HWT_I915_OA_NPRIV_V2 && p[HWT_I915_OA_PRIV_LAYOUT] == 2) {
		memcpy(s->metric_set, &ctx->priv[HWT_I915_OA_PRIV_UUID], HWT_I915_OA_UUID_LEN);
		s->metric_set[HWT_I915_OA_UUID_LEN] = 0;
	}
	return s;
}

static bool known(void *ctx, uint32_t type, size_t n)
{
	struct oa_state *s = ctx;

	switch (type) {
	case I915_PERF_RECORD_SAMPLE:
		return !s->fmt || n == s->fmt->size;
	case I915_PERF_RECORD_OA_REPORT_LOST:
	case I915_PERF_RECORD_OA_BUFFER_LOST:
		return n == 0;
	case IGT_PERF_RECORD_VERSION:
		return n == 8;
	case IGT_PERF_RECORD_DEVICE_INFO:
		return n == IGT_PERF_DEVICE_INFO_SIZE;
	case IGT_PERF_RECORD_TOPOLOGY:
		return n >= 16;
	case IGT_PERF_RECORD_CORRELATION:
		return n == 16;
	}
	return false;
}

static void add_corr(struct oa_state *s, const uint8_t *body, uint64_t off)
{
	if (off < s->corr_seen)
		return;		/* taken by the look-ahead already */
	s->corr_seen = off + 1;
	if (s->ncorr == s->corr_cap && s->corr_cap < MAX_CORR) {
		uint32_t cap = s->corr_cap ? s->corr_cap * 2 : 16;
		void *p = realloc(s->corr, cap * sizeof(*s->corr));

		if (p) {
			s->corr = p;
			s->corr_cap = cap;
		}
	}
	if (s->ncorr < s->corr_cap) {
		memcpy(&s->corr[s->ncorr].cpu_ts, body, 8);
		memcpy(&s->corr[s->ncorr].gpu_ts, body + 8, 8);
		s->ncorr++;
	}
}

/*
 * perf.data: the last report of an AUX drain is put at the drain's time
 * (aux_time()); find it before walking the piece, by a plain header walk
 * that stops at anything odd (the real walk reports that).
 */
static void look_ahead(struct oa_state *s, const uint8_t *p, size_t n, uint64_t off)
{
	const uint8_t *last = NULL;

	for (size_t pos = 0; pos + 8 <= n;) {
		uint32_t type;
		uint16_t pad, size;

		memcpy(&type, p + pos, 4);
		memcpy(&pad, p + pos + 4, 2);
		memcpy(&size, p + pos + 6, 2);
		if (pad || size < 8 || size > n - pos)
			return;
		if (type == I915_PERF_RECORD_SAMPLE && s->fmt && size >= 8 + s->fmt->size)
			last = p + pos + 8;
		pos += size;
	}
	if (last && s->time) {
		struct hwt_i915_oa_values v;

		hwt_i915_oa__decode_header(s->fmt, s->gen, last, &v);
		s->anchor_ts = v.ts;
		s->anchor_time = s->time;
		s->anchor_valid = true;
	}
}

/* DG2 OA timestamps count in halves of the CS timestamp (hwt_i915_oa__ts_shift()) */
static inline bool ts_shifted(const struct oa_state *s)
{
	return s->fmt && hwt_i915_oa__ts_shift(s->fmt->hdr64, s->gen);
}

static inline uint64_t ts_mask(const struct oa_state *s)
{
	return !s->fmt || s->fmt->hdr64 ? ~0ull : ts_shifted(s) ? 0x7fffffffull : 0xffffffffull;
}

/* whether a point past @ts is known: the report at @ts has its bracket */
static inline bool corr_past(const struct oa_state *s, uint64_t ts)
{
	return s->ncorr >= 2 && ((s->corr[s->ncorr - 1].gpu_ts >> ts_shifted(s)) & ts_mask(s)) > ts;
}

/*
 * IGT's recorder writes a correlation point after each read of the OA
 * buffer, so a report's bracketing points follow it in the file.  Before a
 * report's CPU time, take the points that follow it in the piece up to the
 * first one past its timestamp (two at least, for the extrapolation at the
 * start), so that it interpolates between the points around it as
 * i915-perf-reader does.  The scan resumes where it stopped: each byte is
 * scanned once, just before the walk reads it.  A plain header walk that
 * stops at anything odd (the real walk reports that).
 */
static void scan_ahead(struct oa_state *s, uint64_t ts)
{
	uint64_t end = s->piece_off + s->piece_size;

	while (s->scan_pos + 8 <= end) {
		const uint8_t *p = s->piece + (s->scan_pos - s->piece_off);
		uint32_t type;
		uint16_t pad, size;

		if (corr_past(s, ts))
			return;
		memcpy(&type, p, 4);
		memcpy(&pad, p + 4, 2);
		memcpy(&size, p + 6, 2);
		if (size > end - s->scan_pos && !pad && size >= 8) {
			s->scan_wait = s->scan_pos;	/* resume here in the next piece */
			return;
		}
		if (pad || size < 8) {
			/* the walk reports it; no look-ahead past it in this piece */
			s->scan_pos = end;
			s->scan_odd = true;
			return;
		}
		if (type == IGT_PERF_RECORD_CORRELATION && size == 24)
			add_corr(s, p + 8, s->scan_pos + 8);
		s->scan_pos += size;
	}
}

/* whether scan_ahead() would look at anything: the per-report test, inline */
static inline bool scan_wanted(const struct oa_state *s, uint64_t ts)
{
	if (s->scan_pos == s->scan_wait)
		return false;	/* stopped before a record this piece does not end */
	return !corr_past(s, ts);
}

/*
 * Pieces are the session's 4 MiB windows; leaving a report makes the next
 * one start at it and end a window later: never leave one in a piece this
 * large, whatever the file
 */
#define DEFER_MAX_PIECE (16u << 20)

/*
 * Whether to leave the IGT report at @off for the next piece: its
 * bracketing point is not in this piece (the scan reached the piece's end
 * first), and the next piece, which starts at the report, holds a whole
 * window after it, where i915-perf-reader (which reads every point first)
 * finds the point to interpolate with.  Without this the report would be
 * extrapolated from the points before it.  Bounded: a report at a piece's
 * start is not left (every piece is consumed), nor is any until a new point
 * has been found since the last one left (where points are far apart, only
 * the piece after a point is longer, by less than a window), and a point
 * more than a window after a report is not looked for.
 */
static bool defer_report(struct oa_state *s, const uint8_t *body, uint64_t off)
{
	uint64_t ts;

	if (s->st.source != 1 || s->no_time || s->piece_last || off <= s->piece_off ||
	    s->piece_size >= DEFER_MAX_PIECE || s->defer_mark == s->ncorr + 1)
		return false;
	ts = hwt_i915_oa__report_ts(s->fmt, s->gen, body);
	if (corr_past(s, ts))
		return false;	/* its bracket is known (or the timestamps wrapped) */
	scan_ahead(s, ts);
	if (corr_past(s, ts) || s->scan_odd)
		return false;
	s->defer_mark = s->ncorr + 1;
	return true;
}

/* whether the points' timestamps never go back, checked as points come */
static bool corr_in_order(struct oa_state *s, uint32_t sh, uint64_t mask)
{
	for (; !s->corr_disorder && s->corr_checked < s->ncorr; s->corr_checked++) {
		uint32_t i = s->corr_checked;

		s->corr_disorder = i && ((s->corr[i].gpu_ts >> sh) & mask) <
					((s->corr[i - 1].gpu_ts >> sh) & mask);
	}
	return !s->corr_disorder;
}

/* a report's CPU time: the bracket of the last report first, then all */
static bool cpu_time(struct oa_state *s, uint64_t ts, uint64_t *cpu)
{
	uint32_t sh = ts_shifted(s), i = s->corr_cur;
	uint64_t mask = ts_mask(s);

	if (s->ncorr < 2)
		return false;
	for (; i + 1 < s->ncorr; i++) {
		uint64_t g0 = (s->corr[i].gpu_ts >> sh) & mask, g1 = (s->corr[i + 1].gpu_ts >> sh) & mask;

		if (ts < g0)
			break;
		if (ts < g1) {
			s->corr_cur = i;
			return hwt_igt__gpu_to_cpu(s->corr + i, 2, ts, mask, sh, cpu);
		}
	}
	/*
	 * Past the last point, the points in order, and none further in the
	 * piece: no bracket anywhere, the last two extrapolate (what a search
	 * of every point below finds, in one step instead of one per point)
	 */
	if (i + 1 >= s->ncorr && corr_in_order(s, sh, mask)) {
		uint32_t n = s->ncorr;

		if (s->st.source == 1)
			scan_ahead(s, UINT64_MAX);
		if (s->ncorr == n)
			return hwt_igt__gpu_to_cpu(s->corr + n - 2, 2, ts, mask, sh, cpu);
	}
	/* no bracket (a timestamp wrap...): from every point of the piece, as before */
	if (s->st.source == 1)
		scan_ahead(s, UINT64_MAX);
	return hwt_igt__gpu_to_cpu(s->corr, s->ncorr, ts, mask, sh, cpu);
}

/*
 * perf.data has no correlation points, but each AUX drain has a CPU time (its
 * PERF_RECORD_AUX) taken after the kernel wrote the drain's last report: that
 * report is put at the drain time and each earlier one the GPU timestamp
 * difference before it, converted at the timestamp frequency.  The drain's
 * latency makes these times late by up to one drain period; they are kept
 * non-decreasing across drains (a later drain with less latency would
 * otherwise step back).
 */
static bool aux_time(struct oa_state *s, uint64_t ts, uint64_t *cpu)
{
	uint64_t back;

	if (!s->anchor_valid || !s->ts_freq)
		return false;
	back = hwt_i915_oa__ticks_to_ns((s->anchor_ts - ts) & ts_mask(s), s->ts_freq);
	*cpu = back < s->anchor_time ? s->anchor_time - back : 0;
	if (*cpu < s->last_cpu)
		*cpu = s->last_cpu;
	s->last_cpu = *cpu;
	return true;
}

/*
 * A perf.data report's CPU time @cpu, in the range of its context @t.  The
 * times of one drain are set from its AUX record, so the range is kept as
 * the reports go: an IGT file's is mapped at the end from all its points.
 */
static void ctx_cpu(struct hwt_i915_oa_ctx_total *t, uint64_t cpu)
{
	if (!t->has_cpu)
		t->cpu_first = cpu;
	t->cpu_last = cpu;
	t->has_cpu = true;
}

static void zero_report(struct oa_state *s, uint64_t off)
{
	s->st.zero_reports++;
	hwt_diag__warn(s->diag, off, "i915 SAMPLE",
		       "report header is all zero (unlanded report?): not used as a baseline");
}

static void sample(struct oa_state *s, const uint8_t *body, size_t n, uint64_t off)
{
	struct hwt_i915_oa_report *r = &s->rep;
	struct hwt_diag *diag = s->diag;
	struct hwt_i915_oa_values *v;

	if (!s->fmt) {
		if (!s->warned_nofmt++)
			hwt_diag__error(diag, off, "i915 SAMPLE",
					"OA format unknown: pass --oa-format (no DEVICE_INFO seen)");
		diag->bytes.skipped += n;
		return;
	}
	if (n < s->fmt->size) {
		hwt_diag__error(diag, off, "i915 SAMPLE",
				"%zu-byte sample is smaller than the %u-byte %s report", n,
				s->fmt->size, s->fmt->name);
		diag->bytes.skipped += n;
		return;
	}
	if (defer_report(s, body, off)) {
		s->defer = true;	/* nothing of it taken or counted yet */
		return;
	}
	if (n > s->fmt->size && !s->warned_size++)
		hwt_diag__warn(diag, off, "i915 SAMPLE",
			       "%zu-byte sample, %s reports are %u bytes: non-standard sample "
			       "layout, decoding the first %u", n, s->fmt->name, s->fmt->size,
			       s->fmt->size);
	diag->bytes.decoded += s->fmt->size;
	diag->bytes.skipped += n - s->fmt->size;
	/* s->fmt implies s->acc is ready; decode into its spare buffer (no copy) */
	v = hwt_i915_oa_accum__next(&s->acc);
	if (s->sums) {
		/* only the per-context sums are read: no record, no counter decoded */
		hwt_i915_oa__decode_header(s->fmt, s->gen, body, v);
		hwt_i915_oa_accum__report(&s->acc, v, &s->d);
		hwt_i915_oa_sums__report(&s->sums_of, body, v, &s->d,
					 hwt_i915_oa__ctx_key(s->gen, v->ctx, v->ctx_valid));
		s->st.samples++;
		if (v->zero_hdr)
			zero_report(s, off);
		hwt_emit__count(s->emit, 1);
		return;
	}
	/* the totals need no counters, except HSW's ticks (in C2) */
	if (s->header_only && s->gen >= 800) {
		hwt_i915_oa__decode_header(s->fmt, s->gen, body, v);
		hwt_i915_oa_accum__report(&s->acc, v, &s->d);
	} else if (s->fused && hwt_i915_oa__decode_with_deltas(&s->plan, s->fmt, s->gen, body,
			s->acc.have_prev ? &s->acc.slot[s->acc.prev] : NULL, v, &s->d)) {
		hwt_i915_oa_accum__report_taken(&s->acc, v, &s->d);
	} else {
		if (!s->fused)
			hwt_i915_oa__decode_report(s->fmt, s->gen, body, v);
		hwt_i915_oa_accum__report(&s->acc, v, &s->d);
	}
	s->st.samples++;
	if (v->zero_hdr)
		zero_report(s, off);
	/*
	 * Every field set, one by one: a compound literal cleared the whole
	 * struct first (a rep stos, a tenth of a report's decode); the
	 * padding stays as oa_new() cleared it
	 */
	r->reason = v->reason;
	r->ts = v->ts;
	r->ctx = v->ctx;
	r->ctx_valid = v->ctx_valid;
	r->ticks = v->ticks;
	r->a = v->a;
	r->b = v->b;
	r->c = v->c;
	r->na = v->na;
	r->nb = v->nb;
	r->nc = v->nc;
	r->has_delta = s->d.valid;
	r->dts = s->d.dts;
	r->dticks = s->d.dticks;
	r->da = s->d.da;
	r->db = s->d.db;
	r->dc = s->d.dc;
	r->has_time = false;
	r->time = 0;
	if (!s->no_time) {
		if (s->st.source == 1 && scan_wanted(s, v->ts))
			scan_ahead(s, v->ts);
		r->has_time = cpu_time(s, v->ts, &r->time) || aux_time(s, v->ts, &r->time);
	} else if (s->st.source == 2 && !s->no_summary) {
		/* report alone: the time is for the context's CPU range below */
		r->has_time = aux_time(s, v->ts, &r->time);
	}
	if (s->st.source == 2 && r->has_time && !v->zero_hdr && s->acc.cur >= 0 && !s->acc.no_ctxs)
		ctx_cpu(&s->acc.ctxs[s->acc.cur], r->time);
	s->last_report_time = r->has_time ? r->time : 0;
	hwt_emit__record(s->emit, &hwt_rt_i915_oa_report, r, off);
}

static void device_info(struct oa_state *s, const uint8_t *body, size_t n, uint64_t off)
{
	struct hwt_igt_device_info di;

	if (!hwt_igt__device_info(body, n, &di)) {
		hwt_diag__error(s->diag, off, "IGT DEVICE_INFO", "%zu bytes, want %u", n,
				IGT_PERF_DEVICE_INFO_SIZE);
		s->diag->bytes.skipped += n;
		return;
	}
	s->diag->bytes.decoded += n;
	s->st.source = 1;
	s->devid = s->st.devid = di.device_id;
	memcpy(s->metric_set, di.metric_set_name, sizeof(s->metric_set));
	memcpy(s->uuid, di.metric_set_uuid, sizeof(s->uuid));
	s->dev.devid = di.device_id;
	s->dev.revision = di.device_revision;
	s->dev.ts_freq = di.timestamp_frequency;
	s->dev.gt_min = di.gt_min_frequency;
	s->dev.gt_max = di.gt_max_frequency;
	if (!s->freq_given)
		s->ts_freq = s->st.ts_freq = di.timestamp_frequency;
	if (!s->ts_freq)
		hwt_diag__warn(s->diag, off, "IGT DEVICE_INFO", "timestamp frequency 0: no GPU "
			       "time in ns and no CPU time can be computed (--ts-freq HZ)");
	if (!s->gen_given) {
		uint32_t g = hwt_i915_oa__gen_for_devid(di.device_id);

		if (!g && !s->fmt)
			hwt_diag__warn(s->diag, off, "IGT DEVICE_INFO",
				       "unknown device 0x%x: assuming graphics version of format %u "
				       "(use --gen)", di.device_id, di.oa_format);
		if (g && !s->fmt)
			s->gen = g;
	}
	if (s->fmt) {
		if (di.oa_format != s->fmt_id)
			hwt_diag__warn(s->diag, off, "IGT DEVICE_INFO",
				       "OA format %u differs from the one in use (%s)", di.oa_format,
				       s->fmt->name);
		return;
	}
	if (!di.oa_format || di.oa_format > I915_OA_FORMAT_MAX) {
		hwt_diag__error(s->diag, off, "IGT DEVICE_INFO", "unknown OA format %u",
				di.oa_format);
		return;
	}
	set_format(s, di.oa_format);
}

/* tell the metrics computer what the recording says of its device */
static void emit_device(struct oa_state *s, uint64_t off)
{
	s->dev.gen = s->gen;
	s->dev.metric_set = s->metric_set;
	s->dev.uuid = s->uuid;
	hwt_emit__record(s->emit, &hwt_rt_i915_oa_device, &s->dev, off);
}

static void topology(struct oa_state *s, const uint8_t *body, size_t n, uint64_t off)
{
	char why[192];
	uint8_t *t;

	/* realloc(p, 0) frees p: an empty topology record replaces nothing */
	if (!n) {
		hwt_diag__warn(s->diag, off, "IGT DEVICE_TOPOLOGY", "empty topology record ignored");
		return;
	}
	/* libi915_perf trusts it (the metrics computer hands it over): checked here */
	if (!hwt_i915_oa__topology_check(body, n, why, sizeof(why))) {
		hwt_diag__error(s->diag, off, "IGT DEVICE_TOPOLOGY", "%s; record ignored", why);
		s->diag->bytes.skipped += n;
		return;
	}
	t = realloc(s->topology, n);
	s->diag->bytes.decoded += n;
	if (!t)
		return;
	memcpy(t, body, n);
	s->topology = t;
	s->dev.topology = t;
	s->dev.topology_size = (uint32_t)n;
	emit_device(s, off);
}

static void on_record(void *ctx, uint32_t type, const uint8_t *body, size_t n, uint64_t off)
{
	struct oa_state *s = ctx;
	struct hwt_diag *diag = s->diag;
	struct hwt_i915_oa_lost l;
	uint32_t v = 0;

	switch (type) {
	case I915_PERF_RECORD_SAMPLE:
		sample(s, body, n, off);
		return;
	case I915_PERF_RECORD_OA_REPORT_LOST:
	case I915_PERF_RECORD_OA_BUFFER_LOST:
		if (n)
			hwt_diag__error(diag, off, type == 2 ? "OA_REPORT_LOST" : "OA_BUFFER_LOST",
					"record of %zu bytes, want 8", n + 8);
		diag->bytes.skipped += n;
		l.kind = type == I915_PERF_RECORD_OA_BUFFER_LOST;
		l.time = s->last_report_time;
		l.has_time = l.time != 0;
		if (l.kind)
			s->st.buffer_lost++;
		else
			s->st.report_lost++;
		if (s->acc_ready)
			hwt_i915_oa_accum__lost(&s->acc, l.kind);
		hwt_i915_oa_sums__lost(&s->sums_of);
		hwt_emit__record(s->emit, &hwt_rt_i915_oa_lost, &l, off);
		return;
	case IGT_PERF_RECORD_VERSION:
		memcpy(&v, body, n >= 4 ? 4 : 0);
		if (n < 4 || v != 1) {
			hwt_diag__error(diag, off, "IGT VERSION", "unsupported recording version "
					"%u (want 1): its records are decoded as version 1's",
					n >= 4 ? v : 0);
			diag->bytes.skipped += n;
			return;
		}
		s->st.source = 1;
		diag->bytes.decoded += n;
		return;
	case IGT_PERF_RECORD_DEVICE_INFO:
		device_info(s, body, n, off);
		emit_device(s, off);
		return;
	case IGT_PERF_RECORD_TOPOLOGY:
		topology(s, body, n, off);
		return;
	case IGT_PERF_RECORD_CORRELATION:
		if (n != 16) {
			hwt_diag__error(diag, off, "IGT CORRELATION", "%zu bytes, want 16", n);
			diag->bytes.skipped += n;
			return;
		}
		diag->bytes.decoded += n;
		s->st.correlations++;
		add_corr(s, body, off + 8);
		return;
	}
	s->st.unknown_records++;
	diag->bytes.skipped += n;
	if (s->warned_unknown++ < 10)
		hwt_diag__warn(diag, off, RT, "unknown record type %u (%zu bytes) skipped",
			       type, n + 8);
}

/*
 * Records in a row with one header.  report --metrics (s->sums, no
 * per-context totals) takes a run of reports of one context in one pass:
 * each run's first report the usual way, then the others while their
 * deltas go to its context (hwt_i915_oa_sums__span()).
 */
static void on_run(void *ctx, uint32_t type, const uint8_t *body, size_t n, size_t stride,
		   size_t count, uint64_t off)
{
	struct oa_state *s = ctx;

	for (size_t i = 0; i < count; i++) {
		size_t taken;

		on_record(s, type, body + i * stride, n, off + i * stride);
		if (type != I915_PERF_RECORD_SAMPLE || !s->sums || !s->fmt || !s->acc.no_ctxs ||
		    n != s->fmt->size || i + 1 == count)
			continue;
		taken = hwt_i915_oa_sums__span(&s->sums_of, &s->acc, s->fmt, s->gen,
					       body + i * stride, stride, count - i);
		s->st.samples += taken;
		s->diag->bytes.decoded += taken * n;
		hwt_emit__count(s->emit, taken);
		i += taken;
	}
}

static size_t oa_decode(void *state, const struct hwt_chunk *chunk, const struct hwt_emit *emit)
{
	struct oa_state *s = state;
	struct hwt_i915_walk w = { .record = on_record, .known = known, .ctx = s,
				   .run = s->want_sums && s->no_summary ? on_run : NULL,
				   .stop = &s->defer };
	size_t used;

	s->emit = emit;
	s->diag = emit->diag;
	s->time = chunk->time;
	s->piece = chunk->data;
	s->piece_size = chunk->size;
	s->piece_off = chunk->file_offset;
	s->piece_last = chunk->last;
	s->defer = false;
	s->scan_wait = UINT64_MAX;	/* the record it waited for may end in this piece */
	/* behind the walk (it took those points) or stopped by garbage: start afresh */
	if (s->scan_pos < s->piece_off || s->scan_odd) {
		s->scan_pos = s->piece_off;
		s->scan_odd = false;
	}
	if (s->st.source == 2 && (!s->no_time || !s->no_summary))
		look_ahead(s, chunk->data, chunk->size, chunk->file_offset);
	used = hwt_i915_stream__walk(chunk->data, chunk->size, chunk->file_offset, chunk->last,
				     &w, emit->diag);
	if (s->sums)
		hwt_i915_oa_sums__piece_end(&s->sums_of, s->fmt);
	return used;
}

/* report --metrics: each context's sums, in the order of their first delta */
static void emit_sums(struct oa_state *s, const struct hwt_emit *emit)
{
	const struct hwt_i915_oa_plan *p = &s->plan;

	if (s->sums_of.dropped)
		hwt_diag__warn(emit->diag, 0, RT, "more than %u contexts (or no memory): the "
			       "deltas of %llu reports are in no context's metrics",
			       HWT_I915_OA_MAX_CTXS, (unsigned long long)s->sums_of.dropped);
	for (uint32_t i = 0; i < s->sums_of.ctxs.n; i++) {
		const struct hwt_i915_oa_ctx_sum *c = hwt_i915_oa_ctx_table__at(&s->sums_of.ctxs, i);
		struct hwt_i915_oa_report r = {
			.ctx = c->ctx, .has_delta = true, .dts = c->dts, .dticks = c->dticks,
			.da = c->v, .db = c->v + p->na, .dc = c->v + p->na + p->nb,
			.na = p->na, .nb = p->nb, .nc = p->nc,
		};

		hwt_emit__record(emit, &hwt_rt_i915_oa_ctx_sums, &r, 0);
	}
}

static void oa_finish(void *state, const struct hwt_emit *emit)
{
	struct oa_state *s = state;
	bool shift = ts_shifted(s);
	uint64_t mask = ts_mask(s);

	hwt_emit__record(emit, &hwt_rt_i915_oa_stream, &s->st, 0);
	if (!s->acc_ready)
		return;
	if (s->acc.ctx_overflow)
		hwt_diag__warn(emit->diag, 0, RT, "more than %u contexts: %llu reports counted "
			       "in the last one", HWT_I915_OA_MAX_CTXS,
			       (unsigned long long)s->acc.ctx_overflow);
	for (uint32_t i = 0; i < s->acc.nctxs; i++) {
		const struct hwt_i915_oa_ctx_total *t = &s->acc.ctxs[i];
		struct hwt_i915_oa_context c = {
			.ctx = t->ctx, .reports = t->reports, .lost = t->lost,
			.GpuCoreClocks = t->dticks, .has_time = s->ts_freq != 0,
		};

		c.GpuTime = hwt_i915_oa__ticks_to_ns(t->dts, s->ts_freq);
		/* clocks per second: the same scaling as ticks to ns */
		c.AvgGpuCoreFrequency = hwt_i915_oa__ticks_to_ns(t->dticks, c.GpuTime);
		if (t->has_cpu) {
			c.has_cpu = true;
			c.cpu_start = t->cpu_first;
			c.cpu_end = t->cpu_last;
		} else {
			c.has_cpu = t->reports &&
				    hwt_igt__gpu_to_cpu(s->corr, s->ncorr, t->first_ts, mask, shift,
							&c.cpu_start) &&
				    hwt_igt__gpu_to_cpu(s->corr, s->ncorr, t->last_ts, mask, shift,
							&c.cpu_end);
		}
		hwt_emit__record(emit, &hwt_rt_i915_oa_context, &c, 0);
	}
	if (s->sums)
		emit_sums(s, emit);
}

static void oa_free(void *state)
{
	struct oa_state *s = state;

	if (!s)
		return;
	hwt_i915_oa_accum__exit(&s->acc);
	hwt_i915_oa_sums__exit(&s->sums_of);
	free(s->corr);
	free(s->topology);
	free(s);
}


const struct hwt_decoder_ops hwt_i915_oa_decoder = {
	.dump_title = "I915_OA",
	.dump_align = 1,
	.match = match,
	.probe = probe,
	.ctx_from_opts = ctx_from_opts,
	.new = oa_new,
	.decode = oa_decode,
	.finish = oa_finish,
	.free = oa_free,
};
