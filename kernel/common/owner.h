/* SPDX-License-Identifier: GPL-2.0 */
/*
 * owner.h - the backend contract shared by the single-device PMUs.
 *
 * A backend is taken for one event in event_init (acquire, configure: may
 * sleep and fail, the error is what perf_event_open returns) and given back
 * in the event's destroy (release).  The PMU is exclusive, but the core
 * checks that only after event_init, so the owner is claimed here first and
 * a second open gets EBUSY.  The device's interrupt may arrive on a CPU the
 * event has not reached yet while CPU hotplug moves it: hwt_irq_event()
 * tells the handler to leave the data in the device then.  Static inline:
 * each module carries its own copy.
 */
#ifndef HWT_KERNEL_OWNER_H
#define HWT_KERNEL_OWNER_H

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

/**
 * hwt_owner_claim() - make @event the owner of a device, before acquiring it
 * @owner:	the PMU's owner field
 * @event:	the event in event_init
 *
 * Process context, may sleep (the caller acquires the device next).
 *
 * Return: 0, or -EBUSY when another event holds the device.
 */
static inline int hwt_owner_claim(struct perf_event **owner, struct perf_event *event)
{
	might_sleep();
	return cmpxchg(owner, NULL, event) ? -EBUSY : 0;
}

/**
 * hwt_owner_unclaim() - the device was released (or never acquired)
 * @owner:	the PMU's owner field
 */
static inline void hwt_owner_unclaim(struct perf_event **owner)
{
	WRITE_ONCE(*owner, NULL);
}

/**
 * hwt_owner_destroy() - the event's destroy: does @event hold the device?
 * @owner:	the PMU's owner field
 * @event:	the event being destroyed
 *
 * Process context, may sleep: the caller releases the device when this
 * returns true, then calls hwt_owner_unclaim().
 */
static inline bool hwt_owner_destroy(struct perf_event **owner, struct perf_event *event)
{
	might_sleep();
	return !WARN_ON_ONCE(READ_ONCE(*owner) != event);
}

/**
 * hwt_irq_event() - the started event, if the interrupt may serve it here
 * @event:	the PMU's started event (read once by the caller), or NULL
 *
 * Hard interrupt context.  Stopped, or routed ahead of the event while CPU
 * hotplug moves it: NULL, and the data waits in the device (a loss report is
 * kept by the caller until it can be flagged).  Otherwise @event, after the
 * context assertion of the output-handle paths.
 */
static inline struct perf_event *hwt_irq_event(struct perf_event *event)
{
	if (!event || event->cpu != smp_processor_id())
		return NULL;
	lockdep_assert_irqs_disabled();
	return event;
}

#endif /* HWT_KERNEL_OWNER_H */
