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

#include "membuf.h"

struct drm_clients;

/* The Prometheus pieces, appended to a membuf (the scrape's text). */
void prom_buf__u64(struct membuf *b, uint64_t v);
/* @s as a label value: valid UTF-8 (bad bytes become U+FFFD), \\ \" \n escaped */
void prom_buf__label_value(struct membuf *b, const char *s);
/* "# HELP @name @help" and "# TYPE @name @type" */
void prom_buf__family(struct membuf *b, const char *name, const char *type, const char *help);

/* hwtrace_drm_client_* of every client of @c's last sample. */
void exporter_metrics__drm(struct membuf *b, const struct drm_clients *c);

/* hwtrace_exporter_scrape_duration_seconds and hwtrace_exporter_scrape_errors_total */
void exporter_metrics__self(struct membuf *b, double duration_s, uint64_t errors);

#endif
