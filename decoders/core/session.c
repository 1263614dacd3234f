// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - read a container, route AUX payloads to decoders, feed a sink.
 *
 * The session owns the streams (one per AUXTRACE_INFO), pulls each AUXTRACE
 * payload from the reader in pieces and hands them to the stream's decoder.
 * A decoder consumes whole units only; what it leaves is carried over and
 * prepended to the next piece, so memory stays bounded by the largest unit,
 * not by the chunk.  It knows no device and prints nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "map_ahead.h"
#include "pipe_peek.h"

#define MAX_STREAMS	64
#define MAX_PRIV	64
#define MAX_CPUS	4096
#define MAX_CARRY	(64u << 20)	/* a unit larger than this is not plausible */
#define RAW_WINDOW	(4u << 20)

struct stream_state {
	struct hwt_stream s;
	uint64_t priv[MAX_PRIV];
	void *dec;
	uint64_t *last_time;	/* per cpu: time of the latest PERF_RECORD_AUX */
	uint64_t any_time;	/* the latest, whatever its cpu (no PERF_SAMPLE_CPU) */
	bool warned_no_decoder;
	const struct hwt_sink *sink;
	void *met;		/* metrics computer state (hwt_session_opts.metrics) */
	const struct hwt_metrics_ops *mops;
};

struct session {
	const struct hwt_session_opts *o;
	const struct hwt_sink *sink;
	struct hwt_diag *diag;
	struct hwt_reader *r;
	struct stream_state *streams[MAX_STREAMS];
	uint32_t nstreams;
	uint8_t *carry;
	size_t carry_cap;
};

/* The caller asked the session to end early (hwt_session_opts.stop). */
static bool stopped(const struct hwt_session_opts *o)
{
	return o->stop && __atomic_load_n(o->stop, __ATOMIC_RELAXED);
}

static void session_emit(void *ctx, const struct hwt_record *rec)
{
	struct stream_state *st = ctx;
	const struct hwt_sink *sink = st->sink;
	struct hwt_record with;

	if (st->met) {
		/* the computer sees every record, also those report only counts */
		const struct hwt_metrics *m = st->mops->record(st->met, rec);

		if (m && rec->type->kind == HWT_RK_DATA) {
			with = *rec;
			with.metrics = m;
			rec = &with;
		}
	}
	if (rec->type->kind == HWT_RK_DATA) {
		st->s.records++;
		if (st->s.ctx.summary_only)
			return;	/* counted: nobody reads them */
	}
	if (sink->record)
		sink->record(sink->ctx, rec);
}

static struct hwt_emit stream_emit(struct session *ss, struct stream_state *st)
{
	return (struct hwt_emit){
		.record = session_emit,
		.ctx = st,
		.diag = ss->diag,
		.stream = st->s.idx,
		.records = &st->s.records,
		/* what session_emit() would do then, inline in the decoder */
		.count_only = !st->met && !st->sink->record,
	};
}

static struct stream_state *stream_new(struct session *ss, uint64_t offset)
{
	struct stream_state *st;

	if (ss->nstreams == MAX_STREAMS) {
		hwt_diag__error(ss->diag, offset, "PERF_RECORD_AUXTRACE_INFO",
				"more than %d AUX streams; this one is ignored", MAX_STREAMS);
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->s.idx = ss->nstreams;
	st->sink = ss->sink;
	st->s.info_offset = offset;
	st->s.ctx.info_offset = offset;
	st->s.ctx.priv = st->priv;
	st->s.ctx.opts = ss->o->opts;
	st->s.ctx.nopts = ss->o->nopts;
	st->s.ctx.no_summary = ss->o->no_summary;
	st->s.ctx.summary_only = ss->o->summary_only;
	st->s.ctx.metrics_groups_only = ss->o->metrics_groups_only;
	st->s.ctx.metrics_no_groups = !ss->sink->metrics;
	st->s.ctx.metrics_only = ss->o->metrics_only;
	st->s.ctx.nmetrics_only = ss->o->nmetrics_only;
	st->s.ctx.cpus = ss->o->cpus;
	ss->streams[ss->nstreams++] = st;
	return st;
}

/* Create the decoder state for a stream whose ctx is filled in. */
static void stream_start(struct session *ss, struct stream_state *st)
{
	struct hwt_aux_ctx *ctx = &st->s.ctx;

	if (!st->s.dev)
		st->s.dev = hwt_device__match(ctx);
	st->s.ops = st->s.dev ? st->s.dev->decoder : NULL;
	ctx->metrics = ss->o->metrics && st->s.dev && st->s.dev->metrics;
	if (st->s.ops && !ss->o->no_decode) {
		st->dec = st->s.ops->new(ctx, ss->diag);
		if (!st->dec)
			hwt_diag__error(ss->diag, st->s.info_offset, "PERF_RECORD_AUXTRACE_INFO",
					"%s decoder could not start for this stream; "
					"its payloads are skipped", st->s.dev->name);
	}
	if (st->dec && ss->o->metrics && st->s.dev->metrics) {
		st->mops = st->s.dev->metrics;
		st->met = st->mops->new(ctx, ss->diag);
	}
	if (ss->sink->stream)
		ss->sink->stream(ss->sink->ctx, &st->s);
}

static void on_auxtrace_info(struct session *ss, const struct hwt_event *ev)
{
	const struct hwt_auxtrace_info *info = (const void *)ev->hdr;
	struct stream_state *st;
	uint32_t npriv;

	if (ev->hdr->size < sizeof(*info)) {
		hwt_diag__error(ss->diag, ev->offset, "PERF_RECORD_AUXTRACE_INFO",
				"record of %u bytes is smaller than its %zu-byte header",
				ev->hdr->size, sizeof(*info));
		return;
	}
	st = stream_new(ss, ev->offset);
	if (!st)
		return;
	npriv = (ev->hdr->size - sizeof(*info)) / sizeof(uint64_t);
	if (npriv > MAX_PRIV)
		npriv = MAX_PRIV;
	memcpy(st->priv, info->priv, npriv * sizeof(uint64_t));
	st->s.ctx.auxtrace_type = info->type;
	st->s.ctx.npriv = npriv;
	if (npriv) {
		uint32_t pmu_type = (uint32_t)st->priv[HWT_AUXTRACE_PRIV_PMU];

		st->s.ctx.attr = hwt_reader__attr_by_type(ss->r, pmu_type);
		st->s.ctx.pmu_name = hwt_reader__pmu_name(ss->r, pmu_type);
		if (!st->s.ctx.pmu_name && st->s.ctx.attr)
			st->s.ctx.pmu_name = st->s.ctx.attr->name;
	}
	stream_start(ss, st);
}

/* The stream a PERF_RECORD_AUX belongs to: the one whose PMU type is its attr's. */
static struct stream_state *stream_of_attr(struct session *ss, const struct hwt_attr *attr)
{
	for (uint32_t i = 0; i < ss->nstreams; i++) {
		struct stream_state *st = ss->streams[i];

		if (attr && st->s.ctx.npriv &&
		    attr->attr.type == (uint32_t)st->priv[HWT_AUXTRACE_PRIV_PMU])
			return st;
	}
	return ss->nstreams == 1 ? ss->streams[0] : NULL;
}

static void on_aux(struct session *ss, const struct hwt_event *ev)
{
	const struct hwt_aux *aux = (const void *)ev->hdr;
	struct stream_state *st;

	if (ev->hdr->size < sizeof(*aux))
		return;		/* the reader already reported it */
	st = stream_of_attr(ss, ev->attr);
	if (!st)
		return;
	st->s.aux_records++;
	st->s.aux_bytes += aux->aux_size;
	for (int bit = 0; bit < 4; bit++)
		if (aux->flags & (1u << bit))
			st->s.aux_flags[bit]++;
	if (aux->flags & PERF_AUX_FLAG_TRUNCATED)
		st->s.aux_lost_bytes += aux->aux_size;
	if (ev->sid.valid & PERF_SAMPLE_TIME)
		st->any_time = ev->sid.time;
	if ((ev->sid.valid & PERF_SAMPLE_TIME) && (ev->sid.valid & PERF_SAMPLE_CPU) &&
	    ev->sid.cpu < MAX_CPUS) {
		if (!st->last_time)
			st->last_time = calloc(MAX_CPUS, sizeof(uint64_t));
		if (st->last_time)
			st->last_time[ev->sid.cpu] = ev->sid.time;
	}
}

static bool carry_reserve(struct session *ss, size_t need)
{
	uint8_t *p;
	size_t cap = ss->carry_cap ? ss->carry_cap : 1 << 16;

	if (need <= ss->carry_cap)
		return true;
	while (cap < need)
		cap *= 2;
	p = realloc(ss->carry, cap);
	if (!p)
		return false;
	ss->carry = p;
	ss->carry_cap = cap;
	return true;
}

/*
 * Feed @n bytes at @p (file offset @off) to @st's decoder, with what the last
 * call left in the carry buffer in front.  Returns the new carry length.
 */
static size_t feed(struct session *ss, struct stream_state *st, struct hwt_chunk *c,
		   size_t carried, const uint8_t *p, size_t n, uint64_t off)
{
	struct hwt_emit emit = stream_emit(ss, st);
	size_t used, left;

	if (carried) {
		if (carried + n > MAX_CARRY || !carry_reserve(ss, carried + n)) {
			hwt_diag__error(ss->diag, off - carried, "AUX payload",
					"decoder %s needs more than %u MiB for one unit; "
					"%zu bytes skipped", st->s.dev->name, MAX_CARRY >> 20,
					carried);
			ss->diag->bytes.skipped += carried;
			carried = 0;
		} else {
			if (n)
				memcpy(ss->carry + carried, p, n);
			p = ss->carry;
			n += carried;
			off -= carried;
		}
	}
	c->data = p;
	c->size = n;
	c->file_offset = off;
	used = st->s.ops->decode(st->dec, c, &emit);
	if (used > n)
		used = n;
	c->first = false;
	left = n - used;
	if (!left)
		return 0;
	if (c->last) {
		/* the decoder must take everything at the end; account for it if not */
		ss->diag->bytes.skipped += left;
		return 0;
	}
	if (!carry_reserve(ss, left)) {
		ss->diag->bytes.skipped += left;
		return 0;
	}
	memmove(ss->carry, p + used, left);
	return left;
}

static void on_auxtrace(struct session *ss, const struct hwt_event *ev)
{
	const struct hwt_auxtrace *at = (const void *)ev->hdr;
	struct stream_state *st = ss->nstreams ? ss->streams[ss->nstreams - 1] : NULL;
	struct hwt_chunk c = { .first = true };
	uint64_t pulled = 0, base;
	size_t carried = 0;
	const void *p;
	ssize_t n;

	if (ev->hdr->size < sizeof(*at))
		return;		/* the reader already reported it */
	if (!st) {
		hwt_diag__error(ss->diag, ev->offset, "PERF_RECORD_AUXTRACE",
				"AUX data with no PERF_RECORD_AUXTRACE_INFO before it; "
				"%llu payload bytes skipped",
				(unsigned long long)ev->payload_size);
		return;
	}
	st->s.chunks++;
	st->s.bytes += ev->payload_size;
	if (!st->dec) {
		if (!st->s.ops && !st->warned_no_decoder && !ss->o->no_decode) {
			hwt_diag__warn(ss->diag, ev->offset, "PERF_RECORD_AUXTRACE",
				       "no decoder for auxtrace type %u (PMU %s); payloads skipped",
				       st->s.ctx.auxtrace_type,
				       st->s.ctx.pmu_name ? st->s.ctx.pmu_name : "unknown");
			st->warned_no_decoder = true;
		}
		return;		/* unpulled payload is counted skipped by the reader */
	}
	c.cpu = (int32_t)at->cpu;
	c.tid = (int32_t)at->tid;
	c.aux = at;
	c.time = st->any_time;
	if (st->last_time && at->cpu < MAX_CPUS && st->last_time[at->cpu])
		c.time = st->last_time[at->cpu];
	base = ev->offset + ev->hdr->size;
	if (ss->sink->chunk)
		ss->sink->chunk(ss->sink->ctx, &st->s, &c, ev->payload_size);
	if (!ev->payload_size)
		return;
	while (!stopped(ss->o) && (n = hwt_reader__payload(ss->r, &p)) > 0) {
		c.last = pulled + n >= ev->payload_size;
		carried = feed(ss, st, &c, carried, p, n, base + pulled);
		pulled += n;
	}
	if (carried && !stopped(ss->o)) {
		/* the payload was cut: let the decoder see (and account for) the rest */
		c.last = true;
		feed(ss, st, &c, carried, NULL, 0, base + pulled);
	}
}

static void session_finish(struct session *ss)
{
	const struct hwt_stream *list[MAX_STREAMS];
	bool stop = stopped(ss->o);

	for (uint32_t i = 0; i < ss->nstreams; i++) {
		struct stream_state *st = ss->streams[i];

		if (st->dec && st->s.ops->finish && !stop) {
			struct hwt_emit emit = stream_emit(ss, st);

			st->s.ops->finish(st->dec, &emit);
		}
		list[i] = &st->s;
	}
	for (uint32_t i = 0; i < ss->nstreams && !stop; i++) {
		struct stream_state *st = ss->streams[i];
		const struct hwt_metrics *m;

		for (uint32_t g = 0; st->met && ss->sink->metrics &&
		     (m = st->mops->group(st->met, g)); g++)
			ss->sink->metrics(ss->sink->ctx, &st->s, m);
	}
	if (ss->sink->end)
		ss->sink->end(ss->sink->ctx, list, ss->nstreams, ss->r);
}

static void session_free(struct session *ss)
{
	for (uint32_t i = 0; i < ss->nstreams; i++) {
		struct stream_state *st = ss->streams[i];

		if (st->dec && st->s.ops->free)
			st->s.ops->free(st->dec);
		if (st->met)
			st->mops->free(st->met);
		free(st->last_time);
		free(st);
	}
	free(ss->carry);
}

static int session_status(const struct hwt_diag *diag)
{
	return diag->errors ? 1 : 0;
}

/* a pipe input's size: an unprivileged process's /proc/sys/fs/pipe-max-size default */
#define INPUT_PIPE_SIZE	(1 << 20)

/*
 * Open an input once: a FIFO or a pipe can be read only once, and a second
 * open() of a FIFO waits for a writer that may already be gone.  An open()
 * interrupted by a signal the tool catches (EINTR) fails like any other.
 *
 * A pipe's default 64 KiB make the writer and the decoder take turns every
 * 64 KiB: a 270 MB IGT file through `cat |` took 0.58-0.75 s to decode
 * (`script --null`), more than `cat | cat` (0.46 s) and 7 times the mapped
 * file; in 1 MiB, 0.29-0.44 s.  A pipe that cannot grow (the user's pipe
 * pages are used up, a lower limit) keeps its size.
 */
static int input_open(const char *path, struct hwt_diag *diag)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) :
		 fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	struct stat sb;

	if (fd < 0)
		hwt_diag__error(diag, 0, "file", "cannot open: %s", strerror(errno));
	else if (!fstat(fd, &sb) && S_ISFIFO(sb.st_mode) &&
		 fcntl(fd, F_GETPIPE_SZ) < INPUT_PIPE_SIZE)
		fcntl(fd, F_SETPIPE_SZ, INPUT_PIPE_SIZE);
	return fd;
}

/* the bytes the devices' probes need: an IGT file's VERSION record */
#define PROBE_MIN	16

/*
 * The device of a self-describing raw file (IGT dumps, ...), or NULL for
 * perf.data and anything else.  A regular file is peeked with pread(), a
 * pipe or FIFO with tee() (pipe_peek.c): either way the input is left
 * unread for whichever reader runs.  Anything else goes to the perf.data
 * reader unread.
 */
static const struct hwt_device *probe_raw(int fd, const struct hwt_session_opts *o)
{
	uint8_t head[4096];
	struct stat sb;
	ssize_t n;

	if (fstat(fd, &sb))
		return NULL;
	if (S_ISFIFO(sb.st_mode))
		n = pipe_peek(fd, head, sizeof(head), PROBE_MIN, o->stop);
	else if (S_ISREG(sb.st_mode))
		n = pread(fd, head, sizeof(head), 0);
	else
		return NULL;
	if (n < 8 || !memcmp(head, "PERFILE2", 8) || !memcmp(head, "2ELIFREP", 8))
		return NULL;
	return hwt_device__probe(head, n);
}

static int session_raw_fd(int fd, const char *path, const struct hwt_session_opts *o,
			  const struct hwt_sink *sink, struct hwt_diag *diag);

int hwt_session__run(const char *path, const struct hwt_session_opts *o,
		     const struct hwt_sink *sink, struct hwt_diag *diag)
{
	struct session ss = { .o = o, .sink = sink, .diag = diag };
	const struct hwt_device *raw;
	struct hwt_event ev;
	int ret = 0, fd;

	if (!diag->file)
		diag->file = path;
	fd = input_open(path, diag);
	if (fd < 0)
		return -1;
	raw = probe_raw(fd, o);
	if (raw) {
		struct hwt_session_opts ro = *o;

		ro.raw_type = raw->name;
		ret = session_raw_fd(fd, path, &ro, sink, diag);
		close(fd);
		return ret;
	}
	ss.r = hwt_reader__new_fd(fd, path, diag);
	if (!ss.r) {
		close(fd);
		return -1;
	}
	while (!stopped(o) && (ret = hwt_reader__next(ss.r, &ev)) > 0) {
		if (sink->event)
			sink->event(sink->ctx, ss.r, &ev);
		switch (ev.hdr->type) {
		case HWT_REC_AUXTRACE_INFO:
			on_auxtrace_info(&ss, &ev);
			break;
		case HWT_REC_AUXTRACE:
			on_auxtrace(&ss, &ev);
			break;
		case PERF_RECORD_AUX:
			on_aux(&ss, &ev);
			break;
		default:
			break;
		}
	}
	session_finish(&ss);
	session_free(&ss);
	hwt_reader__delete(ss.r);
	close(fd);
	return ret < 0 ? 1 : session_status(diag);
}

/*
 * Decode a regular file through a read-only mapping instead of read() and
 * the carry buffer: no copy, and what the decoder leaves is simply read
 * again.  The pieces are exactly the ones the read() loop below hands over
 * (windows of RAW_WINDOW bytes, each extended back to the first unconsumed
 * byte), because decoders such as CXL HMU resynchronise at piece ends.  A
 * thread maps the next window's pages while the decoder reads this one,
 * and unmaps what it has read (map_ahead.c).
 */
static void raw_mapped(struct session *ss, struct stream_state *st, struct hwt_chunk *c, int fd,
		       struct map_ahead *m, uint64_t total)
{
	uint64_t pos = 0, end = 0;

	while (!c->last && !stopped(ss->o)) {
		struct hwt_emit emit = stream_emit(ss, st);
		uint64_t have = total - end < RAW_WINDOW ? total - end : RAW_WINDOW;
		size_t used, n;

		if (!have && pos == end)
			break;
		if (pos < end && end - pos + have > MAX_CARRY) {
			hwt_diag__error(ss->diag, pos, "AUX payload",
					"decoder %s needs more than %u MiB for one unit; "
					"%llu bytes skipped", st->s.dev->name, MAX_CARRY >> 20,
					(unsigned long long)(end - pos));
			ss->diag->bytes.skipped += end - pos;
			pos = end;
		}
		end += have;
		c->last = have < RAW_WINDOW;	/* a short read: end of file */
		/*
		 * Touching a mapping past a file's end is SIGBUS: if the file
		 * shrank since we sized it, say so and stop instead.  (Only a
		 * truncation between this check and the decode can still fault.)
		 */
		{
			struct stat sb = { 0 };

			if (fstat(fd, &sb) || (uint64_t)sb.st_size < end) {
				hwt_diag__error(ss->diag, pos, "file",
						"file shrank while being read (now %llu bytes, "
						"%llu expected); the rest is lost",
						(unsigned long long)sb.st_size,
						(unsigned long long)total);
				ss->diag->bytes.lost += total - pos;
				break;
			}
		}
		map_ahead__read(m, pos, end);
		n = end - pos;
		c->data = map_ahead__base(m) + pos;
		c->size = n;
		c->file_offset = pos;
		used = st->s.ops->decode(st->dec, c, &emit);
		if (used > n)
			used = n;
		c->first = false;
		if (c->last)	/* the decoder must take everything at the end */
			ss->diag->bytes.skipped += n - used;
		pos += used;
	}
	st->s.bytes = total;
}

int hwt_session__run_raw(const char *path, const struct hwt_session_opts *o,
			 const struct hwt_sink *sink, struct hwt_diag *diag)
{
	int fd, ret;

	if (!diag->file)
		diag->file = path;
	if (!hwt_device__find(o->raw_type ? o->raw_type : ""))
		return session_raw_fd(-1, path, o, sink, diag);	/* says which type */
	fd = input_open(path, diag);
	if (fd < 0)
		return -1;
	ret = session_raw_fd(fd, path, o, sink, diag);
	close(fd);
	return ret;
}

/* Decode raw payload from @fd (not closed) as device o->raw_type. */
static int session_raw_fd(int fd, const char *path, const struct hwt_session_opts *o,
			  const struct hwt_sink *sink, struct hwt_diag *diag)
{
	const struct hwt_device *dev = hwt_device__find(o->raw_type ? o->raw_type : "");
	struct session ss = { .o = o, .sink = sink, .diag = diag };
	struct hwt_chunk c = { .first = true, .cpu = -1, .tid = -1 };
	struct map_ahead *m = NULL;
	struct stream_state *st;
	uint64_t off = 0, total = 0;
	size_t carried = 0;
	struct stat sb;
	uint8_t *buf;
	int nprivs;
	bool eof = false;

	if (!dev) {
		hwt_diag__error(diag, 0, "decode", "unknown payload type '%s'",
				o->raw_type ? o->raw_type : "");
		return -1;
	}
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode))
		total = sb.st_size;
	st = stream_new(&ss, 0);
	if (!st) {
		session_free(&ss);
		return -1;
	}
	st->s.dev = dev;
	st->s.ctx.raw = true;
	st->s.ctx.auxtrace_type = dev->auxtrace_type;
	nprivs = dev->decoder->ctx_from_opts ?
		dev->decoder->ctx_from_opts(&st->s.ctx, st->priv, MAX_PRIV, diag) : 0;
	if (nprivs < 0) {
		session_free(&ss);
		return -1;
	}
	st->s.ctx.npriv = nprivs;
	/*
	 * Map a regular file before the decoder starts: a decoder may load a
	 * library in a thread of its own (libi915_perf), and while dlopen()
	 * runs, creating the mapping's thread would wait for it.
	 */
	if (total)
		m = map_ahead__new(fd, total, RAW_WINDOW);
	stream_start(&ss, st);
	st->s.chunks = 1;
	if (sink->chunk && st->dec)
		sink->chunk(sink->ctx, &st->s, &c, total);
	if (st->dec && m) {
		raw_mapped(&ss, st, &c, fd, m, total);
		eof = true;
	}
	map_ahead__delete(m);
	/* not mapped (a pipe, or mmap() failed): read() it instead */
	buf = eof || !st->dec ? NULL : malloc(RAW_WINDOW);
	if (!eof && st->dec && !buf) {
		/* nothing is read: every byte of a file of known size is lost */
		hwt_diag__error(diag, 0, "file", "out of memory for the read buffer; "
				"%llu bytes not read", (unsigned long long)total);
		diag->bytes.lost += total;
		eof = true;
	}
	while (!eof && st->dec && !stopped(o)) {
		size_t have = 0;

		/* fill the window so a decoder sees whole units most of the time */
		while (have < RAW_WINDOW) {
			ssize_t n = read(fd, buf + have, RAW_WINDOW - have);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				hwt_diag__error(diag, off + have, "file", "read failed: %s",
						strerror(errno));
				eof = true;
				break;
			}
			if (n == 0) {
				eof = true;
				break;
			}
			have += n;
		}
		if (!have && !carried)
			break;
		c.last = eof;
		st->s.bytes += have;
		carried = feed(&ss, st, &c, carried, buf, have, off);
		off += have;
	}
	free(buf);
	session_finish(&ss);
	session_free(&ss);
	return session_status(diag);
}
