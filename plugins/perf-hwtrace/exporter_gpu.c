// SPDX-License-Identifier: GPL-2.0
/*
 * exporter_gpu.c - hwtrace_gpu_* series: frequency, power, energy,
 * temperature, VRAM and engine busy time of every GPU that
 * gpu_devices__sample() read, labelled {card,driver,pdev}.  Base units as
 * Prometheus names them: hertz, watts, joules, celsius, bytes, seconds.
 */
#include <math.h>
#include <stdio.h>

#include "exporter_gpu.h"
#include "exporter_metrics.h"
#include "gpu_devices.h"

enum gpu_value {
	GV_FREQ, GV_MAX_FREQ, GV_POWER, GV_ENERGY, GV_TEMP, GV_VRAM_TOTAL, GV_VRAM_USED,
	GV_N,
};

static const struct {
	const char *name, *type, *help;
} families[GV_N] = {
	[GV_FREQ] = { "hwtrace_gpu_frequency_hertz", "gauge",
		      "Current GPU (GT) frequency from sysfs." },
	[GV_MAX_FREQ] = { "hwtrace_gpu_max_frequency_hertz", "gauge",
			  "Maximum GPU (GT) frequency from sysfs." },
	[GV_POWER] = { "hwtrace_gpu_power_watts", "gauge",
		       "GPU power from hwmon (energy delta, power1_average or power1_input)." },
	[GV_ENERGY] = { "hwtrace_gpu_energy_joules_total", "counter",
			"GPU energy from hwmon energy1_input." },
	[GV_TEMP] = { "hwtrace_gpu_temperature_celsius", "gauge",
		      "GPU temperature from hwmon (its lowest tempN_input)." },
	[GV_VRAM_TOTAL] = { "hwtrace_gpu_vram_total_bytes", "gauge",
			    "VRAM size from sysfs." },
	[GV_VRAM_USED] = { "hwtrace_gpu_vram_used_bytes", "gauge",
			   "VRAM in use from sysfs." },
};

/* The value @v of @d, false when the device does not expose it. */
static bool value_of(const struct gpu_device *d, enum gpu_value v, double *out)
{
	switch (v) {
	case GV_FREQ:
		*out = d->cur_mhz * 1e6;
		return d->cur_mhz >= 0;
	case GV_MAX_FREQ:
		*out = d->max_mhz * 1e6;
		return d->max_mhz >= 0;
	case GV_POWER:
		*out = d->power_w;
		return !isnan(d->power_w);
	case GV_ENERGY:
		*out = d->energy_uj / 1e6;
		return d->has_energy;
	case GV_TEMP:
		*out = d->temp_c;
		return !isnan(d->temp_c);
	case GV_VRAM_TOTAL:
		*out = (double)d->vram_total;
		return d->vram_total >= 0;
	case GV_VRAM_USED:
		*out = (double)d->vram_used;
		return d->vram_used >= 0;
	case GV_N:
		break;
	}
	return false;
}

static void labels(struct membuf *b, const struct gpu_device *d)
{
	membuf__puts(b, "{card=\"");
	prom_buf__label_value(b, d->card);
	membuf__puts(b, "\",driver=\"");
	prom_buf__label_value(b, d->driver);
	membuf__puts(b, "\",pdev=\"");
	prom_buf__label_value(b, d->pdev);
	membuf__puts(b, "\"");
}

static void number(struct membuf *b, double v)
{
	char num[64];
	int n = snprintf(num, sizeof(num), " %.17g\n", v);

	membuf__put(b, num, (size_t)n);
}

void exporter_gpu__render(struct membuf *b, const struct gpu_devices *g)
{
	bool any;
	double v;

	for (int f = 0; f < GV_N; f++) {
		any = false;
		for (int i = 0; i < g->n; i++) {
			const struct gpu_device *d = &g->dev[i];

			if (!value_of(d, f, &v))
				continue;
			if (!any)
				prom_buf__family(b, families[f].name, families[f].type,
						 families[f].help);
			any = true;
			membuf__puts(b, families[f].name);
			labels(b, d);
			membuf__put(b, "}", 1);
			number(b, v);
		}
	}
	/* engine busy: i915's PMU counts busy ns per engine; xe's ticks give a share of the
	 * time, summed as ns (gpu_xe__sample()) */
	any = false;
	for (int i = 0; i < g->n; i++) {
		const struct gpu_device *d = &g->dev[i];

		for (int e = 0; e < d->nengines; e++) {
			const struct gpu_engine *en = &d->engines[e];

			if (en->fd < 0 || !en->has_prev)
				continue;
			if (!any)
				prom_buf__family(b, "hwtrace_gpu_engine_busy_seconds_total",
						 "counter",
						 "Engine busy time from the driver's perf PMU.");
			any = true;
			membuf__puts(b, "hwtrace_gpu_engine_busy_seconds_total");
			labels(b, d);
			membuf__puts(b, ",engine=\"");
			prom_buf__label_value(b, en->name);
			membuf__puts(b, "\"}");
			number(b, en->cur / 1e9);
		}
	}
}
