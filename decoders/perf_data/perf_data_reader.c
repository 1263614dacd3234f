// SPDX-License-Identifier: GPL-2.0
/*
 * perf_data_reader.c - walk the records of a perf.data file or stream.
 *
 * File mode: the header, attrs, ids and feature sections are read at open
 * time with pread(); the data section is then walked through a read window.
 * Pipe mode: everything comes in-band (HEADER_ATTR, HEADER_FEATURE, ...).
 * Records are handed out as pointers into the window (copied only when they
 * are misaligned or carry a payload that will be pulled through the window).
 *
 * COMPRESSED records are returned too (ev->compressed false), then the records
 * inflated from them (ev->compressed true).  A COMPRESSED record that is read
 * while an inflated AUXTRACE payload is being pulled is counted but not
 * returned.  Bytes: known records decoded, unknown ones and the deprecated
 * HEADER_EVENT_TYPE skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "perf_data_internal.h"
#include "sample_id_internal.h"

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC1		0x454c494646524550ULL	/* "PERFFILE": version 1 */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define FILE_HDR_SIZE		104
#define PIPE_HDR_SIZE		16
#define ATTR_SIZE_MAX		4096
/* far above what perf writes; bounds memory for crafted headers */
#define MAX_ATTRS		65536
#define MAX_IDS_PER_ATTR	(1u << 20)

/* ---- sample id -> attr map ---------------------------------------------- */

static uint32_t id_hash(uint64_t id, uint32_t cap)
{
	return (uint32_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static int id_map_grow(struct hwt_reader *r)
{
	uint32_t ncap = r->id_cap ? r->id_cap * 2 : 64;
	uint64_t *keys;
	uint32_t *vals;

	/* 2^31 slots at most: the doubling and (id_n + 1) * 2 stay within 32 bits */
	if (r->id_cap >= (1u << 31))
		return -1;
	keys = calloc(ncap, sizeof(*keys));
	vals = calloc(ncap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (uint32_t i = 0; i < r->id_cap; i++) {
		uint32_t h;

		if (!r->id_vals[i])
			continue;
		for (h = id_hash(r->id_keys[i], ncap); vals[h]; h = (h + 1) & (ncap - 1))
			;
		keys[h] = r->id_keys[i];
		vals[h] = r->id_vals[i];
	}
	free(r->id_keys);
	free(r->id_vals);
	r->id_keys = keys;
	r->id_vals = vals;
	r->id_cap = ncap;
	return 0;
}

/* Map @id to attr @idx; returns false when @id was already mapped. */
static bool id_map_add(struct hwt_reader *r, uint64_t id, uint32_t idx)
{
	uint32_t h;

	if ((r->id_n + 1) * 2 > r->id_cap && id_map_grow(r) < 0)
		return false;
	for (h = id_hash(id, r->id_cap); r->id_vals[h]; h = (h + 1) & (r->id_cap - 1))
		if (r->id_keys[h] == id)
			return false;
	r->id_keys[h] = id;
	r->id_vals[h] = idx + 1;
	r->id_n++;
	return true;
}

const struct hwt_attr *hwt_reader__lookup_id(const struct hwt_reader *r, uint64_t id)
{
	if (!r->id_cap)
		return NULL;
	for (uint32_t h = id_hash(id, r->id_cap); r->id_vals[h]; h = (h + 1) & (r->id_cap - 1))
		if (r->id_keys[h] == id)
			return r->attrs[r->id_vals[h] - 1];
	return NULL;
}

/* ---- attrs ---------------------------------------------------------------- */

static uint32_t sample_id_size(const struct perf_event_attr *a)
{
	const uint64_t bits = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;

	if (!a->sample_id_all)
		return 0;
	return 8 * (uint32_t)__builtin_popcountll(a->sample_type & bits);
}

/* Add an attr from @len bytes of an on-disk attr (zero-extended or cut to ours). */
static struct hwt_attr *attr_add(struct hwt_reader *r, const void *raw, size_t len)
{
	struct hwt_attr **v = realloc(r->attrs, (r->nr_attrs + 1) * sizeof(*v));
	struct hwt_attr *a;

	if (!v)
		return NULL;
	r->attrs = v;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	memcpy(&a->attr, raw, len < sizeof(a->attr) ? len : sizeof(a->attr));
	a->sample_id_size = sample_id_size(&a->attr);
	r->attrs[r->nr_attrs++] = a;
	return a;
}

/* Give @n ids at @ids (unaligned) to attr @idx; ids already known are ignored. */
static void attr_add_ids(struct hwt_reader *r, uint32_t idx, const uint8_t *ids, uint64_t n)
{
	struct hwt_attr *a = r->attrs[idx];
	uint64_t *v = realloc(a->ids, (a->nr_ids + n) * sizeof(*v));

	if (!v)
		return;
	a->ids = v;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t id = hwt_get_u64(ids + 8 * i);

		if (id_map_add(r, id, idx))
			a->ids[a->nr_ids++] = id;
	}
}

/* ---- file mode header ----------------------------------------------------- */

static int ival_cmp(const void *a, const void *b)
{
	const struct hwt_ival *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Bytes covered by the union of @iv, clamped to [0, @size). */
static uint64_t ival_union(struct hwt_ival *iv, uint32_t n, uint64_t size)
{
	uint64_t total = 0, lo = 0, hi = 0;
	bool open = false;

	qsort(iv, n, sizeof(*iv), ival_cmp);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = iv[i].lo < size ? iv[i].lo : size;
		uint64_t b = iv[i].hi < size ? iv[i].hi : size;

		if (b <= a)
			continue;
		if (open && a <= hi) {
			if (b > hi)
				hi = b;
			continue;
		}
		if (open)
			total += hi - lo;
		lo = a;
		hi = b;
		open = true;
	}
	if (open)
		total += hi - lo;
	return total;
}

static int read_attrs(struct hwt_reader *r, const uint8_t *h, struct hwt_ival *iv, uint32_t *niv)
{
	uint64_t attr_size = hwt_get_u64(h + 16), off = hwt_get_u64(h + 24);
	uint64_t size = hwt_get_u64(h + 32), fsize = r->src.size, nr, ids_total = 0;
	uint8_t entry[ATTR_SIZE_MAX + 16];

	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > ATTR_SIZE_MAX + 16) {
		hwt_diag__error(r->diag, 16, "perf.data header",
				"attr_size %" PRIu64 " is impossible", attr_size);
		return -1;
	}
	if (off > fsize || size > fsize - off) {
		hwt_diag__error(r->diag, 24, "perf.data header",
				"attrs section at %" PRIu64 " of %" PRIu64
				" bytes runs past the end of the file", off, size);
		return -1;
	}
	if (size % attr_size)
		hwt_diag__warn(r->diag, 32, "perf.data header",
			       "attrs section size %" PRIu64 " is not a multiple of attr_size %"
			       PRIu64, size, attr_size);
	nr = size / attr_size;
	if (nr > MAX_ATTRS) {
		hwt_diag__error(r->diag, 32, "perf.data header",
				"%" PRIu64 " attrs: more than %u", nr, MAX_ATTRS);
		return -1;
	}
	iv[(*niv)++] = (struct hwt_ival){ off, off + nr * attr_size };
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t eoff = off + i * attr_size, ids_off, ids_size;
		uint8_t *ids;

		if (!hwt_pread_all(r->fd, entry, (size_t)attr_size, eoff) ||
		    !attr_add(r, entry, (size_t)attr_size - 16))
			return -1;
		ids_off = hwt_get_u64(entry + attr_size - 16);
		ids_size = hwt_get_u64(entry + attr_size - 8);
		if (!ids_size)
			continue;
		if (ids_size / 8 > MAX_IDS_PER_ATTR) {
			hwt_diag__error(r->diag, eoff + attr_size - 8, "perf.data attr",
					"%" PRIu64 " ids: more than %u", ids_size / 8,
					MAX_IDS_PER_ATTR);
			continue;
		}
		if (ids_off > fsize || ids_size > fsize - ids_off) {
			hwt_diag__error(r->diag, eoff + attr_size - 16, "perf.data attr",
					"ids section at %" PRIu64 " of %" PRIu64
					" bytes runs past the end of the file", ids_off, ids_size);
			continue;
		}
		/*
		 * perf writes disjoint ids sections; attrs that all point at one
		 * big range would be read (and hashed) once per attr.
		 */
		if (ids_size > fsize - ids_total) {
			hwt_diag__error(r->diag, eoff + attr_size - 16, "perf.data attr",
					"ids section at %" PRIu64 " of %" PRIu64 " bytes overlaps "
					"others: together they exceed the file's %" PRIu64
					" bytes; ignored", ids_off, ids_size, fsize);
			continue;
		}
		ids_total += ids_size;
		ids = malloc((size_t)ids_size);
		if (!ids || !hwt_pread_all(r->fd, ids, (size_t)ids_size, ids_off)) {
			free(ids);
			continue;
		}
		attr_add_ids(r, r->nr_attrs - 1, ids, ids_size / 8);
		free(ids);
		iv[(*niv)++] = (struct hwt_ival){ ids_off, ids_off + ids_size };
	}
	return 0;
}

static int open_file_mode(struct hwt_reader *r)
{
	uint8_t h[FILE_HDR_SIZE];
	uint64_t fsize = r->src.size, hsize, data_size, bits[4], meta, in_data, asz, nr;
	struct hwt_ival *iv;
	uint32_t niv = 0;

	if (!r->src.seekable) {
		hwt_diag__error(r->diag, 0, "perf.data header",
				"a file-mode perf.data must be read from a file, not a pipe "
				"(record with -o - for pipe mode)");
		return -1;
	}
	if (!hwt_pread_all(r->fd, h, sizeof(h), 0)) {
		hwt_diag__error(r->diag, 0, "perf.data header", "file header cut (%" PRIu64
				" bytes)", fsize);
		return -1;
	}
	hsize = hwt_get_u64(h + 8);
	r->data_off = hwt_get_u64(h + 40);
	data_size = hwt_get_u64(h + 48);
	memcpy(bits, h + 72, sizeof(bits));
	if (r->data_off > UINT64_MAX - data_size || r->data_off > INT64_MAX) {
		hwt_diag__error(r->diag, 40, "perf.data header", "data section at %" PRIu64
				" of %" PRIu64 " bytes is impossible", r->data_off, data_size);
		return -1;
	}
	r->data_end = r->data_off + data_size;
	/* ranges: header, attrs, ids sections, data, feature table and sections */
	asz = hwt_get_u64(h + 16);
	nr = asz ? hwt_get_u64(h + 32) / asz : 0;
	iv = malloc(sizeof(*iv) * (4 + 257 + (nr < MAX_ATTRS ? (size_t)nr : MAX_ATTRS)));
	if (!iv)
		return -1;
	iv[niv++] = (struct hwt_ival){ 0, hsize > FILE_HDR_SIZE ? hsize : FILE_HDR_SIZE };
	if (read_attrs(r, h, iv, &niv) < 0) {
		free(iv);
		return -1;
	}
	if (r->data_end <= fsize)
		hwt_feat__read_file(r, r->data_end, bits, iv, &niv);
	else if (bits[0] | bits[1] | bits[2] | bits[3])
		hwt_diag__warn(r->diag, r->data_end, "perf.data feature",
			       "feature sections are missing: the file is cut");
	in_data = r->data_off >= fsize ? 0 :
		  (r->data_end < fsize ? r->data_end : fsize) - r->data_off;
	iv[niv++] = (struct hwt_ival){ r->data_off, r->data_end };
	meta = ival_union(iv, niv, fsize);
	free(iv);
	/* the data section is accounted while it is walked; gaps are skipped */
	r->diag->bytes.decoded += meta - in_data;
	r->diag->bytes.skipped += fsize - meta;
	r->stats.file_size = fsize;
	if (r->data_off > fsize)
		r->data_off = fsize;
	r->src.limit = r->data_end;
	return hwt_src__seek(&r->src, r->data_off);
}

/* ---- open / close ----------------------------------------------------------- */

struct hwt_reader *hwt_reader__new_fd_window(int fd, const char *name, struct hwt_diag *diag,
					      size_t window)
{
	struct hwt_reader *r = calloc(1, sizeof(*r));
	uint64_t magic, size;
	size_t avail;

	if (!diag->file)
		diag->file = name;
	if (window < HWT_WINDOW_MIN)
		window = HWT_WINDOW_MIN;
	if (!r || hwt_src__init(&r->src, fd, window) < 0 ||
	    !(r->scratch = malloc(64 << 10)) || !(r->pl_hdr = malloc(64 << 10)) ||
	    !(r->name = strdup(name))) {
		hwt_diag__error(diag, 0, "perf.data", "out of memory");
		goto fail;
	}
	r->diag = diag;
	r->fd = fd;
	r->data_end = UINT64_MAX;
	avail = hwt_src__fill(&r->src, PIPE_HDR_SIZE);
	if (avail < PIPE_HDR_SIZE) {
		hwt_diag__error(diag, 0, "perf.data header", "%s (%zu bytes)",
				r->src.err ? strerror(r->src.err) : "input too short", avail);
		goto fail;
	}
	magic = hwt_get_u64(hwt_src__ptr(&r->src));
	size = hwt_get_u64(hwt_src__ptr(&r->src) + 8);
	if (magic == PERF_MAGIC2_SWAPPED) {
		hwt_diag__error(diag, 0, "perf.data header",
				"perf.data of the other endianness is not supported");
		goto fail;
	}
	if (magic == PERF_MAGIC1) {
		hwt_diag__error(diag, 0, "perf.data header",
				"perf.data version 1 (magic 'PERFFILE', from early perf) is not "
				"supported: only version 2 (magic 'PERFILE2') is read");
		goto fail;
	}
	if (magic != PERF_MAGIC2) {
		hwt_diag__error(diag, 0, "perf.data header", "not a perf.data file (no PERFILE2)");
		goto fail;
	}
	if (size == PIPE_HDR_SIZE) {
		r->pipe = true;
		hwt_src__consume(&r->src, PIPE_HDR_SIZE);
		diag->bytes.decoded += PIPE_HDR_SIZE;
		r->stats.file_size = r->src.off;
		return r;
	}
	if (size < FILE_HDR_SIZE) {
		hwt_diag__error(diag, 8, "perf.data header", "header size %" PRIu64 " is neither "
				"16 (pipe) nor %u (file)", size, FILE_HDR_SIZE);
		goto fail;
	}
	if (open_file_mode(r) < 0)
		goto fail;
	return r;
fail:
	if (r)
		hwt_reader__delete(r);
	return NULL;
}

struct hwt_reader *hwt_reader__new_fd(int fd, const char *name, struct hwt_diag *diag)
{
	return hwt_reader__new_fd_window(fd, name, diag, HWT_WINDOW_DEFAULT);
}

struct hwt_reader *hwt_reader__new(const char *path, struct hwt_diag *diag)
{
	struct hwt_reader *r;
	int fd;

	if (!strcmp(path, "-"))
		return hwt_reader__new_fd(STDIN_FILENO, "-", diag);
	if (!diag->file)
		diag->file = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		hwt_diag__error(diag, 0, "perf.data", "cannot open: %s", strerror(errno));
		return NULL;
	}
	r = hwt_reader__new_fd(fd, path, diag);
	if (!r) {
		close(fd);
		return NULL;
	}
	r->own_fd = true;
	return r;
}

void hwt_reader__delete(struct hwt_reader *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nr_attrs; i++) {
		free(r->attrs[i]->ids);
		free(r->attrs[i]->name);
		free(r->attrs[i]);
	}
	free(r->attrs);
	free(r->id_keys);
	free(r->id_vals);
	hwt_feat__free(r);
	free(r->tracing);
	hwt_zstream__exit(&r->z);
	hwt_src__exit(&r->src);
	free(r->scratch);
	free(r->pl_hdr);
	if (r->own_fd)
		close(r->fd);
	free(r->name);
	free(r);
}

/* ---- sample ids ------------------------------------------------------------- */

static void warn_short_sid(struct hwt_reader *r, const struct hwt_event *ev)
{
	if (r->warned_short_sid)
		return;
	r->warned_short_sid = true;
	hwt_diag__warn(r->diag, ev->offset, perf_record_name(ev->hdr->type),
		       "record of %u bytes is too short for its sample_type; "
		       "sample ids not parsed (reported once)", ev->hdr->size);
}

/* The attr of a record, found through the id at the position sample_type puts it. */
static const struct hwt_attr *attr_of(struct hwt_reader *r, const uint8_t *p, uint32_t size,
				      bool sample)
{
	const struct perf_event_attr *a0;
	const struct hwt_attr *a;
	uint64_t pos, id;
	int id_pos, is_pos;

	if (r->nr_attrs <= 1)
		return r->nr_attrs ? r->attrs[0] : NULL;
	/* perf requires every attr to put the id at the same place: use the first */
	a0 = &r->attrs[0]->attr;
	hwt_sample_id__positions(a0->sample_type, &id_pos, &is_pos);
	if (id_pos < 0 || (!sample && !a0->sample_id_all))
		return r->attrs[0];
	if (sample) {
		pos = 8 + 8 * (uint64_t)id_pos;
	} else {
		if (size < 8 + 8 * (uint64_t)is_pos)
			return NULL;
		pos = size - 8 * (uint64_t)is_pos;
	}
	if (pos + 8 > size)
		return NULL;
	a = hwt_reader__lookup_id(r, id = hwt_get_u64(p + pos));
	/* as in perf: records perf synthesized carry id 0 and belong to the first event */
	return a || id ? a : r->attrs[0];
}

static void parse_sample(struct hwt_reader *r, struct hwt_event *ev, const uint8_t *p)
{
	uint64_t st = ev->attr->attr.sample_type, n = (ev->hdr->size - 8) / 8, i = 0, v;
	struct hwt_sample_id *s = &ev->sid;
	const uint8_t *w = p + 8;

#define NEXT() ({ if (i >= n) goto cut; hwt_get_u64(w + 8 * i++); })
	if (st & PERF_SAMPLE_IDENTIFIER) {
		s->id = NEXT();
		s->valid |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID;
	}
	if (st & PERF_SAMPLE_IP)
		(void)NEXT();
	if (st & PERF_SAMPLE_TID) {
		v = NEXT();
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
		s->valid |= PERF_SAMPLE_TID;
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = NEXT();
		s->valid |= PERF_SAMPLE_TIME;
	}
	if (st & PERF_SAMPLE_ADDR)
		(void)NEXT();
	if (st & PERF_SAMPLE_ID) {
		s->id = NEXT();
		s->valid |= PERF_SAMPLE_ID;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		s->stream_id = NEXT();
		s->valid |= PERF_SAMPLE_STREAM_ID;
	}
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = (uint32_t)NEXT();
		s->valid |= PERF_SAMPLE_CPU;
	}
	return;
cut:
	warn_short_sid(r, ev);
#undef NEXT
}

/* sample_id_all trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER at the record's end */
static void parse_trailer(struct hwt_reader *r, struct hwt_event *ev, const uint8_t *p)
{
	const struct hwt_attr *a = ev->attr;
	uint64_t st = a->attr.sample_type, v;
	struct hwt_sample_id *s = &ev->sid;
	const uint8_t *w;

	if (!a->sample_id_size)
		return;
	if (ev->hdr->size < 8 + a->sample_id_size) {
		warn_short_sid(r, ev);
		return;
	}
	w = p + ev->hdr->size - a->sample_id_size;
	if (st & PERF_SAMPLE_TID) {
		v = hwt_get_u64(w);
		w += 8;
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
		s->valid |= PERF_SAMPLE_TID;
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = hwt_get_u64(w);
		w += 8;
		s->valid |= PERF_SAMPLE_TIME;
	}
	if (st & PERF_SAMPLE_ID) {
		s->id = hwt_get_u64(w);
		w += 8;
		s->valid |= PERF_SAMPLE_ID;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		s->stream_id = hwt_get_u64(w);
		w += 8;
		s->valid |= PERF_SAMPLE_STREAM_ID;
	}
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = (uint32_t)hwt_get_u64(w);
		w += 8;
		s->valid |= PERF_SAMPLE_CPU;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		s->id = hwt_get_u64(w);
		s->valid |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID;
	}
}

/* ---- records ------------------------------------------------------------------ */

/* Bytes of fixed fields a record of @type must have. */
static uint32_t min_size(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_AUX:
		return 32;
	case PERF_RECORD_LOST:
		return 24;
	case PERF_RECORD_LOST_SAMPLES:
	case HWT_REC_ID_INDEX:
	case HWT_REC_AUXTRACE_INFO:
	case HWT_REC_HEADER_FEATURE:
	case HWT_REC_COMPRESSED2:
		return 16;
	case HWT_REC_HEADER_ATTR:
		return 8 + PERF_ATTR_SIZE_VER0;
	case HWT_REC_HEADER_TRACING_DATA:
		return 12;
	case HWT_REC_AUXTRACE:
		return 48;
	default:
		return 8;
	}
}

static void warn_unknown(struct hwt_reader *r, const struct hwt_event *ev, uint32_t type)
{
	if (type < 256) {
		if (r->warned[type / 64] >> (type % 64) & 1)
			return;
		r->warned[type / 64] |= 1ULL << (type % 64);
	} else {
		if (r->warned_other)
			return;
		r->warned_other = true;
	}
	hwt_diag__warn(r->diag, ev->offset, perf_record_name(type),
		       "unknown record type %u (size %u) skipped (reported once per type)",
		       type, ev->hdr->size);
}

static void on_header_attr(struct hwt_reader *r, const struct hwt_event *ev, const uint8_t *p)
{
	uint32_t size = ev->hdr->size, asz = hwt_get_u32(p + 8 + 4);

	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > size - 8) {
		hwt_diag__error(r->diag, ev->offset, "PERF_RECORD_HEADER_ATTR",
				"attr.size %u does not fit a record of %u bytes", asz, size);
		return;
	}
	if (!attr_add(r, p + 8, asz))
		return;
	attr_add_ids(r, r->nr_attrs - 1, p + 8 + asz, (size - 8 - asz) / 8);
}

static void on_id_index(struct hwt_reader *r, const struct hwt_event *ev, const uint8_t *p)
{
	uint64_t nr = hwt_get_u64(p + 8);

	if (nr > (uint64_t)(ev->hdr->size - 16) / 32) {
		hwt_diag__error(r->diag, ev->offset, "PERF_RECORD_ID_INDEX",
				"%" PRIu64 " entries do not fit a record of %u bytes", nr,
				ev->hdr->size);
		return;
	}
	/*
	 * Each entry says which ring (idx: an mmap's index, not an event's),
	 * CPU and task an id of the attrs' belongs to.  Nothing here needs
	 * that; an id no attr declares is an error, as in perf
	 * (perf_event__process_id_index(): -ENOENT).
	 */
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t id = hwt_get_u64(p + 16 + 32 * i);

		if (!hwt_reader__lookup_id(r, id)) {
			hwt_diag__error(r->diag, ev->offset, "PERF_RECORD_ID_INDEX",
					"entry %" PRIu64 ": id %" PRIu64 " is no event's", i, id);
			return;
		}
	}
}

static void on_aux(struct hwt_reader *r, const uint8_t *p)
{
	uint64_t size = hwt_get_u64(p + 16), flags = hwt_get_u64(p + 24);

	for (int i = 0; i < 4; i++)
		if (flags & (1ULL << i))
			r->stats.aux_flags[i]++;
	if (flags & PERF_AUX_FLAG_TRUNCATED)
		r->stats.aux_lost_bytes += size;
}

/* The record is copied: its payload is pulled through the buffer it sits in. */
static void start_payload(struct hwt_reader *r, struct hwt_event *ev, const uint8_t *p,
			  enum hwt_payload_kind kind, uint64_t size, bool in_z)
{
	memcpy(r->pl_hdr, p, ev->hdr->size);
	ev->hdr = (const void *)r->pl_hdr;
	ev->payload_size = size;
	r->pl_kind = size ? kind : HWT_PL_NONE;
	r->pl_in_z = in_z;
	r->pl_left = size;
	r->pl_total = size;
	r->pl_rec_off = ev->offset;
	r->pl_type = ev->hdr->type;
	r->tracing_keep = false;
	if (kind == HWT_PL_TRACING && size <= HWT_FEAT_KEEP_MAX) {
		free(r->tracing);
		r->tracing = NULL;
		r->tracing_size = 0;
		r->tracing_keep = true;
	}
}

static void on_auxtrace(struct hwt_reader *r, struct hwt_event *ev, const uint8_t *p, bool in_z)
{
	uint64_t size = hwt_get_u64(p + 8);
	uint64_t start = ev->offset + ev->hdr->size;

	if (!in_z && !r->pipe && size > r->data_end - start) {
		hwt_diag__error(r->diag, ev->offset, "PERF_RECORD_AUXTRACE",
				"payload size %" PRIu64 " runs past the data section end "
				"(%" PRIu64 " bytes left); the rest of the data section is "
				"taken as its payload", size, r->data_end - start);
		size = r->data_end - start;
	}
	start_payload(r, ev, p, HWT_PL_AUXTRACE, size, in_z);
}

static void on_compressed(struct hwt_reader *r, const struct hwt_event *ev, const uint8_t *p)
{
	uint32_t size = ev->hdr->size;
	const uint8_t *data = p + 8;
	uint64_t len = size - 8;

	if (ev->hdr->type == HWT_REC_COMPRESSED2) {
		len = hwt_get_u64(p + 8);
		data = p + 16;
		if (len > size - 16u) {
			hwt_diag__error(r->diag, ev->offset, "PERF_RECORD_COMPRESSED2",
					"data_size %" PRIu64 " does not fit a record of %u bytes",
					len, size);
			len = size - 16u;
		}
	}
	if (r->z.dead || hwt_zstream__load(&r->z, data, (size_t)len, ev->offset, r->diag) < 0) {
		/* nothing will come out of it */
		r->diag->bytes.decoded -= size;
		r->diag->bytes.skipped += size;
	}
}

/* Count, account and parse the record at @p; @in_z: it was inflated. */
static int process(struct hwt_reader *r, struct hwt_event *ev, const uint8_t *p, bool in_z)
{
	uint32_t type = ev->hdr->type, size = ev->hdr->size;
	struct hwt_bytes *b = &r->diag->bytes;

	if (type < HWT_REC_MAX)
		r->stats.nr[type]++;
	else
		r->stats.nr_other++;
	if (!hwt_record__known(type)) {
		warn_unknown(r, ev, type);
		if (!in_z)
			b->skipped += size;
		return 1;
	}
	if (size < min_size(type)) {
		hwt_diag__error(r->diag, ev->offset, perf_record_name(type),
				"size %u is smaller than its %u bytes of fixed fields",
				size, min_size(type));
		if (!in_z)
			b->skipped += size;
		return 1;
	}
	if (!in_z) {
		/* HEADER_EVENT_TYPE is deprecated and never interpreted */
		if (type == HWT_REC_HEADER_EVENT_TYPE)
			b->skipped += size;
		else
			b->decoded += size;
	}
	if (type == PERF_RECORD_SAMPLE) {
		ev->attr = attr_of(r, p, size, true);
		if (ev->attr)
			parse_sample(r, ev, p);
		return 1;
	}
	if (type < HWT_KERNEL_REC_MAX) {
		ev->attr = attr_of(r, p, size, false);
		if (ev->attr)
			parse_trailer(r, ev, p);
	}
	switch (type) {
	case PERF_RECORD_AUX:
		on_aux(r, p);
		break;
	case PERF_RECORD_LOST:
		r->stats.lost_records += hwt_get_u64(p + 16);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		r->stats.lost_records += hwt_get_u64(p + 8);
		break;
	case HWT_REC_HEADER_ATTR:
		on_header_attr(r, ev, p);
		break;
	case HWT_REC_ID_INDEX:
		on_id_index(r, ev, p);
		break;
	case HWT_REC_HEADER_FEATURE:
		hwt_feat__store(r, (uint32_t)(hwt_get_u64(p + 8) < HWT_FEAT_MAX ?
				hwt_get_u64(p + 8) : HWT_FEAT_MAX), p + 16, size - 16, ev->offset);
		break;
	case HWT_REC_HEADER_TRACING_DATA:
		start_payload(r, ev, p, HWT_PL_TRACING, hwt_get_u32(p + 8), in_z);
		break;
	case HWT_REC_AUXTRACE:
		on_auxtrace(r, ev, p, in_z);
		break;
	case HWT_REC_COMPRESSED:
	case HWT_REC_COMPRESSED2:
		if (in_z)
			hwt_diag__error(r->diag, ev->offset, perf_record_name(type),
					"COMPRESSED record inside a COMPRESSED record ignored");
		else
			on_compressed(r, ev, p);
		break;
	default:
		break;
	}
	return 1;
}

/* ---- walking ------------------------------------------------------------------- */

static void event_init(const struct hwt_reader *r, struct hwt_event *ev, uint64_t off,
		       bool compressed)
{
	memset(ev, 0, sizeof(*ev));
	ev->offset = off;
	ev->dump_offset = r->pipe ? off - PIPE_HDR_SIZE : off;
	ev->compressed = compressed;
}

static int finish(struct hwt_reader *r, int status)
{
	size_t left = hwt_zstream__avail(&r->z);

	if (left && !r->z.dead)
		hwt_diag__warn(r->diag, r->z.rec_off, "PERF_RECORD_COMPRESSED",
			       "%zu inflated bytes at the end are not a whole record", left);
	if (r->src.err) {
		hwt_diag__error(r->diag, r->src.off, "perf.data", "read error: %s",
				strerror(r->src.err));
		status = -1;
	}
	if (r->pipe)
		r->stats.file_size = r->src.off;
	r->done = true;
	r->status = status;
	return status;
}

/* Nothing after @off can be found again: count the rest and stop. */
static int give_up(struct hwt_reader *r)
{
	uint64_t off = r->src.off;

	r->diag->bytes.skipped += hwt_src__skip(&r->src, r->pipe ? UINT64_MAX : r->data_end - off);
	if (!r->pipe && r->data_end > r->src.off)
		r->diag->bytes.lost += r->data_end - r->src.off;
	return finish(r, -1);
}

static int file_next(struct hwt_reader *r, struct hwt_event *ev)
{
	struct hwt_src *s = &r->src;
	uint64_t off = s->off;
	size_t avail = hwt_src__fill(s, 8);
	const uint8_t *p;
	uint32_t size;

	if (!avail) {
		if (r->pipe || off >= r->data_end)
			return finish(r, 0);
		hwt_diag__error(r->diag, off, "perf.data", "file cut: the data section ends at %"
				PRIu64 ", %" PRIu64 " bytes are missing", r->data_end,
				r->data_end - off);
		r->diag->bytes.lost += r->data_end - off;
		return finish(r, -1);
	}
	p = hwt_src__ptr(s);
	size = hwt_get_u16(p + 6);
	if (avail < 8 || size < 8) {
		if (avail < 8)
			hwt_diag__error(r->diag, off, "perf.data",
					"file cut inside a record header");
		else
			hwt_diag__error(r->diag, off, perf_record_name(hwt_get_u32(p)),
					"header.size %u < 8: the following records cannot be "
					"found", size);
		return give_up(r);
	}
	if (!r->pipe && size > r->data_end - off) {
		hwt_diag__error(r->diag, off, perf_record_name(hwt_get_u32(p)),
				"size %u runs past the data section end at %" PRIu64, size,
				r->data_end);
		return give_up(r);
	}
	avail = hwt_src__fill(s, size);
	p = hwt_src__ptr(s);
	if (avail < size) {
		hwt_diag__error(r->diag, off, perf_record_name(hwt_get_u32(p)),
				"record cut after %zu of its %u bytes", avail, size);
		return give_up(r);
	}
	if ((uintptr_t)p & 7) {
		memcpy(r->scratch, p, size);
		p = r->scratch;
	}
	hwt_src__consume(s, size);
	event_init(r, ev, off, false);
	ev->hdr = (const void *)p;
	return process(r, ev, p, false);
}

static int z_next(struct hwt_reader *r, struct hwt_event *ev)
{
	struct hwt_zstream *z = &r->z;
	size_t avail = hwt_zstream__fill(z, 8, r->diag);
	const uint8_t *p;
	uint32_t size;

	if (avail < 8)
		return 0;
	p = z->buf + z->pos;
	size = hwt_get_u16(p + 6);
	if (size < 8) {
		hwt_diag__error(r->diag, z->rec_off, perf_record_name(hwt_get_u32(p)),
				"inflated record with header.size %u < 8: the rest of the "
				"compressed stream is dropped", size);
		hwt_zstream__drop(z);
		z->dead = true;
		return 0;
	}
	if (hwt_zstream__fill(z, size, r->diag) < size)
		return 0;	/* the rest comes with the next COMPRESSED record */
	p = z->buf + z->pos;
	if ((uintptr_t)p & 7) {
		memcpy(r->scratch, p, size);
		p = r->scratch;
	}
	hwt_zstream__consume(z, size);
	event_init(r, ev, z->rec_off, true);
	ev->hdr = (const void *)p;
	return process(r, ev, p, true);
}

/* A payload inside the inflated stream goes on in the next COMPRESSED record. */
static bool z_load_next(struct hwt_reader *r)
{
	struct hwt_src *s = &r->src;
	uint64_t off = s->off;
	struct hwt_event ev;
	size_t avail = hwt_src__fill(s, 8);
	uint32_t type, size;

	if (avail < 8 || r->z.dead)
		return false;
	type = hwt_get_u32(hwt_src__ptr(s));
	size = hwt_get_u16(hwt_src__ptr(s) + 6);
	if ((type != HWT_REC_COMPRESSED && type != HWT_REC_COMPRESSED2) ||
	    size < min_size(type) || (!r->pipe && size > r->data_end - off) ||
	    hwt_src__fill(s, size) < size)
		return false;
	memcpy(r->scratch, hwt_src__ptr(s), size);
	hwt_src__consume(s, size);
	event_init(r, &ev, off, false);
	ev.hdr = (const void *)r->scratch;
	process(r, &ev, r->scratch, false);
	return !r->z.dead;
}

static void payload_cut(struct hwt_reader *r)
{
	hwt_diag__error(r->diag, r->pl_rec_off, perf_record_name(r->pl_type),
			"payload of %" PRIu64 " bytes cut after %" PRIu64, r->pl_total,
			r->pl_total - r->pl_left);
	if (r->pl_in_z) {
		/* inflated bytes are not input bytes: nothing to count */
		hwt_zstream__drop(&r->z);
		r->z.dead = true;
	} else {
		if (r->pipe)
			r->diag->bytes.lost += r->pl_left;
		else if (r->data_end > r->src.off)
			r->diag->bytes.lost += r->data_end - r->src.off;
		finish(r, -1);
	}
	r->pl_left = 0;
}

ssize_t hwt_reader__payload(struct hwt_reader *r, const void **ptr)
{
	size_t want, avail, n;
	const uint8_t *p;

	if (!r->pl_left)
		return 0;
	if (r->pl_in_z) {
		want = r->pl_left < r->z.cap / 2 ? (size_t)r->pl_left : r->z.cap / 2;
		avail = hwt_zstream__fill(&r->z, want, r->diag);
		if (!avail && z_load_next(r))
			avail = hwt_zstream__fill(&r->z, want, r->diag);
		p = r->z.buf + r->z.pos;
	} else {
		want = r->pl_left < r->src.cap - 8 ? (size_t)r->pl_left : r->src.cap - 8;
		avail = hwt_src__fill(&r->src, want);
		p = hwt_src__ptr(&r->src);
	}
	if (!avail) {
		payload_cut(r);
		return -1;
	}
	n = avail < r->pl_left ? avail : (size_t)r->pl_left;
	if (r->pl_in_z)
		hwt_zstream__consume(&r->z, n);
	else
		hwt_src__consume(&r->src, n);
	r->pl_left -= n;
	if (r->pl_kind == HWT_PL_TRACING && r->tracing_keep) {
		uint8_t *t = realloc(r->tracing, r->tracing_size + n);

		if (t) {
			memcpy(t + r->tracing_size, p, n);
			r->tracing = t;
			r->tracing_size += n;
		}
	}
	*ptr = p;
	return (ssize_t)n;
}

/* Payload the caller did not pull: skipped (tracing data we keep: decoded). */
static void payload_drop(struct hwt_reader *r)
{
	struct hwt_bytes *b = &r->diag->bytes;

	if (r->pl_kind == HWT_PL_TRACING || r->pl_in_z) {
		const void *p;
		ssize_t n;

		while ((n = hwt_reader__payload(r, &p)) > 0) {
			if (r->pl_in_z)
				continue;
			if (r->tracing_keep)
				b->decoded += (uint64_t)n;
			else
				b->skipped += (uint64_t)n;
		}
	} else {
		uint64_t got = hwt_src__skip(&r->src, r->pl_left);

		b->skipped += got;
		r->pl_left -= got;
		if (r->pl_left)
			payload_cut(r);
	}
	r->pl_kind = HWT_PL_NONE;
}

int hwt_reader__next(struct hwt_reader *r, struct hwt_event *ev)
{
	int ret;

	if (r->pl_left)
		payload_drop(r);
	r->pl_kind = HWT_PL_NONE;
	if (r->done)
		return r->status;
	if (!r->z.dead && (hwt_zstream__avail(&r->z) || hwt_zstream__pending(&r->z))) {
		ret = z_next(r, ev);
		if (ret)
			return ret;
	}
	ret = file_next(r, ev);
	if (r->pipe)
		r->stats.file_size = r->src.off;
	return ret;
}

/* ---- accessors ------------------------------------------------------------------ */

bool hwt_reader__is_pipe(const struct hwt_reader *r)
{
	return r->pipe;
}

uint32_t hwt_reader__nr_attrs(const struct hwt_reader *r)
{
	return r->nr_attrs;
}

const struct hwt_attr *hwt_reader__attr(const struct hwt_reader *r, uint32_t i)
{
	return i < r->nr_attrs ? r->attrs[i] : NULL;
}

const struct hwt_attr *hwt_reader__attr_by_type(const struct hwt_reader *r, uint32_t type)
{
	for (uint32_t i = 0; i < r->nr_attrs; i++)
		if (r->attrs[i]->attr.type == type)
			return r->attrs[i];
	return NULL;
}

const struct hwt_attr *hwt_reader__attr_by_id(const struct hwt_reader *r, uint64_t id)
{
	return hwt_reader__lookup_id(r, id);
}

const char *hwt_reader__pmu_name(const struct hwt_reader *r, uint32_t type)
{
	for (uint32_t i = 0; i < r->nr_pmus; i++)
		if (r->pmus[i].type == type)
			return r->pmus[i].name;
	return NULL;
}

const char *hwt_reader__feature_string(const struct hwt_reader *r, enum hwt_feature feat)
{
	return (unsigned int)feat < HWT_FEAT_MAX ? r->feat[feat].str : NULL;
}

const void *hwt_reader__feature(const struct hwt_reader *r, enum hwt_feature feat, size_t *size)
{
	if ((unsigned int)feat >= HWT_FEAT_MAX || !r->feat[feat].present)
		return NULL;
	if (size)
		*size = r->feat[feat].size;
	return r->feat[feat].data;
}

bool hwt_reader__has_feature(const struct hwt_reader *r, enum hwt_feature feat)
{
	return (unsigned int)feat < HWT_FEAT_MAX && r->feat[feat].present;
}

const void *hwt_reader__tracing_data(const struct hwt_reader *r, size_t *size)
{
	if (r->tracing) {
		if (size)
			*size = r->tracing_size;
		return r->tracing;
	}
	return hwt_reader__feature(r, HWT_FEAT_TRACING_DATA, size);
}

const struct hwt_reader_stats *hwt_reader__stats(const struct hwt_reader *r)
{
	return &r->stats;
}
