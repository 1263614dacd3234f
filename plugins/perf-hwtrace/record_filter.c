// SPDX-License-Identifier: GPL-2.0
/*
 * record_filter.c - --time, -C, --pid, --tid and --type on the record stream
 * (record_filter.h).  Time ranges follow perf's perf_time__parse_for_ranges():
 * "start,end" in seconds with up to 9 decimals, either side may be empty,
 * several ranges separated by spaces; "a%/n" (the n-th slice of a% of the
 * span) and "a%-b%", several separated by commas.  Bounds are inclusive.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/tracepoint.h"
#include "pmu/pmu_internal.h"

#include "commands.h"
#include "record_filter.h"

/* "secs[.frac]" as ns; false if malformed. */
static bool parse_ns(const char *s, size_t len, uint64_t *ns)
{
	uint64_t secs = 0, frac = 0;
	size_t i = 0;
	unsigned digits = 0;

	if (!len)
		return false;
	for (; i < len && isdigit((unsigned char)s[i]); i++)
		secs = secs * 10 + (uint64_t)(s[i] - '0');
	if (!i && (len == 0 || s[0] != '.'))
		return false;
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				digits++;
			}
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (i != len || secs > UINT64_MAX / 1000000000ull)
		return false;
	*ns = secs * 1000000000ull + frac;
	return true;
}

static int time_error(struct record_filter *f, const char *arg, const char *why)
{
	return usage_error(f->cmd, "--time '%s': %s", arg, why), -1;
}

static int add_range(struct record_filter *f, const char *arg, struct rf_range r)
{
	if (f->nranges == RF_MAX_RANGES)
		return time_error(f, arg, "too many ranges");
	f->ranges[f->nranges++] = r;
	return 0;
}

/* "a%/n" or "a%-b%" */
static int percent_range(struct record_filter *f, const char *arg, const char *s, size_t len)
{
	char buf[64], *end;
	double a, b;
	struct rf_range r = { .percent = true };

	if (len >= sizeof(buf))
		return time_error(f, arg, "malformed percent range");
	memcpy(buf, s, len);
	buf[len] = 0;
	a = strtod(buf, &end);
	if (end == buf || *end != '%' || a < 0 || a > 100)
		return time_error(f, arg, "a percent must be in [0, 100]");
	if (end[1] == '/') {
		char *e2;
		unsigned long n = strtoul(end + 2, &e2, 10);

		if (!n || *e2 || a <= 0 || n * a > 100 + 1e-9)
			return time_error(f, arg, "a%/n needs 1 <= n <= 100/a");
		r.pstart = a * (double)(n - 1);
		r.pend = a * (double)n;
	} else if (end[1] == '-') {
		char *p = end + 2;

		b = strtod(p, &end);
		if (end == p || strcmp(end, "%") || b < a || b > 100)
			return time_error(f, arg, "a%-b% needs 0 <= a <= b <= 100");
		r.pstart = a;
		r.pend = b;
	} else {
		return time_error(f, arg, "a percent range is a%/n or a%-b%");
	}
	return add_range(f, arg, r);
}

int record_filter__time_opt(const struct parse_opt *opt, const char *arg, int unset)
{
	struct record_filter *f = opt->value;
	const char *p = arg;

	(void)unset;
	f->nranges = 0;
	if (strchr(arg, '%')) {
		/* a%/n,b%/m,... */
		f->percent = true;
		for (;;) {
			size_t len = strcspn(p, ", ");

			if (len && percent_range(f, arg, p, len) < 0)
				return -1;
			if (!p[len])
				break;
			p += len + 1;
		}
		return f->nranges ? 0 : time_error(f, arg, "no range");
	}
	/* start,end [start,end ...] */
	while (*p) {
		size_t len = strcspn(p, " ");
		const char *comma = memchr(p, ',', len);
		struct rf_range r = { 0 };

		if (!len) {
			p++;
			continue;
		}
		if (!comma)
			return time_error(f, arg, "a range is START,END (either may be empty)");
		if (comma > p && !parse_ns(p, (size_t)(comma - p), &r.start))
			return time_error(f, arg, "START is not seconds[.nanoseconds]");
		if ((size_t)(comma + 1 - p) < len &&
		    !parse_ns(comma + 1, len - (size_t)(comma + 1 - p), &r.end))
			return time_error(f, arg, "END is not seconds[.nanoseconds]");
		if (r.end && r.end < r.start)
			return time_error(f, arg, "END is before START");
		if (add_range(f, arg, r) < 0)
			return -1;
		p += len;
	}
	return f->nranges ? 0 : time_error(f, arg, "no range");
}

int record_filter__cpu_opt(const struct parse_opt *opt, const char *arg, int unset)
{
	struct record_filter *f = opt->value;
	static int cpus[RF_MAX_CPU + 1];
	int n;

	(void)unset;
	memset(f->cpus, 0, sizeof(f->cpus));
	f->have_cpus = true;
	/* the parser -C of record uses; one more slot tells a cpu above the bitmap */
	n = hwt_cpulist__parse(arg, cpus, RF_MAX_CPU + 1);
	if (n <= 0)
		return usage_error(f->cmd, "-C '%s': not a cpu list (0,2-3)", arg), -1;
	for (int i = 0; i < n; i++) {
		if (cpus[i] >= RF_MAX_CPU)
			return usage_error(f->cmd, "-C '%s': cpu %d is above %d", arg, cpus[i],
					   RF_MAX_CPU - 1), -1;
		f->cpus[cpus[i] / 64] |= 1ull << (cpus[i] % 64);
	}
	return 0;
}

static int id_list(const char *cmd, const char *name, const char *arg, int32_t *ids,
		   unsigned *n)
{
	const char *p = arg;

	*n = 0;
	for (;;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || !isdigit((unsigned char)*p) || v > INT32_MAX ||
		    (*end && *end != ','))
			return usage_error(cmd, "--%s '%s': not a list of ids (1,2)", name, arg), -1;
		if (*n == RF_MAX_LIST)
			return usage_error(cmd, "--%s: too many ids", name), -1;
		ids[(*n)++] = (int32_t)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

int record_filter__pid_opt(const struct parse_opt *opt, const char *arg, int unset)
{
	struct record_filter *f = opt->value;

	(void)unset;
	return id_list(f->cmd, "pid", arg, f->pids, &f->npids);
}

int record_filter__tid_opt(const struct parse_opt *opt, const char *arg, int unset)
{
	struct record_filter *f = opt->value;

	(void)unset;
	return id_list(f->cmd, "tid", arg, f->tids, &f->ntids);
}

int record_filter__type_opt(const struct parse_opt *opt, const char *arg, int unset)
{
	struct record_filter *f = opt->value;
	const char *p = arg;

	(void)unset;
	f->ntypes = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char name[64];
		const struct hwt_record_type *t;

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		t = hwt_record_type__find(name);
		if (!t || t->kind != HWT_RK_DATA)
			return usage_error(f->cmd, "--type: unknown record type '%s' "
					   "(perf hwtrace list shows them)", name), -1;
		if (f->ntypes == RF_MAX_LIST)
			return usage_error(f->cmd, "--type: too many types"), -1;
		f->types[f->ntypes++] = t;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

bool record_filter__active(const struct record_filter *f)
{
	return f->nranges || f->have_cpus || f->npids || f->ntids || f->ntypes;
}

void record_filter__span(struct record_filter *f, uint64_t first, uint64_t last)
{
	double total = (double)(last - first);

	for (unsigned i = 0; i < f->nranges; i++) {
		struct rf_range *r = &f->ranges[i];

		if (!r->percent)
			continue;
		/* perf: start + total * a, end one ns before the next slice's start */
		r->start = first + (uint64_t)(total * r->pstart / 100);
		r->end = r->pend >= 100 ? last : first + (uint64_t)(total * r->pend / 100) - 1;
		if (!r->end)
			r->end = 1;
	}
}

void record_filter__sample(const struct hwt_where *at, const struct hwt_record *rec,
			   uint64_t *time, int32_t *cpu, int32_t *pid)
{
	uint32_t c = at->cpu < 0 ? 0 : (uint32_t)at->cpu;

	*time = at->time;
	*pid = at->tid;
	hwt_tp__sample_fields(rec, time, &c, pid);
	*cpu = (int32_t)c;
}

void record_filter__event(struct hwt_where *at, const struct hwt_event *ev)
{
	if (ev->sid.valid & PERF_SAMPLE_TIME)
		at->time = ev->sid.time;
}

static bool in_list(const int32_t *ids, unsigned n, int32_t v)
{
	for (unsigned i = 0; i < n; i++)
		if (ids[i] == v)
			return true;
	return false;
}

static bool in_time(const struct record_filter *f, uint64_t t)
{
	if (!f->nranges)
		return true;
	for (unsigned i = 0; i < f->nranges; i++)
		if (t >= f->ranges[i].start && (!f->ranges[i].end || t <= f->ranges[i].end))
			return true;
	return false;
}

static bool selected(const struct record_filter *f, const struct hwt_record *rec)
{
	uint64_t time;
	int32_t cpu, pid;

	if (f->ntypes) {
		unsigned i = 0;

		while (i < f->ntypes && f->types[i] != rec->type)
			i++;
		if (i == f->ntypes)
			return false;
	}
	record_filter__sample(&f->at, rec, &time, &cpu, &pid);
	if (f->have_cpus && (cpu < 0 || cpu >= RF_MAX_CPU ||
			     !(f->cpus[cpu / 64] & (1ull << (cpu % 64)))))
		return false;
	/* an injected sample's pid and tid are both this */
	if (f->npids && !in_list(f->pids, f->npids, pid))
		return false;
	if (f->ntids && !in_list(f->tids, f->ntids, pid))
		return false;
	return in_time(f, time);
}

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct record_filter *f = ctx;

	record_filter__event(&f->at, ev);
	if (f->inner.event)
		f->inner.event(f->inner.ctx, r, ev);
}

static void on_stream(void *ctx, const struct hwt_stream *s)
{
	struct record_filter *f = ctx;

	if (f->inner.stream)
		f->inner.stream(f->inner.ctx, s);
}

static void on_chunk(void *ctx, const struct hwt_stream *s, const struct hwt_chunk *c,
		     uint64_t total)
{
	struct record_filter *f = ctx;

	hwt_where__update(&f->at, c);
	if (f->inner.chunk)
		f->inner.chunk(f->inner.ctx, s, c, total);
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct record_filter *f = ctx;

	if (rec->type->kind == HWT_RK_DATA) {
		unsigned i = 0;

		if (!selected(f, rec))
			return;
		f->selected++;
		while (i < f->nseen && f->counts[i].type != rec->type)
			i++;
		if (i == f->nseen && i < RF_MAX_LIST)
			f->counts[f->nseen++].type = rec->type;
		if (i < f->nseen)
			f->counts[i].n++;
	}
	if (f->inner.record)
		f->inner.record(f->inner.ctx, rec);
}

static void on_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		   const struct hwt_reader *r)
{
	struct record_filter *f = ctx;

	if (f->inner.end)
		f->inner.end(f->inner.ctx, streams, n, r);
}

void record_filter__wrap(struct record_filter *f, struct hwt_sink *sink)
{
	f->inner = *sink;
	f->at = (struct hwt_where){ .cpu = -1, .tid = -1 };
	*sink = (struct hwt_sink){ .event = on_event, .stream = on_stream, .chunk = on_chunk,
				   .record = on_record, .end = on_end, .ctx = f };
}
