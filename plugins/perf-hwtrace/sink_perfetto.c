// SPDX-License-Identifier: GPL-2.0
/*
 * sink_perfetto.c - records and perf events -> Perfetto TracePackets on one
 * packet sequence: track descriptors on first use, TYPE_COUNTER events on
 * counter tracks, TYPE_INSTANT events with interned names on thread tracks.
 */
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwtrace/device.h"
#include "hwtrace/perf_data.h"

#include "field_fmt.h"
#include "pb_write.h"
#include "perfetto_map.h"
#include "perfetto_proto.h"
#include "sink_perfetto.h"

#define SEQ_ID 1	/* our one trusted_packet_sequence_id */
#define MAX_NAME_FIELDS 5	/* drm_usage_memory: comm, client_id, fd, region, kind */

/* A track, a thread, a process or an interned string, by the hash of what it is. */
struct entry {
	uint64_t key;
	uint64_t id;		/* track uuid or interned iid */
	bool pending;		/* PF_EPOCH_*: a sum waits for its time to end */
	uint64_t pend_t, pend_v;
};

/*
 * The track a value went to last, by what its name is made of: consecutive
 * records mostly go to the same tracks, and comparing is cheaper than hashing.
 */
struct value_cache {
	uint64_t gen;		/* the table's generation it is valid for (0: never) */
	uint64_t in[MAX_NAME_FIELDS];
	char str[MAX_NAME_FIELDS][48];
	const char *subs;
	uint64_t subn;
	struct entry *e;
};

/* What a table entry resolves to in this build's record types. */
struct map_rt {
	const struct pf_map *m;
	const struct hwt_record_type *type;
	int time_f, cpu_time_f, key_f;
	int f[PF_MAX_VALUES], f2[PF_MAX_VALUES];
	int name_f[PF_MAX_VALUES][MAX_NAME_FIELDS];
	const struct hwt_record_type *freq_type, *early_type, *select_type;
	int freq_f, early_f, select_f;
	uint64_t group_uuid;
	struct value_cache cache[PF_MAX_VALUES];
};

struct stream_rt {
	uint64_t freq;		/* ticks per second, 0: unknown */
	uint64_t chunk_time;	/* time of the latest chunk */
	bool started;		/* time_wrap_bits clocks: base and last are set */
	uint64_t base, last, acc;
};

struct perfetto_sink {
	struct out *o;
	bool raw;
	struct pb pb;
	struct map_rt *rt;
	struct entry *tab;	/* open addressing, key 0 free */
	size_t ntab, captab;
	uint64_t gen;		/* bumped when entries move */
	struct map_rt *last_rt;	/* map_of()'s last answer */
	uint64_t next_id;
	struct stream_rt *st;
	uint32_t nst;
	uint64_t *sel;		/* keys picked by the first pass, sorted */
	size_t nsel;
	volatile int *stop;
	bool header_done;
	uint32_t clock;
	uint64_t last_time;
	uint64_t packets, tracks, dropped;
	uint64_t values_left_out;	/* of records on the timeline: no frequency */
	bool warned_freq, warned_ticks;
	bool first_pass_done, warned_select;
	struct out name_out;	/* renders names; never flushed */
};

/* ------------------------------------------------------------------ keys */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t mem_hash(uint64_t h, const char *s, size_t n)
{
	while (n--)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return mix(h, 0x5a);
}

static uint64_t str_hash(uint64_t h, const char *s)
{
	return mem_hash(h, s ? s : "", s ? strlen(s) : 0);
}

/* The entry for @key; *@isnew says whether it was just made (id assigned). */
static struct entry *lookup(struct perfetto_sink *s, uint64_t key, bool *isnew)
{
	size_t i;

	key |= !key;	/* 0 marks free slots */
	if ((s->ntab + 1) * 2 > s->captab) {
		size_t cap = s->captab ? s->captab * 2 : 1024;
		struct entry *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t j = 0; j < s->captab; j++) {
			if (!s->tab[j].key)
				continue;
			for (i = s->tab[j].key & (cap - 1); t[i].key; i = (i + 1) & (cap - 1))
				;
			t[i] = s->tab[j];
		}
		free(s->tab);
		s->tab = t;
		s->captab = cap;
		s->gen++;
	}
	for (i = key & (s->captab - 1); s->tab[i].key; i = (i + 1) & (s->captab - 1))
		if (s->tab[i].key == key) {
			*isnew = false;
			return &s->tab[i];
		}
	s->tab[i] = (struct entry){ .key = key, .id = ++s->next_id };
	s->ntab++;
	*isnew = true;
	return &s->tab[i];
}

/* ---------------------------------------------------------------- output */

static void write_packet(struct perfetto_sink *s)
{
	if (s->pb.m.oom) {
		s->dropped++;
	} else {
		out__write(s->o, s->pb.m.p, s->pb.m.len);
		s->packets++;
	}
	pb__reset(&s->pb);
}

/* Every packet: Trace.packet, our sequence; @t: a timestamp on the trace clock. */
static void packet_begin(struct perfetto_sink *s, bool timed, uint64_t t)
{
	pb__begin(&s->pb, PF_TRACE_PACKET);
	if (timed) {
		pb__varint(&s->pb, PF_PKT_TIMESTAMP, t);
		pb__varint(&s->pb, PF_PKT_TIMESTAMP_CLOCK_ID, s->clock);
	}
	pb__varint(&s->pb, PF_PKT_SEQUENCE_ID, SEQ_ID);
}

static void packet_end(struct perfetto_sink *s)
{
	pb__end(&s->pb);
	write_packet(s);
}

/*
 * The first packet clears the sequence's incremental state and makes the
 * trace's clock the one our timestamps are on.
 */
static void header(struct perfetto_sink *s)
{
	if (s->header_done)
		return;
	s->header_done = true;
	packet_begin(s, false, 0);
	pb__varint(&s->pb, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
	pb__begin(&s->pb, PF_PKT_CLOCK_SNAPSHOT);
	pb__begin(&s->pb, PF_CS_CLOCKS);
	pb__varint(&s->pb, PF_CLOCK_ID, s->clock);
	pb__varint(&s->pb, PF_CLOCK_TIMESTAMP, 0);
	pb__end(&s->pb);
	pb__varint(&s->pb, PF_CS_PRIMARY_TRACE_CLOCK, s->clock);
	pb__end(&s->pb);
	packet_end(s);
}

static void track_descriptor(struct perfetto_sink *s, uint64_t uuid, uint64_t parent,
			     const char *name, int unit)
{
	header(s);
	packet_begin(s, false, 0);
	pb__begin(&s->pb, PF_PKT_TRACK_DESCRIPTOR);
	pb__varint(&s->pb, PF_TD_UUID, uuid);
	if (parent)
		pb__varint(&s->pb, PF_TD_PARENT_UUID, parent);
	pb__string(&s->pb, PF_TD_NAME, name);
	if (unit >= 0) {
		pb__begin(&s->pb, PF_TD_COUNTER);
		if (unit)
			pb__varint(&s->pb, PF_CD_UNIT, unit);
		pb__end(&s->pb);
	}
	pb__end(&s->pb);
	packet_end(s);
	s->tracks++;
}

static void counter(struct perfetto_sink *s, uint64_t uuid, uint64_t t, bool is_double,
		    uint64_t v, double d)
{
	header(s);
	packet_begin(s, true, t);
	pb__begin(&s->pb, PF_PKT_TRACK_EVENT);
	pb__varint(&s->pb, PF_TE_TYPE, PF_TYPE_COUNTER);
	pb__varint(&s->pb, PF_TE_TRACK_UUID, uuid);
	if (is_double)
		pb__double(&s->pb, PF_TE_DOUBLE_COUNTER_VALUE, d);
	else
		pb__varint(&s->pb, PF_TE_COUNTER_VALUE, v);
	pb__end(&s->pb);
	packet_end(s);
}

/* ------------------------------------------------------------- the table */

/*
 * The "{field}" or "{field:text}" of a name template at @p, which ends at
 * @close: the field's name in @name and the text to put before its value
 * (*@text, *@ntext bytes; none for "{field}").  Read once per table entry and
 * once per name made, the same way.
 */
static void name_brace(const char *p, const char *close, char name[64], const char **text,
		       size_t *ntext)
{
	const char *colon = memchr(p + 1, ':', (size_t)(close - p - 1));
	const char *end = colon ? colon : close;

	snprintf(name, 64, "%.*s", (int)(end - p - 1), p + 1);
	*text = colon ? colon + 1 : close;
	*ntext = (size_t)(close - *text);
}

/*
 * "{field}" of the record as script shows it ("" for an optional field it
 * lacks), "{field:text}" that after "text", "{}" @sub.
 */
static void render_name(struct perfetto_sink *s, char *buf, size_t size, const char *tmpl,
			const struct hwt_record_type *type, const void *data, const char *sub)
{
	struct out *o = &s->name_out;
	const char *p = tmpl;

	o->len = 0;
	while (*p && o->len < size) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;

		if (!close) {
			out__putc(o, *p++);
			continue;
		}
		if (close == p + 1) {
			out__puts(o, sub ? sub : "");
		} else {
			const char *text;
			char name[64];
			size_t ntext;
			int i;

			name_brace(p, close, name, &text, &ntext);
			i = field_fmt__find(type, name);
			if (i >= 0 && hwt_field__present(&type->fields[i], data)) {
				out__write(o, text, ntext);
				field_fmt__value(o, &type->fields[i], data, FS_TEXT);
			}
		}
		p = close + 1;
	}
	snprintf(buf, size, "%.*s", (int)o->len, o->buf);
}

/* The identity of a track: the value it is for, its name's fields and @sub. */
static uint64_t track_key(const struct map_rt *rt, unsigned vi, const void *data,
			  const char *subs, uint64_t subn)
{
	uint64_t h = mix(mix(0x7472, (uint64_t)(rt->m - pf_maps)), vi);

	for (unsigned k = 0; k < MAX_NAME_FIELDS && rt->name_f[vi][k] >= 0; k++) {
		const struct hwt_field *f = &rt->type->fields[rt->name_f[vi][k]];

		if (f->type == HWT_FT_STR)
			h = str_hash(h, *(const char *const *)((const char *)data + f->offset));
		else
			h = mix(h, hwt_field__u64(f, data, 0));
	}
	return subs ? str_hash(h, subs) : mix(h, subn);
}

/* Is @c the track of value @vi of @data?  Else make it so (@c->e to be set). */
static bool cache_hit(struct perfetto_sink *s, const struct map_rt *rt, unsigned vi,
		      struct value_cache *c, const void *data, const char *sub, uint64_t subn)
{
	bool hit = c->gen == s->gen && !sub && !c->subs && c->subn == subn;

	for (unsigned k = 0; k < MAX_NAME_FIELDS && rt->name_f[vi][k] >= 0; k++) {
		const struct hwt_field *f = &rt->type->fields[rt->name_f[vi][k]];

		if (f->type == HWT_FT_STR) {
			const char *str = *(const char *const *)((const char *)data + f->offset);

			str = str ? str : "";
			if (hit && !strcmp(c->str[k], str))
				continue;
			if (strlen(str) >= sizeof(c->str[k]))
				hit = false, c->gen = 0;	/* too long to keep: never a hit */
			snprintf(c->str[k], sizeof(c->str[k]), "%s", str);
		} else {
			uint64_t x = hwt_field__u64(f, data, 0);

			if (hit && c->in[k] == x)
				continue;
			c->in[k] = x;
		}
		hit = false;
	}
	c->subs = sub;	/* a KV key may live in a reused buffer: never a hit */
	c->subn = subn;
	return hit;
}

static struct entry *value_track(struct perfetto_sink *s, struct map_rt *rt, unsigned vi,
				 const struct hwt_record *rec, const char *sub, uint64_t subn)
{
	const struct pf_value *v = &rt->m->values[vi];
	struct value_cache *c = &rt->cache[vi];
	bool isnew;
	struct entry *e;
	char name[256], num[24];

	if (cache_hit(s, rt, vi, c, rec->data, sub, subn))
		return c->e;
	e = lookup(s, track_key(rt, vi, rec->data, sub, subn), &isnew);
	c->gen = 0;
	if (e && !isnew) {
		c->e = e;
		c->gen = s->gen;
	}
	if (!e || !isnew)
		return e;
	if (!rt->group_uuid) {
		struct entry *g = lookup(s, str_hash(0x6772, rt->m->group), &isnew);

		if (!g)
			return NULL;
		rt->group_uuid = g->id;
		track_descriptor(s, g->id, 0, rt->m->group, -1);
	}
	if (!sub) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)subn);
		sub = num;
	}
	render_name(s, name, sizeof(name), v->name, rt->type, rec->data, sub);
	track_descriptor(s, e->id, rt->group_uuid, name, v->unit);
	return e;	/* cached from its next use, when no new entry can have moved it */
}

static bool selected(const struct perfetto_sink *s, uint64_t key)
{
	size_t lo = 0, hi = s->nsel;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->sel[mid] == key)
			return true;
		if (s->sel[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * Say once that @m's tick frequency is unknown: @records, its records
 * without a CPU time cannot be placed; else the tracks that need it are
 * missing (not said again after the records were).
 */
static void freq_unknown(struct perfetto_sink *s, const struct pf_map *m, bool records)
{
	const char *sep = "";

	if (s->warned_freq || (!records && s->warned_ticks))
		return;
	fprintf(stderr, "perf hwtrace convert: %s: the tick frequency is unknown (give it with "
		"--%s): ", m->type, m->freq_option ? m->freq_option : "?");
	if (records) {
		fputs("its records are left out\n", stderr);
		s->warned_freq = true;
		return;
	}
	fputs("no tracks of", stderr);
	for (unsigned vi = 0; vi < PF_MAX_VALUES && m->values[vi].how != PF_END; vi++) {
		const char *name = m->values[vi].name;

		if (m->values[vi].how != PF_TICKS_NS && m->values[vi].how != PF_PER_TICKS)
			continue;
		fprintf(stderr, "%s %.*s", sep, (int)strcspn(name, " "), name);
		sep = ",";
	}
	fputc('\n', stderr);
	s->warned_ticks = true;
}

static uint64_t ticks_ns(uint64_t ticks, uint64_t freq)
{
	unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u / freq;

	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

static struct stream_rt *stream_rt(struct perfetto_sink *s, uint32_t idx)
{
	if (idx >= s->nst) {
		struct stream_rt *n = realloc(s->st, (idx + 1) * sizeof(*n));

		if (!n)
			return NULL;
		memset(n + s->nst, 0, (idx + 1 - s->nst) * sizeof(*n));
		s->st = n;
		s->nst = idx + 1;
	}
	return &s->st[idx];
}

/* The record's time on the trace clock; false when it has none we can give. */
static bool record_time(struct perfetto_sink *s, const struct map_rt *rt,
			const struct hwt_record *rec, uint64_t *t)
{
	const struct hwt_field *f = &rt->type->fields[rt->time_f];
	const struct hwt_field *cf = rt->cpu_time_f >= 0 ? &rt->type->fields[rt->cpu_time_f] : NULL;
	uint64_t v = hwt_field__u64(f, rec->data, 0);
	unsigned bits = rt->m->time_wrap_bits;
	struct stream_rt *st;

	if (cf && hwt_field__present(cf, rec->data)) {
		*t = hwt_field__u64(cf, rec->data, 0);
		return true;
	}

	if (!bits) {
		*t = v;
		return true;
	}
	st = stream_rt(s, rec->stream);
	if (!st || !st->freq) {
		freq_unknown(s, rt->m, true);
		return false;
	}
	if (!st->started) {
		st->started = true;
		st->base = st->chunk_time ? st->chunk_time : ticks_ns(v, st->freq);
		st->last = v;
	}
	st->acc += (v - st->last) & (bits >= 64 ? ~0ull : (1ull << bits) - 1);
	st->last = v;
	*t = st->base + ticks_ns(st->acc, st->freq);
	return true;
}

/* PF_EPOCH_*: the records of one time add up; a new time writes the old sum. */
static void epoch_add(struct perfetto_sink *s, struct entry *e, uint64_t t, uint64_t v)
{
	if (e->pending && e->pend_t != t) {
		counter(s, e->id, e->pend_t, false, e->pend_v, 0);
		e->pending = false;
	}
	if (!e->pending) {
		e->pending = true;
		e->pend_t = t;
		e->pend_v = 0;
	}
	e->pend_v += v;
}

/* PF_METRICS: a track per metric of the record (none without --metrics) */
static void metric_values(struct perfetto_sink *s, struct map_rt *rt, unsigned vi,
			  const struct hwt_record *rec, uint64_t t)
{
	const struct hwt_metrics *m = rec->metrics;

	for (uint32_t i = 0; m && i < m->n; i++) {
		bool exact = m->defs[i].integer && m->uvals;
		struct entry *e;

		if (!exact && isnan(m->vals[i]))
			continue;	/* not computable for this record: no point */
		e = value_track(s, rt, vi, rec, m->defs[i].name, 0);
		if (e)
			counter(s, e->id, t, !exact, exact ? m->uvals[i] : 0, m->vals[i]);
	}
}

static void map_record(struct perfetto_sink *s, struct map_rt *rt, const struct hwt_record *rec)
{
	const struct pf_map *m = rt->m;
	uint64_t t;

	if (!record_time(s, rt, rec, &t)) {
		s->dropped++;
		return;
	}
	s->last_time = t;
	for (unsigned vi = 0; vi < PF_MAX_VALUES && m->values[vi].how != PF_END; vi++) {
		const struct pf_value *v = &m->values[vi];
		const struct hwt_field *f = rt->f[vi] >= 0 ? &rt->type->fields[rt->f[vi]] : NULL;
		const void *d = rec->data;
		struct stream_rt *st;
		struct entry *e;
		uint64_t x, y;

		if (v->how == PF_METRICS) {
			metric_values(s, rt, vi, rec, t);
			continue;
		}
		if (!f || (v->raw && !s->raw) || (v->fallback && rec->metrics) ||
		    !hwt_field__present(f, d))
			continue;
		switch (v->how) {
		case PF_FIELD:
		case PF_SELECTED:
			x = hwt_field__u64(f, d, 0);
			if (v->how == PF_SELECTED &&
			    (rt->key_f < 0 ||
			     !selected(s, hwt_field__u64(&rt->type->fields[rt->key_f], d, 0))))
				break;
			e = value_track(s, rt, vi, rec, NULL, 0);
			if (e)
				counter(s, e->id, t, false, x, 0);
			break;
		case PF_TICKS_NS:
		case PF_PER_TICKS:
			st = stream_rt(s, rec->stream);
			if (!st || !st->freq) {
				/* the record has its time, but not these values */
				freq_unknown(s, m, false);
				s->values_left_out++;
				break;
			}
			x = hwt_field__u64(f, d, 0);
			e = value_track(s, rt, vi, rec, NULL, 0);
			if (!e)
				break;
			if (v->how == PF_TICKS_NS) {
				counter(s, e->id, t, false, ticks_ns(x, st->freq), 0);
				break;
			}
			y = rt->f2[vi] >= 0 ? hwt_field__u64(&rt->type->fields[rt->f2[vi]], d, 0) : 0;
			if (y)
				counter(s, e->id, t, true, 0, (double)x * (double)st->freq / (double)y);
			break;
		case PF_KV: {
			const struct hwt_kv *kv = *(const struct hwt_kv *const *)((const char *)d +
										 f->offset);
			uint32_t n = hwt_field__len(f, d);

			for (uint32_t i = 0; i < n; i++) {
				e = value_track(s, rt, vi, rec, kv[i].key, 0);
				if (e)
					counter(s, e->id, t, false, kv[i].val, 0);
			}
			break;
		}
		case PF_VEC: {
			uint32_t n = hwt_field__len(f, d);

			for (uint32_t i = 0; i < n; i++) {
				e = value_track(s, rt, vi, rec, NULL, i);
				if (e)
					counter(s, e->id, t, false, hwt_field__u64(f, d, i), 0);
			}
			break;
		}
		case PF_EPOCH_SUM:
		case PF_EPOCH_N:
			e = value_track(s, rt, vi, rec, NULL, 0);
			if (e)
				epoch_add(s, e, t, v->how == PF_EPOCH_N ? 1 : hwt_field__u64(f, d, 0));
			break;
		case PF_METRICS:	/* handled above */
		case PF_END:
			break;
		}
	}
}

static struct map_rt *map_of(struct perfetto_sink *s, const struct hwt_record_type *type)
{
	if (s->last_rt && s->last_rt->type == type)
		return s->last_rt;
	for (unsigned i = 0; i < pf_nmaps; i++)
		if (s->rt[i].type == type)
			return s->last_rt = &s->rt[i];
	return NULL;
}

/* ------------------------------------------------------- threads (perf) */

static uint64_t intern(struct perfetto_sink *s, const char *str, size_t len, bool category,
		       bool *isnew)
{
	struct entry *e = lookup(s, mem_hash(category ? 0x6361 : 0x6e61, str, len), isnew);

	return e ? e->id : 0;
}

static void thread_track(struct perfetto_sink *s, uint32_t pid, uint32_t tid, const char *comm,
			 size_t len, uint64_t *uuid)
{
	bool isnew;
	struct entry *e = lookup(s, mix(0x7468, tid), &isnew);

	if (!e)
		return;
	*uuid = e->id;
	if (!isnew && !comm)
		return;
	header(s);
	if (pid == tid || isnew) {	/* the process, named after its main thread */
		bool pnew;
		struct entry *p = lookup(s, mix(0x7072, pid), &pnew);

		if (p && (pnew || (comm && pid == tid))) {
			packet_begin(s, false, 0);
			pb__begin(&s->pb, PF_PKT_TRACK_DESCRIPTOR);
			pb__varint(&s->pb, PF_TD_UUID, p->id);
			pb__begin(&s->pb, PF_TD_PROCESS);
			pb__varint(&s->pb, PF_PD_PID, pid);
			if (comm && pid == tid)
				pb__bytes(&s->pb, PF_PD_PROCESS_NAME, comm, len);
			pb__end(&s->pb);
			pb__end(&s->pb);
			packet_end(s);
			s->tracks += pnew;
		}
	}
	packet_begin(s, false, 0);
	pb__begin(&s->pb, PF_PKT_TRACK_DESCRIPTOR);
	pb__varint(&s->pb, PF_TD_UUID, e->id);
	pb__begin(&s->pb, PF_TD_THREAD);
	pb__varint(&s->pb, PF_THD_PID, pid);
	pb__varint(&s->pb, PF_THD_TID, tid);
	if (comm)
		pb__bytes(&s->pb, PF_THD_THREAD_NAME, comm, len);
	pb__end(&s->pb);
	pb__end(&s->pb);
	packet_end(s);
	s->tracks += isnew;
}

/* An instant named @name (category @cat) on thread @tid's track. */
static void instant(struct perfetto_sink *s, uint32_t pid, uint32_t tid, uint64_t t,
		    const char *cat, const char *name, size_t len)
{
	uint64_t uuid = 0, niid, ciid;
	bool nnew, cnew;

	thread_track(s, pid, tid, NULL, 0, &uuid);
	niid = intern(s, name, len, false, &nnew);
	ciid = intern(s, cat, strlen(cat), true, &cnew);
	if (!uuid || !niid || !ciid)
		return;
	packet_begin(s, true, t);
	pb__varint(&s->pb, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
	if (nnew || cnew) {
		pb__begin(&s->pb, PF_PKT_INTERNED_DATA);
		if (cnew) {
			pb__begin(&s->pb, PF_ID_EVENT_CATEGORIES);
			pb__varint(&s->pb, PF_IID, ciid);
			pb__string(&s->pb, PF_IID_NAME, cat);
			pb__end(&s->pb);
		}
		if (nnew) {
			pb__begin(&s->pb, PF_ID_EVENT_NAMES);
			pb__varint(&s->pb, PF_IID, niid);
			pb__bytes(&s->pb, PF_IID_NAME, name, len);
			pb__end(&s->pb);
		}
		pb__end(&s->pb);
	}
	pb__begin(&s->pb, PF_PKT_TRACK_EVENT);
	pb__varint(&s->pb, PF_TE_TYPE, PF_TYPE_INSTANT);
	pb__varint(&s->pb, PF_TE_TRACK_UUID, uuid);
	pb__varint(&s->pb, PF_TE_NAME_IID, niid);
	pb__varint(&s->pb, PF_TE_CATEGORY_IIDS, ciid);
	pb__end(&s->pb);
	packet_end(s);
}

/* perf's clockid -> BuiltinClock (perf's default clock is taken as MONOTONIC) */
static uint32_t builtin_clock(const struct perf_event_attr *a)
{
	if (!a->use_clockid)
		return PF_CLOCK_MONOTONIC;
	switch (a->clockid) {
	case CLOCK_REALTIME:
		return PF_CLOCK_REALTIME;
	case CLOCK_MONOTONIC_RAW:
		return PF_CLOCK_MONOTONIC_RAW;
	case CLOCK_BOOTTIME:
		return PF_CLOCK_BOOTTIME;
	default:
		return PF_CLOCK_MONOTONIC;
	}
}

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct perfetto_sink *s = ctx;
	const struct hwt_sample_id *sid = &ev->sid;
	bool has_tid = sid->valid & PERF_SAMPLE_TID;
	uint64_t t = sid->valid & PERF_SAMPLE_TIME ? sid->time : s->last_time;
	const char *comm, *name;
	uint32_t pid, tid;
	size_t len;

	if (!s->header_done && ev->attr)
		s->clock = builtin_clock(&ev->attr->attr);
	if (sid->valid & PERF_SAMPLE_TIME)
		s->last_time = t;
	switch (ev->hdr->type) {
	case PERF_RECORD_SAMPLE:
		if (!has_tid)
			return;
		name = ev->attr && ev->attr->name ? ev->attr->name : "sample";
		instant(s, sid->pid, sid->tid, t, "cpu", name, strlen(name));
		break;
	case PERF_RECORD_COMM:
		if (!hwt_event__comm(ev, &pid, &tid, &comm, &len))
			return;
		{
			uint64_t uuid;
			char buf[80];
			int n;

			thread_track(s, pid, tid, comm, len, &uuid);
			/* perf's synthesized COMMs of running tasks have no time: names only */
			if (!(sid->valid & PERF_SAMPLE_TIME) || !sid->time)
				break;
			n = snprintf(buf, sizeof(buf), "comm %.*s", (int)len, comm);
			instant(s, pid, tid, t, "task", buf, n < (int)sizeof(buf) ? n : 79);
		}
		break;
	case PERF_RECORD_EXIT:
		if (has_tid)
			instant(s, sid->pid, sid->tid, t, "task", "exit", 4);
		break;
	}
}

static void on_chunk(void *ctx, const struct hwt_stream *st, const struct hwt_chunk *c,
		     uint64_t total)
{
	struct perfetto_sink *s = ctx;
	struct stream_rt *rt = stream_rt(s, st->idx);

	if (rt && c->time)
		rt->chunk_time = c->time;
}

/*
 * A stream's tick frequency from its device (hwt_device.ts_freq), when it has one; @warn:
 * say that hot-unit tracks are missing when no first pass ran.
 */
static void stream_info(struct perfetto_sink *s, const struct hwt_stream *st, bool warn)
{
	struct stream_rt *rt = stream_rt(s, st->idx);
	const struct hwt_record_type *const *t = st->dev ? st->dev->record_types : NULL;

	if (rt && st->dev && st->dev->ts_freq && st->dev->ts_freq(&st->ctx))
		rt->freq = st->dev->ts_freq(&st->ctx);
	for (; rt && t && *t; t++) {
		struct map_rt *m = map_of(s, *t);

		if (warn && m && m->select_type && !s->first_pass_done && !s->warned_select) {
			fprintf(stderr, "perf hwtrace convert: %s: read once (a pipe), so no tracks "
				"for the hottest units: they need a first pass\n", m->m->type);
			s->warned_select = true;
		}
	}
}

static void on_stream(void *ctx, const struct hwt_stream *st)
{
	stream_info(ctx, st, true);
}

/*
 * @rec's stream's tick frequency, if @rec is a record that says it (@early:
 * only those the decoder emits before the data) and it is not known yet.
 */
static void learn_freq(struct perfetto_sink *s, const struct hwt_record *rec, bool early)
{
	for (unsigned i = 0; i < pf_nmaps; i++) {
		const struct map_rt *m = &s->rt[i];
		const struct hwt_record_type *t = early ? m->early_type : m->freq_type;
		int f = early ? m->early_f : m->freq_f;
		struct stream_rt *st;

		if (t != rec->type || f < 0)
			continue;
		st = stream_rt(s, rec->stream);
		if (st && !st->freq)
			st->freq = hwt_field__u64(&rec->type->fields[f], rec->data, 0);
	}
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct perfetto_sink *s = ctx;
	struct map_rt *rt;

	learn_freq(s, rec, true);
	if (rec->type->kind != HWT_RK_DATA)
		return;
	rt = map_of(s, rec->type);
	if (rt)
		map_record(s, rt, rec);
}

static void on_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		   const struct hwt_reader *r)
{
	struct perfetto_sink *s = ctx;

	header(s);	/* an input without records still gives a valid trace */
	for (size_t i = 0; i < s->captab; i++) {
		struct entry *e = &s->tab[i];

		if (e->key && e->pending) {
			counter(s, e->id, e->pend_t, false, e->pend_v, 0);
			e->pending = false;
		}
	}
}

/* ------------------------------------------------------------ first pass */

/* Does stream @st need the first pass: a frequency or hot keys only summaries say? */
static bool needs_first_pass(struct perfetto_sink *s, const struct hwt_stream *st)
{
	const struct hwt_record_type *const *t = st->dev ? st->dev->record_types : NULL;
	struct stream_rt *rt = stream_rt(s, st->idx);

	for (; t && *t; t++) {
		struct map_rt *m = map_of(s, *t);

		if (!m)
			continue;
		if (m->select_type)
			return true;
		if (m->freq_type && rt && !rt->freq)
			return true;
	}
	return false;
}

static void first_stream(void *ctx, const struct hwt_stream *st)
{
	stream_info(ctx, st, false);
}

/* At the first payload every stream is known: stop unless one needs the pass. */
static void first_chunk(void *ctx, const struct hwt_stream *st, const struct hwt_chunk *c,
			uint64_t total)
{
	struct perfetto_sink *s = ctx;

	if (!*s->stop && !needs_first_pass(s, st))
		*s->stop = 1;
}

static void first_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		      const struct hwt_reader *r)
{
	struct perfetto_sink *s = ctx;

	s->first_pass_done = true;
	/* sorted for selected()'s binary search */
	for (size_t i = 1; i < s->nsel; i++)
		for (size_t j = i; j > 0 && s->sel[j - 1] > s->sel[j]; j--) {
			uint64_t x = s->sel[j];

			s->sel[j] = s->sel[j - 1];
			s->sel[j - 1] = x;
		}
}

static void first_record(void *ctx, const struct hwt_record *rec)
{
	struct perfetto_sink *s = ctx;

	learn_freq(s, rec, false);
	for (unsigned i = 0; i < pf_nmaps; i++) {
		struct map_rt *m = &s->rt[i];

		if (m->select_type == rec->type && m->select_f >= 0) {
			uint64_t *n = realloc(s->sel, (s->nsel + 1) * sizeof(*n));

			if (!n)
				return;
			s->sel = n;
			s->sel[s->nsel++] = hwt_field__u64(&rec->type->fields[m->select_f],
							   rec->data, 0);
		}
	}
}

void perfetto_sink__first_pass(struct perfetto_sink *s, struct hwt_sink *sink,
			       volatile int *stop)
{
	s->stop = stop;
	*sink = (struct hwt_sink){ .stream = first_stream, .chunk = first_chunk,
				   .record = first_record, .end = first_end, .ctx = s };
}

/* --------------------------------------------------------------- set-up */

static int find(const struct hwt_record_type *t, const char *name)
{
	return t && name ? field_fmt__find(t, name) : -1;
}

struct perfetto_sink *perfetto_sink__new(struct out *o, bool raw)
{
	struct perfetto_sink *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->rt = calloc(pf_nmaps, sizeof(*s->rt));
	if (!s->rt) {
		free(s);
		return NULL;
	}
	s->o = o;
	s->raw = raw;
	s->clock = PF_CLOCK_MONOTONIC;
	s->gen = 1;
	out__init(&s->name_out, -1);
	for (unsigned i = 0; i < pf_nmaps; i++) {
		const struct pf_map *m = &pf_maps[i];
		struct map_rt *rt = &s->rt[i];

		rt->m = m;
		rt->type = hwt_record_type__find(m->type);
		rt->time_f = find(rt->type, m->time_field);
		rt->cpu_time_f = find(rt->type, m->cpu_time_field);
		if (rt->time_f < 0)
			rt->type = NULL;	/* a table entry that does not fit: never matched */
		rt->key_f = find(rt->type, m->key_field);
		rt->freq_type = m->freq_type ? hwt_record_type__find(m->freq_type) : NULL;
		rt->freq_f = find(rt->freq_type, m->freq_field);
		rt->early_type = m->freq_early_type ? hwt_record_type__find(m->freq_early_type) : NULL;
		rt->early_f = find(rt->early_type, m->freq_early_field);
		rt->select_type = m->select_type ? hwt_record_type__find(m->select_type) : NULL;
		rt->select_f = find(rt->select_type, m->select_field);
		for (unsigned v = 0; v < PF_MAX_VALUES; v++) {
			const char *p = m->values[v].name;
			unsigned k = 0;

			rt->f[v] = find(rt->type, m->values[v].field);
			rt->f2[v] = find(rt->type, m->values[v].field2);
			for (unsigned j = 0; j < MAX_NAME_FIELDS; j++)
				rt->name_f[v][j] = -1;
			while (p && (p = strchr(p, '{')) && k < MAX_NAME_FIELDS) {
				const char *close = strchr(p, '}'), *text;
				char name[64];
				size_t ntext;

				if (!close)
					break;
				name_brace(p, close, name, &text, &ntext);
				if (close > p + 1)
					rt->name_f[v][k++] = find(rt->type, name);
				p = close + 1;
			}
		}
	}
	return s;
}

void perfetto_sink__init(struct perfetto_sink *s, struct hwt_sink *sink)
{
	*sink = (struct hwt_sink){ .event = on_event, .stream = on_stream, .chunk = on_chunk,
				   .record = on_record, .end = on_end, .ctx = s };
}

uint64_t perfetto_sink__dropped(const struct perfetto_sink *s)
{
	return s->dropped;
}

uint64_t perfetto_sink__values_left_out(const struct perfetto_sink *s)
{
	return s->values_left_out;
}

void perfetto_sink__counts(const struct perfetto_sink *s, uint64_t *packets, uint64_t *tracks)
{
	*packets = s->packets;
	*tracks = s->tracks;
}

void perfetto_sink__delete(struct perfetto_sink *s)
{
	if (!s)
		return;
	pb__free(&s->pb);
	free(s->tab);
	free(s->st);
	free(s->sel);
	free(s->rt);
	free(s);
}
