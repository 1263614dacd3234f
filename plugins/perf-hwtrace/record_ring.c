// SPDX-License-Identifier: GPL-2.0
/*
 * record_ring.c - map one event's ring buffer and AUX area, and drain both.
 *
 * The data ring (1 + 2^n pages) is mapped read-write, so the kernel never
 * overwrites what we have not read (data_tail is ours to advance).  The AUX
 * area sits after it: aux_offset and aux_size are written into the user page
 * first, then it is mapped read-write too (non-overwrite mode).  Ring records
 * are copied into the file as they are; the AUX bytes each PERF_RECORD_AUX
 * announces become PERF_RECORD_AUXTRACE records (contiguous runs merged),
 * offset = the AUX stream offset, so readers match the two.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "record_state.h"

static bool is_pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

/**
 * rec_ring__mmap - map the data ring and, when aux_pages is not 0, the AUX area
 * @r:		ring with fd set
 * @data_pages:	data pages (a power of two; one more is mapped for the user page)
 * @aux_pages:	AUX pages (a power of two) or 0
 *
 * Returns 0, or -1 with errno from mmap (the data ring stays mapped when only
 * the AUX mmap failed, so a caller may go on without AUX).
 */
int rec_ring__mmap(struct rec_ring *r, unsigned int data_pages, unsigned int aux_pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p;

	if (!is_pow2(data_pages) || (aux_pages && !is_pow2(aux_pages))) {
		errno = EINVAL;
		return -1;
	}
	if (!r->up) {
		r->map_size = (size_t)(data_pages + 1) * pg;
		p = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
		if (p == MAP_FAILED)
			return -1;
		r->up = p;
		r->data = (uint8_t *)p + pg;
		r->data_size = (uint64_t)data_pages * pg;
	}
	if (!aux_pages)
		return 0;
	/* the kernel takes the AUX geometry from the user page at mmap time */
	r->up->aux_offset = r->map_size;
	r->up->aux_size = (uint64_t)aux_pages * pg;
	p = mmap(NULL, r->up->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		 (off_t)r->up->aux_offset);
	if (p == MAP_FAILED)
		return -1;
	r->aux = p;
	r->aux_size = r->up->aux_size;
	r->aux_tail = 0;
	return 0;
}

void rec_ring__unmap(struct rec_ring *r)
{
	if (r->aux)
		munmap(r->aux, r->aux_size);
	if (r->up)
		munmap(r->up, r->map_size);
	r->aux = NULL;
	r->up = NULL;
}

/* Copy @len bytes at stream offset @off of a power-of-two ring of @size bytes. */
static void ring_copy(void *dst, const uint8_t *ring, uint64_t size, uint64_t off, size_t len)
{
	uint64_t pos = off & (size - 1);
	size_t first = len < size - pos ? len : (size_t)(size - pos);

	memcpy(dst, ring + pos, first);
	memcpy((uint8_t *)dst + first, ring, len - first);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The pending AUX range into one AUXTRACE record; then the kernel may reuse it. */
static int aux_flush(struct rec_ring *r, struct hwt_writer *w, struct rec_stats *st)
{
	static uint8_t *buf;
	static size_t buf_size;
	uint64_t size = r->pend_end - r->pend_start;
	struct hwt_auxtrace at = { 0 };
	int ret = 0;

	if (size) {
		if (buf_size < r->aux_size) {
			uint8_t *nb = realloc(buf, r->aux_size);

			if (!nb)
				return -1;
			buf = nb;
			buf_size = r->aux_size;
		}
		/* two pieces when the data wraps past the end of the area */
		ring_copy(buf, r->aux, r->aux_size, r->pend_start, (size_t)size);
		at.offset = r->pend_start;
		at.reference = now_ns();
		at.idx = r->idx;
		at.tid = UINT32_MAX;
		at.cpu = (uint32_t)r->cpu;
		ret = hwt_writer__write_auxtrace(w, &at, buf, (size_t)size);
		st->auxtrace_records++;
		st->aux_bytes += size;
		r->pend_start = r->pend_end;
	}
	if (r->pend_end > r->aux_tail) {
		r->aux_tail = r->pend_end;
		/* the copy above must finish before the kernel may reuse the space */
		__atomic_store_n(&r->up->aux_tail, r->aux_tail, __ATOMIC_RELEASE);
	}
	if (r->reenable) {
		/*
		 * After TRUNCATED the PMU is stopped; whether the core also
		 * disabled the event depends on the kernel (6.1 did not on
		 * CPU 0).  DISABLE first so that ENABLE starts it in any case.
		 */
		r->reenable = false;
		if (!ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0) &&
		    !ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0))
			st->reenabled++;
	}
	return ret;
}

/*
 * A PERF_RECORD_AUX: extend the pending range when it follows on, else
 * flush it and start a new one.  Bytes between AUX records (a driver's
 * padding via perf_aux_output_skip(), or data whose record was lost) are
 * not copied: a chunk boundary there lets decoders restart cleanly.
 *
 * The record's offset and size come from the ring: in non-overwrite mode
 * the kernel writes only between what we have taken (pend_end, never
 * behind aux_tail) and aux_tail + aux_size, so a range outside that is
 * corrupt.  It is counted and skipped, never copied nor made our new tail.
 */
static int aux_note(struct rec_ring *r, uint64_t off, uint64_t size, struct hwt_writer *w,
		    struct rec_stats *st)
{
	uint64_t limit = r->aux_tail + r->aux_size;

	if (!r->aux || !size)
		return 0;
	if (off < r->pend_end || off > limit || size > limit - off) {
		st->aux_bad_records++;
		return 0;
	}
	if (off == r->pend_end && r->pend_end - r->pend_start + size <= r->aux_size) {
		r->pend_end += size;
		return 0;
	}
	if (aux_flush(r, w, st) < 0)
		return -1;
	if (off > r->pend_end)
		st->aux_gap_bytes += off - r->pend_end;
	r->pend_start = off;
	r->pend_end = off + size;
	return 0;
}

/*
 * The file an MMAP (name at byte 40) or MMAP2 (at 72) maps, for the build
 * ids; the tracking event asks for executable mappings only.
 */
static int note_mmap(const struct perf_event_header *h, struct rec_dsos *dsos)
{
	size_t at = h->type == PERF_RECORD_MMAP ? 40 : 72;
	const char *name = (const char *)h + at;

	if (!dsos || h->size <= at || name[0] != '/' || !memchr(name, 0, h->size - at))
		return 0;
	return rec_dsos__add(dsos, name);
}

static int count_record(const struct perf_event_header *h, struct rec_ring *r,
			struct hwt_writer *w, struct rec_stats *st, struct rec_dsos *dsos)
{
	const uint64_t *body = (const uint64_t *)(h + 1);

	st->records++;
	switch (h->type) {
	case PERF_RECORD_AUX:
		if (h->size < sizeof(*h) + 3 * 8)
			break;
		st->aux_records++;
		st->aux_truncated += !!(body[2] & PERF_AUX_FLAG_TRUNCATED);
		st->aux_overwrite += !!(body[2] & PERF_AUX_FLAG_OVERWRITE);
		st->aux_partial += !!(body[2] & PERF_AUX_FLAG_PARTIAL);
		st->aux_collision += !!(body[2] & PERF_AUX_FLAG_COLLISION);
		/* a full AUX area makes the PMU stop itself: start it again once drained */
		if (body[2] & PERF_AUX_FLAG_TRUNCATED)
			r->reenable = true;
		return aux_note(r, body[0], body[1], w, st);
	case PERF_RECORD_LOST:
		if (h->size < sizeof(*h) + 2 * 8)
			break;
		st->lost_records++;
		st->lost_events += body[1];
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return note_mmap(h, dsos);
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size < sizeof(*h) + 8)
			break;
		st->lost_samples += body[0];
		break;
	}
	return 0;
}

/*
 * Ring records between data_tail and data_head into @w; the AUX data they
 * announce follows as AUXTRACE records.
 */
static long drain_data(struct rec_ring *r, struct hwt_writer *w, struct rec_stats *st,
		       struct rec_dsos *dsos)
{
	uint64_t head = __atomic_load_n(&r->up->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->up->data_tail, start = tail;
	uint64_t rec[65536 / 8];
	struct perf_event_header *h = (struct perf_event_header *)rec;
	int ret = 0;

	/*
	 * The kernel never runs more than a ring ahead of our tail, nor behind
	 * it: the ring cannot be walked then, skip what it claims to hold.
	 */
	if (head - tail > r->data_size) {
		st->bad_records++;
		if (head > tail)
			tail = head;
		head = tail;
	}
	while (tail < head) {
		if (head - tail < sizeof(*h))
			break;
		ring_copy(h, r->data, r->data_size, tail, sizeof(*h));
		if (h->size < sizeof(*h) || h->size > head - tail) {
			/* cannot find the next record again: drop what is there */
			st->bad_records++;
			tail = head;
			break;
		}
		ring_copy(rec, r->data, r->data_size, tail, h->size);
		if (!ret && hwt_writer__write(w, h) < 0)
			ret = -1;
		if (!ret && count_record(h, r, w, st, dsos) < 0)
			ret = -1;
		tail += h->size;
	}
	/* the reads above must finish before the kernel may reuse the space */
	__atomic_store_n(&r->up->data_tail, tail, __ATOMIC_RELEASE);
	if (!ret && r->aux && aux_flush(r, w, st) < 0)
		ret = -1;
	return ret < 0 ? -1 : (long)(tail - start);
}

/**
 * rec_ring__drain - copy what the kernel produced since the last call
 * @r:		the ring
 * @w:		the output
 * @st:		counters to update
 * @dsos:	collects the files MMAP/MMAP2 records name (NULL: not wanted)
 *
 * The AUX bytes copied are exactly those the PERF_RECORD_AUX records read
 * here announce (the kernel publishes aux_head before the record), merged
 * into one AUXTRACE record per contiguous run.  Returns the ring bytes
 * consumed, or -1 on a write error.
 */
long rec_ring__drain(struct rec_ring *r, struct hwt_writer *w, struct rec_stats *st,
		     struct rec_dsos *dsos)
{
	if (!r->up)
		return 0;
	return drain_data(r, w, st, dsos);
}
