// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_pool.c - records rendered in several threads, written in their order.
 *
 * Batches go round a ring of slots, each known by a sequence number (its
 * slot is the number modulo the ring's size).  The caller fills batch
 * @fill; batches [@take, @fill) are ready to render; whoever renders one
 * (a worker, or the caller when it is ahead) marks it done; the caller
 * writes done batches from @write on, in order, and only then reuses their
 * slots.  So the output is in record order whichever thread rendered what,
 * and memory is the ring's: a batch holds its records' copies (up to
 * 256 KiB) and renders into its slot's out buffer (64 KiB), which is
 * written as it is, with no copy; its number of records follows the size
 * of the text records make, so that it fits there.
 *
 * The caller renders too when CALLER_AT batches or more wait: with two
 * CPUs, the decoder alone does not keep one of them busy.  Workers start
 * with the first full batch: a short input costs no thread.  A worker
 * with nothing to do spins a while before it sleeps (spin_for_work()).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_budget.h"
#include "fmt_pool.h"
#include "membuf.h"
#include "core/record_copy.h"

#define BATCH_RECORDS	256
#define BATCH_MIN	8
#define BATCH_FIRST	32	/* until a batch's text tells the records' size */
#define BATCH_BYTES	(256u << 10)
#define MAX_WORKERS	7
#define SPIN		2000	/* pauses: some 40-100 us */
/*
 * Batches waiting before the caller renders one: a batch takes the caller
 * as long as a worker, so at 2 the one left for the worker often ran out
 * before the caller was back, and the worker spun (with one worker, 5% of
 * the CPU time of script --metrics --json).  At 3, 121 interleaved runs on
 * a 10 MB IGT file: best 39.5 ms instead of 41.1, median 55.4 instead of
 * 59.6 (a shared machine).
 */
#define CALLER_AT	3

enum slot_state {
	SLOT_FREE,	/* written out (or never used) */
	SLOT_FILLING,	/* the caller copies records into it */
	SLOT_READY,	/* to be rendered */
	SLOT_BUSY,	/* being rendered */
	SLOT_DONE,	/* rendered, to be written */
};

/*
 * A batch renders into its slot's out, whose buffer is written as it is:
 * the batch is sized so that its text fits there (@limit), and what does
 * not goes on in @spill, in front of it.
 */
struct slot {
	enum slot_state state;
	uint8_t *arena;		/* the records' copies */
	size_t used, cap;
	struct hwt_record *recs[BATCH_RECORDS];
	uint64_t base[BATCH_RECORDS];	/* --reltime/--deltatime: each one's time base */
	unsigned n;
	struct out *out;
	struct membuf spill;
};

struct worker {
	pthread_t thread;
	struct fmt_pool *pool;
	struct field_views views;	/* its own: views are built on use */
};

struct fmt_pool {
	struct out *o;
	struct field_views *views;	/* the caller's, for what it renders */
	unsigned limit;			/* records a batch */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct slot *slots;
	unsigned nslots, nworkers, started;
	bool budget;		/* nworkers still to be capped by the cgroup's limit */
	uint64_t fill, take, write;
	bool filling, stop;
	bool timed;		/* --reltime or --deltatime: bases kept here */
	struct time_base times;
	struct record_shape shape;
	struct worker *workers[MAX_WORKERS];
};

static struct slot *slot_of(struct fmt_pool *p, uint64_t seq)
{
	return &p->slots[seq % p->nslots];
}

static void render(struct slot *s, struct field_views *v)
{
	bool timed = v->reltime || v->deltatime;

	out__init_mem(s->out, &s->spill);
	for (unsigned i = 0; i < s->n; i++) {
		if (timed)
			field_views__set_time_base(v, s->base[i]);
		field_fmt__record(s->out, v, s->recs[i]);
	}
}

/*
 * --reltime/--deltatime: what @rec's time is shown relative to, as the
 * state field_fmt__record() keeps from record to record would say when
 * records are rendered one at a time, in order.  The pool keeps that state
 * as records come; each rendering thread is given the base with the record.
 */
static uint64_t time_base(struct fmt_pool *p, const struct hwt_record *rec)
{
	uint64_t t;

	if (!field_views__time_of(p->views, rec, &t))
		return 0;	/* no time shown: no base used */
	return time_base__next(&p->times, p->views->reltime, t);
}

/*
 * Wait a little for the next batch before sleeping: the caller submits one
 * every few tens of microseconds, and a sleep and a wake-up cost more than
 * that in a VM.  Returns whether one came (or the pool stops).
 */
static bool spin_for_work(struct fmt_pool *p)
{
	for (unsigned i = 0; i < SPIN; i++) {
		if (__atomic_load_n(&p->fill, __ATOMIC_ACQUIRE) !=
		    __atomic_load_n(&p->take, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&p->stop, __ATOMIC_RELAXED))
			return true;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	return false;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fmt_pool *p = w->pool;

	pthread_setname_np(pthread_self(), "hwtrace-fmt");
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct slot *s;

		while (!p->stop && p->take == p->fill) {
			bool came;

			pthread_mutex_unlock(&p->mu);
			came = spin_for_work(p);
			pthread_mutex_lock(&p->mu);
			if (!came && !p->stop && p->take == p->fill)
				pthread_cond_wait(&p->work, &p->mu);
		}
		if (p->take == p->fill)
			break;
		s = slot_of(p, p->take);
		__atomic_store_n(&p->take, p->take + 1, __ATOMIC_RELAXED);
		s->state = SLOT_BUSY;
		pthread_mutex_unlock(&p->mu);
		render(s, &w->views);
		pthread_mutex_lock(&p->mu);
		s->state = SLOT_DONE;
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void start_workers(struct fmt_pool *p)
{
	/*
	 * The CPUs the process may keep busy (the cgroup's limit read only
	 * now that there is work for threads): N leave N - 1 for workers
	 * (none: the caller renders every batch, as with
	 * fmt_pool__new_workers(0)).
	 */
	if (p->budget) {
		unsigned cpus = cpu_budget__cpus();

		p->budget = false;
		if (cpus - 1 < p->nworkers)
			p->nworkers = cpus - 1;
	}
	while (p->started < p->nworkers) {
		struct worker *w = calloc(1, sizeof(*w));

		if (!w)
			break;
		w->pool = p;
		/* CSV: the header's columns, the caller's (read only, never freed here) */
		field_views__init_like(&w->views, p->views);
		if (pthread_create(&w->thread, NULL, worker_main, w)) {
			field_views__fini(&w->views);
			free(w);
			break;
		}
		p->workers[p->started++] = w;
	}
	/* fewer threads than CPUs (or none): the caller renders the rest */
	p->nworkers = p->started;
}

/* Write the done batches that are next in order. */
static void write_done(struct fmt_pool *p)
{
	pthread_mutex_lock(&p->mu);
	while (p->write < p->fill && slot_of(p, p->write)->state == SLOT_DONE) {
		struct slot *s = slot_of(p, p->write);

		size_t len = s->spill.len + s->out->len;

		pthread_mutex_unlock(&p->mu);
		out__write_direct(p->o, s->spill.p, s->spill.len);
		out__write_direct(p->o, s->out->buf, s->out->len);
		if (s->out->error || s->spill.oom)
			out__fail(p->o, s->out->error ? s->out->error : ENOMEM);
		/* the next batches' size: as many records as fit the out's buffer */
		if (len) {
			size_t per = len / s->n + 1;

			p->limit = sizeof(s->out->buf) * 7 / 8 / per;
			if (p->limit < BATCH_MIN)
				p->limit = BATCH_MIN;
			if (p->limit > BATCH_RECORDS)
				p->limit = BATCH_RECORDS;
		}
		s->spill.len = 0;
		s->spill.oom = false;
		s->n = 0;
		s->used = 0;
		pthread_mutex_lock(&p->mu);
		s->state = SLOT_FREE;
		p->write++;
	}
	pthread_mutex_unlock(&p->mu);
}

/*
 * One step towards writing everything: write what is done, render a
 * waiting batch, or (@wait) sleep until a worker is done with one.
 */
static void step(struct fmt_pool *p, bool wait)
{
	struct slot *s = NULL;

	write_done(p);
	pthread_mutex_lock(&p->mu);
	if (p->take < p->fill) {
		s = slot_of(p, p->take);
		__atomic_store_n(&p->take, p->take + 1, __ATOMIC_RELAXED);
		s->state = SLOT_BUSY;
	} else if (wait && p->write < p->fill && slot_of(p, p->write)->state != SLOT_DONE) {
		/*
		 * Looked at under the lock: a worker done since write_done()
		 * signalled no one, and the next one to write is all we wait for.
		 */
		pthread_cond_wait(&p->done, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	if (!s)
		return;
	render(s, p->views);
	pthread_mutex_lock(&p->mu);
	s->state = SLOT_DONE;
	pthread_mutex_unlock(&p->mu);
}

/* batches ready and not taken yet */
static uint64_t waiting(struct fmt_pool *p)
{
	uint64_t n;

	pthread_mutex_lock(&p->mu);
	n = p->fill - p->take;
	pthread_mutex_unlock(&p->mu);
	return n;
}

/*
 * Hand the batch being filled over.  @full: it is full, more may follow;
 * a drain's last batch starts no thread (a short input is rendered by the
 * caller alone, step() taking it).
 */
static void submit(struct fmt_pool *p, bool full)
{
	if (full && p->started < p->nworkers)
		start_workers(p);
	pthread_mutex_lock(&p->mu);
	slot_of(p, p->fill)->state = SLOT_READY;
	__atomic_store_n(&p->fill, p->fill + 1, __ATOMIC_RELEASE);
	p->filling = false;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
	/* the workers are behind (or there are none): render here */
	write_done(p);
	while (waiting(p) >= (p->nworkers ? CALLER_AT : 1))
		step(p, false);
}

/* The slot being filled, after the ring has room for it. */
static struct slot *filling(struct fmt_pool *p)
{
	struct slot *s;

	if (p->filling)
		return slot_of(p, p->fill);
	while (p->fill - p->write >= p->nslots)
		step(p, true);
	s = slot_of(p, p->fill);
	if (!s->out)
		s->out = malloc(sizeof(*s->out));
	if (!s->out)
		return NULL;
	s->state = SLOT_FILLING;
	p->filling = true;
	return s;
}

/* Make @s's arena hold @need bytes: it is empty, no copy in it to keep. */
static bool arena_fit(struct slot *s, size_t need)
{
	size_t cap = need > BATCH_BYTES ? need : BATCH_BYTES;
	uint8_t *a = aligned_alloc(8, cap);

	if (!a)
		return false;
	free(s->arena);
	s->arena = a;
	s->cap = cap;
	return true;
}

/*
 * No memory for a record's copy: write out all before it and leave it to
 * the caller, with the time base the pool gave it, as the caller renders
 * it through the pool's views.
 */
static bool refuse(struct fmt_pool *p, uint64_t base)
{
	fmt_pool__drain(p);
	if (p->timed)
		field_views__set_time_base(p->views, base);
	return false;
}

bool fmt_pool__add(struct fmt_pool *p, const struct hwt_record *rec)
{
	uint64_t base = p->timed ? time_base(p, rec) : 0;
	struct slot *s = filling(p);
	size_t need;

	if (s && s->n >= p->limit) {
		submit(p, true);
		s = filling(p);
	}
	if (!s) {
		return refuse(p, base);
	}
	if (p->shape.type != rec->type)
		record_shape__init(&p->shape, rec->type);
	/* no arena yet: only measured */
	need = record_copy(s->arena ? s->arena + s->used : NULL, s->cap - s->used, &p->shape, rec);
	if (need > s->cap - s->used) {
		/* does not fit: into the next batch, whose arena is empty */
		if (s->n) {
			submit(p, true);
			s = filling(p);
		}
		if (!s || (need > s->cap && !arena_fit(s, need))) {
			return refuse(p, base);
		}
		record_copy(s->arena, s->cap, &p->shape, rec);
	}
	s->base[s->n] = base;
	s->recs[s->n++] = (struct hwt_record *)(s->arena + s->used);
	s->used += need;
	return true;
}

void fmt_pool__drain(struct fmt_pool *p)
{
	if (!p)
		return;
	if (p->filling && slot_of(p, p->fill)->n) {
		submit(p, false);
	} else if (p->filling) {
		slot_of(p, p->fill)->state = SLOT_FREE;
		p->filling = false;
	}
	while (p->write < p->fill)
		step(p, true);
}

struct fmt_pool *fmt_pool__new_workers(struct out *o, struct field_views *v, unsigned workers)
{
	struct fmt_pool *p;

	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->o = o;
	p->views = v;
	p->timed = v->reltime || v->deltatime;
	p->nworkers = workers < MAX_WORKERS ? workers : MAX_WORKERS;
	/* per thread one batch rendered and one done, and CALLER_AT waiting */
	p->nslots = 2 * (p->nworkers + 1) + CALLER_AT;
	p->limit = BATCH_FIRST;
	p->slots = calloc(p->nslots, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return NULL;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	return p;
}

struct fmt_pool *fmt_pool__new(struct out *o, struct field_views *v)
{
	unsigned n = cpu_budget__affinity();
	struct fmt_pool *p = n < 2 ? NULL : fmt_pool__new_workers(o, v, n - 1);

	if (p)
		p->budget = true;
	return p;
}

void fmt_pool__delete(struct fmt_pool *p)
{
	if (!p)
		return;
	fmt_pool__drain(p);
	pthread_mutex_lock(&p->mu);
	__atomic_store_n(&p->stop, true, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->started; i++) {
		pthread_join(p->workers[i]->thread, NULL);
		field_views__fini(&p->workers[i]->views);
		free(p->workers[i]);
	}
	for (unsigned i = 0; i < p->nslots; i++) {
		free(p->slots[i].arena);
		free(p->slots[i].out);
		membuf__free(&p->slots[i].spill);
	}
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	free(p->slots);
	free(p);
}
