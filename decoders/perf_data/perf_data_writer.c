// SPDX-License-Identifier: GPL-2.0
/*
 * perf_data_writer.c - stream a perf.data file (file mode or pipe mode).
 *
 * File mode: a 104-byte header (rewritten at close), the ids arrays and the
 * attr section (attr_size 144: a 128-byte attr and its ids section), the data
 * section, then at data.offset + data.size the feature table in bit order
 * followed by the feature payloads.  Pipe mode: a 16-byte header, then
 * HEADER_ATTR, HEADER_FEATURE and HEADER_TRACING_DATA records before the
 * first record.  Records go through one buffer; big AUXTRACE payloads are
 * written straight from the caller's memory, so memory stays flat whatever
 * the file size (the AUXTRACE index grows by 16 bytes per AUXTRACE record,
 * as in perf).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/perf_data.h"
#include "blob.h"

#define WBUF_SIZE	(256 * 1024)
#define NAME_ALIGN	64		/* perf pads header strings to this */
#define ATTR_SIZE	PERF_ATTR_SIZE_VER7	/* what perf 6.1 writes: 128 */
#define FILE_HDR_SIZE	104
#define PIPE_HDR_SIZE	16
#define AUXTRACE_SIZE	48

struct wattr {
	struct perf_event_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
	char *name;
	uint64_t ids_offset;		/* file mode: where its ids went */
};

struct wfeat {
	void *data;
	size_t size;
	bool set;
};

struct hwt_writer {
	int fd;
	bool pipe;
	struct hwt_outfile *out;	/* where fd comes from; renamed at delete */
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
	bool started;			/* header, attrs (and pipe features) written */
	int err;			/* first errno; all writes stop after it */
	uint64_t flushed;		/* bytes handed to the fd */
	uint64_t attrs_offset;
	uint64_t data_offset;
	struct wattr *attrs;
	uint32_t nr_attrs;
	struct wfeat feat[HWT_FEAT_MAX];
	uint64_t *index;		/* {file_offset, size} pairs */
	size_t nr_index, cap_index;
	size_t len;
	uint8_t buf[WBUF_SIZE];
};

static const uint8_t zeros[NAME_ALIGN];

static uint64_t round8(uint64_t n)
{
	return (n + 7) & ~7ULL;
}

static uint64_t w_pos(const struct hwt_writer *w)
{
	return w->flushed + w->len;
}

static void w_write_all(struct hwt_writer *w, const void *p, size_t n)
{
	const uint8_t *s = p;

	while (n && !w->err) {
		ssize_t r = write(w->fd, s, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			w->err = errno;
			return;
		}
		s += r;
		n -= r;
		w->flushed += r;
	}
	/* once per write(): nothing on the per-record path */
	if (w->progress)
		w->progress(w->progress_ctx, w->flushed);
}

static void w_flush(struct hwt_writer *w)
{
	size_t len = w->len;

	/* w_write_all() counts flushed bytes; take them out of the buffer first */
	w->len = 0;
	w_write_all(w, w->buf, len);
}

/* Append @n bytes: copied into the buffer, or written through when large. */
static void w_put(struct hwt_writer *w, const void *p, size_t n)
{
	if (w->err || !n)
		return;
	if (n <= WBUF_SIZE - w->len) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		return;
	}
	w_flush(w);
	if (n >= WBUF_SIZE / 2) {
		w_write_all(w, p, n);
		return;
	}
	memcpy(w->buf, p, n);
	w->len = n;
}

static void w_zero(struct hwt_writer *w, size_t n)
{
	while (n) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);

		w_put(w, zeros, k);
		n -= k;
	}
}

static void w_u32(struct hwt_writer *w, uint32_t v)
{
	w_put(w, &v, sizeof(v));
}

static void w_u64(struct hwt_writer *w, uint64_t v)
{
	w_put(w, &v, sizeof(v));
}

static int w_status(const struct hwt_writer *w)
{
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

/* --- feature sections are built in a blob (blob.h) ----------------------- */

/* perf_header_string: u32 len (strlen + 1 rounded up to 64), NUL-padded text */
static void blob_string(struct blob *b, const char *s)
{
	size_t n = strlen(s);
	size_t len = (n + 1 + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	blob_u32(b, (uint32_t)len);
	blob_put(b, s, n);
	for (size_t pad = len - n; pad; ) {
		size_t k = pad < sizeof(zeros) ? pad : sizeof(zeros);

		blob_put(b, zeros, k);
		pad -= k;
	}
}

/* --- public API ---------------------------------------------------------- */

/**
 * hwt_writer__new - start a perf.data file
 * @path:	file name, or "-" for standard output (always pipe mode)
 * @pipe:	write pipe mode even to a regular file
 *
 * A file is written to a temporary file beside @path (hwt_outfile__new())
 * that hwt_writer__delete() renames over @path once complete; until then,
 * and for good after hwt_writer__discard(), @path is left as it was.
 *
 * Returns the writer, or NULL with errno set.
 */
struct hwt_writer *hwt_writer__new(const char *path, bool pipe)
{
	struct hwt_writer *w;

	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->out = hwt_outfile__new(path);
	if (!w->out) {
		int e = errno;

		free(w);
		errno = e;
		return NULL;
	}
	w->fd = hwt_outfile__fd(w->out);
	w->pipe = pipe || !strcmp(path, "-");
	return w;
}

/**
 * hwt_writer__set_progress - call @fn with the bytes written so far
 * @w:		the writer
 * @fn:		called after each write to the file (every 256 KiB or so),
 *		or NULL for none
 * @ctx:	passed to @fn
 */
void hwt_writer__set_progress(struct hwt_writer *w, void (*fn)(void *ctx, uint64_t bytes),
			      void *ctx)
{
	w->progress = fn;
	w->progress_ctx = ctx;
}

/**
 * hwt_writer__add_attr - declare an event (before any record is written)
 * @w:		the writer
 * @a:		the event; attr, ids and name are copied
 *
 * Returns 0, or -1 with errno EBUSY (records already written), EINVAL or
 * ENOMEM.
 */
int hwt_writer__add_attr(struct hwt_writer *w, const struct hwt_writer_attr *a)
{
	struct wattr *na, *e;

	if (w->started) {
		errno = EBUSY;
		return -1;
	}
	/* a pipe-mode HEADER_ATTR record must fit a u16 size */
	if (w->pipe && a->nr_ids > (UINT16_MAX - 8 - ATTR_SIZE) / 8) {
		errno = EINVAL;
		return -1;
	}
	na = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*na));
	if (!na)
		return -1;
	w->attrs = na;
	e = &na[w->nr_attrs];
	memset(e, 0, sizeof(*e));
	e->attr = a->attr;
	e->attr.size = ATTR_SIZE;
	if (a->nr_ids) {
		e->ids = malloc(a->nr_ids * sizeof(uint64_t));
		if (!e->ids)
			return -1;
		memcpy(e->ids, a->ids, a->nr_ids * sizeof(uint64_t));
		e->nr_ids = a->nr_ids;
	}
	if (a->name) {
		e->name = strdup(a->name);
		if (!e->name) {
			free(e->ids);
			return -1;
		}
	}
	w->nr_attrs++;
	return 0;
}

/**
 * hwt_writer__set_feature - set a feature section from raw bytes
 * @w:		the writer
 * @feat:	feature bit (1 .. HWT_FEAT_MAX - 1)
 * @data:	the section's bytes (copied)
 * @size:	how many
 *
 * File mode writes it at close; pipe mode as a HEADER_FEATURE record before
 * the first record, so in pipe mode it fails with EBUSY after that.
 */
int hwt_writer__set_feature(struct hwt_writer *w, enum hwt_feature feat,
			    const void *data, size_t size)
{
	struct wfeat *f;
	void *copy = NULL;

	if (feat <= 0 || feat >= HWT_FEAT_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (w->pipe && w->started) {
		errno = EBUSY;
		return -1;
	}
	/* a HEADER_FEATURE record must fit a u16 size */
	if (w->pipe && feat != HWT_FEAT_TRACING_DATA && size > UINT16_MAX - 16 - 7) {
		errno = EINVAL;
		return -1;
	}
	if (size) {
		copy = malloc(size);
		if (!copy)
			return -1;
		memcpy(copy, data, size);
	}
	f = &w->feat[feat];
	free(f->data);
	f->data = copy;
	f->size = size;
	f->set = true;
	return 0;
}

/**
 * hwt_writer__set_feature_string - set HOSTNAME, OSRELEASE, ... as a perf_header_string
 */
int hwt_writer__set_feature_string(struct hwt_writer *w, enum hwt_feature feat, const char *s)
{
	struct blob b = { 0 };
	int ret;

	blob_string(&b, s);
	if (b.nomem) {
		free(b.p);
		errno = ENOMEM;
		return -1;
	}
	ret = hwt_writer__set_feature(w, feat, b.p, b.len);
	free(b.p);
	return ret;
}

/**
 * hwt_writer__set_cmdline - CMDLINE: u32 nr, then nr perf_header_strings
 */
int hwt_writer__set_cmdline(struct hwt_writer *w, int argc, const char *const *argv)
{
	struct blob b = { 0 };
	int ret;

	blob_u32(&b, (uint32_t)argc);
	for (int i = 0; i < argc; i++)
		blob_string(&b, argv[i]);
	if (b.nomem) {
		free(b.p);
		errno = ENOMEM;
		return -1;
	}
	ret = hwt_writer__set_feature(w, HWT_FEAT_CMDLINE, b.p, b.len);
	free(b.p);
	return ret;
}

/**
 * hwt_writer__set_nrcpus - NRCPUS: u32 available, u32 online
 */
int hwt_writer__set_nrcpus(struct hwt_writer *w, uint32_t avail, uint32_t online)
{
	const uint32_t v[2] = { avail, online };

	return hwt_writer__set_feature(w, HWT_FEAT_NRCPUS, v, sizeof(v));
}

/**
 * hwt_writer__set_pmu_mappings - PMU_MAPPINGS: u32 nr, then {u32 type, string name}
 */
int hwt_writer__set_pmu_mappings(struct hwt_writer *w, const struct hwt_pmu_mapping *m, uint32_t n)
{
	struct blob b = { 0 };
	int ret;

	blob_u32(&b, n);
	for (uint32_t i = 0; i < n; i++) {
		blob_u32(&b, m[i].type);
		blob_string(&b, m[i].name ? m[i].name : "");
	}
	if (b.nomem) {
		free(b.p);
		errno = ENOMEM;
		return -1;
	}
	ret = hwt_writer__set_feature(w, HWT_FEAT_PMU_MAPPINGS, b.p, b.len);
	free(b.p);
	return ret;
}

/**
 * hwt_writer__set_tracing_data - TRACING_DATA section / HEADER_TRACING_DATA record
 */
int hwt_writer__set_tracing_data(struct hwt_writer *w, const void *data, size_t size)
{
	if (size > UINT32_MAX - 7) {
		errno = EINVAL;
		return -1;
	}
	return hwt_writer__set_feature(w, HWT_FEAT_TRACING_DATA, data, size);
}

static bool has_names(const struct hwt_writer *w)
{
	for (uint32_t i = 0; i < w->nr_attrs; i++)
		if (w->attrs[i].name)
			return true;
	return false;
}

/*
 * EVENT_DESC: u32 nr, u32 attr_size, then per event the attr, u32 nr_ids,
 * the name as a perf_header_string and the ids.
 */
static int build_event_desc(const struct hwt_writer *w, struct blob *b)
{
	blob_u32(b, w->nr_attrs);
	blob_u32(b, ATTR_SIZE);
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		const struct wattr *a = &w->attrs[i];

		blob_put(b, &a->attr, ATTR_SIZE);
		blob_u32(b, a->nr_ids);
		blob_string(b, a->name ? a->name : "");
		blob_put(b, a->ids, a->nr_ids * sizeof(uint64_t));
	}
	if (b->nomem) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* Pipe mode: header, HEADER_ATTR, HEADER_FEATURE and HEADER_TRACING_DATA records. */
static void start_pipe(struct hwt_writer *w)
{
	struct perf_event_header h;
	struct blob ed = { 0 };

	w_put(w, "PERFILE2", 8);
	w_u64(w, PIPE_HDR_SIZE);

	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		const struct wattr *a = &w->attrs[i];

		h = (struct perf_event_header){
			.type = HWT_REC_HEADER_ATTR,
			.size = (uint16_t)(sizeof(h) + ATTR_SIZE + a->nr_ids * 8),
		};
		w_put(w, &h, sizeof(h));
		w_put(w, &a->attr, ATTR_SIZE);
		w_put(w, a->ids, a->nr_ids * sizeof(uint64_t));
	}

	if (!w->feat[HWT_FEAT_EVENT_DESC].set && has_names(w) && build_event_desc(w, &ed) < 0)
		w->err = ENOMEM;
	for (int f = 1; f < HWT_FEAT_MAX; f++) {
		const void *data = w->feat[f].data;
		size_t size = w->feat[f].size;

		if (f == HWT_FEAT_TRACING_DATA || f == HWT_FEAT_AUXTRACE)
			continue;	/* a record of its own / offsets unknown in a pipe */
		if (f == HWT_FEAT_EVENT_DESC && !w->feat[f].set) {
			if (!ed.len)
				continue;
			data = ed.p;
			size = ed.len;
		} else if (!w->feat[f].set) {
			continue;
		}
		if (size > UINT16_MAX - 16 - 7) {
			w->err = EINVAL;
			break;
		}
		/* padded to 8 so the records after it stay aligned */
		h = (struct perf_event_header){
			.type = HWT_REC_HEADER_FEATURE,
			.size = (uint16_t)(16 + round8(size)),
		};
		w_put(w, &h, sizeof(h));
		w_u64(w, f);
		w_put(w, data, size);
		w_zero(w, round8(size) - size);
	}
	free(ed.p);

	if (w->feat[HWT_FEAT_TRACING_DATA].set) {
		size_t size = w->feat[HWT_FEAT_TRACING_DATA].size;

		/* {header, u32 size, u32 pad}; the data follows, not in header.size */
		h = (struct perf_event_header){ .type = HWT_REC_HEADER_TRACING_DATA, .size = 16 };
		w_put(w, &h, sizeof(h));
		w_u32(w, (uint32_t)round8(size));
		w_u32(w, 0);
		w_put(w, w->feat[HWT_FEAT_TRACING_DATA].data, size);
		w_zero(w, round8(size) - size);
	}
}

/* File mode: header placeholder, ids arrays, attr section; data follows. */
static void start_file(struct hwt_writer *w)
{
	w_zero(w, FILE_HDR_SIZE);
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		w->attrs[i].ids_offset = w_pos(w);
		w_put(w, w->attrs[i].ids, w->attrs[i].nr_ids * sizeof(uint64_t));
	}
	w->attrs_offset = w_pos(w);
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		const struct wattr *a = &w->attrs[i];

		w_put(w, &a->attr, ATTR_SIZE);
		w_u64(w, a->ids_offset);
		w_u64(w, (uint64_t)a->nr_ids * sizeof(uint64_t));
	}
	w->data_offset = w_pos(w);
}

static void w_start(struct hwt_writer *w)
{
	if (w->started)
		return;
	w->started = true;
	if (w->pipe)
		start_pipe(w);
	else
		start_file(w);
}

/**
 * hwt_writer__write - append a record of hdr->size bytes
 *
 * Returns 0, or -1 with errno set (EINVAL for a size below 8, or the write
 * error; after an error every later call fails too).
 */
int hwt_writer__write(struct hwt_writer *w, const struct perf_event_header *hdr)
{
	if (hdr->size < sizeof(*hdr)) {
		errno = EINVAL;
		return -1;
	}
	w_start(w);
	w_put(w, hdr, hdr->size);
	return w_status(w);
}

/**
 * hwt_writer__write_auxtrace - append an AUXTRACE record and its payload
 * @w:		the writer
 * @rec:	the record; type, header.size (48) and size (@size rounded up
 *		to 8) are filled in by the writer
 * @payload:	@size bytes, written through without a copy when large
 * @size:	payload bytes; zero padding to 8 is added
 *
 * File mode also adds {file offset, 48} to the AUXTRACE index feature.
 */
int hwt_writer__write_auxtrace(struct hwt_writer *w, const struct hwt_auxtrace *rec,
			       const void *payload, size_t size)
{
	struct hwt_auxtrace r = *rec;

	if (size > UINT64_MAX - 7) {
		errno = EINVAL;
		return -1;
	}
	w_start(w);
	r.header.type = HWT_REC_AUXTRACE;
	r.header.size = AUXTRACE_SIZE;
	r.size = round8(size);
	if (!w->pipe) {
		if (w->nr_index == w->cap_index) {
			size_t cap = w->cap_index ? w->cap_index * 2 : 1024;
			uint64_t *ni = realloc(w->index, cap * 2 * sizeof(uint64_t));

			if (!ni)
				return -1;
			w->index = ni;
			w->cap_index = cap;
		}
		w->index[2 * w->nr_index] = w_pos(w);
		w->index[2 * w->nr_index + 1] = AUXTRACE_SIZE;
		w->nr_index++;
	}
	w_put(w, &r, sizeof(r));
	w_put(w, payload, size);
	w_zero(w, r.size - size);
	return w_status(w);
}

/*
 * File mode end: feature table at data.offset + data.size (one {offset,
 * size} per set bit, in bit order), the payloads after it, then the header.
 */
static void finish_file(struct hwt_writer *w)
{
	uint64_t data_size = w_pos(w) - w->data_offset;
	struct blob ed = { 0 };
	const void *data[HWT_FEAT_MAX];
	uint64_t size[HWT_FEAT_MAX];
	uint64_t flags[4] = { 0 };
	uint64_t off;
	int nr = 0;
	uint64_t h[FILE_HDR_SIZE / 8];

	if (!w->feat[HWT_FEAT_EVENT_DESC].set && has_names(w) && build_event_desc(w, &ed) < 0)
		w->err = ENOMEM;
	for (int f = 1; f < HWT_FEAT_MAX; f++) {
		data[f] = w->feat[f].data;
		size[f] = w->feat[f].size;
		if (f == HWT_FEAT_EVENT_DESC && !w->feat[f].set && ed.len) {
			data[f] = ed.p;
			size[f] = ed.len;
		} else if (f == HWT_FEAT_AUXTRACE && !w->feat[f].set && w->nr_index) {
			data[f] = NULL;		/* written from the index below */
			size[f] = 8 + w->nr_index * 16;
		} else if (!w->feat[f].set) {
			continue;
		}
		flags[f / 64] |= 1ULL << (f % 64);
		nr++;
	}

	off = w_pos(w) + (uint64_t)nr * 16;
	for (int f = 1; f < HWT_FEAT_MAX; f++) {
		if (!(flags[f / 64] & (1ULL << (f % 64))))
			continue;
		w_u64(w, off);
		w_u64(w, size[f]);
		off += size[f];
	}
	for (int f = 1; f < HWT_FEAT_MAX; f++) {
		if (!(flags[f / 64] & (1ULL << (f % 64))))
			continue;
		if (f == HWT_FEAT_AUXTRACE && !data[f]) {
			w_u64(w, w->nr_index);
			w_put(w, w->index, w->nr_index * 16);
		} else {
			w_put(w, data[f], size[f]);
		}
	}
	free(ed.p);
	w_flush(w);
	if (w->err)
		return;

	memset(h, 0, sizeof(h));
	memcpy(h, "PERFILE2", 8);
	h[1] = FILE_HDR_SIZE;
	h[2] = ATTR_SIZE + 16;
	h[3] = w->attrs_offset;
	h[4] = (uint64_t)w->nr_attrs * (ATTR_SIZE + 16);
	h[5] = w->data_offset;
	h[6] = data_size;
	/* h[7], h[8]: event_types, unused */
	memcpy(&h[9], flags, sizeof(flags));
	if (pwrite(w->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		w->err = errno ? errno : EIO;
}

static void w_free(struct hwt_writer *w)
{
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	for (int f = 0; f < HWT_FEAT_MAX; f++)
		free(w->feat[f].data);
	free(w->index);
	free(w);
}

/**
 * hwt_writer__delete - write what is still pending, the features and the
 * final header (file mode); put the file in place; free @w
 *
 * The file replaces the one at the writer's path only when everything was
 * written; after a write error it is removed and the old file stays.
 *
 * Returns 0, or -1 with errno set to the first error seen while writing.
 */
int hwt_writer__delete(struct hwt_writer *w)
{
	int err;

	if (!w)
		return 0;
	w_start(w);
	if (w->pipe)
		w_flush(w);
	else
		finish_file(w);
	err = w->err;
	if (hwt_outfile__delete(w->out, !err) < 0 && !err)
		err = errno;
	w_free(w);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/**
 * hwt_writer__discard - give up: remove what was written and free @w
 * @w:		the writer (NULL: nothing to do)
 *
 * The file at the writer's path is left as it was before hwt_writer__new()
 * (standard output and devices written in place keep what they were sent).
 */
void hwt_writer__discard(struct hwt_writer *w)
{
	if (!w)
		return;
	hwt_outfile__delete(w->out, false);
	w_free(w);
}
