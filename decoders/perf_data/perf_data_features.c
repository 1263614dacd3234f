// SPDX-License-Identifier: GPL-2.0
/*
 * perf_data_features.c - feature sections (file mode) and HEADER_FEATURE
 * records (pipe mode): kept raw, and the few we understand parsed: the
 * perf_header_string ones, CMDLINE, NRCPUS, TOTAL_MEM, EVENT_DESC and
 * PMU_MAPPINGS.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "perf_data_internal.h"

#define FEAT_RTYPE "perf.data feature"

/* A perf_header_string at @p (room @left): u32 len, then len bytes, NUL padded. */
static char *header_string(const uint8_t **p, size_t *left)
{
	uint32_t len;
	char *s;

	if (*left < 4)
		return NULL;
	len = hwt_get_u32(*p);
	if (len > *left - 4)
		return NULL;
	s = strndup((const char *)*p + 4, len);
	*p += 4 + len;
	*left -= 4 + len;
	return s;
}

static char *cmdline_string(const uint8_t *p, size_t left)
{
	uint32_t nr;
	size_t len = 0;
	char *out;

	if (left < 4)
		return NULL;
	nr = hwt_get_u32(p);
	p += 4;
	left -= 4;
	out = malloc(left + 1);
	if (!out)
		return NULL;
	out[0] = 0;
	for (uint32_t i = 0; i < nr; i++) {
		char *s = header_string(&p, &left);
		size_t n;

		if (!s)
			break;
		n = strlen(s);
		if (len)	/* fits: each string used 4 + n bytes of the section */
			out[len++] = ' ';
		memcpy(out + len, s, n + 1);
		len += n;
		free(s);
	}
	return out;
}

static void parse_event_desc(struct hwt_reader *r, const uint8_t *p, size_t left, uint64_t off)
{
	uint32_t nr, attr_sz;

	if (left < 8)
		goto bad;
	nr = hwt_get_u32(p);
	attr_sz = hwt_get_u32(p + 4);
	p += 8;
	left -= 8;
	if (attr_sz < PERF_ATTR_SIZE_VER0)
		goto bad;
	for (uint32_t i = 0; i < nr; i++) {
		struct hwt_attr *a = NULL;
		uint32_t nr_ids;
		char *name;

		if (left < (size_t)attr_sz + 4)
			goto bad;
		nr_ids = hwt_get_u32(p + attr_sz);
		p += attr_sz + 4;
		left -= attr_sz + 4;
		name = header_string(&p, &left);
		if (!name || nr_ids > left / 8) {
			free(name);
			goto bad;
		}
		if (nr_ids)
			a = (struct hwt_attr *)hwt_reader__lookup_id(r, hwt_get_u64(p));
		/* perf lists the events in attr order: ids the attrs lack name the same */
		if (!a && i < r->nr_attrs)
			a = r->attrs[i];
		p += (size_t)nr_ids * 8;
		left -= (size_t)nr_ids * 8;
		if (a) {
			free(a->name);
			a->name = name;
		} else {
			free(name);
		}
	}
	return;
bad:
	hwt_diag__warn(r->diag, off, FEAT_RTYPE, "EVENT_DESC section is malformed");
}

static void parse_pmu_mappings(struct hwt_reader *r, const uint8_t *p, size_t left, uint64_t off)
{
	uint32_t nr;

	for (uint32_t i = 0; i < r->nr_pmus; i++)
		free(r->pmus[i].name);
	free(r->pmus);
	r->pmus = NULL;
	r->nr_pmus = 0;
	if (left < 4)
		goto bad;
	nr = hwt_get_u32(p);
	p += 4;
	left -= 4;
	if (nr > left / 8)	/* each entry is at least 8 bytes */
		goto bad;
	r->pmus = calloc(nr ? nr : 1, sizeof(*r->pmus));
	if (!r->pmus)
		return;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t type;
		char *name;

		if (left < 4)
			goto bad;
		type = hwt_get_u32(p);
		p += 4;
		left -= 4;
		name = header_string(&p, &left);
		if (!name)
			goto bad;
		r->pmus[r->nr_pmus].type = type;
		r->pmus[r->nr_pmus++].name = name;
	}
	return;
bad:
	hwt_diag__warn(r->diag, off, FEAT_RTYPE, "PMU_MAPPINGS section is malformed");
}

static char *feature_text(uint32_t feat, const uint8_t *p, size_t size)
{
	char buf[48];

	switch (feat) {
	case HWT_FEAT_HOSTNAME:
	case HWT_FEAT_OSRELEASE:
	case HWT_FEAT_VERSION:
	case HWT_FEAT_ARCH:
	case HWT_FEAT_CPUDESC:
	case HWT_FEAT_CPUID:
		return header_string(&p, &size);
	case HWT_FEAT_CMDLINE:
		return cmdline_string(p, size);
	case HWT_FEAT_NRCPUS:
		/* u32 nr_cpus_avail, u32 nr_cpus_online */
		if (size < 8)
			return NULL;
		snprintf(buf, sizeof(buf), "%u/%u", hwt_get_u32(p + 4), hwt_get_u32(p));
		return strdup(buf);
	case HWT_FEAT_TOTAL_MEM:
		if (size < 8)
			return NULL;
		snprintf(buf, sizeof(buf), "%" PRIu64, hwt_get_u64(p));
		return strdup(buf);
	default:
		return NULL;
	}
}

void hwt_feat__store(struct hwt_reader *r, uint32_t feat, const void *data, size_t size,
		     uint64_t off)
{
	struct hwt_feat *f;

	if (feat >= HWT_FEAT_MAX)
		return;
	f = &r->feat[feat];
	free(f->data);
	free(f->str);
	f->str = NULL;
	f->present = true;
	f->size = size;
	f->data = malloc(size ? size : 1);
	if (!f->data) {
		f->size = 0;
		return;
	}
	memcpy(f->data, data, size);
	f->str = feature_text(feat, f->data, size);
	if (feat == HWT_FEAT_EVENT_DESC)
		parse_event_desc(r, f->data, size, off);
	else if (feat == HWT_FEAT_PMU_MAPPINGS)
		parse_pmu_mappings(r, f->data, size, off);
}

void hwt_feat__free(struct hwt_reader *r)
{
	for (uint32_t i = 0; i < HWT_FEAT_MAX; i++) {
		free(r->feat[i].data);
		free(r->feat[i].str);
	}
	for (uint32_t i = 0; i < r->nr_pmus; i++)
		free(r->pmus[i].name);
	free(r->pmus);
}

void hwt_feat__read_file(struct hwt_reader *r, uint64_t table_off, const uint64_t bits[4],
			 struct hwt_ival *iv, uint32_t *niv)
{
	uint64_t fsize = r->src.size, kept = 0;
	uint32_t nfeat = 0, k = 0;
	uint8_t *table;

	for (uint32_t i = 1; i < HWT_FEAT_MAX; i++)
		if (bits[i / 64] >> (i % 64) & 1)
			nfeat++;
	if (!nfeat)
		return;
	if (table_off > fsize || (uint64_t)nfeat * 16 > fsize - table_off) {
		hwt_diag__error(r->diag, table_off, FEAT_RTYPE,
				"feature table of %u entries runs past the end of the file "
				"(%" PRIu64 " bytes)", nfeat, fsize);
		if (table_off < fsize) {
			/* what is there is unreadable: skipped; the rest was promised */
			r->diag->bytes.lost += table_off + (uint64_t)nfeat * 16 - fsize;
		} else {
			r->diag->bytes.lost += (uint64_t)nfeat * 16;
		}
		return;
	}
	table = malloc((size_t)nfeat * 16);
	if (!table || !hwt_pread_all(r->fd, table, (size_t)nfeat * 16, table_off)) {
		hwt_diag__error(r->diag, table_off, FEAT_RTYPE, "cannot read the feature table");
		free(table);
		return;
	}
	iv[(*niv)++] = (struct hwt_ival){ table_off, table_off + (uint64_t)nfeat * 16 };
	for (uint32_t i = 1; i < HWT_FEAT_MAX; i++) {
		uint64_t off, size;
		uint8_t *buf;

		if (!(bits[i / 64] >> (i % 64) & 1))
			continue;
		off = hwt_get_u64(table + 16 * k);
		size = hwt_get_u64(table + 16 * k + 8);
		k++;
		if (off > fsize || size > fsize - off) {
			hwt_diag__error(r->diag, table_off + 16 * (k - 1), FEAT_RTYPE,
					"feature %u section at %" PRIu64 " of %" PRIu64
					" bytes runs past the end of the file", i, off, size);
			if (off < fsize)
				r->diag->bytes.lost += size - (fsize - off);
			else
				r->diag->bytes.lost += size;
			continue;
		}
		if (size > HWT_FEAT_KEEP_MAX) {
			/* not kept: its bytes stay out of the ranges and count as skipped */
			hwt_diag__warn(r->diag, off, FEAT_RTYPE,
				       "feature %u section of %" PRIu64
				       " bytes is too large to keep", i, size);
			continue;
		}
		/*
		 * Sections are disjoint in a real file; 255 entries naming one big
		 * range would otherwise keep 255 copies of it.
		 */
		if (size > fsize - kept) {
			hwt_diag__error(r->diag, table_off + 16 * (k - 1), FEAT_RTYPE,
					"feature %u section at %" PRIu64 " of %" PRIu64
					" bytes overlaps others: together they exceed the file's %"
					PRIu64 " bytes; not kept", i, off, size, fsize);
			continue;
		}
		buf = malloc(size ? size : 1);
		if (!buf || !hwt_pread_all(r->fd, buf, size, off)) {
			hwt_diag__error(r->diag, off, FEAT_RTYPE, "cannot read feature %u", i);
			free(buf);
			continue;
		}
		hwt_feat__store(r, i, buf, size, off);
		free(buf);
		kept += size;
		iv[(*niv)++] = (struct hwt_ival){ off, off + size };
	}
	free(table);
}

/* the feature's bytes when it is present and at least @need long */
static const uint8_t *feat_data(const struct hwt_reader *r, uint32_t feat, size_t need)
{
	const struct hwt_feat *f = &r->feat[feat];

	return f->present && f->size >= need ? f->data : NULL;
}

/**
 * hwt_reader__header_info - fill @hi from the file header and features read so far
 * @r:		the reader
 * @hi:		filled; fields of absent or short features are 0
 *
 * Layouts as perf's header.c writes them: NRCPUS u32 avail, u32 online;
 * TOTAL_MEM u64 kB; SAMPLE_TIME u64 first, last; CLOCKID u64 resolution;
 * COMPRESSED u32 version, type, level, ratio, mmap_len.
 */
void hwt_reader__header_info(const struct hwt_reader *r, struct hwt_header_info *hi)
{
	const uint8_t *p;

	memset(hi, 0, sizeof(*hi));
	if (!r->pipe) {
		hi->data_offset = r->data_off;
		hi->data_size = r->data_end - r->data_off;
	}
	p = feat_data(r, HWT_FEAT_NRCPUS, 8);
	if (p) {
		hi->nr_cpus_avail = hwt_get_u32(p);
		hi->nr_cpus_online = hwt_get_u32(p + 4);
	}
	p = feat_data(r, HWT_FEAT_TOTAL_MEM, 8);
	if (p)
		hi->total_mem = hwt_get_u64(p);
	p = feat_data(r, HWT_FEAT_SAMPLE_TIME, 16);
	if (p) {
		hi->first_sample_time = hwt_get_u64(p);
		hi->last_sample_time = hwt_get_u64(p + 8);
	}
	p = feat_data(r, HWT_FEAT_CLOCKID, 8);
	if (p)
		hi->clockid_res_ns = hwt_get_u64(p);
	p = feat_data(r, HWT_FEAT_COMPRESSED, 16);
	if (p) {
		hi->comp_type = hwt_get_u32(p + 4);
		hi->comp_level = hwt_get_u32(p + 8);
		hi->comp_ratio = hwt_get_u32(p + 12);
	}
}

/**
 * hwt_reader__pmu - the @i-th PMU_MAPPINGS entry, in file order
 * @r:		the reader
 * @i:		index from 0
 * @type:	set to the entry's attr.type
 *
 * Returns the PMU name, or NULL past the last entry.
 */
const char *hwt_reader__pmu(const struct hwt_reader *r, uint32_t i, uint32_t *type)
{
	if (i >= r->nr_pmus)
		return NULL;
	*type = r->pmus[i].type;
	return r->pmus[i].name;
}
