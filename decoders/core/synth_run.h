/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth_run.h - what the generators (decoders/<device>/synth.c) share: their
 * options, the manifest buffer, the AUXTRACE_INFO through the device's
 * encoder, and the records every AUX recording has.
 */
#ifndef HWTRACE_SYNTH_RUN_H
#define HWTRACE_SYNTH_RUN_H

#include "hwtrace/synth.h"

#define HWT_SYNTH_MF_SIZE	65536
#define HWT_SYNTH_ROUND_EVERY	4	/* drains per FINISHED_ROUND */

/**
 * struct hwt_synth_run - one generator run
 * @w:		the output
 * @o:		what was asked for
 * @diag:	where errors go
 * @mf:		manifest text not yet handed to o->manifest
 * @mflen:	bytes in @mf
 * @mferr:	o->manifest failed
 * @drains:	AUX drains written so far
 * @buf:	the generator's payload buffer (hwt_synth_run__buffer())
 */
struct hwt_synth_run {
	struct hwt_writer *w;
	const struct hwt_synth_opts *o;
	struct hwt_diag *diag;
	char *mf;
	size_t mflen;
	bool mferr;
	uint64_t drains;
	void *buf;
};

/* A payload buffer of @size bytes, freed when the run ends; NULL reported. */
void *hwt_synth_run__buffer(struct hwt_synth_run *run, size_t size);

/* Value of option @key (the last one given), or @def. */
const char *hwt_synth_run__opt(const struct hwt_synth_run *run, const char *key,
			       const char *def);

/*
 * Option @key as a number in @min..@max (decimal, 0x, 0), or @def when not
 * given; -1 with the reason reported when it is not such a number.
 */
int hwt_synth_run__u64(struct hwt_synth_run *run, const char *key, uint64_t def, uint64_t min,
		       uint64_t max, uint64_t *out);

/* Whether a manifest was asked for. */
static inline bool hwt_synth_run__has_manifest(const struct hwt_synth_run *run)
{
	return run->o->manifest != NULL;
}

/* Append printf-style text to the manifest (nothing when none was asked for). */
void hwt_synth_run__printf(struct hwt_synth_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append @len bytes of text to the manifest. */
void hwt_synth_run__put(struct hwt_synth_run *run, const char *text, size_t len);

/* Report an error (printf-style) through the run's diag; returns -1. */
int hwt_synth_run__error(struct hwt_synth_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Write @dev's AUXTRACE_INFO for PMU type @pmu_type with values from @lk
 * (o->auxtrace_type, when set, written as its type), then FINISHED_INIT when
 * @finished_init.  Returns 0, or -1 reported.
 */
int hwt_synth_run__auxinfo(struct hwt_synth_run *run, const struct hwt_device *dev,
			   uint32_t pmu_type, const char *pmu_name,
			   const struct hwt_auxinfo_lookup *lk, bool finished_init);

/*
 * One AUX drain: a PERF_RECORD_AUX of sample id @id at @time (cpu 0, with the
 * TID|TIME|CPU|IDENTIFIER trailer), the AUXTRACE record of @len bytes at AUX
 * offset @offset and, every HWT_SYNTH_ROUND_EVERY drains, a FINISHED_ROUND,
 * as perf writes rounds.  Returns 0, or -1 reported.
 */
int hwt_synth_run__drain(struct hwt_synth_run *run, uint64_t id, uint64_t time,
			 uint64_t offset, const void *buf, size_t len);

/* After the last drain: the FINISHED_ROUND that closes it, if due; 0, or -1 reported. */
int hwt_synth_run__drains_end(struct hwt_synth_run *run);

/*
 * The two events of an AUX recording: @aux, whose type, config, ids and name
 * the caller set (period 1, disabled, sample_id_all and a
 * IP|TID|TIME|CPU|IDENTIFIER sample type are set here, as perf sets an AUX
 * event), then a dummy:u event of sample id @dummy_id that, with
 * @dummy_tracks, also starts disabled and tracks mmap, comm and task as
 * `perf record -a` sets it.  Returns 0 or -1.
 */
int hwt_synth_run__aux_events(struct hwt_synth_run *run, struct hwt_writer_attr *aux,
			      uint64_t dummy_id, bool dummy_tracks);

/*
 * The feature strings of the machine a generator pretends to record on
 * (HOSTNAME "hwtrace-synth"); a NULL string is left out, ncpus 0 too.
 */
struct hwt_synth_host {
	const char *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t ncpus;
};

/* Set @h's features; 0 or -1. */
int hwt_synth_run__host(struct hwt_synth_run *run, const struct hwt_synth_host *h);

#endif
