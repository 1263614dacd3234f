/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_data_internal.h - private parts of the perf.data reader.
 *
 * The reader is split by job: perf_data_source.c (a byte window over a file
 * or a pipe), perf_data_zstd.c (the inflated stream of COMPRESSED records),
 * perf_data_features.c (feature sections and HEADER_FEATURE records) and
 * perf_data_reader.c (record walking, attrs, sample ids).
 */
#ifndef HWTRACE_PERF_DATA_INTERNAL_H
#define HWTRACE_PERF_DATA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/perf_data.h"
#include "perf_record_names.h"
#include "le.h"

#define HWT_WINDOW_DEFAULT	(4u << 20)
/* the window must hold the largest record (u16 size) plus alignment slack */
#define HWT_WINDOW_MIN		((64u << 10) + 64)
#define HWT_ZBUF_SIZE		(1u << 20)
/* feature sections and tracing data larger than this are not kept */
#define HWT_FEAT_KEEP_MAX	(64u << 20)
/* perf's kernel record types we know (PERF_RECORD_MAX of 6.1) */
#define HWT_KERNEL_REC_MAX	22

/**
 * struct hwt_src - a read window over an fd
 * @fd:		the input
 * @seekable:	lseek() works (regular file): skips seek instead of reading
 * @eof:	read() returned 0 or failed
 * @err:	errno of a failed read(), or 0
 * @mem:	the allocation; @buf is @mem aligned to 8
 * @cap:	usable bytes at @buf
 * @pos:	first unconsumed byte; buf index == input offset mod 8, so
 *		8-aligned input offsets are 8-aligned in memory
 * @end:	end of valid bytes
 * @off:	input offset of buf[pos]
 * @limit:	never read at or past this input offset (file mode: data end)
 * @size:	input size if known (regular file), else UINT64_MAX
 */
struct hwt_src {
	int fd;
	bool seekable;
	bool eof;
	int err;
	uint8_t *mem;
	uint8_t *buf;
	size_t cap;
	size_t pos;
	size_t end;
	uint64_t off;
	uint64_t limit;
	uint64_t size;
};

int hwt_src__init(struct hwt_src *s, int fd, size_t cap);
void hwt_src__exit(struct hwt_src *s);
/* make @n bytes available at the window start; returns what is available */
size_t hwt_src__fill(struct hwt_src *s, size_t n);
/* drop @n bytes (seeking when possible); returns how many were there */
uint64_t hwt_src__skip(struct hwt_src *s, uint64_t n);
/* seekable inputs: drop the window and continue reading at @off */
int hwt_src__seek(struct hwt_src *s, uint64_t off);

static inline size_t hwt_src__avail(const struct hwt_src *s)
{
	return s->end - s->pos;
}

static inline const uint8_t *hwt_src__ptr(const struct hwt_src *s)
{
	return s->buf + s->pos;
}

static inline void hwt_src__consume(struct hwt_src *s, size_t n)
{
	s->pos += n;
	s->off += n;
}

/**
 * struct hwt_zstream - records inflated from COMPRESSED records
 * @ds:		zstd stream (created at the first COMPRESSED record)
 * @in:		the current COMPRESSED record's data (a copy)
 * @in_size:	bytes in @in
 * @in_pos:	bytes of @in zstd has consumed
 * @more:	zstd may hold output it could not flush yet
 * @mem:	allocation of the inflated buffer, @buf aligned as in hwt_src
 * @cap, @pos, @end: as in hwt_src
 * @soff:	inflated-stream offset of buf[pos] (for alignment)
 * @rec_off:	file offset of the current COMPRESSED record
 * @dead:	an inflate or framing error happened: inner records are dropped
 */
struct hwt_zstream {
	void *ds;
	uint8_t *in;
	size_t in_size;
	size_t in_pos;
	bool more;
	uint8_t *mem;
	uint8_t *buf;
	size_t cap;
	size_t pos;
	size_t end;
	uint64_t soff;
	uint64_t rec_off;
	bool dead;
};

int hwt_zstream__load(struct hwt_zstream *z, const void *data, size_t size, uint64_t rec_off,
		      struct hwt_diag *diag);
/* inflate until @n bytes are buffered or the loaded input is used up */
size_t hwt_zstream__fill(struct hwt_zstream *z, size_t n, struct hwt_diag *diag);
void hwt_zstream__drop(struct hwt_zstream *z);
void hwt_zstream__exit(struct hwt_zstream *z);

static inline size_t hwt_zstream__avail(const struct hwt_zstream *z)
{
	return z->end - z->pos;
}

static inline void hwt_zstream__consume(struct hwt_zstream *z, size_t n)
{
	z->pos += n;
	z->soff += n;
}

/* loaded input not yet inflated, or output zstd still holds */
static inline bool hwt_zstream__pending(const struct hwt_zstream *z)
{
	return !z->dead && (z->in_pos < z->in_size || z->more);
}

struct hwt_feat {
	uint8_t *data;
	size_t size;
	bool present;
	char *str;
};

enum hwt_payload_kind {
	HWT_PL_NONE,
	HWT_PL_AUXTRACE,
	HWT_PL_TRACING,
};

struct hwt_reader {
	struct hwt_diag *diag;
	char *name;
	int fd;
	bool own_fd;
	bool pipe;
	bool done;
	int status;			/* what next() returns once done */
	struct hwt_src src;
	uint64_t data_off;
	uint64_t data_end;		/* file mode; UINT64_MAX in pipe mode */
	struct hwt_attr **attrs;
	uint32_t nr_attrs;
	/* sample id -> attr index + 1, open addressing */
	uint64_t *id_keys;
	uint32_t *id_vals;
	uint32_t id_cap;
	uint32_t id_n;
	struct hwt_feat feat[HWT_FEAT_MAX];
	struct hwt_pmu_mapping *pmus;
	uint32_t nr_pmus;
	uint8_t *tracing;		/* pipe mode HEADER_TRACING_DATA payload */
	size_t tracing_size;
	bool tracing_keep;
	/* payload of the last record */
	enum hwt_payload_kind pl_kind;
	bool pl_in_z;
	uint64_t pl_left;
	uint64_t pl_total;
	uint64_t pl_rec_off;
	uint32_t pl_type;
	struct hwt_zstream z;
	uint8_t *scratch;		/* aligned copy of a misaligned record */
	uint8_t *pl_hdr;		/* copy of the record whose payload is pulled */
	struct hwt_reader_stats stats;
	uint64_t warned[4];
	bool warned_other;
	bool warned_short_sid;
};

/* perf_data_features.c */
void hwt_feat__store(struct hwt_reader *r, uint32_t feat, const void *data, size_t size,
		     uint64_t off);
void hwt_feat__free(struct hwt_reader *r);
/* byte ranges of the input that were read at open time, for the accounting */
struct hwt_ival {
	uint64_t lo, hi;
};

/* read the feature table at @table_off and every section; adds up to 257 ranges to @iv */
void hwt_feat__read_file(struct hwt_reader *r, uint64_t table_off, const uint64_t bits[4],
			 struct hwt_ival *iv, uint32_t *niv);

/* perf_data_reader.c */
const struct hwt_attr *hwt_reader__lookup_id(const struct hwt_reader *r, uint64_t id);

/* perf_data_reader.c: open with a given window size (tests, fuzzing) */
struct hwt_reader *hwt_reader__new_fd_window(int fd, const char *name, struct hwt_diag *diag,
					      size_t window);

/* Read exactly @n bytes at @off; false on error or end of file. */
bool hwt_pread_all(int fd, void *buf, size_t n, uint64_t off);

#endif
