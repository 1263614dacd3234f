// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_metrics.c - the metrics computer of i915 OA: a metric set's logical
 * counters (IGT's symbol names and equations) per report and per context.
 *
 * The equations are IGT's own, run from libi915_perf (i915_perf_lib.c) on
 * the deltas the decoder already computed, laid out as IGT's accumulator
 * lays them out (the set's gpu_time/gpu_clock/a/b/c offsets).  Per context,
 * the deltas of every report that follows one of the context's reports are
 * summed, which is what i915-perf-reader's one delta per timeline gives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hwtrace/metrics.h"
#include "i915_oa_internal.h"
#include "i915_perf_lib.h"
#include "core/decoder_internal.h"

/* enum intel_perf_logical_counter_unit (IGT lib/i915/perf.h) */
static const char *const units[] = {
	"bytes", "Hz", "ns", "us", "pixels", "texels", "threads", "percent", "messages",
	"number", "cycles", "events", "utilization", "sends to L3 cache lines",
	"atomic requests to L3 cache lines", "requests to L3 cache lines",
	"bytes per L3 cache line", "GBps",
};

struct ctx_sum {
	uint32_t ctx;		/* first: an entry of struct hwt_i915_oa_ctx_table */
	uint64_t d[IGT_PERF_MAX_DELTAS];
	char name[12];
};

/* one equation of the set, in eval()'s order: the integer ones, then the others */
struct equation {
	union {
		uint64_t (*read_uint64)(const struct igt_perf *perf,
					const struct igt_metric_set *set, uint64_t *deltas);
		double (*read_float)(const struct igt_perf *perf,
					 const struct igt_metric_set *set, uint64_t *deltas);
	};
	uint32_t i;		/* its counter's index in the set */
};

struct met {
	struct hwt_diag *diag;
	uint64_t dev_off;		/* where the device and set came from, for messages */
	const char *dev_rtype;		/* and what that record is */
	const char *want;		/* --metric-set, or NULL: the recording's */
	struct hwt_i915_oa_device dev;	/* perf.data: from AUXTRACE_INFO */
	char set_name[256];
	uint64_t topo[HWT_I915_OA_TOPO_MAX / 8];	/* perf.data's topology */
	char topo_why[192];		/* what is wrong with it, or "" */
	bool have_dev, failed;
	bool groups_only;	/* report: no per-report values */
	bool no_groups;		/* script: no per-context sums */
	bool slots_apart;	/* the set's delta slots do not overlap: add_deltas() */
	const char *const *only;	/* script -F: the only metrics shown, or NULL */
	uint32_t nonly;
	struct igt_perf *perf;
	const struct igt_metric_set *set;
	struct hwt_metric_def *defs;
	struct equation *eqs;
	uint32_t n_uint;	/* eqs[0, n_uint) are integers */
	uint32_t n_eqs;		/* eqs[n_uint, n_eqs) the others */
	double *vals;
	uint64_t *uvals;
	struct hwt_metrics m;
	uint64_t d[IGT_PERF_MAX_DELTAS];
	uint32_t dn[3];		/* the counts @d was last filled with */
	uint32_t prev_ctx;
	bool have_prev;
	struct hwt_i915_oa_ctx_table ctxs;	/* struct ctx_sum, in the order of first deltas */
};

/*
 * perf.data, layout 2: the device words of AUXTRACE_INFO (design.rst 4.3);
 * the uuid names the metric set (an IGT file's DEVICE_INFO replaces them)
 */
static void device_words(struct met *m, const uint64_t *priv)
{
	uint64_t tsize = priv[HWT_I915_OA_PRIV_TOPO_SIZE];

	m->dev.revision = (uint32_t)priv[HWT_I915_OA_PRIV_REVISION];
	m->dev.gt_min = priv[HWT_I915_OA_PRIV_GT_MIN];
	m->dev.gt_max = priv[HWT_I915_OA_PRIV_GT_MAX];
	memcpy(m->set_name, &priv[HWT_I915_OA_PRIV_UUID], HWT_I915_OA_UUID_LEN);
	m->set_name[HWT_I915_OA_UUID_LEN] = 0;
	if (tsize > HWT_I915_OA_TOPO_MAX) {
		/* the file's own count, past the words layout 2 has for it */
		snprintf(m->topo_why, sizeof(m->topo_why), "%llu bytes, more than the %u that "
			 "layout 2 holds", (unsigned long long)tsize, HWT_I915_OA_TOPO_MAX);
		return;
	}
	if (tsize) {
		memcpy(m->topo, &priv[HWT_I915_OA_PRIV_TOPO], tsize);
		/* libi915_perf trusts it: a bad one is no topology */
		if (!hwt_i915_oa__topology_check((const uint8_t *)m->topo, tsize, m->topo_why,
						 sizeof(m->topo_why)))
			return;
		m->dev.topology = m->topo;
		m->dev.topology_size = (uint32_t)tsize;
	}
}

static void *met_new(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag)
{
	struct met *m;

	/* the library is first needed at the first report or context sum: load it meanwhile */
	hwt_i915_perf__load_async();
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->diag = diag;
	m->dev_off = ctx->info_offset;
	m->dev_rtype = ctx->raw ? "i915 metrics" : "PERF_RECORD_AUXTRACE_INFO";
	m->want = hwt_aux_ctx__opt(ctx, "metric-set");
	m->groups_only = ctx->metrics_groups_only;
	m->no_groups = ctx->metrics_no_groups;
	/* the groups (report) are every metric's: a selection only without them */
	if (m->no_groups) {
		m->only = ctx->metrics_only;
		m->nonly = ctx->nmetrics_only;
	}
	m->ctxs = (struct hwt_i915_oa_ctx_table){ .size = sizeof(struct ctx_sum), .last = -1 };
	if (!ctx->raw && ctx->npriv > HWT_I915_OA_PRIV_TS_FREQ) {
		m->dev.devid = (uint32_t)ctx->priv[HWT_I915_OA_PRIV_DEVID];
		m->dev.gen = (uint32_t)ctx->priv[HWT_I915_OA_PRIV_GEN];
		m->dev.ts_freq = ctx->priv[HWT_I915_OA_PRIV_TS_FREQ];
	}
	if (!ctx->raw && ctx->npriv >= HWT_I915_OA_NPRIV_V2 &&
	    ctx->priv[HWT_I915_OA_PRIV_LAYOUT] == 2)
		device_words(m, ctx->priv);
	hwt_i915_perf__prepare(m, &m->dev);
	return m;
}

static void fail(struct met *m, const char *why, const char *what)
{
	m->failed = true;
	hwt_diag__warn(m->diag, m->dev_off, m->dev_rtype, "no metrics: %s%s", why, what);
}

/*
 * Whether deltas()'s slots are apart (HSW's clock slot being its time's is
 * allowed: add_deltas() skips it), so that summing in place gives what
 * deltas() then a sum gives.
 */
static bool slots_apart(const struct igt_metric_set *s)
{
	int t = s->gpu_time_offset, k = s->gpu_clock_offset;
	int a = s->a_offset, b = s->b_offset, c = s->c_offset;

	/* A [a, b), B [b, b + 8), C [c, c + 8) in order; time and clock outside */
	return a >= 0 && a <= b && b + 8 <= c && c + 8 <= IGT_PERF_MAX_DELTAS &&
	       t >= 0 && t < IGT_PERF_MAX_DELTAS && (t < a || t >= c + 8) &&
	       k >= 0 && k < IGT_PERF_MAX_DELTAS && (k < a || k >= c + 8);
}

/* whether metric @name is computed: every one, unless script -F names some */
static bool wanted(const struct met *m, const char *name)
{
	if (!m->only)
		return true;
	for (uint32_t i = 0; i < m->nonly; i++)
		if (!strcmp(m->only[i], name))
			return true;
	return false;
}

/* at the first report: the device is known, find the metric set */
static bool start(struct met *m)
{
	const char *name = m->want ? m->want : m->set_name;
	const struct igt_metric_set *s;
	char why[256];

	if (!hwt_i915_perf__open(why, sizeof(why))) {
		fail(m, why, "");
		return false;
	}

	if (!m->dev.topology && m->topo_why[0]) {
		/* bad input, as the decoder's IGT TOPOLOGY check says of a record */
		m->failed = true;
		hwt_diag__error(m->diag, m->dev_off, m->dev_rtype, "no metrics: the EU topology of "
				"AUXTRACE_INFO is unusable: %s", m->topo_why);
		return false;
	}
	if (!m->dev.topology) {
		/* the equations read the EU topology: IGT TOPOLOGY, perf.data layout 2 */
		fail(m, "no EU topology in the input (IGT TOPOLOGY record, AUXTRACE_INFO layout 2)", "");
		return false;
	}
	m->perf = hwt_i915_perf__take(m, &m->dev);
	if (!m->perf)
		m->perf = hwt_i915_perf__for_devinfo(m->dev.devid, m->dev.revision,
						     m->dev.ts_freq, m->dev.gt_min, m->dev.gt_max,
						     m->dev.topology);
	if (!m->perf) {
		/* the record at m->dev_off (DEVICE_INFO, AUXTRACE_INFO) named it */
		snprintf(why, sizeof(why), "libi915_perf does not know device 0x%x%s", m->dev.devid,
			 m->dev.devid ? "" : " (none given: --devid to synth, caps/devid to record)");
		fail(m, why, "");
		return false;
	}
	s = *name ? hwt_i915_perf__find_set(m->perf, name) : NULL;
	if (!s) {
		char names[4096];

		hwt_i915_perf__set_names(m->perf, names, sizeof(names));
		m->failed = true;
		if (*name)
			hwt_diag__warn(m->diag, m->dev_off, m->dev_rtype, "no metrics: metric set "
				       "'%s' is unknown for device 0x%x; --metric-set NAME, valid:%s",
				       name, m->dev.devid, names);
		else
			hwt_diag__warn(m->diag, m->dev_off, m->dev_rtype, "no metrics: the input "
				       "names no metric set; --metric-set NAME, valid for device "
				       "0x%x:%s", m->dev.devid, names);
		return false;
	}
	if (!hwt_i915_perf__set_sane(s)) {
		fail(m, "metric set does not match the declared libi915_perf ABI: ", name);
		return false;
	}
	m->defs = calloc(s->n_counters, sizeof(*m->defs));
	m->eqs = calloc(s->n_counters, sizeof(*m->eqs));
	m->vals = calloc(s->n_counters, sizeof(*m->vals));
	m->uvals = calloc(s->n_counters, sizeof(*m->uvals));
	if (!m->defs || !m->eqs || !m->vals || !m->uvals) {
		fail(m, "out of memory", "");
		return false;
	}
	for (int i = 0; i < s->n_counters; i++) {
		const struct igt_counter *c = &s->counters[i];

		m->defs[i].name = c->symbol_name;
		m->defs[i].unit = c->unit < sizeof(units) / sizeof(units[0]) ? units[c->unit] : "";
		m->defs[i].desc = c->desc;
		m->defs[i].integer = c->storage != IGT_STORAGE_DOUBLE &&
				     c->storage != IGT_STORAGE_FLOAT;
		m->vals[i] = NAN;	/* stays so if not shown (wanted()) */
		if (m->defs[i].integer && wanted(m, c->symbol_name))
			m->eqs[m->n_uint++] = (struct equation){ .read_uint64 = c->read_uint64,
								 .i = (uint32_t)i };
	}
	m->n_eqs = m->n_uint;
	for (int i = 0; i < s->n_counters; i++)
		if (!m->defs[i].integer && wanted(m, s->counters[i].symbol_name))
			m->eqs[m->n_eqs++] = (struct equation){
				.read_float = s->counters[i].read_float, .i = (uint32_t)i };
	m->set = s;
	m->slots_apart = slots_apart(s);
	m->m = (struct hwt_metrics){ .set = s->symbol_name, .defs = m->defs, .vals = m->vals,
				     .uvals = m->uvals, .n = (uint32_t)s->n_counters };
	return true;
}

/*
 * Every equation of the set (those -F shows, if it names some) on deltas
 * @d: the integer ones, then the others (each is a pure function of @d).
 * Most equations are a few instructions, and this loop was most of a
 * report's cost: no test of the kind, no reload of @m's fields after each
 * store.
 */
static void eval(struct met *m, uint64_t *d)
{
	const struct igt_perf *perf = m->perf;
	const struct igt_metric_set *s = m->set;
	const struct equation *e = m->eqs, *ints = e + m->n_uint, *end = e + m->n_eqs;
	double *vals = m->vals;
	uint64_t *uvals = m->uvals;

	for (; e < ints; e++) {
		uint64_t v = e->read_uint64(perf, s, d);

		uvals[e->i] = v;
		vals[e->i] = (double)v;
	}
	for (; e < end; e++)
		vals[e->i] = e->read_float(perf, s, d);
}

/*
 * @n u64 from @s to @d, @n <= 8: B and C (eight each in every format that
 * has them) as one fixed move; a copy of a variable size that small was a
 * loop of byte moves.
 */
static inline void copy_u64_8(uint64_t *d, const uint64_t *s, uint32_t n)
{
	if (n == 8) {
		memcpy(d, s, 8 * sizeof(*d));
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		d[i] = s[i];
}

/*
 * The report's deltas where IGT's accumulator puts them, in m->d.  The slots
 * filled depend on the set and the counts only: m->d is cleared when those
 * change, not on every report.
 */
static void deltas(struct met *m, const struct hwt_i915_oa_report *r)
{
	const struct igt_metric_set *s = m->set;
	uint32_t a0 = (uint32_t)s->a_offset, b0 = (uint32_t)s->b_offset;
	uint32_t na = r->na, nb = r->nb < 8 ? r->nb : 8, nc = r->nc < 8 ? r->nc : 8;
	uint64_t *d = m->d;

	if (m->dn[0] != r->na || m->dn[1] != r->nb || m->dn[2] != r->nc) {
		memset(d, 0, IGT_PERF_MAX_DELTAS * sizeof(*d));
		m->dn[0] = r->na;
		m->dn[1] = r->nb;
		m->dn[2] = r->nc;
	}
	/* A stops where B starts; eight B and eight C at most */
	if (a0 >= b0)
		na = 0;
	else if (na > b0 - a0)
		na = b0 - a0;
	/* HSW has no clock slot: its offset is the timestamp's, written after */
	d[s->gpu_clock_offset] = r->dticks;
	d[s->gpu_time_offset] = r->dts;
	memcpy(d + s->a_offset, r->da, na * sizeof(*d));
	copy_u64_8(d + s->b_offset, r->db, nb);
	copy_u64_8(d + s->c_offset, r->dc, nc);
}

/* d[i] += s[i]: two at a time, @d and @s apart (a context's sums, a report's deltas) */
static inline void add_u64(uint64_t *restrict d, const uint64_t *restrict s, uint32_t n)
{
	uint32_t i = 0;

#ifdef __SSE2__
	for (; i + 2 <= n; i += 2) {
		__m128i a = _mm_loadu_si128((const __m128i *)(d + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(s + i));

		_mm_storeu_si128((__m128i *)(d + i), _mm_add_epi64(a, b));
	}
#endif
	for (; i < n; i++)
		d[i] += s[i];
}

/* deltas() added to @d: the same slots, in the same order (HSW's clock slot is its time's) */
static void add_deltas(const struct igt_metric_set *s, const struct hwt_i915_oa_report *r,
		       uint64_t *d)
{
	uint32_t na = r->na, nb = r->nb < 8 ? r->nb : 8, nc = r->nc < 8 ? r->nc : 8;
	uint64_t *a = d + s->a_offset, *b = d + s->b_offset, *c = d + s->c_offset;

	if (s->gpu_clock_offset != s->gpu_time_offset)
		d[s->gpu_clock_offset] += r->dticks;
	d[s->gpu_time_offset] += r->dts;
	if (s->a_offset + na > (uint32_t)s->b_offset)
		na = (uint32_t)(s->b_offset - s->a_offset);
	add_u64(a, r->da, na);
	add_u64(b, r->db, nb);
	add_u64(c, r->dc, nc);
}

static struct ctx_sum *ctx_sum(struct met *m, uint32_t ctx)
{
	return hwt_i915_oa_ctx_table__get(&m->ctxs, ctx);
}

/* deltas @r (a report's, or a context's sums) added to the sums of context @ctx */
static void add_to(struct met *m, uint32_t ctx, const struct hwt_i915_oa_report *r)
{
	struct ctx_sum *c = ctx_sum(m, ctx);

	if (!c)
		return;
	if (m->slots_apart) {
		add_deltas(m->set, r, c->d);
	} else {
		deltas(m, r);
		add_u64(c->d, m->d, IGT_PERF_MAX_DELTAS);
	}
}

static const struct hwt_metrics *met_record(void *state, const struct hwt_record *rec)
{
	struct met *m = state;
	const struct hwt_i915_oa_report *r = rec->data;
	const struct hwt_metrics *out = NULL;
	uint32_t key;

	if (rec->type == &hwt_rt_i915_oa_device) {
		const struct hwt_i915_oa_device *dv = rec->data;

		m->dev = *dv;
		/* the set's name comes from DEVICE_INFO; a TOPOLOGY after it sends the same */
		if (strcmp(m->set_name, dv->metric_set) || strcmp(m->dev_rtype, "IGT DEVICE_INFO")) {
			m->dev_off = rec->offset;
			m->dev_rtype = "IGT DEVICE_INFO";
		}
		snprintf(m->set_name, sizeof(m->set_name), "%s", dv->metric_set);
		if (!m->set && !m->failed)
			hwt_i915_perf__prepare(m, &m->dev);
		return NULL;
	}
	if (rec->type == &hwt_rt_i915_oa_lost) {
		m->have_prev = false;	/* as the decoder: no delta across a loss */
		return NULL;
	}
	if (rec->type == &hwt_rt_i915_oa_ctx_sums) {
		/* the decoder summed the context for us (report --metrics) */
		if (!m->failed && (m->set || start(m)))
			add_to(m, r->ctx, r);
		return NULL;
	}
	if (rec->type != &hwt_rt_i915_oa_report || m->failed)
		return NULL;
	if (!m->set && !start(m))
		return NULL;
	key = hwt_i915_oa__ctx_key(m->dev.gen, r->ctx, r->ctx_valid);
	if (r->has_delta && m->groups_only) {
		if (m->have_prev)
			add_to(m, m->prev_ctx, r);
	} else if (r->has_delta) {
		struct ctx_sum *c = m->have_prev && !m->no_groups ? ctx_sum(m, m->prev_ctx) : NULL;

		deltas(m, r);
		if (c)
			add_u64(c->d, m->d, IGT_PERF_MAX_DELTAS);
		eval(m, m->d);
		out = &m->m;
	}
	m->prev_ctx = key;
	m->have_prev = true;
	return out;
}

static const struct hwt_metrics *met_group(void *state, uint32_t i)
{
	struct met *m = state;
	struct ctx_sum *c;

	if (!m->set || i >= m->ctxs.n)
		return NULL;
	c = hwt_i915_oa_ctx_table__at(&m->ctxs, i);
	eval(m, c->d);
	snprintf(c->name, sizeof(c->name), "0x%x", c->ctx);
	m->m.group_key = "ctx";
	m->m.group = c->name;
	return &m->m;
}

static void met_free(void *state)
{
	struct met *m = state;

	if (!m)
		return;
	hwt_i915_perf__release(m);
	hwt_i915_perf__free(m->perf);
	free(m->defs);
	free(m->eqs);
	free(m->vals);
	free(m->uvals);
	hwt_i915_oa_ctx_table__exit(&m->ctxs);
	free(m);
}

const struct hwt_metrics_ops hwt_i915_oa_metrics = {
	.new = met_new,
	.record = met_record,
	.group = met_group,
	.free = met_free,
	.known = hwt_i915_perf__counter_known,
	.unknowable = hwt_i915_perf__names_unknowable,
};
