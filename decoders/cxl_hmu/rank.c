// SPDX-License-Identifier: GPL-2.0
/*
 * rank.c - growth, purge and top-N selection of the CXL HMU unit ranking
 * (rank.h says what the counts mean).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "le.h"
#include "rank.h"

#define HMU_RANK_MIN_BITS	12
#define HMU_RANK_SAMPLE		255	/* counters sampled for the purge median */
#define HMU_RANK_HUGE		(2ULL << 20)
#define HMU_RANK_PREFETCH	16	/* entries ahead: hides a cache miss */

/*
 * A table larger than the TLB reach costs a page walk per entry; 2 MiB
 * pages (where the kernel allows them on request) take that away.  Such a
 * table is mapped afresh and not cleared: the kernel hands out zeroed
 * pages, and clearing them again (memset() after aligned_alloc()) paid
 * the kernel's zeroing and a second pass.
 */
static struct hmu_slot *hmu_rank__alloc(uint32_t bits)
{
	size_t sz = sizeof(struct hmu_slot) << bits, len, head;
	uint8_t *m;

	if (sz < HMU_RANK_HUGE)
		return calloc(1, sz);
	/* room to start on a 2 MiB boundary; the rest is given back */
	len = (sz + HMU_RANK_HUGE - 1) & ~(size_t)(HMU_RANK_HUGE - 1);
	m = mmap(NULL, len + HMU_RANK_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	head = (HMU_RANK_HUGE - ((uintptr_t)m & (HMU_RANK_HUGE - 1))) & (HMU_RANK_HUGE - 1);
	if (head)
		munmap(m, head);
	if (HMU_RANK_HUGE - head)
		munmap(m + head + len, HMU_RANK_HUGE - head);
	madvise(m + head, len, MADV_HUGEPAGE);	/* a hint: no huge pages is fine */
	return (struct hmu_slot *)(m + head);
}

static void hmu_rank__release(struct hmu_slot *tab, uint32_t bits)
{
	size_t sz = sizeof(struct hmu_slot) << bits;

	if (!tab)
		return;
	if (sz < HMU_RANK_HUGE)
		free(tab);
	else
		munmap(tab, (sz + HMU_RANK_HUGE - 1) & ~(size_t)(HMU_RANK_HUGE - 1));
}

/* The smallest table that holds @n counters at half load. */
static uint32_t hmu_rank__bits_for(uint64_t n)
{
	uint32_t bits = 4;

	while (bits < 40 && (1ULL << (bits - 1)) < n)
		bits++;
	return bits;
}

bool hmu_rank__init(struct hmu_rank *r, uint64_t budget, uint64_t summary)
{
	uint32_t bits = 4;

	memset(r, 0, sizeof(*r));
	/* a purge holds the table and a spare of half of it: 1.5 tables (growing: 1.25) */
	while (bits < 40 && (sizeof(struct hmu_slot) * 3 << (bits + 1)) / 2 <= budget)
		bits++;
	r->max_bits = bits;
	r->summary_bits = summary > (1ULL << 38) ? 40 : hmu_rank__bits_for(summary ? summary : 1);
	if (r->summary_bits > bits)
		r->summary_bits = bits;
	r->bits = bits < HMU_RANK_MIN_BITS ? bits : HMU_RANK_MIN_BITS;
	r->tab = hmu_rank__alloc(r->bits);
	return r->tab != NULL;
}

static void hmu_rank__put(struct hmu_slot *tab, uint32_t bits, const struct hmu_slot *s)
{
	uint64_t mask = (1ULL << bits) - 1;
	uint64_t j = (s->key * HMU_RANK_HASH_MUL) >> (64 - bits);

	while (tab[j].key)
		j = (j + 1) & mask;
	tab[j] = *s;
}

/* Rehash every counter into a table of 1 << @bits slots (larger or smaller). */
static bool hmu_rank__resize(struct hmu_rank *r, uint32_t bits)
{
	struct hmu_slot *tab = hmu_rank__alloc(bits);
	uint64_t n = 1ULL << r->bits;

	if (!tab)
		return false;
	for (uint64_t i = 0; i < n; i++)
		if (r->tab[i].key)
			hmu_rank__put(tab, bits, &r->tab[i]);
	hmu_rank__release(r->tab, r->bits);
	r->tab = tab;
	r->bits = bits;
	return true;
}

/* The @k-th smallest of @a[0..@n) (Hoare's selection; @a is reordered). */
static uint64_t hmu_rank__select(uint64_t *a, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint64_t pivot = a[lo + (hi - lo) / 2], t;
		uint32_t i = lo, j = hi;

		for (;;) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i >= j)
				break;
			t = a[i];
			a[i++] = a[j];
			a[j--] = t;
		}
		/* a[lo..j] <= pivot <= a[j+1..hi] */
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	return a[k];
}

/*
 * The counter value below which about @below / HMU_RANK_SAMPLE of the
 * counters lie, from a sample spread evenly over the table.  The stride
 * follows the counters in use, not the slots: a table nearly empty after a
 * purge still gives a full sample (a sample of none gave 1, and purges by 1
 * that freed nothing).
 */
static uint64_t hmu_rank__quantile(const struct hmu_rank *r, uint32_t below)
{
	uint64_t sample[HMU_RANK_SAMPLE], n = 1ULL << r->bits, step, m = 0, k, v;

	step = r->used / HMU_RANK_SAMPLE ? r->used / HMU_RANK_SAMPLE : 1;
	for (uint64_t i = 0; i < n && m < HMU_RANK_SAMPLE; i += step)
		if (r->tab[i].key)
			sample[m++] = r->tab[i].total;
	if (!m)
		return 1;
	k = m * below / HMU_RANK_SAMPLE;
	v = hmu_rank__select(sample, (uint32_t)m, (uint32_t)(k < m ? k : m - 1));
	return v ? v : 1;
}

/*
 * Lower every counter by @d and drop those it empties.  The sweep writes
 * every slot's index to @r->spare and advances past the survivors only,
 * with no branch on the counts (random counts mispredict a branch half the
 * time); the survivors, an eighth or less, are then gathered into the
 * spare over their indices (from the last: a slot copied lands on indices
 * already read), the table cleared and the survivors put back.  Writing
 * one 8-byte index a slot instead of copying each 24-byte slot took 5% off
 * a summary's counting.
 */
static void hmu_rank__purge(struct hmu_rank *r, uint64_t d)
{
	uint64_t n = 1ULL << r->bits, m = 0;
	struct hmu_slot *tab = r->tab, *sp = r->spare;
	uint64_t *idx = (uint64_t *)sp;	/* at most n / 2 + 1 written: the table is half full */

	for (uint64_t i = 0; i < n; i++) {
		idx[m] = i;
		m += (tab[i].key != 0) & (tab[i].total > d);
	}
	for (uint64_t k = m; k-- > 0; ) {
		struct hmu_slot s = tab[idx[k]];

		s.total -= d;
		sp[k] = s;
	}
	memset(tab, 0, n * sizeof(*tab));
	for (uint64_t i = 0; i < m; i++)
		hmu_rank__put(tab, r->bits, &sp[i]);
	r->used = m;
	r->error = r->error + d < d ? UINT64_MAX : r->error + d;
	r->purged = true;
}

/*
 * hmu_rank__purge() without the spare (out of memory): in one pass over the
 * table and in place.  The pass starts after an empty slot, so no run of
 * occupied slots wraps past its start; each survivor then moves to the
 * first free slot on its probe path, which lies before it or is its own:
 * every counter stays reachable from its home slot.
 */
static void hmu_rank__purge_in_place(struct hmu_rank *r, uint64_t d)
{
	uint64_t n = 1ULL << r->bits, mask = n - 1, start = 0;
	struct hmu_slot *tab = r->tab;

	while (tab[start].key)	/* the table is at most half full */
		start++;
	for (uint64_t k = 1; k <= n; k++) {
		uint64_t i = (start + k) & mask, j;

		if (!tab[i].key)
			continue;
		if (tab[i].total <= d) {
			tab[i].key = 0;
			r->used--;
			continue;
		}
		tab[i].total -= d;
		j = (tab[i].key * HMU_RANK_HASH_MUL) >> (64 - r->bits);
		while (j != i && tab[j].key)
			j = (j + 1) & mask;
		if (j != i) {
			tab[j] = tab[i];
			tab[i].key = 0;
		}
	}
	r->error = r->error + d < d ? UINT64_MAX : r->error + d;
	r->purged = true;
}

/* Room for the survivors of a purge of the current table (at most half full, + 1). */
static bool hmu_rank__spare(struct hmu_rank *r)
{
	if (r->spare && r->spare_bits == r->bits)
		return true;
	free(r->spare);
	r->spare = malloc(sizeof(struct hmu_slot) * ((1ULL << r->bits) / 2 + 1));
	r->spare_bits = r->bits;
	return r->spare != NULL;
}

void hmu_rank__make_room(struct hmu_rank *r)
{
	/*
	 * Exact counts while the budget holds them.  Growth is four-fold,
	 * landing on the largest table: the pages touched on the way (each
	 * zeroed by the kernel, a cost that rivals the counting on a 1 GiB
	 * input) come to 4/3 of it, and the old and new tables together to
	 * 1.25 of it, within the budget's 1.5.  A table an odd number of
	 * doublings below it takes its odd step while it is small.
	 */
	if (!r->purged && r->bits < r->max_bits &&
	    hmu_rank__resize(r, r->bits + ((r->max_bits - r->bits) & 1 ? 1 : 2)))
		return;
	/*
	 * Past it, or out of memory below it: drop counters.  A purge that
	 * keeps an eighth of the counters frees most of the table, so its pass
	 * is paid by many insertions (a quarter: 15% more CPU on an even
	 * spread), while the bound grows less than with a higher one (9%).  The
	 * first purge on the way to a smaller summary keeps only what the
	 * summary holds, in one pass over the large table.
	 */
	do {
		/* keep about an eighth, and no more than a quarter of the summary */
		uint64_t keep = r->used / 8, cap = (1ULL << r->summary_bits) / 4, d;

		if (keep > cap)
			keep = cap;
		d = hmu_rank__quantile(r, HMU_RANK_SAMPLE - (uint32_t)(keep * HMU_RANK_SAMPLE / r->used));
		if (hmu_rank__spare(r))
			hmu_rank__purge(r, d);
		else
			hmu_rank__purge_in_place(r, d);
	} while (r->used * 4 > (1ULL << r->summary_bits));
	/*
	 * The summary: a table the CPU caches hold (out of memory: keep this
	 * one).  The large table's spare goes first: the table, its spare and
	 * the new table at once would pass the budget's 1.5 tables.
	 */
	if (r->bits > r->summary_bits) {
		free(r->spare);
		r->spare = NULL;
		hmu_rank__resize(r, r->summary_bits);
	}
}

/*
 * hmu_rank__add() for each entry, with the table's fields in registers
 * (only a make_room changes them) and the slots fetched ahead.
 */
void hmu_rank__add_packed(struct hmu_rank *r, const uint8_t *p, uint32_t n, uint32_t shift)
{
	uint64_t cmask = (1ULL << shift) - 1, used = r->used;
	struct hmu_slot *tab = r->tab;
	uint32_t bits = r->bits;
	uint64_t mask = (1ULL << bits) - 1;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t raw = hwt_le64(p + 8ULL * i), count = raw & cmask;
		uint64_t key = (raw >> shift) + 1, j = (key * HMU_RANK_HASH_MUL) >> (64 - bits);
		struct hmu_slot *s;

		/* the table can outgrow the caches: fetch a later entry's slot now */
		if (i + HMU_RANK_PREFETCH < n) {
			uint64_t k = (hwt_le64(p + 8ULL * (i + HMU_RANK_PREFETCH)) >> shift) + 1;

			__builtin_prefetch(&tab[(k * HMU_RANK_HASH_MUL) >> (64 - bits)], 1);
		}
		/*
		 * Most probes end at the first or second slot, which one is a coin
		 * flip at the table's load: pick it without a branch, loop only
		 * past the second.
		 */
		j = (j + (tab[j].key != key && tab[j].key)) & mask;
		for (;;) {
			s = &tab[j];
			if (s->key == key || !s->key)
				break;
			j = (j + 1) & mask;
		}
		if (s->key == key) {
			s->total += count;
			if (s->total < count)
				s->total = UINT64_MAX;
			s->reports++;
			continue;
		}
		if (used * 2 >= mask + 1) {	/* half full: the slow path, rarely */
			r->used = used;
			hmu_rank__make_room(r);
			hmu_rank__add(r, raw >> shift, count);
			used = r->used;
			tab = r->tab;
			bits = r->bits;
			mask = (1ULL << bits) - 1;
			continue;
		}
		s->key = key;
		s->total = count;
		s->reports = 1;
		used++;
	}
	r->used = used;
}

/* Whether @a ranks before @b: higher total, then lower unit. */
static bool hmu_rank__before(const struct hmu_slot *a, const struct hmu_slot *b)
{
	return a->total != b->total ? a->total > b->total : a->key < b->key;
}

static int hmu_rank__cmp(const void *a, const void *b)
{
	return hmu_rank__before(a, b) ? -1 : hmu_rank__before(b, a);
}

/* Sift @h[i] down a heap whose root is the counter ranked last. */
static void hmu_rank__sift(struct hmu_slot *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, w = i;
		struct hmu_slot t;

		if (l < n && hmu_rank__before(&h[w], &h[l]))
			w = l;
		if (l + 1 < n && hmu_rank__before(&h[w], &h[l + 1]))
			w = l + 1;
		if (w == i)
			return;
		t = h[i];
		h[i] = h[w];
		h[w] = t;
		i = w;
	}
}

uint32_t hmu_rank__top(const struct hmu_rank *r, struct hmu_slot *out, uint32_t n)
{
	uint64_t nslots = 1ULL << r->bits;
	uint32_t m = 0;

	if (!n)
		return 0;
	/* a heap of the best @n so far, its worst at the root: one pass, no sort of all */
	for (uint64_t i = 0; i < nslots; i++) {
		const struct hmu_slot *s = &r->tab[i];

		if (!s->key)
			continue;
		if (m < n) {
			out[m++] = *s;
			if (m == n)
				for (uint32_t k = n / 2; k-- > 0; )
					hmu_rank__sift(out, m, k);
		} else if (hmu_rank__before(s, &out[0])) {
			out[0] = *s;
			hmu_rank__sift(out, m, 0);
		}
	}
	qsort(out, m, sizeof(out[0]), hmu_rank__cmp);
	return m;
}

void hmu_rank__free(struct hmu_rank *r)
{
	hmu_rank__release(r->tab, r->bits);
	free(r->spare);
	r->tab = NULL;
	r->spare = NULL;
	r->used = 0;
}
