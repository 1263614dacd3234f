// SPDX-License-Identifier: GPL-2.0
/*
 * sink_metrics.c - `report --metrics`: each group of each stream's metrics
 * computer (per i915 context, per panthor run, ...), as a table of name,
 * value and unit, or with --json one object per line:
 *	{"ctx":"0x20","metric_set":"RenderBasic","metrics":{"GpuBusy":10.7,...}}
 */
#include <string.h>

#include "hwtrace/device.h"

#include "sinks.h"

static void on_metrics(void *ctx, const struct hwt_stream *st, const struct hwt_metrics *m)
{
	struct metrics_sink *s = ctx;
	struct out *o = s->o;

	s->groups++;
	if (s->style == FS_JSON) {
		out__putc(o, '{');
		if (m->group_key) {
			out__json_str(o, m->group_key);
			out__putc(o, ':');
			out__json_str(o, m->group ? m->group : "");
			out__putc(o, ',');
		}
		out__puts(o, "\"metric_set\":");
		out__json_str(o, m->set ? m->set : "");
		out__puts(o, ",\"metrics\":{");
		for (uint32_t i = 0; i < m->n; i++) {
			if (i)
				out__putc(o, ',');
			out__json_str(o, m->defs[i].name);
			out__putc(o, ':');
			field_fmt__metric_value(o, m, i, FS_JSON);
		}
		out__puts(o, "}}\n");
		return;
	}
	out__printf(o, "%sAUX stream %u: %s metrics, %s", s->groups > 1 ? "\n" : "", st->idx,
		    st->dev ? st->dev->name : "?", m->set ? m->set : "");
	if (m->group_key)
		out__printf(o, ", %s %s", m->group_key, m->group ? m->group : "");
	out__putc(o, '\n');
	for (uint32_t i = 0; i < m->n; i++) {
		const char *unit = m->defs[i].unit;

		out__printf(o, "  %-40s ", m->defs[i].name);
		field_fmt__metric_value(o, m, i, FS_TEXT);
		if (unit && *unit)
			out__printf(o, " %s", unit);
		out__putc(o, '\n');
	}
}

void metrics_sink__init(struct metrics_sink *s, struct out *o, enum field_style style,
			struct hwt_sink *sink)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->style = style;
	*sink = (struct hwt_sink){ .metrics = on_metrics, .ctx = s };
}
