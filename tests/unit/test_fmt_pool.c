// SPDX-License-Identifier: GPL-2.0
/*
 * test_fmt_pool.c - records rendered by a pool of threads (fmt_pool.c) give
 * the very bytes field_fmt__record() gives one record at a time, in order,
 * in text, JSON and CSV, with 0, 1 and 3 workers, with times as they are
 * or relative (--reltime, --deltatime), whatever the records hold (strings,
 * vectors, key-value lists, optional fields, metrics) and however large; and a
 * record's copy (record_copy.c) is deep: the records' own memory is
 * overwritten as soon as the pool has them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hwtrace/metrics.h"
#include "hwtrace/record.h"
#include "../../plugins/perf-hwtrace/field_fmt.h"
#include "../../plugins/perf-hwtrace/fmt_pool.h"
#include "../../plugins/perf-hwtrace/membuf.h"
#include "core/record_copy.h"

struct rec {
	uint32_t cpu;
	uint64_t mask;
	uint64_t arr[3];
	const char *name;
	const uint64_t *vec;
	uint32_t nvec;
	const struct hwt_kv *kv;
	uint32_t nkv;
	const char *note;	/* optional */
	bool has_note;
	bool has_time;
	uint64_t time;		/* optional: a record without one moves no time base */
};

static const struct hwt_field fields[] = {
	{ .name = "cpu", .type = HWT_FT_U32, .offset = offsetof(struct rec, cpu),
	  .flags = HWT_FF_SIGNED },
	HWT_FIELD(struct rec, mask, HWT_FT_U64, HWT_FH_HEX),
	HWT_FIELD_ARRAY(struct rec, arr, HWT_FT_U64, 3, HWT_FH_DEC),
	HWT_FIELD(struct rec, name, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_VEC(struct rec, vec, nvec, HWT_FT_U64_VEC),
	{ .name = "kv", .type = HWT_FT_KV, .offset = offsetof(struct rec, kv),
	  .count_offset = offsetof(struct rec, nkv) },
	HWT_FIELD_OPT(struct rec, note, HWT_FT_STR, HWT_FH_DEC, has_note),
	HWT_FIELD_OPT(struct rec, time, HWT_FT_U64, HWT_FH_DEC, has_time),
};

static const struct hwt_record_type type = {
	.name = "t", .fields = fields, .nfields = sizeof(fields) / sizeof(fields[0]),
	.kind = HWT_RK_DATA,
};

static const struct hwt_metric_def defs[] = {
	{ .name = "Count", .unit = "events", .integer = true },
	{ .name = "Busy", .unit = "percent" },
	{ .name = "Rate", .unit = "Hz" },
};

#define NREC 3000
#define HUGE_VEC 40000	/* 320 KB: more than a batch's arena */

/* scratch a record is built in, overwritten after each use */
struct scratch {
	struct rec r;
	char name[64], note[64], keys[8][16];
	uint64_t *vec;
	struct hwt_kv kv[8];
	struct hwt_metrics m;
	double vals[3];
	uint64_t uvals[3];
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* record @i, the same for the same @i */
static struct hwt_record build(struct scratch *sc, uint32_t i)
{
	uint64_t s = 0x9e3779b97f4a7c15ull * (i + 1);
	struct hwt_record rec = { .type = &type, .data = &sc->r, .offset = i };

	memset(&sc->r, 0, sizeof(sc->r));
	sc->r.cpu = i % 7 == 0 ? (uint32_t)-1 : i % 4;
	sc->r.mask = rnd(&s);
	for (int k = 0; k < 3; k++)
		sc->r.arr[k] = rnd(&s) >> (k * 20);
	snprintf(sc->name, sizeof(sc->name), "rec\"%u\\%s", i, i % 5 ? "" : "\n");
	sc->r.name = i % 11 ? sc->name : NULL;
	sc->r.nvec = i == NREC / 2 ? HUGE_VEC : (uint32_t)(rnd(&s) % 300);
	for (uint32_t k = 0; k < sc->r.nvec; k++)
		sc->vec[k] = rnd(&s) >> (k % 60);
	sc->r.vec = sc->vec;
	sc->r.nkv = i % 9;
	for (uint32_t k = 0; k < sc->r.nkv; k++) {
		snprintf(sc->keys[k], sizeof(sc->keys[k]), "K%u_%u", k, i % 3);
		sc->kv[k] = (struct hwt_kv){ .key = sc->keys[k], .val = rnd(&s) };
	}
	sc->r.kv = sc->kv;
	sc->r.has_note = i % 3 == 0;
	snprintf(sc->note, sizeof(sc->note), "note %u", i);
	/* unset: a pointer nobody may follow */
	sc->r.note = sc->r.has_note ? sc->note : (const char *)(uintptr_t)0x10;
	sc->r.has_time = i % 5 != 1;
	sc->r.time = 1000000000ull * i + rnd(&s) % 1000000000;
	sc->uvals[0] = rnd(&s);
	sc->vals[0] = (double)sc->uvals[0];
	sc->vals[1] = (double)(rnd(&s) % 100000) / 997.0;
	sc->vals[2] = i % 13 ? (double)rnd(&s) / 3.0 : NAN;
	sc->m = (struct hwt_metrics){ .set = "S", .defs = defs, .vals = sc->vals,
				      .uvals = sc->uvals, .n = 3 };
	rec.metrics = i % 2 ? &sc->m : NULL;
	return rec;
}

/* everything @rec points to, scribbled over */
static void spoil(struct scratch *sc)
{
	memset(sc->name, 'x', sizeof(sc->name) - 1);
	memset(sc->note, 'y', sizeof(sc->note) - 1);
	memset(sc->keys, 'z', sizeof(sc->keys));
	memset(sc->vec, 0xa5, HUGE_VEC * sizeof(uint64_t));
	memset(sc->kv, 0x5a, sizeof(sc->kv));
	memset(sc->vals, 0xff, sizeof(sc->vals));
	memset(sc->uvals, 0x77, sizeof(sc->uvals));
	memset(&sc->r, 0x33, sizeof(sc->r));
}

/* CSV: the header row first, which fixes the columns */
static void csv_header(struct out *o, struct field_views *v)
{
	const struct hwt_record_type *types[] = { &type, NULL };

	if (v->style == FS_CSV)
		field_fmt__csv_header(o, v, types);
}

enum rel { ABS, REL, DELTA };	/* times as they are, --reltime, --deltatime */

/* -F for the next check_pool(), or none */
static const char *const *only;
static unsigned nonly;

static void views_init(struct field_views *v, enum field_style style, enum rel rel)
{
	field_views__init(v, style, only, nonly);
	v->reltime = rel == REL;
	v->deltatime = rel == DELTA;
}

/* all records, one at a time: the reference */
static char *serial(struct scratch *sc, enum field_style style, enum rel rel, size_t *len)
{
	struct membuf mb = { 0 };
	struct out *o = malloc(sizeof(*o));
	struct field_views v;

	out__init_mem(o, &mb);
	views_init(&v, style, rel);
	csv_header(o, &v);
	for (uint32_t i = 0; i < NREC; i++) {
		struct hwt_record rec = build(sc, i);

		field_fmt__record(o, &v, &rec);
	}
	out__flush(o);
	field_views__fini(&v);
	free(o);
	return membuf__steal(&mb, len);
}

/* the same through a pool of @workers threads, drained halfway and at the end */
static char *pooled(struct scratch *sc, enum field_style style, enum rel rel, unsigned workers,
		    size_t *len)
{
	struct membuf mb = { 0 };
	struct out *o = malloc(sizeof(*o));
	struct field_views v;
	struct fmt_pool *p;

	out__init_mem(o, &mb);
	views_init(&v, style, rel);
	csv_header(o, &v);
	p = fmt_pool__new_workers(o, &v, workers);
	CHECK(p != NULL);
	for (uint32_t i = 0; p && i < NREC; i++) {
		struct hwt_record rec = build(sc, i);

		CHECK(fmt_pool__add(p, &rec));
		spoil(sc);
		if (i == NREC / 3)
			fmt_pool__drain(p);
	}
	fmt_pool__delete(p);
	out__flush(o);
	field_views__fini(&v);
	free(o);
	return membuf__steal(&mb, len);
}

static void check_pool(enum field_style style, enum rel rel)
{
	struct scratch *sc = calloc(1, sizeof(*sc));
	size_t n_ref = 0, n;
	char *ref;

	sc->vec = calloc(HUGE_VEC, sizeof(uint64_t));
	ref = serial(sc, style, rel, &n_ref);
	CHECK(ref && n_ref > (size_t)HUGE_VEC);
	for (unsigned w = 0; w <= 3; w += w ? 2 : 1) {
		char *got = pooled(sc, style, rel, w, &n);

		CHECK_EQ(n, n_ref);
		CHECK(got && ref && n == n_ref && !memcmp(got, ref, n));
		free(got);
	}
	free(ref);
	free(sc->vec);
	free(sc);
}

static void test_pool_json(void)
{
	check_pool(FS_JSON, ABS);
}

static void test_pool_text(void)
{
	check_pool(FS_TEXT, ABS);
}

static void test_pool_csv(void)
{
	check_pool(FS_CSV, ABS);
}

/*
 * Many small batches, a drain after every few records: the caller waits
 * for the one batch a worker renders, again and again.  A wake-up lost
 * there (a worker done between the caller's look and its wait) hangs it.
 */
static void test_pool_drains(void)
{
	struct scratch *sc = calloc(1, sizeof(*sc));
	struct membuf ref = { 0 }, got = { 0 };
	struct out *o = malloc(sizeof(*o)), *r = malloc(sizeof(*r));
	struct field_views v, rv;
	struct fmt_pool *p;

	sc->vec = calloc(HUGE_VEC, sizeof(uint64_t));
	out__init_mem(o, &got);
	out__init_mem(r, &ref);
	field_views__init(&v, FS_JSON, NULL, 0);
	field_views__init(&rv, FS_JSON, NULL, 0);
	p = fmt_pool__new_workers(o, &v, 1);
	CHECK(p != NULL);
	for (uint32_t i = 0; p && i < 60000; i++) {
		struct hwt_record rec = build(sc, i % 1000 == NREC / 2 ? 1 : i % 1000);

		field_fmt__record(r, &rv, &rec);
		CHECK(fmt_pool__add(p, &rec));
		if (i % 40 == 39)
			fmt_pool__drain(p);
	}
	fmt_pool__delete(p);
	out__flush(o);
	out__flush(r);
	CHECK(got.len == ref.len && !memcmp(got.p, ref.p, ref.len));
	field_views__fini(&v);
	field_views__fini(&rv);
	membuf__free(&got);
	membuf__free(&ref);
	free(o);
	free(r);
	free(sc->vec);
	free(sc);
}

/*
 * --reltime and --deltatime: each time relative to the first or the one
 * before, in record order, whichever thread renders it; records without a
 * time (one in five) move no base.  The reference is serial().
 */
static void test_pool_reltime(void)
{
	check_pool(FS_TEXT, REL);
	check_pool(FS_CSV, REL);
}

static void test_pool_deltatime(void)
{
	check_pool(FS_TEXT, DELTA);
	check_pool(FS_JSON, DELTA);
}

/* -F: the rendering threads show the fields the caller's views do */
static void test_pool_fields(void)
{
	static const char *const f[] = { "name", "time", "kv" };

	only = f;
	nonly = 3;
	check_pool(FS_JSON, ABS);
	check_pool(FS_CSV, DELTA);
	only = NULL;
	nonly = 0;
}

/* a copy that does not fit writes nothing past its room and says what it needs */
static void test_copy_room(void)
{
	struct scratch *sc = calloc(1, sizeof(*sc));
	struct record_shape shape;
	struct hwt_record rec, *copy;
	uint8_t *mem;
	size_t need, cap;

	sc->vec = calloc(HUGE_VEC, sizeof(uint64_t));
	rec = build(sc, 3);	/* metrics, a string, an optional string */
	record_shape__init(&shape, &type);
	CHECK_EQ(shape.nptr, 4);	/* name, vec, kv, note */
	CHECK_EQ(shape.extent, offsetof(struct rec, time) + sizeof(uint64_t));
	need = record_copy(NULL, 0, &shape, &rec);
	CHECK_EQ(need % 8, 0);
	mem = aligned_alloc(8, need + 64);
	for (cap = 0; cap < need; cap += 8) {
		memset(mem, 0xee, need + 64);
		CHECK_EQ(record_copy(mem, cap, &shape, &rec), need);
		for (size_t b = cap; b < need + 64; b++)
			if (mem[b] != 0xee) {
				CHECK_EQ(b, cap);	/* a byte written past the room */
				break;
			}
	}
	CHECK_EQ(record_copy(mem, need, &shape, &rec), need);
	copy = (struct hwt_record *)mem;
	spoil(sc);
	CHECK_STR(((const struct rec *)copy->data)->name, "rec\"3\\");
	CHECK_STR(((const struct rec *)copy->data)->note, "note 3");
	CHECK_EQ(((const struct rec *)copy->data)->nkv, 3);
	CHECK_STR(((const struct rec *)copy->data)->kv[2].key, "K2_0");
	CHECK(copy->metrics && copy->metrics->n == 3 && copy->metrics->defs == defs);
	free(mem);
	free(sc->vec);
	free(sc);
}

int main(void)
{
	RUN(test_pool_json);
	RUN(test_pool_text);
	RUN(test_pool_csv);
	RUN(test_pool_drains);
	RUN(test_pool_reltime);
	RUN(test_pool_deltatime);
	RUN(test_pool_fields);
	RUN(test_copy_room);
	return check_done("fmt_pool");
}
