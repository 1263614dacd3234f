/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_hmu.h - the deterministic CHMU hotlist model.
 *
 * One model, two users: `perf hwtrace synth --type cxl-hmu` (userspace) and the
 * simulated CHMU backend in kernel/ (built with __KERNEL__).  Given the same
 * seed and parameters both produce the same hotlist entries in the same order,
 * so the end-to-end test can check a kernel recording against synth's manifest.
 * Header-only and libc-free so that it builds in both worlds.
 */
#ifndef HWTRACE_SIM_HMU_H
#define HWTRACE_SIM_HMU_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef u64 hwt_sim_u64;
typedef u32 hwt_sim_u32;
#else
#include <stdint.h>
typedef uint64_t hwt_sim_u64;
typedef uint32_t hwt_sim_u32;
#endif

/**
 * struct hwt_sim_hmu - model state
 * @rng:	xorshift64* state, never 0
 * @nunits:	units in the monitored DPA range (unit ids 0 .. nunits-1)
 * @width:	counter width in bits (the RFC's QEMU model reports 16)
 * @threshold:	hotness threshold: every reported count is >= it
 */
struct hwt_sim_hmu {
	hwt_sim_u64 rng;
	hwt_sim_u64 nunits;
	hwt_sim_u32 width;
	hwt_sim_u32 threshold;
};

static inline hwt_sim_u64 hwt_sim_hmu__rand(struct hwt_sim_hmu *s)
{
	hwt_sim_u64 x = s->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	s->rng = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/**
 * hwt_sim_hmu__init - seed the model
 * @s:		state
 * @seed:	any value (0 is fine)
 * @nunits:	units in the range; clamped so that unit << width fits 64 bits
 * @width:	counter width, 1..32
 * @threshold:	minimum count, clamped to the counter's maximum
 */
static inline void hwt_sim_hmu__init(struct hwt_sim_hmu *s, hwt_sim_u64 seed,
				     hwt_sim_u64 nunits, hwt_sim_u32 width,
				     hwt_sim_u32 threshold)
{
	hwt_sim_u64 maxc;

	if (width < 1)
		width = 1;
	if (width > 32)
		width = 32;
	maxc = (1ULL << width) - 1;
	if (nunits < 1)
		nunits = 1;
	if (nunits > (1ULL << (64 - width)))
		nunits = 1ULL << (64 - width);
	s->rng = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
	if (!s->rng)
		s->rng = 1;
	s->nunits = nunits;
	s->width = width;
	s->threshold = threshold > maxc ? (hwt_sim_u32)maxc : threshold;
}

/*
 * a * b of two uniform 32-bit numbers, scaled back to 32 bits, has density
 * -ln(x): a skewed, Zipf-like access pattern where low unit ids are hot.
 */
static inline hwt_sim_u64 hwt_sim_hmu__entry(struct hwt_sim_hmu *s)
{
	hwt_sim_u64 r = hwt_sim_hmu__rand(s);
	hwt_sim_u64 x = ((r >> 32) * (r & 0xffffffffULL)) >> 32;
	hwt_sim_u64 unit, span, count;

	/* (x * nunits) >> 32 without overflow for nunits up to 2^63 */
	unit = (x * (s->nunits >> 32)) + ((x * (s->nunits & 0xffffffffULL)) >> 32);
	span = (1ULL << s->width) - s->threshold;	/* counts threshold .. 2^w - 1 */
	r = hwt_sim_hmu__rand(s);
	count = s->threshold + (((r >> 32) * span) >> 32);
	return (unit << s->width) | count;
}

/* Entries in the next drained packet: 1 .. max (the driver never writes empty packets). */
static inline hwt_sim_u32 hwt_sim_hmu__packet_units(struct hwt_sim_hmu *s, hwt_sim_u32 max)
{
	hwt_sim_u64 r = hwt_sim_hmu__rand(s);

	return 1 + (hwt_sim_u32)(((r >> 32) * max) >> 32);
}

#endif
