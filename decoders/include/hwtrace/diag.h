/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diag.h - errors and byte accounting shared by the reader and the decoders.
 *
 * Nothing in libhwtrace prints.  Every problem found in the input becomes a
 * struct hwt_error handed to the callback the caller installed; the callback
 * (a sink) decides how to show it.  Every input byte lands in exactly one of
 * the three counters, so a tool can prove that nothing was silently dropped.
 */
#ifndef HWTRACE_DIAG_H
#define HWTRACE_DIAG_H

#include <stdarg.h>
#include <stdint.h>

#include "api.h"

enum hwt_severity {
	HWT_WARN,	/* suspicious but decodable: still exit 0 */
	HWT_ERROR,	/* input was bad: the tool exits 1 */
};

/**
 * struct hwt_error - one problem in the input
 * @file:	the input's name ("-" or "<stdin>" for standard input)
 * @offset:	byte offset in @file of the bad item (payload bytes count from
 *		the start of the file, not of the record)
 * @rtype:	what was being read, e.g. "PERF_RECORD_AUXTRACE" or "cxl_hmu packet"
 * @severity:	HWT_WARN or HWT_ERROR
 * @msg:	what was wrong, one sentence without a trailing newline
 */
struct hwt_error {
	const char *file;
	uint64_t offset;
	const char *rtype;
	enum hwt_severity severity;
	char msg[256];
};

/**
 * struct hwt_bytes - where every input byte went
 * @decoded:	bytes understood and turned into events or records
 * @skipped:	bytes read but not decoded (unknown types, bad packets, padding
 *		that should have been zero is *not* skipped: it is decoded + warned)
 * @lost:	bytes the input promised but did not contain (cut file, AUX size
 *		past EOF).  AUX data the kernel reported lost (PERF_RECORD_AUX
 *		TRUNCATED) never reached the file: it is counted per stream
 *		(struct hwt_stream.aux_lost_bytes), not here
 */
struct hwt_bytes {
	uint64_t decoded;
	uint64_t skipped;
	uint64_t lost;
};

/**
 * struct hwt_diag - error sink and counters, owned by the caller
 * @report:	called once per problem; may be NULL (errors are only counted)
 * @ctx:	passed to @report
 * @file:	input name copied into every error
 * @errors:	number of HWT_ERROR reports so far
 * @warnings:	number of HWT_WARN reports so far
 * @bytes:	byte accounting for the input
 */
struct hwt_diag {
	void (*report)(void *ctx, const struct hwt_error *err);
	void *ctx;
	const char *file;
	uint64_t errors;
	uint64_t warnings;
	struct hwt_bytes bytes;
};

/**
 * hwt_diag__report - record a problem and hand it to the callback
 * @d:		the diag object (NULL is allowed: the report is dropped)
 * @sev:	HWT_WARN or HWT_ERROR
 * @offset:	byte offset in the input
 * @rtype:	what was being read
 * @fmt:	printf-style reason
 */
HWT_API void hwt_diag__report(struct hwt_diag *d, enum hwt_severity sev, uint64_t offset,
			      const char *rtype, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#define hwt_diag__error(d, off, rtype, ...) \
	hwt_diag__report(d, HWT_ERROR, off, rtype, __VA_ARGS__)
#define hwt_diag__warn(d, off, rtype, ...) \
	hwt_diag__report(d, HWT_WARN, off, rtype, __VA_ARGS__)

#endif
