/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth.h - deterministic perf.data generators, one per device
 * (struct hwt_device.synth, in decoders/<device>/synth.c).
 *
 * Each generator writes a file exactly as the kernel driver and perf (or our
 * recorder) would: attrs, features, AUXTRACE_INFO (through the device's
 * encoder, as `record` writes it), PERF_RECORD_AUX and AUXTRACE records.
 * With a manifest callback it also writes what it put in, computed from its
 * own model, so tests compare decoded output against the generator rather
 * than against the decoder.  Generators do no I/O beyond the writer.
 */
#ifndef HWTRACE_SYNTH_H
#define HWTRACE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "decoder.h"
#include "device.h"
#include "perf_data.h"

/**
 * struct hwt_synth_opts - what `synth` was asked for
 * @seed:	model seed
 * @size:	approximate AUX payload bytes to write
 * @auxtrace_type: 0 = the device's own (design.rst 4); else written instead
 *		(e.g. 6 = hisi_ptt, so stock perf report -D walks the file)
 * @opts:	device-specific options (--KEY VALUE), e.g. layout=6
 * @nopts:	how many
 * @manifest:	NULL, or where the generator's own account goes: called with
 *		text in pieces of whole lines; returns 0, or -1 on a write error
 * @manifest_ctx: passed to @manifest
 */
struct hwt_synth_opts {
	uint64_t seed;
	uint64_t size;
	uint32_t auxtrace_type;
	const struct hwt_opt *opts;
	uint32_t nopts;
	int (*manifest)(void *ctx, const char *text, size_t len);
	void *manifest_ctx;
};

struct hwt_synth_run;

/**
 * struct hwt_synth - one device's generator
 * @write:	write everything through @run (the caller opened and closes
 *		the writer); return 0, or -1 with the reason in @run's diag
 * @help:	one line for --help listing the device's options ("--KEY")
 */
struct hwt_synth {
	int (*write)(struct hwt_synth_run *run);
	const char *help;
};

/**
 * hwt_synth__write - generate @dev's perf.data into @w
 * @dev:	the device (dev->synth set)
 * @w:		an open writer
 * @o:		what to generate
 * @diag:	where errors go (bad option values, write errors)
 *
 * Returns 0, or -1 with the reason reported through @diag.
 */
HWT_API int hwt_synth__write(const struct hwt_device *dev, struct hwt_writer *w,
			     const struct hwt_synth_opts *o, struct hwt_diag *diag);

#endif
