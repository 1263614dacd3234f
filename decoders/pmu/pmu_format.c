// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_format.c - PMU format terms and event-string encoding (no I/O).
 *
 * A format term ("mask" = "config:0-31", "x" = "config:0-7,32-35") scatters
 * a value's bits, lowest first, over the listed bit ranges of config,
 * config1 or config2.  Event aliases ("clock_ticks" = "config=0x...") are
 * term lists themselves.  pmu_sysfs.c fills struct hwt_pmu from files.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_priv.h"
#include "pmu_internal.h"

/* Format an error message into @err, if the caller gave room for one. */
void hwt_pmu__seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void hwt_pmu__add_warning(struct hwt_pmu *pmu, const char *fmt, ...)
{
	size_t old = pmu->warnings ? strlen(pmu->warnings) : 0;
	char line[512], *p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	p = realloc(pmu->warnings, old + n + 1);
	if (!p)
		return;
	memcpy(p + old, line, n);
	p[old + n] = 0;
	pmu->warnings = p;
}

const char *hwt_pmu__warnings(const struct hwt_pmu *pmu)
{
	return pmu->warnings;
}

int hwt_pmu__config_words(void)
{
#ifdef PERF_ATTR_SIZE_VER8
	return 4;
#else
	return 3;	/* this build's perf_event_attr ends before config3 */
#endif
}

/* strdup of @s without surrounding whitespace */
static char *trimdup(const char *s)
{
	const char *e;
	char *p;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		e--;
	p = malloc(e - s + 1);
	if (p) {
		memcpy(p, s, e - s);
		p[e - s] = 0;
	}
	return p;
}

struct hwt_pmu *hwt_pmu__new(const char *name, uint32_t type)
{
	struct hwt_pmu *pmu = calloc(1, sizeof(*pmu));

	if (!pmu)
		return NULL;
	pmu->name = strdup(name);
	pmu->cpumask = strdup("");
	pmu->type = type;
	if (!pmu->name || !pmu->cpumask) {
		hwt_pmu__delete(pmu);
		return NULL;
	}
	return pmu;
}

void hwt_pmu__delete(struct hwt_pmu *pmu)
{
	if (!pmu)
		return;
	for (int i = 0; i < pmu->nterms; i++) {
		free(pmu->terms[i].name);
		free(pmu->terms[i].spec);
	}
	for (int i = 0; i < pmu->nevents; i++) {
		free(pmu->events[i].name);
		free(pmu->events[i].value);
		free(pmu->events[i].unit);
		free(pmu->events[i].scale);
	}
	free(pmu->terms);
	free(pmu->events);
	free(pmu->name);
	free(pmu->cpumask);
	free(pmu->warnings);
	free(pmu);
}

const char *hwt_pmu__name(const struct hwt_pmu *pmu)
{
	return pmu->name;
}

uint32_t hwt_pmu__type(const struct hwt_pmu *pmu)
{
	return pmu->type;
}

const char *hwt_pmu__cpumask(const struct hwt_pmu *pmu)
{
	return pmu->cpumask;
}

int hwt_pmu__nterms(const struct hwt_pmu *pmu)
{
	return pmu->nterms;
}

const char *hwt_pmu__term(const struct hwt_pmu *pmu, int i, const char **spec)
{
	if (i < 0 || i >= pmu->nterms)
		return NULL;
	if (spec)
		*spec = pmu->terms[i].spec;
	return pmu->terms[i].name;
}

int hwt_pmu__nevents(const struct hwt_pmu *pmu)
{
	return pmu->nevents;
}

const char *hwt_pmu__event(const struct hwt_pmu *pmu, int i, const char **value)
{
	if (i < 0 || i >= pmu->nevents)
		return NULL;
	if (value)
		*value = pmu->events[i].value;
	return pmu->events[i].name;
}

const char *hwt_pmu__event_unit(const struct hwt_pmu *pmu, int i)
{
	return i >= 0 && i < pmu->nevents ? pmu->events[i].unit : NULL;
}

const char *hwt_pmu__event_scale(const struct hwt_pmu *pmu, int i)
{
	return i >= 0 && i < pmu->nevents ? pmu->events[i].scale : NULL;
}

/* cxl_pmu (drivers/perf/cxl_pmu.c) rejects sampling and per-task events. */
int hwt_pmu__counting_only(const struct hwt_pmu *pmu)
{
	return !strncmp(pmu->name, "cxl_pmu", 7);
}

int hwt_cpulist__parse(const char *text, int *cpus, int max)
{
	const char *p = text;
	int n = 0;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	while (*p && *p != '\n') {
		char *end;
		long lo, hi;

		errno = 0;
		lo = strtol(p, &end, 10);
		if (end == p || lo < 0 || lo > 1 << 20 || errno)
			return -1;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 1 << 20)
				return -1;
			p = end;
		}
		for (long c = lo; c <= hi && n < max; c++)
			cpus[n++] = (int)c;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n' && *p != ' ')
			return -1;
	}
	return n;
}

int hwt_pmu__cpus(const struct hwt_pmu *pmu, int *cpus, int max)
{
	return hwt_cpulist__parse(pmu->cpumask, cpus, max);
}

int hwt_pmu__set_cpumask(struct hwt_pmu *pmu, const char *text)
{
	char *p = trimdup(text);

	if (!p)
		return -1;
	free(pmu->cpumask);
	pmu->cpumask = p;
	return 0;
}

/* Parse "config1:0-7,32-35" into @t. */
static int parse_format(struct hwt_pmu_term *t, const char *spec, char *err, size_t errlen)
{
	/* config3 came with Linux 6.3 (arm_spe's inv_event_filter); kept whatever the build */
	static const char *const fields[] = { "config", "config1", "config2", "config3" };
	const char *colon = strchr(spec, ':'), *p;
	size_t fl;

	if (!colon) {
		hwt_pmu__seterr(err, errlen, "format '%s': expected configN:lo-hi", spec);
		return -1;
	}
	fl = colon - spec;
	t->field = -1;
	for (int i = 0; i < 4; i++)
		if (strlen(fields[i]) == fl && !strncmp(spec, fields[i], fl))
			t->field = i;
	if (t->field < 0) {
		hwt_pmu__seterr(err, errlen,
				"format '%s': unknown field '%.*s' (config, config1, config2, config3)",
		       spec, (int)fl, spec);
		return -1;
	}
	p = colon + 1;
	t->nranges = 0;
	t->width = 0;
	do {
		char *end;
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			goto bad;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				goto bad;
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (lo > hi || hi > 63 || t->nranges == HWT_PMU_MAX_RANGES)
			goto bad;
		t->lo[t->nranges] = lo;
		t->hi[t->nranges] = hi;
		t->nranges++;
		t->width += hi - lo + 1;
	} while (*p == ',' && *++p);
	if (*p)
		goto bad;
	if (t->width > 64)
		goto bad;
	return 0;
bad:
	hwt_pmu__seterr(err, errlen, "format '%s': bad bit range (expected lo-hi within 0-63)", spec);
	return -1;
}

int hwt_pmu__add_format(struct hwt_pmu *pmu, const char *name, const char *text, char *err,
			size_t errlen)
{
	struct hwt_pmu_term t = { 0 }, *nt;

	t.spec = trimdup(text);
	if (!t.spec)
		return -1;
	if (parse_format(&t, t.spec, err, errlen)) {
		free(t.spec);
		return -1;
	}
	t.name = strdup(name);
	nt = realloc(pmu->terms, (pmu->nterms + 1) * sizeof(*nt));
	if (!t.name || !nt) {
		free(t.name);
		free(t.spec);
		if (nt)
			pmu->terms = nt;
		hwt_pmu__seterr(err, errlen, "out of memory");
		return -1;
	}
	pmu->terms = nt;
	pmu->terms[pmu->nterms++] = t;
	return 0;
}

int hwt_pmu__add_event(struct hwt_pmu *pmu, const char *name, const char *text)
{
	struct hwt_pmu_event e = { 0 }, *ne;

	e.name = strdup(name);
	e.value = trimdup(text);
	ne = realloc(pmu->events, (pmu->nevents + 1) * sizeof(*ne));
	if (ne)
		pmu->events = ne;
	if (!e.name || !e.value || !ne) {
		free(e.name);
		free(e.value);
		return -1;
	}
	pmu->events[pmu->nevents++] = e;
	return 0;
}

static struct hwt_pmu_event *find_event(const struct hwt_pmu *pmu, const char *name, size_t n)
{
	for (int i = 0; i < pmu->nevents; i++)
		if (strlen(pmu->events[i].name) == n && !strncmp(pmu->events[i].name, name, n))
			return &pmu->events[i];
	return NULL;
}

int hwt_pmu__set_event_info(struct hwt_pmu *pmu, const char *name, const char *unit,
			    const char *scale)
{
	struct hwt_pmu_event *e = find_event(pmu, name, strlen(name));

	if (!e)
		return -1;
	if (unit) {
		free(e->unit);
		e->unit = trimdup(unit);
	}
	if (scale) {
		free(e->scale);
		e->scale = trimdup(scale);
	}
	return 0;
}

static const struct hwt_pmu_term *find_term(const struct hwt_pmu *pmu, const char *name,
					    size_t n)
{
	for (int i = 0; i < pmu->nterms; i++)
		if (strlen(pmu->terms[i].name) == n && !strncmp(pmu->terms[i].name, name, n))
			return &pmu->terms[i];
	return NULL;
}

/* The config word @field of @attr, or NULL for config3 when this build lacks it. */
static __u64 *config_field(struct perf_event_attr *attr, int field)
{
#ifdef PERF_ATTR_SIZE_VER8
	if (field == 3)
		return &attr->config3;
#endif
	return field == 0 ? &attr->config : field == 1 ? &attr->config1 :
	       field == 2 ? &attr->config2 : NULL;
}

/* Scatter @val over @t's ranges; clears those bits first so later terms override aliases. */
static void apply_term(const struct hwt_pmu_term *t, uint64_t val, struct perf_event_attr *attr)
{
	__u64 *cfg = config_field(attr, t->field);
	int bit = 0;

	if (!cfg)
		return;		/* config3 without a place: encode_one() refused a nonzero value */
	for (int r = 0; r < t->nranges; r++)
		for (int b = t->lo[r]; b <= t->hi[r]; b++, bit++) {
			*cfg &= ~(1ull << b);
			if ((val >> bit) & 1)
				*cfg |= 1ull << b;
		}
}

/**
 * hwt_pmu__term_value - the value format term @name has in @attr
 * @pmu:	the PMU
 * @attr:	an encoded attr
 * @name:	the term
 * @v:		its bits gathered from its ranges, lowest first (apply_term() undone)
 *
 * Returns 0, or -1 if the PMU has no such term.
 */
int hwt_pmu__term_value(const struct hwt_pmu *pmu, const struct perf_event_attr *attr,
			const char *name, uint64_t *v)
{
	const struct hwt_pmu_term *t = find_term(pmu, name, strlen(name));
	uint64_t cfg, val = 0;
	int bit = 0;

	if (!t)
		return -1;
	{
		const __u64 *w = config_field((struct perf_event_attr *)attr, t->field);

		cfg = w ? *w : 0;
	}
	for (int r = 0; r < t->nranges; r++)
		for (int b = t->lo[r]; b <= t->hi[r]; b++, bit++)
			val |= ((cfg >> b) & 1) << bit;
	*v = val;
	return 0;
}

/* Parse a u64 value (decimal, 0x hex, 0 octal); -1 on junk, a sign or overflow. */
static int parse_u64(const char *s, size_t n, uint64_t *v)
{
	char buf[32], *end;

	/* strtoull() would take " -1" as 2^64 - 1: only digits after the blanks */
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (!n || n >= sizeof(buf) || *s < '0' || *s > '9')
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || *end ? -1 : 0;
}

static int encode(const struct hwt_pmu *pmu, const char *terms, struct perf_event_attr *attr,
		  int depth, const char *user, char *err, size_t errlen);

/*
 * The next token of a term list at @p: *@tok and *@n (trimmed), *@kn the
 * length of its key (up to '=').  Returns the position after it, or NULL at
 * the end.
 */
static const char *next_tok(const char *p, const char **tok, size_t *n, size_t *kn)
{
	const char *e, *eq;

	if (!p || !*p)
		return NULL;
	e = strchr(p, ',');
	*n = e ? (size_t)(e - p) : strlen(p);
	while (*n && (*p == ' ' || *p == '\t' || *p == '\n')) {
		p++;
		--*n;
	}
	while (*n && (p[*n - 1] == ' ' || p[*n - 1] == '\t' || p[*n - 1] == '\n'))
		--*n;
	*tok = p;
	eq = memchr(p, '=', *n);
	*kn = eq ? (size_t)(eq - p) : *n;
	return e ? e + 1 : p + strlen(p);
}

/* Whether the term list @terms has a token with key [k, k + kn) before @stop (NULL: anywhere). */
static bool has_key(const char *terms, const char *stop, const char *k, size_t kn, bool need_eq)
{
	const char *p = terms, *tok;
	size_t n, tkn;

	while ((p = next_tok(p, &tok, &n, &tkn))) {
		if (stop && tok >= stop)
			break;
		if (n && tkn == kn && !strncmp(tok, k, kn) && (!need_eq || tkn < n))
			return true;
	}
	return false;
}

static int encode_one(const struct hwt_pmu *pmu, const char *tok, size_t n,
		      struct perf_event_attr *attr, int depth, const char *user, char *err,
		      size_t errlen)
{
	static const char *const raw[] = { "config", "config1", "config2", "config3" };
	const char *eq = memchr(tok, '=', n);
	size_t kn = eq ? (size_t)(eq - tok) : n;
	const struct hwt_pmu_term *t = find_term(pmu, tok, kn);
	const struct hwt_pmu_event *ev;
	uint64_t val = 1;

	if (eq && parse_u64(eq + 1, n - kn - 1, &val)) {
		hwt_pmu__seterr(err, errlen, "%s: bad value '%.*s' for term '%.*s'%s%s%s", pmu->name,
		       (int)(n - kn - 1), eq + 1, (int)kn, tok, t ? " (" : "",
		       t ? t->spec : "", t ? ")" : "");
		return -1;
	}
	if (t) {
		if (!config_field(attr, t->field) && val) {
			hwt_pmu__seterr(err, errlen,
					"%s: term '%s' sets config3 (%s), which this build's "
					"perf_event_attr lacks (Linux 6.3+ headers); the running "
					"kernel cannot be given it", pmu->name, t->name, t->spec);
			return -1;
		}
		if (t->width < 64 && (val >> t->width)) {
			hwt_pmu__seterr(err, errlen,
			       "%s: value %#llx for term '%s' does not fit %s (%d bit%s, max %#llx)",
			       pmu->name, (unsigned long long)val, t->name, t->spec, t->width,
			       t->width == 1 ? "" : "s", (unsigned long long)((1ull << t->width) - 1));
			return -1;
		}
		apply_term(t, val, attr);
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (strlen(raw[i]) == kn && !strncmp(tok, raw[i], kn) && eq) {
			__u64 *w = config_field(attr, i);

			if (!w && val) {
				hwt_pmu__seterr(err, errlen, "%s: config3 is not in this build's "
						"perf_event_attr (Linux 6.3+ headers)", pmu->name);
				return -1;
			}
			if (w)
				*w = val;
			return 0;
		}
	if (eq && ((kn == 6 && !strncmp(tok, "period", 6)) ||
		   (kn == 13 && !strncmp(tok, "sample_period", 13)))) {
		attr->sample_period = val;
		attr->freq = 0;
		return 0;
	}
	if (eq && kn == 4 && !strncmp(tok, "freq", 4)) {
		attr->sample_freq = val;
		attr->freq = 1;
		return 0;
	}
	ev = find_event(pmu, tok, kn);
	if (ev && !eq) {
		if (depth > 0) {
			hwt_pmu__seterr(err, errlen, "%s: alias '%s' refers to another alias", pmu->name,
			       ev->name);
			return -1;
		}
		return encode(pmu, ev->value, attr, depth + 1, user, err, errlen);
	}
	if (!eq && (pmu->type == PERF_TYPE_SOFTWARE || pmu->type == PERF_TYPE_HARDWARE)) {
		char name[64];
		uint32_t type;
		uint64_t cfg;

		if (kn < sizeof(name)) {
			memcpy(name, tok, kn);
			name[kn] = 0;
			if (!hwt_event__generic(name, &type, &cfg) && type == pmu->type) {
				attr->config = cfg;
				return 0;
			}
		}
	}
	{
		int off;

		off = snprintf(err, errlen, "%s: unknown %s '%.*s'; terms:", pmu->name,
			       eq ? "term" : "term or event", (int)kn, tok);
		for (int i = 0; i < pmu->nterms && off >= 0 && (size_t)off < errlen; i++)
			off += snprintf(err + off, errlen - off, " %s", pmu->terms[i].name);
		if (off >= 0 && (size_t)off < errlen)
			snprintf(err + off, errlen - off, "%s config config1 config2",
				 pmu->nterms ? "," : "");
	}
	return -1;
}

/*
 * @user is the term list the user wrote: an alias's "term=?" takes the value
 * the user gives that term (hv_24x7's "chip=?"); the user's own terms may
 * not repeat one.
 */
static int encode(const struct hwt_pmu *pmu, const char *terms, struct perf_event_attr *attr,
		  int depth, const char *user, char *err, size_t errlen)
{
	const char *p = terms, *tok;
	size_t n, kn;

	while ((p = next_tok(p, &tok, &n, &kn))) {
		if (!n)
			continue;
		if (memchr(tok, '?', n)) {
			if (depth && kn < n && has_key(user, NULL, tok, kn, true))
				continue;	/* the user's value is applied in its turn */
			if (depth)
				hwt_pmu__seterr(err, errlen, "%s: parameter '%.*s' of the event "
						"needs a value ('%.*s' in sysfs): add %.*s=N",
						pmu->name, (int)kn, tok, (int)n, tok, (int)kn, tok);
			else
				hwt_pmu__seterr(err, errlen, "%s: '%.*s' needs a value, not '?'",
						pmu->name, (int)n, tok);
			return -1;
		}
		if (!depth && has_key(terms, tok, tok, kn, false)) {
			hwt_pmu__seterr(err, errlen, "%s: term '%.*s' given twice", pmu->name,
					(int)kn, tok);
			return -1;
		}
		if (encode_one(pmu, tok, n, attr, depth, user, err, errlen))
			return -1;
	}
	return 0;
}

int hwt_pmu__encode_err(const struct hwt_pmu *pmu, const char *terms,
			struct perf_event_attr *attr, char *err, size_t errlen)
{
	attr->type = pmu->type;
	attr->size = sizeof(*attr);
	return encode(pmu, terms, attr, 0, terms, err, errlen);
}

int hwt_event_list__split(const char *list, char ***events)
{
	char **v = NULL;
	int n = 0, depth = 0;
	const char *start = list;

	for (const char *p = list;; p++) {
		if (*p == '/')
			depth ^= 1;	/* pmu/terms/: commas inside are the event's own */
		if (*p && (*p != ',' || depth))
			continue;
		if (p > start) {
			char **nv = realloc(v, (n + 1) * sizeof(*v));

			if (!nv)
				goto fail;
			v = nv;
			v[n] = strndup(start, p - start);
			if (!v[n])
				goto fail;
			n++;
		}
		if (!*p)
			break;
		start = p + 1;
	}
	*events = v;
	return n;
fail:
	while (n--)
		free(v[n]);
	free(v);
	return -1;
}

/* The generic names from include/uapi/linux/perf_event.h, as perf spells them. */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

const char *hwt_event__generic_at(int i, uint32_t *type, uint64_t *config)
{
	if (i < 0 || (size_t)i >= sizeof(generic) / sizeof(generic[0]))
		return NULL;
	if (type)
		*type = generic[i].type;
	if (config)
		*config = generic[i].config;
	return generic[i].name;
}

int hwt_event__generic(const char *name, uint32_t *type, uint64_t *config)
{
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (!strcmp(generic[i].name, name)) {
			*type = generic[i].type;
			*config = generic[i].config;
			return 0;
		}
	return -1;
}

int hwt_pmu__encode(const struct hwt_pmu *pmu, const char *terms,
		    struct perf_event_attr *attr, struct hwt_diag *diag)
{
	char err[256];
	int ret = hwt_pmu__encode_err(pmu, terms, attr, err, sizeof(err));

	if (ret)
		hwt_diag__error(diag, 0, "event", "%s", err);
	return ret;
}
