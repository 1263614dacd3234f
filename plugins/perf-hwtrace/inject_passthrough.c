// SPDX-License-Identifier: GPL-2.0
/*
 * inject_passthrough.c - the input's events and records in inject's output.
 *
 * perf reads a file only when every attr puts the sample id at the same
 * place; the injected tracepoint events use PERF_SAMPLE_IDENTIFIER.  An input
 * event without it gets it in the output, and each of its records the id
 * (sample_id.c writes the bytes): its PERF_SAMPLE_ID value when that names
 * the event (0, perf's id of the records it synthesizes, stays 0), else the
 * event's first id.  A lone event without ids gets a fresh one, written in
 * its records, EVENT_UPDATE and STAT alike.  An input whose records perf
 * could not attribute either (several events, ids at different places or
 * none) is refused rather than turned into a file perf rejects.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_data/perf_record_names.h"
#include "perf_data/sample_id_internal.h"
#include "inject_passthrough.h"

/**
 * struct pt_attr - an input event in the output
 * @a:		the input's attr
 * @rewrite:	its records get their ids (re)written
 * @id:		the id its records get when they name none of its own
 * @name:	its shorter name in the output (short_name()), if it has one
 */
struct pt_attr {
	const struct hwt_attr *a;
	bool rewrite;
	uint64_t id;
	char name[64];
};

static int refuse(struct inject_pt *pt, struct hwt_diag *diag, uint64_t off, const char *rtype,
		  const char *why)
{
	pt->refused = true;
	hwt_diag__error(diag, off, rtype, "%s: the input's records cannot be passed through "
			"with ids stock perf tells apart; nothing written", why);
	return -1;
}

/* perf's own conditions (evlist__valid_sample_id_all, __valid_sample_type) */
static int check_attrs(struct inject_pt *pt, const struct hwt_reader *r, struct hwt_diag *diag)
{
	int id0, is0;

	for (uint32_t i = 0; i < pt->nattrs; i++) {
		const struct perf_event_attr *a = &hwt_reader__attr(r, i)->attr;
		int id_pos, is_pos;

		if (!i)
			pt->sample_id_all = a->sample_id_all;
		else if ((bool)a->sample_id_all != pt->sample_id_all)
			return refuse(pt, diag, 0, "perf_event_attr",
				      "the events disagree on sample_id_all");
		if (pt->nattrs == 1)
			break;
		hwt_sample_id__positions(a->sample_type, &id_pos, &is_pos);
		if (!i) {
			id0 = id_pos;
			is0 = is_pos;
		}
		if (id_pos < 0 || is_pos < 0)
			return refuse(pt, diag, 0, "perf_event_attr",
				      "several events, and one has neither PERF_SAMPLE_ID "
				      "nor PERF_SAMPLE_IDENTIFIER");
		if (id_pos != id0 || is_pos != is0)
			return refuse(pt, diag, 0, "perf_event_attr",
				      "the events put their sample ids at different places");
	}
	return 0;
}

/*
 * A dynamic PMU's (AUX) event "pmu/term=v,.../" as "pmu//": stock perf
 * script pads its event column to the longest event name, and the terms
 * made every injected sample line ~200 characters wide.  They stay in the
 * input.
 */
static const char *short_name(char *buf, size_t size, const char *name)
{
	const char *slash = name ? strchr(name, '/') : NULL;

	if (!slash || (size_t)(slash - name) + 3 > size)
		return name;
	snprintf(buf, size, "%.*s//", (int)(slash - name), name);
	return buf;
}

int inject_pt__start(struct inject_pt *pt, const struct hwt_reader *r, struct hwt_writer *w,
		     struct hwt_diag *diag)
{
	int ret = 0;

	pt->nattrs = r ? hwt_reader__nr_attrs(r) : 0;
	pt->sample_id_all = true;
	if (!pt->nattrs)
		return 0;
	if (check_attrs(pt, r, diag) < 0)
		return -1;
	pt->attrs = calloc(pt->nattrs, sizeof(*pt->attrs));
	if (!pt->attrs)
		return -1;
	for (uint32_t i = 0; i < pt->nattrs; i++) {
		const struct hwt_attr *a = hwt_reader__attr(r, i);
		struct pt_attr *pa = &pt->attrs[i];
		struct hwt_writer_attr wa = {
			.attr = a->attr, .ids = a->ids, .nr_ids = a->nr_ids, .name = a->name,
		};

		pa->a = a;
		pa->rewrite = !(a->attr.sample_type & PERF_SAMPLE_IDENTIFIER);
		if (a->nr_ids) {
			pa->id = a->ids[0];
		} else if (pt->nattrs == 1) {
			/* no id in the input at all: 1 is free */
			pt->fresh_id = pa->id = 1;
			pa->rewrite = true;
			wa.ids = &pt->fresh_id;
			wa.nr_ids = 1;
		}
		pt->rewrite |= pa->rewrite;
		wa.attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		/*
		 * stock perf script refuses a dynamic-PMU event without
		 * PERF_SAMPLE_IP ("Display of symbols requested ..."); the AUX
		 * events are such, and carry no samples: declare them as dummy
		 * software events (same ids, same sample layout).
		 */
		if (wa.attr.type >= PERF_TYPE_MAX && !(wa.attr.sample_type & PERF_SAMPLE_IP)) {
			wa.attr.type = PERF_TYPE_SOFTWARE;
			wa.attr.config = PERF_COUNT_SW_DUMMY;
		}
		if (a->attr.type >= PERF_TYPE_MAX)
			wa.name = short_name(pa->name, sizeof(pa->name), a->name);
		if (hwt_writer__add_attr(w, &wa) < 0)
			ret = -1;
	}
	return ret;
}

static struct pt_attr *pt_attr_of(struct inject_pt *pt, const struct hwt_attr *a)
{
	if (pt->last && pt->last->a == a)
		return pt->last;
	for (uint32_t i = 0; i < pt->nattrs; i++)
		if (pt->attrs[i].a == a)
			return pt->last = &pt->attrs[i];
	return NULL;
}

/* The id a record of @pa names: its own when that is @pa's (or 0), else @pa's first. */
static uint64_t pick_id(const struct hwt_reader *r, const struct pt_attr *pa, bool has,
			uint64_t id)
{
	if (has && (!id || hwt_reader__attr_by_id(r, id) == pa->a))
		return id;
	return pa->id;
}

const struct perf_event_header *inject_pt__record(struct inject_pt *pt,
						  const struct hwt_reader *r,
						  const struct hwt_event *ev, struct hwt_diag *diag)
{
	uint32_t type = ev->hdr->type;
	const struct perf_event_attr *attr = NULL;
	struct pt_attr *pa;
	uint64_t id;
	size_t n;

	if (!pt->rewrite || pt->refused)
		return pt->refused ? NULL : ev->hdr;
	if (type == PERF_RECORD_SAMPLE || (type < HWT_REC_HEADER_ATTR && pt->sample_id_all)) {
		pa = pt_attr_of(pt, ev->attr);
		if (!pa) {
			refuse(pt, diag, ev->offset, perf_record_name(type),
			       "the record's sample id names none of the input's events");
			return NULL;
		}
		if (!pa->rewrite)
			return ev->hdr;
		attr = &pa->a->attr;
		id = pick_id(r, pa, ev->sid.valid & PERF_SAMPLE_ID, ev->sid.id);
	} else if (hwt_record__field_id(ev->hdr, &id)) {
		const struct hwt_attr *a = id ? hwt_reader__attr_by_id(r, id) :
					   hwt_reader__attr(r, 0);

		if (a && a->nr_ids)
			return ev->hdr;
		if (pt->nattrs != 1) {
			refuse(pt, diag, ev->offset, perf_record_name(type),
			       "the record's id names none of the input's events");
			return NULL;
		}
		/* the lone event's record, whatever its id says */
		id = pt->attrs[0].id;
	} else {
		return ev->hdr;
	}
	n = hwt_record__set_id(ev->hdr, attr, id, pt->buf, sizeof(pt->buf));
	if (!n) {
		if (!pt->too_big++)
			hwt_diag__error(diag, ev->offset, perf_record_name(type),
					"record of %u bytes does not fit 64 KiB with its sample "
					"id added; left out", ev->hdr->size);
		return NULL;
	}
	return (const struct perf_event_header *)pt->buf;
}

void inject_pt__fini(struct inject_pt *pt)
{
	free(pt->attrs);
	pt->attrs = NULL;
}
