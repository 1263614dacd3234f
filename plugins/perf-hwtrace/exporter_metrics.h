/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exporter_metrics.h - series of the Prometheus text exposition format
 * (version 0.0.4) rendered into memory for `perf hwtrace exporter`: the
 * DRM client series from a struct drm_clients sample and the exporter's own.
 * No I/O here: exporter_http.c serves what these write.
 */
#ifndef PERF_HWTRACE_EXPORTER_METRICS_H
#define PERF_HWTRACE_EXPORTER_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct drm_clients;

/* A growing text buffer; after a failed allocation it stops growing and sets @oom. */
struct prom_buf {
	char *p;
	size_t len, cap;
	bool oom;
};

/* Room for @n more bytes (and a NUL); false once out of memory. */
bool prom_buf__grow(struct prom_buf *b, size_t n);

/* Inline: a scrape is hundreds of thousands of short copies. */
static inline void prom_buf__put(struct prom_buf *b, const char *s, size_t n)
{
	if (b->len + n >= b->cap && !prom_buf__grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void prom_buf__puts(struct prom_buf *b, const char *s);
void prom_buf__u64(struct prom_buf *b, uint64_t v);
/* @s as a label value: valid UTF-8 (bad bytes become U+FFFD), \\ \" \n escaped */
void prom_buf__label_value(struct prom_buf *b, const char *s);
/* "# HELP @name @help" and "# TYPE @name @type" */
void prom_buf__family(struct prom_buf *b, const char *name, const char *type, const char *help);
/* The text, NUL-terminated, handed to the caller (who frees it); @b is empty after. */
char *prom_buf__steal(struct prom_buf *b, size_t *len);
void prom_buf__free(struct prom_buf *b);

/* hwtrace_drm_client_* of every client of @c's last sample. */
void exporter_metrics__drm(struct prom_buf *b, const struct drm_clients *c);

/* hwtrace_exporter_scrape_duration_seconds and hwtrace_exporter_scrape_errors_total */
void exporter_metrics__self(struct prom_buf *b, double duration_s, uint64_t errors);

#endif
