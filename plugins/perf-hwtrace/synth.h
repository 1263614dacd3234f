/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth.h - deterministic perf.data generators, one per device type.
 *
 * Each generator writes a file exactly as the kernel driver and perf (or our
 * recorder) would: attrs, features, AUXTRACE_INFO, PERF_RECORD_AUX and
 * AUXTRACE records.  With --manifest it also writes what it put in, computed
 * from its own model, so tests compare decoded output against the generator
 * rather than against the decoder.
 */
#ifndef PERF_HWTRACE_SYNTH_H
#define PERF_HWTRACE_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/decoder.h"
#include "hwtrace/perf_data.h"

/**
 * struct synth_opts - what `synth` was asked for
 * @seed:	model seed
 * @size:	approximate AUX payload bytes to write
 * @auxtrace_type: 0 = the type's own (design.rst 4); else written instead
 *		(e.g. 6 = hisi_ptt, so stock perf report -D walks the file)
 * @manifest:	stream to write the generator's own account to, or NULL
 * @opts:	type-specific options (--KEY VALUE), e.g. layout=6
 * @nopts:	how many
 */
struct synth_opts {
	uint64_t seed;
	uint64_t size;
	uint32_t auxtrace_type;
	FILE *manifest;
	const struct hwt_opt *opts;
	uint32_t nopts;
};

/**
 * struct synth_ops - one generator
 * @type:	--type name (same as the decoder's name)
 * @write:	write everything into @w (the caller opened and closes it);
 *		return 0 or -1 with a message on stderr
 * @help:	one line for --help, listing type-specific options
 */
struct synth_ops {
	const char *type;
	int (*write)(struct hwt_writer *w, const struct synth_opts *o);
	const char *help;
};

/* Value of a type-specific option, or @def. */
const char *synth_opt(const struct synth_opts *o, const char *key, const char *def);

extern const struct synth_ops synth_cxl_hmu;
extern const struct synth_ops synth_panthor;
extern const struct synth_ops synth_i915_oa;

#endif
