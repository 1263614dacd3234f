// SPDX-License-Identifier: GPL-2.0
/*
 * exporter_metrics.c - DRM client series in the Prometheus text format.
 *
 * A scrape of thousands of clients is tens of thousands of lines sharing
 * per-client labels: those are escaped once per client into a prefix, and
 * every line is then a few copies.  Busy time is printed as exact decimal
 * seconds (ns / 1e9 without a float), so rate() sees the driver's counter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drm_clients.h"
#include "exporter_metrics.h"

#define PUT_LIT(b, s) membuf__put(b, s, sizeof(s) - 1)

void prom_buf__u64(struct membuf *b, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	membuf__put(b, tmp + i, sizeof(tmp) - i);
}

/* ns as seconds with nine decimals: exact, whatever the magnitude */
static void prom_buf__ns_as_s(struct membuf *b, uint64_t ns)
{
	char frac[10];
	uint64_t f = ns % 1000000000u;

	prom_buf__u64(b, ns / 1000000000u);
	frac[0] = '.';
	for (int i = 9; i >= 1; i--, f /= 10)
		frac[i] = '0' + f % 10;
	membuf__put(b, frac, sizeof(frac));
}

/* Length of the valid UTF-8 sequence at @s (1 to 4), or 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Bytes copied as they are into a label value: printable ASCII but \\ and " */
static const bool plain_byte[256] = {
	[0x20 ... 0x21] = true, [0x23 ... 0x5b] = true, [0x5d ... 0x7e] = true,
};

void prom_buf__label_value(struct membuf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		const unsigned char *run = s;
		int n;

		while (plain_byte[*s])
			s++;
		membuf__put(b, (const char *)run, s - run);
		if (!*s)
			break;
		if (*s == '\\' || *s == '"' || *s == '\n') {
			char esc[2] = { '\\', *s == '\n' ? 'n' : (char)*s };

			membuf__put(b, esc, 2);
			s++;
			continue;
		}
		n = utf8_len(s);
		if (n) {	/* other control characters are valid UTF-8 too */
			membuf__put(b, (const char *)s, n);
			s += n;
		} else {
			PUT_LIT(b, "\xef\xbf\xbd");
			s++;
		}
	}
}

void prom_buf__family(struct membuf *b, const char *name, const char *type, const char *help)
{
	PUT_LIT(b, "# HELP ");
	membuf__puts(b, name);
	membuf__put(b, " ", 1);
	membuf__puts(b, help);
	PUT_LIT(b, "\n# TYPE ");
	membuf__puts(b, name);
	membuf__put(b, " ", 1);
	membuf__puts(b, type);
	membuf__put(b, "\n", 1);
}

/*
 * The labels every series of @cl carries, escaped:
 * driver="..",pdev="..",client_id="..",pid="..",comm=".."
 * A client without drm-client-id is named by the pid and fd that hold it.
 */
static void client_labels(struct membuf *b, const struct drm_clients *c,
			  const struct drm_client *cl)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;

	PUT_LIT(b, "driver=\"");
	prom_buf__label_value(b, fi->driver);
	PUT_LIT(b, "\",pdev=\"");
	prom_buf__label_value(b, fi->pdev ? fi->pdev : "");
	PUT_LIT(b, "\",client_id=\"");
	if (cl->has_id) {
		prom_buf__u64(b, cl->client_id);
	} else {
		prom_buf__u64(b, (uint64_t)drm_client__fd_pid(cl));
		membuf__put(b, "/", 1);
		prom_buf__u64(b, drm_client__fd(cl));
	}
	PUT_LIT(b, "\",pid=\"");
	if (cl->npids)
		prom_buf__u64(b, cl->pids[0]);	/* sorted: the lowest */
	PUT_LIT(b, "\",comm=\"");
	prom_buf__label_value(b, cl->comm);
	membuf__put(b, "\"", 1);
}

enum engine_series { BUSY, CYCLES, CAPACITY, NSERIES };

static const struct {
	const char *name, *type, *help;
	uint32_t have;
} engine_series[NSERIES] = {
	[BUSY] = { "hwtrace_drm_client_engine_busy_seconds_total", "counter",
		   "Time the engine spent on the client's work (fdinfo drm-engine-<engine>).",
		   HWT_DRM_HAVE_NS },
	[CYCLES] = { "hwtrace_drm_client_engine_cycles_total", "counter",
		     "Engine clock cycles spent on the client's work (fdinfo drm-cycles-<engine>).",
		     HWT_DRM_HAVE_CYCLES },
	[CAPACITY] = { "hwtrace_drm_client_engine_capacity", "gauge",
		       "Engines of this class the busy time is summed over "
		       "(fdinfo drm-engine-capacity-<engine>).", HWT_DRM_HAVE_CAPACITY },
};

#define MEMORY_SERIES "hwtrace_drm_client_memory_bytes"

/* A client's labels: a slice of the prefixes rendered once per scrape */
struct labels {
	const char *p;
	size_t len;
};

/* One line: NAME{LABELS,KEY="VAL" */
static void series_head(struct membuf *b, const char *name, size_t name_len,
			const struct labels *labels, const char *key, size_t key_len,
			const char *val)
{
	membuf__put(b, name, name_len);
	membuf__put(b, "{", 1);
	membuf__put(b, labels->p, labels->len);
	membuf__put(b, key, key_len);
	prom_buf__label_value(b, val);
	PUT_LIT(b, "\"");
}

static void client_engines(struct membuf *b, enum engine_series s, const struct drm_client *cl,
			   const struct labels *labels)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;
	size_t nlen = strlen(engine_series[s].name);

	for (uint32_t i = 0; i < fi->nengines; i++) {
		const struct hwt_drm_engine *e = &fi->engines[i];

		if (!(e->have & engine_series[s].have))
			continue;
		series_head(b, engine_series[s].name, nlen, labels, ",engine=\"", 9, e->name);
		PUT_LIT(b, "} ");
		if (s == BUSY)
			prom_buf__ns_as_s(b, e->busy_ns);
		else
			prom_buf__u64(b, s == CYCLES ? e->cycles : e->capacity);
		membuf__put(b, "\n", 1);
	}
}

/* Memory by region and kind; a legacy drm-memory-<region> is resident memory. */
static void client_memory(struct membuf *b, const struct drm_client *cl,
			  const struct labels *labels)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;

	/* ",kind=\"<kind>\"} " of enum hwt_drm_mem */
#define KIND(s) { ",kind=\"" s "\"} ", sizeof(",kind=\"" s "\"} ") - 1 }
	static const struct { const char *s; size_t n; } kinds[HWT_DRM_MEM_N] = {
		KIND("total"), KIND("shared"), KIND("resident"), KIND("purgeable"), KIND("active"),
	};
#undef KIND

	for (uint32_t i = 0; i < fi->nregions; i++) {
		const struct hwt_drm_region *r = &fi->regions[i];
		size_t head = b->len, head_len = 0;

		for (int m = 0; m < HWT_DRM_MEM_N; m++) {
			uint64_t v = r->bytes[m];

			if (!(r->have & (1u << m))) {
				if (m != HWT_DRM_MEM_RESIDENT || !(r->have & HWT_DRM_HAVE_LEGACY))
					continue;
				v = r->legacy;
			}
			if (!head_len) {	/* name, labels and escaped region, once */
				head = b->len;
				series_head(b, MEMORY_SERIES, sizeof(MEMORY_SERIES) - 1, labels,
					    ",region=\"", 9, r->name);
				head_len = b->oom ? 0 : b->len - head;
			} else if (membuf__grow(b, head_len)) {
				memcpy(b->p + b->len, b->p + head, head_len);	/* no overlap */
				b->len += head_len;
			}
			membuf__put(b, kinds[m].s, kinds[m].n);
			prom_buf__u64(b, v);
			membuf__put(b, "\n", 1);
		}
	}
}

void exporter_metrics__drm(struct membuf *b, const struct drm_clients *c)
{
	struct membuf all = { 0 };
	size_t *off = malloc((c->nclients + 1) * sizeof(*off));

	if (!off) {
		b->oom = true;
		return;
	}
	for (int i = 0; i < c->nclients; i++) {
		off[i] = all.len;
		client_labels(&all, c, &c->clients[i]);
	}
	off[c->nclients] = all.len;
	if (all.oom)
		b->oom = true;
	/* a family's lines must be together: one pass over the clients per family */
	for (int s = 0; s <= NSERIES && !b->oom; s++) {
		if (s < NSERIES)
			prom_buf__family(b, engine_series[s].name, engine_series[s].type,
					 engine_series[s].help);
		else
			prom_buf__family(b, MEMORY_SERIES, "gauge",
					 "Memory of the client's buffer objects by region and kind "
					 "(fdinfo drm-<kind>-<region>).");
		for (int i = 0; i < c->nclients; i++) {
			const struct labels l = { all.p + off[i], off[i + 1] - off[i] };

			if (s < NSERIES)
				client_engines(b, s, &c->clients[i], &l);
			else
				client_memory(b, &c->clients[i], &l);
		}
	}
	membuf__free(&all);
	free(off);
}

void exporter_metrics__self(struct membuf *b, double duration_s, uint64_t errors)
{
	char num[64];
	int n = snprintf(num, sizeof(num), "%.9f\n", duration_s);

	prom_buf__family(b, "hwtrace_exporter_scrape_duration_seconds", "gauge",
			 "Wall time this scrape took to read and render the series.");
	PUT_LIT(b, "hwtrace_exporter_scrape_duration_seconds ");
	membuf__put(b, num, n);
	prom_buf__family(b, "hwtrace_exporter_scrape_errors_total", "counter",
			 "Scrapes that could not read a source (the proc root, a PMU counter).");
	PUT_LIT(b, "hwtrace_exporter_scrape_errors_total ");
	prom_buf__u64(b, errors);
	membuf__put(b, "\n", 1);
}
