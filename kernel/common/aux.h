/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aux.h - AUX buffer helpers shared by the simulated-device PMUs.
 *
 * Static inline so that every module carries its own copy (one object file
 * may not be linked into two modules).  The buffer is vmapped contiguously,
 * overwrite mode is refused, and a unit (sample, record group) is always
 * written whole and never across the end of the buffer.
 */
#ifndef HWT_KERNEL_AUX_H
#define HWT_KERNEL_AUX_H

#include <linux/device.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

/**
 * struct hwt_aux_buf - one AUX buffer, mapped contiguously
 * @base:	vmap of the AUX pages
 * @size:	bytes, a power of two
 */
struct hwt_aux_buf {
	void *base;
	unsigned long size;
};

/**
 * hwt_aux_setup() - the PMU's setup_aux: vmap the pages
 * @event:	the event the buffer is for (its PMU device names the refusal)
 * @pages:	the AUX pages
 * @nr_pages:	their number, a power of two
 * @overwrite:	overwrite mode requested (refused)
 * @unit:	largest unit the PMU writes whole (bytes)
 *
 * The core never leaves more than size - 1 bytes free, so once a unit longer
 * than half the buffer has been written the next one can never be placed:
 * such buffers are refused here, as hisi_ptt refuses small ones.
 *
 * Return: the buffer, or NULL (the AUX mmap then fails with ENOMEM).
 */
static inline void *hwt_aux_setup(struct perf_event *event, void **pages, int nr_pages,
				  bool overwrite, unsigned long unit)
{
	struct device *dev = event->pmu->dev;
	struct hwt_aux_buf *buf;
	struct page **pg;
	int i;

	if (overwrite) {
		dev_dbg(dev, "overwrite mode is not supported\n");
		return NULL;
	}
	if (!nr_pages || !is_power_of_2(nr_pages))
		return NULL;
	if (((unsigned long)nr_pages << PAGE_SHIFT) < 2 * unit) {
		dev_dbg(dev, "AUX buffer of %d pages cannot hold two %lu-byte units\n",
			nr_pages, unit);
		return NULL;
	}
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	pg = kcalloc(nr_pages, sizeof(*pg), GFP_KERNEL);
	if (!buf || !pg)
		goto err;
	for (i = 0; i < nr_pages; i++)
		pg[i] = virt_to_page(pages[i]);
	buf->base = vmap(pg, nr_pages, VM_MAP, PAGE_KERNEL);
	if (!buf->base)
		goto err;
	buf->size = (unsigned long)nr_pages << PAGE_SHIFT;
	kfree(pg);
	return buf;
err:
	kfree(pg);
	kfree(buf);
	return NULL;
}

/**
 * hwt_aux_free() - the PMU's free_aux
 * @aux:	what hwt_aux_setup() returned
 */
static inline void hwt_aux_free(void *aux)
{
	struct hwt_aux_buf *buf = aux;

	vunmap(buf->base);
	kfree(buf);
}

/* hwt_aux_reserve() results besides a pointer */
#define HWT_AUX_FULL	((void *)NULL)
#define HWT_AUX_REOPEN	ERR_PTR(-EAGAIN)

/**
 * hwt_aux_reserve() - room for @len contiguous bytes in the open window
 * @h:		an active output handle
 * @written:	bytes already written in this window (not yet published)
 * @len:	bytes wanted, at most the buffer size
 *
 * When the unit does not fit before the end of the buffer but the window
 * goes on at offset 0, the tail is zeroed and skipped (it belongs to no
 * PERF_RECORD_AUX).  Skipping needs a window holding no unpublished data:
 * with @written non-zero, HWT_AUX_REOPEN asks the caller to publish
 * (perf_aux_output_end) and reopen first.
 *
 * Return: where to write, HWT_AUX_FULL or HWT_AUX_REOPEN.
 */
static inline void *hwt_aux_reserve(struct perf_output_handle *h, unsigned long written,
				    unsigned long len)
{
	struct hwt_aux_buf *buf = perf_get_aux(h);
	unsigned long off, to_end, free;

	if (!buf || len > buf->size)
		return HWT_AUX_FULL;
	off = (h->head + written) & (buf->size - 1);
	to_end = buf->size - off;
	free = h->size - written;
	if (len <= min(to_end, free))
		return buf->base + off;
	if (to_end >= len || free < to_end + len)
		return HWT_AUX_FULL;
	if (written)
		return HWT_AUX_REOPEN;
	memset(buf->base + off, 0, to_end);
	if (perf_aux_output_skip(h, to_end))
		return HWT_AUX_FULL;
	return buf->base;
}

/**
 * hwt_aux_assert_context() - the context every handle operation runs in
 * @event:	the event whose output handle is used
 *
 * start, stop and the device's interrupt use the one output handle of the
 * PMU: always with IRQs off, on the event's CPU.
 */
static inline void hwt_aux_assert_context(const struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	WARN_ON_ONCE(event->cpu != smp_processor_id());
}

#endif /* HWT_KERNEL_AUX_H */
