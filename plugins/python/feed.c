// SPDX-License-Identifier: GPL-2.0
/*
 * feed.c - the worker thread and bounded queue behind the hwtrace module's
 * iterator (see feed.h).  Nothing here touches Python.
 *
 * A chunk joins the queue when the worker starts filling it, and each item
 * is published by storing the chunk's new length: the consumer reads items
 * up to that length without a lock, also from the chunk still being filled,
 * so a live pipe's records are not held back.  Locks are taken per chunk (to
 * move to the next one and give the old one back) and to wake a waiting
 * consumer, which the worker does after FLUSH_MIN items or at the next
 * perf.data record; a consumer that waits also looks again after its
 * timeout, so nothing published is ever missed for longer than that.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/record_copy.h"
#include "feed.h"
#include "hwtrace/metrics.h"

#define FLUSH_MIN	64	/* items published before a waiting consumer is woken */
#define JOIN_MS		2000	/* how long feed__delete() waits for the worker */
#define MSG_MAX		512

/*
 * A metric set's definitions as the feed keeps them: a record's copy points
 * at these, since the computer that made the record frees its own table
 * when the session ends, before the consumer has read every record.
 */
struct defs_copy {
	struct defs_copy *next;
	const struct hwt_metric_def *src;	/* the computer's table */
	uint32_t n;
	struct hwt_metric_def defs[];	/* names and units: program-lifetime storage */
};

struct chunk {
	struct chunk *next;	/* set (under lock) when the worker moves on */
	size_t cap;
	size_t len;		/* published bytes: atomic */
	alignas(max_align_t) uint8_t data[];
};

/* One item in a chunk, followed by its record's copy (record_copy.h) or its message. */
struct entry {
	alignas(max_align_t) uint32_t size;	/* bytes with this header, a multiple of ENTRY_ALIGN */
	uint16_t kind;		/* enum feed_kind */
	uint16_t severity;	/* enum hwt_severity */
};
#define ENTRY_ALIGN	alignof(max_align_t)
_Static_assert(sizeof(struct entry) % ENTRY_ALIGN == 0, "entries keep their alignment");

struct feed {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t can_get;		/* started, items published, or ended */
	pthread_cond_t can_put;		/* a chunk came back, or stop was set */
	int refs;			/* the consumer and the worker */
	volatile int stop;		/* hwt_session_opts.stop */
	int waiting;			/* the consumer waits for items: atomic */

	/* under lock */
	struct chunk *head, *tail;	/* queued chunks: head is read, tail filled */
	struct chunk *spare;		/* FEED_CHUNK chunks given back */
	unsigned inflight;		/* chunks not in @spare */
	bool started, done;
	int status;			/* hwt_session__run()'s, once done */
	char first_error[MSG_MAX];
	const char *failure;

	/* the worker's */
	struct chunk *fill;		/* the queue's tail, or NULL */
	unsigned unwoken;		/* items published while the consumer waited */
	struct record_shape shape;	/* of the last record type copied */
	struct defs_copy *defs;		/* newest first; freed with the feed */

	/* the consumer's */
	size_t rpos;			/* in head */
	bool ended;

	char *path;
	struct hwt_opt *opts;
	uint32_t nopts;
	bool metrics;		/* hwt_session_opts.metrics */
};

static bool stopping(struct feed *f)
{
	return __atomic_load_n(&f->stop, __ATOMIC_RELAXED);
}

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) & ~(a - 1);
}

static void deadline(struct timespec *ts, clockid_t clock, int ms)
{
	clock_gettime(clock, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

/* ---- the worker's side of the queue --------------------------------------- */

static void fail(struct feed *f, const char *why)
{
	pthread_mutex_lock(&f->lock);
	if (!f->failure)
		f->failure = why;
	pthread_mutex_unlock(&f->lock);
	__atomic_store_n(&f->stop, 1, __ATOMIC_RELAXED);
}

/* Wake the consumer if it waits. */
static void wake(struct feed *f)
{
	f->unwoken = 0;
	pthread_mutex_lock(&f->lock);
	pthread_cond_signal(&f->can_get);
	pthread_mutex_unlock(&f->lock);
}

/*
 * Queue a new chunk with room for @need bytes once fewer than FEED_CHUNKS
 * are out, and fill it from now on.  False when stopping or out of memory.
 */
static bool next_fill(struct feed *f, size_t need)
{
	size_t cap = need > FEED_CHUNK ? need : FEED_CHUNK;
	struct chunk *c = NULL;

	pthread_mutex_lock(&f->lock);
	while (f->inflight >= FEED_CHUNKS && !stopping(f))
		pthread_cond_wait(&f->can_put, &f->lock);
	if (stopping(f)) {
		pthread_mutex_unlock(&f->lock);
		return false;
	}
	if (cap == FEED_CHUNK && f->spare) {
		c = f->spare;
		f->spare = c->next;
	}
	f->inflight++;
	pthread_mutex_unlock(&f->lock);
	if (!c) {
		c = malloc(sizeof(*c) + cap);
		if (!c) {
			pthread_mutex_lock(&f->lock);
			f->inflight--;
			pthread_mutex_unlock(&f->lock);
			fail(f, "out of memory");
			return false;
		}
		c->cap = cap;
	}
	c->len = 0;
	c->next = NULL;
	pthread_mutex_lock(&f->lock);
	if (f->tail)
		f->tail->next = c;	/* the old tail's length is final */
	else
		__atomic_store_n(&f->head, c, __ATOMIC_RELEASE);	/* once: the first */
	f->tail = c;
	pthread_mutex_unlock(&f->lock);
	f->fill = c;
	return true;
}

/* Room for an entry of @size bytes (a multiple of ENTRY_ALIGN), or NULL. */
static struct entry *reserve(struct feed *f, size_t size)
{
	if (!f->fill || f->fill->cap - f->fill->len < size) {
		if (!next_fill(f, size))
			return NULL;
	}
	return (struct entry *)(f->fill->data + f->fill->len);
}

/*
 * Publish @e.  The store of the length and the load of f->waiting are both
 * sequentially consistent, as are the consumer's store of waiting and load
 * of the length: one of the two sees the other's.
 */
static void commit(struct feed *f, struct entry *e)
{
	__atomic_store_n(&f->fill->len, f->fill->len + e->size, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&f->waiting, __ATOMIC_SEQ_CST) && ++f->unwoken >= FLUSH_MIN)
		wake(f);
}

static void mark_started(struct feed *f)
{
	if (f->started)		/* only the worker writes it */
		return;
	pthread_mutex_lock(&f->lock);
	f->started = true;
	pthread_cond_signal(&f->can_get);
	pthread_mutex_unlock(&f->lock);
}

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct feed *f = ctx;

	mark_started(f);
	if (f->unwoken && __atomic_load_n(&f->waiting, __ATOMIC_SEQ_CST))
		wake(f);
}

static void on_stream(void *ctx, const struct hwt_stream *s)
{
	mark_started(ctx);
}

static void on_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		   const struct hwt_reader *r)
{
	mark_started(ctx);
}

/* The feed's copy of @m's definitions (made at their first record), or NULL. */
static const struct hwt_metric_def *defs_of(struct feed *f, const struct hwt_metrics *m)
{
	struct defs_copy *d;

	for (d = f->defs; d; d = d->next)
		if (d->src == m->defs && d->n == m->n)
			return d->defs;
	d = malloc(sizeof(*d) + (size_t)m->n * sizeof(d->defs[0]));
	if (!d)
		return NULL;
	d->src = m->defs;
	d->n = m->n;
	memcpy(d->defs, m->defs, (size_t)m->n * sizeof(d->defs[0]));
	d->next = f->defs;
	f->defs = d;
	return d->defs;
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct feed *f = ctx;
	const struct hwt_metric_def *defs = NULL;
	struct hwt_record *copy;
	size_t need, size;
	struct entry *e;

	if (rec->type->kind != HWT_RK_DATA || stopping(f))
		return;
	mark_started(f);
	if (rec->type != f->shape.type)
		record_shape__init(&f->shape, rec->type);
	if (rec->metrics && !(defs = defs_of(f, rec->metrics))) {
		fail(f, "out of memory");
		return;
	}
	need = record_copy(NULL, 0, &f->shape, rec);
	size = align_up(sizeof(*e) + need, ENTRY_ALIGN);
	if (size > UINT32_MAX) {
		fail(f, "a record too large to copy");
		return;
	}
	e = reserve(f, size);
	if (!e)
		return;
	*e = (struct entry){ .size = (uint32_t)size, .kind = FEED_RECORD };
	copy = (struct hwt_record *)(e + 1);
	record_copy(copy, need, &f->shape, rec);
	if (defs)
		((struct hwt_metrics *)copy->metrics)->defs = defs;
	commit(f, e);
}

static void on_diag(void *ctx, const struct hwt_error *err)
{
	struct feed *f = ctx;
	char msg[MSG_MAX];
	struct entry *e;
	int n;

	n = snprintf(msg, sizeof(msg), "%s: offset %#llx: %s: %s", err->file,
		     (unsigned long long)err->offset, err->rtype, err->msg);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(msg))
		n = sizeof(msg) - 1;
	if (err->severity == HWT_ERROR) {
		pthread_mutex_lock(&f->lock);
		if (!f->first_error[0])
			memcpy(f->first_error, msg, (size_t)n + 1);
		pthread_mutex_unlock(&f->lock);
	}
	if (stopping(f))
		return;
	e = reserve(f, align_up(sizeof(*e) + (size_t)n + 1, ENTRY_ALIGN));
	if (!e)
		return;
	*e = (struct entry){
		.size = (uint32_t)align_up(sizeof(*e) + (size_t)n + 1, ENTRY_ALIGN),
		.kind = FEED_DIAG, .severity = err->severity,
	};
	memcpy(e + 1, msg, (size_t)n + 1);
	commit(f, e);
}

/* Drop a reference; the last one (consumer or worker) frees the feed. */
static void release(struct feed *f)
{
	struct chunk *lists[2];

	if (__atomic_sub_fetch(&f->refs, 1, __ATOMIC_ACQ_REL))
		return;
	lists[0] = f->head;	/* the chunks read and filled among them */
	lists[1] = f->spare;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		while (lists[i]) {
			struct chunk *next = lists[i]->next;

			free(lists[i]);
			lists[i] = next;
		}
	for (uint32_t i = 0; i < f->nopts; i++) {
		free((char *)f->opts[i].key);
		free((char *)f->opts[i].val);
	}
	free(f->opts);
	free(f->path);
	while (f->defs) {
		struct defs_copy *next = f->defs->next;

		free(f->defs);
		f->defs = next;
	}
	pthread_cond_destroy(&f->can_get);
	pthread_cond_destroy(&f->can_put);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

static void *worker(void *arg)
{
	struct feed *f = arg;
	/* data records only: decoders may skip what feeds summary records */
	struct hwt_session_opts so = {
		.opts = f->opts, .nopts = f->nopts, .no_summary = true, .stop = &f->stop,
		.metrics = f->metrics,
	};
	struct hwt_sink sink = {
		.event = on_event, .stream = on_stream, .record = on_record, .end = on_end,
		.ctx = f,
	};
	struct hwt_diag diag = { .report = on_diag, .ctx = f, .file = f->path };
	int ret = hwt_session__run(f->path, &so, &sink, &diag);

	pthread_mutex_lock(&f->lock);
	f->done = true;
	f->status = ret;
	pthread_cond_signal(&f->can_get);
	pthread_mutex_unlock(&f->lock);
	release(f);
	return NULL;
}

/* ---- the consumer's side -------------------------------------------------- */

struct feed *feed__new(const char *path, const struct hwt_opt *opts, uint32_t nopts,
		       bool metrics)
{
	struct feed *f = calloc(1, sizeof(*f));
	pthread_condattr_t ca;
	sigset_t all, old;
	bool ok;

	if (!f)
		return NULL;
	pthread_mutex_init(&f->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&f->can_get, &ca);
	pthread_cond_init(&f->can_put, &ca);
	pthread_condattr_destroy(&ca);
	f->refs = 1;
	f->metrics = metrics;
	f->path = strdup(path);
	f->opts = calloc(nopts ? nopts : 1, sizeof(*f->opts));
	ok = f->path && f->opts;
	for (uint32_t i = 0; ok && i < nopts; i++) {
		f->opts[i].key = strdup(opts[i].key);
		f->opts[i].val = strdup(opts[i].val);
		f->nopts = i + 1;
		ok = f->opts[i].key && f->opts[i].val;
	}
	if (ok) {
		/* signals are the interpreter's main thread's business */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		f->refs = 2;
		ok = !pthread_create(&f->thread, NULL, worker, f);
		if (!ok)
			f->refs = 1;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (!ok) {
		release(f);
		return NULL;
	}
	return f;
}

/* Wait until @cond holds or @ms pass; under f->lock. */
#define WAIT_FOR(f, cond, ms) do {							\
	struct timespec ts_;								\
											\
	deadline(&ts_, CLOCK_MONOTONIC, (ms));						\
	while (!(cond) && pthread_cond_timedwait(&(f)->can_get, &(f)->lock, &ts_) != ETIMEDOUT) \
		;									\
} while (0)

int feed__started(struct feed *f, int ms)
{
	int ret;

	pthread_mutex_lock(&f->lock);
	WAIT_FOR(f, f->started || f->done, ms);
	ret = f->started || f->done;
	pthread_mutex_unlock(&f->lock);
	return ret;
}

bool feed__unreadable(struct feed *f, char *why, size_t n)
{
	bool ret;

	pthread_mutex_lock(&f->lock);
	ret = f->done && !f->started && f->status < 0;
	if (ret && f->first_error[0])
		snprintf(why, n, "%s", f->first_error);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

const char *feed__failure(struct feed *f)
{
	const char *why;

	pthread_mutex_lock(&f->lock);
	why = f->failure;
	pthread_mutex_unlock(&f->lock);
	return why;
}

/* Done with the head chunk: give it back and read the next one. */
static void next_read(struct feed *f, struct chunk *c)
{
	f->head = c->next;
	if (c->cap == FEED_CHUNK) {
		c->next = f->spare;
		f->spare = c;
	} else {
		free(c);
	}
	f->inflight--;
	f->rpos = 0;
	pthread_cond_signal(&f->can_put);
}

/* Under f->lock: whether the consumer has something to do. */
static bool ready(struct feed *f)
{
	struct chunk *c = f->head;

	if (!c)
		return f->done;
	return f->rpos < __atomic_load_n(&c->len, __ATOMIC_SEQ_CST) || c->next || f->done;
}

int feed__next(struct feed *f, struct feed_item *it, int ms)
{
	const struct entry *e;
	struct chunk *c;

	for (;;) {
		/* only this thread moves it; the worker sets the first one */
		c = __atomic_load_n(&f->head, __ATOMIC_ACQUIRE);
		if (c && f->rpos < __atomic_load_n(&c->len, __ATOMIC_ACQUIRE))
			break;
		if (f->ended)
			return -1;
		pthread_mutex_lock(&f->lock);
		c = f->head;
		if (c && f->rpos >= __atomic_load_n(&c->len, __ATOMIC_ACQUIRE) && c->next) {
			next_read(f, c);	/* its length was final before c->next was set */
			pthread_mutex_unlock(&f->lock);
			continue;
		}
		if (!ready(f) && ms) {
			__atomic_store_n(&f->waiting, 1, __ATOMIC_SEQ_CST);
			WAIT_FOR(f, ready(f), ms);
			__atomic_store_n(&f->waiting, 0, __ATOMIC_RELAXED);
		}
		c = f->head;
		if (c && (f->rpos < __atomic_load_n(&c->len, __ATOMIC_ACQUIRE) || c->next)) {
			pthread_mutex_unlock(&f->lock);
			continue;
		}
		if (f->done)
			f->ended = true;	/* f->done: every length is final */
		pthread_mutex_unlock(&f->lock);
		if (!f->ended)
			return 0;
	}
	e = (const struct entry *)(c->data + f->rpos);
	f->rpos += e->size;
	it->kind = e->kind;
	if (e->kind == FEED_RECORD) {
		it->rec = *(const struct hwt_record *)(e + 1);
	} else {
		it->severity = e->severity;
		it->msg = (const char *)(e + 1);
	}
	return 1;
}

void feed__stop(struct feed *f)
{
	__atomic_store_n(&f->stop, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&f->lock);
	pthread_cond_broadcast(&f->can_put);
	pthread_mutex_unlock(&f->lock);
}

void feed__delete(struct feed *f)
{
	struct timespec ts;

	if (!f)
		return;
	feed__stop(f);
	deadline(&ts, CLOCK_REALTIME, JOIN_MS);
	if (pthread_timedjoin_np(f->thread, NULL, &ts))
		pthread_detach(f->thread);	/* it frees the feed when it ends */
	release(f);
}
