/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_data.h - perf.data container reader and writer.
 *
 * The reader walks a perf.data file (file mode or pipe mode, a path or "-"
 * for stdin) one record at a time with flat memory: it reads through a window
 * and never holds the whole file.  It knows nothing of devices.  AUXTRACE
 * payloads (which follow the record and are not counted in header.size) are
 * pulled in pieces with hwt_reader__payload(); COMPRESSED records are inflated
 * transparently and their records returned as if they were in the file.
 */
#ifndef HWTRACE_PERF_DATA_H
#define HWTRACE_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "api.h"
#include "diag.h"

/* perf's user record types (tools/lib/perf/include/perf/event.h). */
enum hwt_user_record_type {
	HWT_REC_HEADER_ATTR = 64,
	HWT_REC_HEADER_EVENT_TYPE = 65,
	HWT_REC_HEADER_TRACING_DATA = 66,
	HWT_REC_HEADER_BUILD_ID = 67,
	HWT_REC_FINISHED_ROUND = 68,
	HWT_REC_ID_INDEX = 69,
	HWT_REC_AUXTRACE_INFO = 70,
	HWT_REC_AUXTRACE = 71,
	HWT_REC_AUXTRACE_ERROR = 72,
	HWT_REC_THREAD_MAP = 73,
	HWT_REC_CPU_MAP = 74,
	HWT_REC_STAT_CONFIG = 75,
	HWT_REC_STAT = 76,
	HWT_REC_STAT_ROUND = 77,
	HWT_REC_EVENT_UPDATE = 78,
	HWT_REC_TIME_CONV = 79,
	HWT_REC_HEADER_FEATURE = 80,
	HWT_REC_COMPRESSED = 81,
	HWT_REC_FINISHED_INIT = 82,
	HWT_REC_COMPRESSED2 = 83,
	HWT_REC_MAX = 128,	/* size of per-type tables */
};

/* perf.data feature bits (tools/perf/util/header.h). */
enum hwt_feature {
	HWT_FEAT_TRACING_DATA = 1,
	HWT_FEAT_BUILD_ID = 2,
	HWT_FEAT_HOSTNAME = 3,
	HWT_FEAT_OSRELEASE = 4,
	HWT_FEAT_VERSION = 5,
	HWT_FEAT_ARCH = 6,
	HWT_FEAT_NRCPUS = 7,
	HWT_FEAT_CPUDESC = 8,
	HWT_FEAT_CPUID = 9,
	HWT_FEAT_TOTAL_MEM = 10,
	HWT_FEAT_CMDLINE = 11,
	HWT_FEAT_EVENT_DESC = 12,
	HWT_FEAT_CPU_TOPOLOGY = 13,
	HWT_FEAT_NUMA_TOPOLOGY = 14,
	HWT_FEAT_BRANCH_STACK = 15,
	HWT_FEAT_PMU_MAPPINGS = 16,
	HWT_FEAT_GROUP_DESC = 17,
	HWT_FEAT_AUXTRACE = 18,
	HWT_FEAT_STAT = 19,
	HWT_FEAT_CACHE = 20,
	HWT_FEAT_SAMPLE_TIME = 21,
	HWT_FEAT_MEM_TOPOLOGY = 22,
	HWT_FEAT_CLOCKID = 23,
	HWT_FEAT_DIR_FORMAT = 24,
	HWT_FEAT_BPF_PROG_INFO = 25,
	HWT_FEAT_BPF_BTF = 26,
	HWT_FEAT_COMPRESSED = 27,
	HWT_FEAT_CPU_PMU_CAPS = 28,
	HWT_FEAT_CLOCK_DATA = 29,
	HWT_FEAT_HYBRID_TOPOLOGY = 30,
	HWT_FEAT_PMU_CAPS = 31,
	HWT_FEAT_LAST_PERF61 = 32,	/* perf 6.1's HEADER_LAST_FEATURE */
	HWT_FEAT_MAX = 256,
};

/* auxtrace types: perf's enum auxtrace_type, and ours (design.rst 4). */
#define HWT_AUXTRACE_HISI_PTT	6
#define HWT_AUXTRACE_CXL_HMU	7	/* RFC; collides with upstream VPA_DTL */
#define HWT_AUXTRACE_PANTHOR	0x48570001u
#define HWT_AUXTRACE_I915_OA	0x48570002u
#define HWT_AUXTRACE_DRM_USAGE	0x48570003u

/**
 * struct hwt_attr - one event attribute of the file
 * @attr:	the attr, zero-extended to our struct size whatever attr.size was
 * @ids:	sample ids that map to this attr
 * @nr_ids:	number of @ids
 * @name:	event name from EVENT_DESC, or NULL
 * @sample_id_size: bytes of the sample_id trailer on non-sample records
 */
struct hwt_attr {
	struct perf_event_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
	char *name;
	uint32_t sample_id_size;
};

/**
 * struct hwt_pmu_mapping - one PMU_MAPPINGS entry: attr.type -> PMU name
 */
struct hwt_pmu_mapping {
	uint32_t type;
	char *name;
};

/**
 * struct hwt_sample_id - fields from a record's sample_id trailer or a SAMPLE
 * @valid:	PERF_SAMPLE_* bits actually present
 */
struct hwt_sample_id {
	uint64_t valid;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

/**
 * struct hwt_event - one perf record, as returned by hwt_reader__next()
 * @offset:	offset of the record in the file; for records inflated from a
 *		COMPRESSED record, the offset of that COMPRESSED record
 * @dump_offset: the offset perf report -D prints (pipe mode: from after the
 *		16-byte pipe header)
 * @hdr:	the record (hdr->size bytes), valid until the next call
 * @attr:	the attr this record belongs to (by sample id; id 0, which perf
 *		gives the records it synthesizes, is the first attr's), or NULL
 * @sid:	parsed sample id (SAMPLE records and sample_id_all trailers)
 * @payload_size: for AUXTRACE (71) and HEADER_TRACING_DATA (66) in pipe
 *		mode: bytes that follow the record (read them with
 *		hwt_reader__payload(); unread payload is skipped)
 * @compressed:	the record came out of a COMPRESSED record
 */
struct hwt_event {
	uint64_t offset;
	uint64_t dump_offset;
	const struct perf_event_header *hdr;
	const struct hwt_attr *attr;
	struct hwt_sample_id sid;
	uint64_t payload_size;
	bool compressed;
};

/* Convenience views of record bodies (native endian, as perf writes them). */
struct hwt_auxtrace_info {
	struct perf_event_header header;
	uint32_t type;
	uint32_t reserved;
	uint64_t priv[];
};

struct hwt_auxtrace {
	struct perf_event_header header;
	uint64_t size;
	uint64_t offset;
	uint64_t reference;
	uint32_t idx;
	uint32_t tid;
	uint32_t cpu;
	uint32_t reserved;
};

struct hwt_aux {
	struct perf_event_header header;
	uint64_t aux_offset;
	uint64_t aux_size;
	uint64_t flags;
};

/**
 * hwt_event__comm - the fields of a PERF_RECORD_COMM
 * @ev:		the event
 * @pid:	set to its pid
 * @tid:	set to its tid
 * @comm:	set to the name (not necessarily NUL-terminated)
 * @len:	set to the name's length, bounded by the record (NUL excluded)
 *
 * Returns false when @ev is not a COMM record or is too short to hold one.
 */
HWT_API bool hwt_event__comm(const struct hwt_event *ev, uint32_t *pid, uint32_t *tid,
			     const char **comm, size_t *len);

struct hwt_reader;

/**
 * struct hwt_reader_stats - what the reader saw
 * @nr:		records per type (index = perf record type; >= HWT_REC_MAX in
 *		@nr_other), inflated ones included, COMPRESSED themselves too
 * @nr_other:	records with a type >= HWT_REC_MAX
 * @aux_flags:	PERF_RECORD_AUX counts: [0] truncated, [1] overwrite,
 *		[2] partial, [3] collision
 * @aux_lost_bytes: aux_size of PERF_RECORD_AUX records flagged TRUNCATED
 * @lost_records: sum of PERF_RECORD_LOST.lost and LOST_SAMPLES.lost
 * @file_size:	bytes in the input (for pipes: bytes read so far)
 */
struct hwt_reader_stats {
	uint64_t nr[HWT_REC_MAX];
	uint64_t nr_other;
	uint64_t aux_flags[4];
	uint64_t aux_lost_bytes;
	uint64_t lost_records;
	uint64_t file_size;
};

/**
 * hwt_reader__new - open a perf.data file or stream
 * @path:	file name, or "-" for standard input
 * @diag:	where problems go and where bytes are counted; must outlive the
 *		reader; diag->file is set to @path if NULL
 *
 * Reads the file header (file mode: attrs and feature sections too).
 * Returns NULL on failure after reporting why through @diag (not a perf.data,
 * cannot open, header cut).
 */
HWT_API struct hwt_reader *hwt_reader__new(const char *path, struct hwt_diag *diag);

/**
 * hwt_reader__new_fd - like hwt_reader__new() on an open fd (not closed)
 */
HWT_API struct hwt_reader *hwt_reader__new_fd(int fd, const char *name, struct hwt_diag *diag);

/**
 * hwt_reader__next - read the next record
 * @r:		the reader
 * @ev:		filled with the record
 *
 * Returns 1 for a record, 0 at the end of the data, -1 when the rest of the
 * input cannot be read (the reason went to diag).  A record whose size is
 * impossible is reported and skipped where a later record can be found again;
 * a cut file ends with the lost bytes counted.
 */
HWT_API int hwt_reader__next(struct hwt_reader *r, struct hwt_event *ev);

/**
 * hwt_reader__payload - pull the next piece of the current record's payload
 * @r:		the reader
 * @ptr:	set to the piece, valid until the next call on @r
 *
 * Returns the piece length (at most the window size, 1 MiB or more), 0 when
 * the payload is exhausted, -1 when the input ended early (the missing bytes
 * are reported and counted as lost).  Bytes the caller pulls are *not*
 * counted by the reader: the caller (the session, for its decoder) counts them
 * as decoded or skipped.  Payload the caller never pulls is counted skipped.
 */
HWT_API ssize_t hwt_reader__payload(struct hwt_reader *r, const void **ptr);

/**
 * hwt_reader__delete - free the reader and everything it returned
 */
HWT_API void hwt_reader__delete(struct hwt_reader *r);

/* What the file header and feature sections said. */
HWT_API bool hwt_reader__is_pipe(const struct hwt_reader *r);
HWT_API uint32_t hwt_reader__nr_attrs(const struct hwt_reader *r);
HWT_API const struct hwt_attr *hwt_reader__attr(const struct hwt_reader *r, uint32_t i);
/* attr whose attr.type == @type (e.g. an AUXTRACE_INFO's PMU type word), or NULL */
HWT_API const struct hwt_attr *hwt_reader__attr_by_type(const struct hwt_reader *r, uint32_t type);
HWT_API const struct hwt_attr *hwt_reader__attr_by_id(const struct hwt_reader *r, uint64_t id);
/* PMU name for attr.type @type from PMU_MAPPINGS, or NULL */
HWT_API const char *hwt_reader__pmu_name(const struct hwt_reader *r, uint32_t type);
/* HOSTNAME, OSRELEASE, ... CMDLINE feature as text (CMDLINE joined by ' '), or NULL */
HWT_API const char *hwt_reader__feature_string(const struct hwt_reader *r, enum hwt_feature feat);
/* raw feature section bytes (file mode) or HEADER_FEATURE payload (pipe), or NULL */
HWT_API const void *hwt_reader__feature(const struct hwt_reader *r, enum hwt_feature feat,
					size_t *size);
HWT_API bool hwt_reader__has_feature(const struct hwt_reader *r, enum hwt_feature feat);
/* TRACING_DATA bytes kept raw, or NULL */
HWT_API const void *hwt_reader__tracing_data(const struct hwt_reader *r, size_t *size);
HWT_API const struct hwt_reader_stats *hwt_reader__stats(const struct hwt_reader *r);

/**
 * struct hwt_header_info - the numbers of the file header and of the feature
 * sections that `perf report --header` prints (0 where absent; pipe mode
 * has no data offset or size)
 * @data_offset: file header's data section offset
 * @data_size:	its size (the feature table follows it)
 * @nr_cpus_online: NRCPUS
 * @nr_cpus_avail: NRCPUS
 * @total_mem:	TOTAL_MEM, in kB
 * @first_sample_time: SAMPLE_TIME, ns
 * @last_sample_time: SAMPLE_TIME, ns
 * @clockid_res_ns: CLOCKID
 * @comp_type:	COMPRESSED: 1 is Zstd
 * @comp_level:	COMPRESSED
 * @comp_ratio:	COMPRESSED
 */
struct hwt_header_info {
	uint64_t data_offset, data_size;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem;
	uint64_t first_sample_time, last_sample_time;
	uint64_t clockid_res_ns;
	uint32_t comp_type, comp_level, comp_ratio;
};

/**
 * hwt_reader__header_info - fill @hi from the file header and features read so far
 * @r:		the reader
 * @hi:		filled; fields of absent or short features are 0
 */
HWT_API void hwt_reader__header_info(const struct hwt_reader *r, struct hwt_header_info *hi);
/**
 * hwt_reader__pmu - the @i-th PMU_MAPPINGS entry, in file order
 * @r:		the reader
 * @i:		index from 0
 * @type:	set to the entry's attr.type
 *
 * Returns the PMU name, or NULL past the last entry.
 */
HWT_API const char *hwt_reader__pmu(const struct hwt_reader *r, uint32_t i, uint32_t *type);

/* ---------------------------------------------------------------------- */

/**
 * struct hwt_writer_attr - an event to declare in a written file
 * @attr:	the attr (attr.size is set by the writer to PERF_ATTR_SIZE_VER7)
 * @ids:	sample ids of this event
 * @nr_ids:	number of ids
 * @name:	event name for EVENT_DESC (e.g. "cxl_hmu_mem0.0.0//"), or NULL
 */
struct hwt_writer_attr {
	struct perf_event_attr attr;
	const uint64_t *ids;
	uint32_t nr_ids;
	const char *name;
};

struct hwt_writer;

/**
 * hwt_writer__new - start a perf.data file
 * @path:	file name, or "-" for standard output in pipe mode
 * @pipe:	write pipe mode (HEADER_ATTR etc. records) even to a file
 *
 * The records go to a temporary file beside @path (hwt_outfile__new());
 * @path changes only when hwt_writer__delete() succeeds.
 * Returns NULL and sets errno on failure.
 */
HWT_API struct hwt_writer *hwt_writer__new(const char *path, bool pipe);

/**
 * hwt_writer__set_progress - call @fn(@ctx, bytes written so far) after each
 * write to the file (about every 256 KiB; never per record); @fn NULL: none
 */
HWT_API void hwt_writer__set_progress(struct hwt_writer *w,
				      void (*fn)(void *ctx, uint64_t bytes), void *ctx);

/**
 * hwt_writer__add_attr - declare an event; call before writing any record
 */
HWT_API int hwt_writer__add_attr(struct hwt_writer *w, const struct hwt_writer_attr *a);

/**
 * hwt_writer__set_feature - set a feature section (raw bytes, written at close)
 */
HWT_API int hwt_writer__set_feature(struct hwt_writer *w, enum hwt_feature feat,
				    const void *data, size_t size);
/* a perf_header_string feature: HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID */
HWT_API int hwt_writer__set_feature_string(struct hwt_writer *w, enum hwt_feature feat,
					   const char *s);
/* CMDLINE from an argv (perf writes its own argv, "perf" first) */
HWT_API int hwt_writer__set_cmdline(struct hwt_writer *w, int argc, const char *const *argv);
/* NRCPUS: CPUs available and online */
HWT_API int hwt_writer__set_nrcpus(struct hwt_writer *w, uint32_t avail, uint32_t online);
/* PMU_MAPPINGS from pairs */
HWT_API int hwt_writer__set_pmu_mappings(struct hwt_writer *w, const struct hwt_pmu_mapping *m,
					 uint32_t n);
/* TRACING_DATA section (file mode) / HEADER_TRACING_DATA record (pipe mode) */
HWT_API int hwt_writer__set_tracing_data(struct hwt_writer *w, const void *data, size_t size);

/**
 * hwt_writer__write - append a record (hdr->size bytes)
 */
HWT_API int hwt_writer__write(struct hwt_writer *w, const struct perf_event_header *hdr);

/**
 * hwt_writer__write_auxtrace - append an AUXTRACE record and its payload
 * @w:		the writer
 * @rec:	the record; rec->size is set to @size rounded up to 8
 * @payload:	@size bytes (zero padding to 8 is added)
 *
 * The AUXTRACE index feature is maintained from these calls (file mode).
 */
HWT_API int hwt_writer__write_auxtrace(struct hwt_writer *w, const struct hwt_auxtrace *rec,
				       const void *payload, size_t size);

/**
 * hwt_writer__delete - write features and the final header; free @w
 *
 * Returns 0 or -1 with errno set.  Pipe mode writes attrs, features and
 * tracing data as HEADER_* records before the first record, so set them all
 * before the first hwt_writer__write*() call.
 */
HWT_API int hwt_writer__delete(struct hwt_writer *w);

/**
 * hwt_writer__discard - remove what was written (the file at the path stays
 * as it was before hwt_writer__new()) and free @w
 */
HWT_API void hwt_writer__discard(struct hwt_writer *w);

/* ---------------------------------------------------------------------- */

/*
 * An output file that appears whole or not at all (design.rst 6): written
 * to ".NAME.XXXXXX" beside the target and renamed over it when complete.
 * "-" is standard output; an existing target that is not a regular file
 * (/dev/null, a FIFO) is written in place; a symlink is followed.
 */
struct hwt_outfile;

/**
 * hwt_outfile__new - start writing @path ("-": standard output)
 *
 * Returns NULL with errno set on failure; @path is not touched.
 */
HWT_API struct hwt_outfile *hwt_outfile__new(const char *path);

/**
 * hwt_outfile__fd - the descriptor to write to (closed by hwt_outfile__delete())
 */
HWT_API int hwt_outfile__fd(const struct hwt_outfile *f);

/**
 * hwt_outfile__delete - @complete: rename the temporary file over the target;
 * else remove it.  Frees @f.  Returns 0, or -1 with errno set.
 */
HWT_API int hwt_outfile__delete(struct hwt_outfile *f, bool complete);

#endif
