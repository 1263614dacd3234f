// SPDX-License-Identifier: GPL-2.0
/*
 * perf_data_zstd.c - the stream of records inside COMPRESSED records.
 *
 * perf record -z compresses its ring-buffer reads into PERF_RECORD_COMPRESSED
 * records; a record may straddle two of them, so the inflated bytes form one
 * stream and a partial record waits for the next COMPRESSED record.  Output
 * goes to a bounded buffer, so a huge ratio never means a huge allocation.
 * libzstd is loaded at the first COMPRESSED record (lazy_lib.h): most
 * inputs have none, and every start would pay for linking it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "core/lazy_lib.h"
#include "perf_data_internal.h"

#define HWT_ZIN_SIZE	(64u << 10)
#define ZSTD_SONAME	"libzstd.so.1"	/* the ABI <zstd.h> describes */

/* the functions used, typed by the header */
static struct {
	typeof(&ZSTD_createDStream) create;
	typeof(&ZSTD_initDStream) init;
	typeof(&ZSTD_decompressStream) decompress;
	typeof(&ZSTD_isError) is_error;
	typeof(&ZSTD_getErrorName) error_name;
	typeof(&ZSTD_freeDStream) free;
} zstd;

static const struct hwt_lazy_sym zstd_syms[] = {
	HWT_LAZY_SYM(zstd.create, ZSTD_createDStream),
	HWT_LAZY_SYM(zstd.init, ZSTD_initDStream),
	HWT_LAZY_SYM(zstd.decompress, ZSTD_decompressStream),
	HWT_LAZY_SYM(zstd.is_error, ZSTD_isError),
	HWT_LAZY_SYM(zstd.error_name, ZSTD_getErrorName),
	HWT_LAZY_SYM(zstd.free, ZSTD_freeDStream),
};

static struct hwt_lazy_lib zstd_lib = HWT_LAZY_LIB(ZSTD_SONAME, RTLD_NOW, "libzstd1", zstd_syms);

int hwt_zstream__load(struct hwt_zstream *z, const void *data, size_t size, uint64_t rec_off,
		      struct hwt_diag *diag)
{
	if (!z->ds) {
		if (!hwt_lazy_lib__load(&zstd_lib)) {
			hwt_diag__error(diag, rec_off, "PERF_RECORD_COMPRESSED",
					"%s; compressed records are skipped", zstd_lib.why);
			z->dead = true;
			return -1;
		}
		z->ds = zstd.create();
		z->in = malloc(HWT_ZIN_SIZE);
		z->mem = malloc(HWT_ZBUF_SIZE + 8);
		if (!z->ds || !z->in || !z->mem) {
			hwt_diag__error(diag, rec_off, "PERF_RECORD_COMPRESSED",
					"out of memory for the zstd stream");
			z->dead = true;
			return -1;
		}
		zstd.init(z->ds);
		z->buf = (uint8_t *)(((uintptr_t)z->mem + 7) & ~(uintptr_t)7);
		z->cap = HWT_ZBUF_SIZE;
		z->pos = z->end = 0;
	}
	if (size > HWT_ZIN_SIZE)	/* cannot happen: records are < 64 KiB */
		size = HWT_ZIN_SIZE;
	memcpy(z->in, data, size);
	z->in_size = size;
	z->in_pos = 0;
	z->rec_off = rec_off;
	return 0;
}

size_t hwt_zstream__fill(struct hwt_zstream *z, size_t n, struct hwt_diag *diag)
{
	size_t avail = hwt_zstream__avail(z);

	if (n > z->cap - 8)
		n = z->cap - 8;
	if (avail >= n || !hwt_zstream__pending(z))
		return avail;
	if (z->pos + n > z->cap) {
		size_t to = z->soff & 7;

		memmove(z->buf + to, z->buf + z->pos, avail);
		z->pos = to;
		z->end = to + avail;
	}
	while (avail < n && hwt_zstream__pending(z)) {
		ZSTD_inBuffer in = { z->in, z->in_size, z->in_pos };
		ZSTD_outBuffer out = { z->buf + z->end, z->cap - z->end, 0 };
		size_t ret = zstd.decompress(z->ds, &out, &in);

		if (zstd.is_error(ret)) {
			hwt_diag__error(diag, z->rec_off, "PERF_RECORD_COMPRESSED",
					"zstd: %s; the records of this and later COMPRESSED "
					"records are dropped", zstd.error_name(ret));
			hwt_zstream__drop(z);
			z->dead = true;
			return 0;
		}
		z->in_pos = in.pos;
		z->end += out.pos;
		avail += out.pos;
		/* a full output buffer may leave inflated bytes inside zstd */
		z->more = out.pos == out.size;
		if (!out.pos && in.pos == in.size)
			break;
	}
	return avail;
}

void hwt_zstream__drop(struct hwt_zstream *z)
{
	z->soff += hwt_zstream__avail(z);
	z->pos = z->end = z->soff & 7;
	z->in_pos = z->in_size;
	z->more = false;
}

void hwt_zstream__exit(struct hwt_zstream *z)
{
	if (z->ds)
		zstd.free(z->ds);
	free(z->in);
	free(z->mem);
	memset(z, 0, sizeof(*z));
}
