// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_info.c - the perf-info context: from AUXTRACE_INFO priv[] words,
 * from a binary drm_panthor_perf_info, or from a flat JSON object (raw
 * decode).  Every size is checked here once, so the walker can trust it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "le.h"
#include "panthor_internal.h"

#define RTYPE "panthor perf_info"

static const char *const kind_keys[HWT_PANTHOR_NKINDS] = {
	"fw_blocks", "csg_blocks", "cshw_blocks", "tiler_blocks", "memsys_blocks",
	"shader_blocks",
};

int hwt_panthor_info__check(struct hwt_panthor_info *info, uint64_t off, struct hwt_diag *diag)
{
	const struct hwt_panthor_layout *l = info->layout;
	uint64_t nblocks = 0, computed;

	if (!l) {
		hwt_diag__error(diag, off, RTYPE, "unknown uAPI layout (known: 2 = RFC v2, 6 = v6)");
		return -1;
	}
	if (info->counters_per_block < HWT_PANTHOR_HDR_COUNTERS ||
	    info->counters_per_block > HWT_PANTHOR_MAX_CPB) {
		hwt_diag__error(diag, off, RTYPE, "counters_per_block %u outside %u..%u",
				info->counters_per_block, HWT_PANTHOR_HDR_COUNTERS,
				HWT_PANTHOR_MAX_CPB);
		return -1;
	}
	if (info->sample_header_size < l->sample_header_size ||
	    info->sample_header_size > HWT_PANTHOR_MAX_HDR) {
		hwt_diag__error(diag, off, RTYPE, "sample_header_size %u outside %u..%u (layout %s)",
				info->sample_header_size, l->sample_header_size,
				HWT_PANTHOR_MAX_HDR, l->name);
		return -1;
	}
	if (info->block_header_size < l->block_header_size ||
	    info->block_header_size > HWT_PANTHOR_MAX_HDR) {
		hwt_diag__error(diag, off, RTYPE, "block_header_size %u outside %u..%u (layout %s)",
				info->block_header_size, l->block_header_size,
				HWT_PANTHOR_MAX_HDR, l->name);
		return -1;
	}
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++) {
		if (info->blocks[k] > HWT_PANTHOR_MAX_BLOCKS) {
			hwt_diag__error(diag, off, RTYPE, "%s %u is more than %u", kind_keys[k],
					info->blocks[k], HWT_PANTHOR_MAX_BLOCKS);
			return -1;
		}
		if (info->blocks[k] && l->type_of_kind[k] == 0xff) {
			hwt_diag__warn(diag, off, RTYPE, "%s %u ignored: layout %s has no such block",
				       kind_keys[k], info->blocks[k], l->name);
			info->blocks[k] = 0;
		}
		nblocks += info->blocks[k];
	}
	computed = info->sample_header_size +
		   nblocks * (info->block_header_size + 8ull * info->counters_per_block);
	if (computed > HWT_PANTHOR_MAX_SAMPLE) {
		hwt_diag__error(diag, off, RTYPE, "a sample of %llu bytes is implausible",
				(unsigned long long)computed);
		return -1;
	}
	if (!info->sample_size) {
		info->sample_size = (uint32_t)computed;
	} else if (info->sample_size < computed) {
		hwt_diag__error(diag, off, RTYPE,
				"sample_size %u is smaller than its %llu blocks need (%llu bytes)",
				info->sample_size, (unsigned long long)nblocks,
				(unsigned long long)computed);
		return -1;
	} else if (info->sample_size > HWT_PANTHOR_MAX_SAMPLE) {
		hwt_diag__error(diag, off, RTYPE, "sample_size %u is implausible", info->sample_size);
		return -1;
	}
	return 0;
}

int hwt_panthor_info__from_priv(struct hwt_panthor_info *info, const uint64_t *priv,
				uint32_t npriv, uint64_t off, struct hwt_diag *diag)
{
	memset(info, 0, sizeof(*info));
	if (npriv < HWT_PANTHOR_NPRIV) {
		hwt_diag__error(diag, off, RTYPE, "AUXTRACE_INFO carries %u priv words, panthor needs %d",
				npriv, HWT_PANTHOR_NPRIV);
		return -1;
	}
	for (int i = HWT_PANTHOR_PRIV_GPU_ID; i < HWT_PANTHOR_PRIV_SHADER_PRESENT; i++) {
		if (priv[i] > UINT32_MAX) {
			hwt_diag__error(diag, off, RTYPE, "priv[%d] = 0x%llx does not fit 32 bits", i,
					(unsigned long long)priv[i]);
			return -1;
		}
	}
	info->layout = hwt_panthor_layout__get((uint32_t)priv[HWT_PANTHOR_PRIV_LAYOUT]);
	if (!info->layout) {
		hwt_diag__error(diag, off, RTYPE, "unknown uAPI layout %llu (known: 2, 6)",
				(unsigned long long)priv[HWT_PANTHOR_PRIV_LAYOUT]);
		return -1;
	}
	info->gpu_id = (uint32_t)priv[HWT_PANTHOR_PRIV_GPU_ID];
	info->counters_per_block = (uint32_t)priv[HWT_PANTHOR_PRIV_CPB];
	info->sample_header_size = (uint32_t)priv[HWT_PANTHOR_PRIV_SHS];
	info->block_header_size = (uint32_t)priv[HWT_PANTHOR_PRIV_BHS];
	info->sample_size = (uint32_t)priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE];
	info->flags = (uint32_t)priv[HWT_PANTHOR_PRIV_FLAGS];
	info->supported_clocks = (uint32_t)priv[HWT_PANTHOR_PRIV_CLOCKS];
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
		info->blocks[k] = (uint32_t)priv[HWT_PANTHOR_PRIV_BLOCKS + k];
	info->shader_present = priv[HWT_PANTHOR_PRIV_SHADER_PRESENT];
	return hwt_panthor_info__check(info, off, diag);
}

int hwt_panthor_info__from_bytes(struct hwt_panthor_info *info,
				 const struct hwt_panthor_layout *l, const uint8_t *p, size_t n)
{
	if (!l || n < l->info_size)
		return -1;
	info->layout = l;
	info->sample_size = 0;
	memset(info->blocks, 0, sizeof(info->blocks));
	for (uint32_t i = 0; i < l->ninfo_fields; i++) {
		const char *f = l->info_fields[i];
		uint32_t v = hwt_le32(p + 4 * i);

		if (!strcmp(f, "counters_per_block"))
			info->counters_per_block = v;
		else if (!strcmp(f, "sample_header_size"))
			info->sample_header_size = v;
		else if (!strcmp(f, "block_header_size"))
			info->block_header_size = v;
		else if (!strcmp(f, "sample_size"))
			info->sample_size = v;
		else if (!strcmp(f, "flags"))
			info->flags = v;
		else if (!strcmp(f, "supported_clocks"))
			info->supported_clocks = v;
		for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
			if (!strcmp(f, kind_keys[k]))
				info->blocks[k] = v;
	}
	return 0;
}

/* --- a flat JSON object of integers ------------------------------------ */

struct json {
	const char *s;
	size_t pos;
	struct hwt_diag *diag;
};

static void json_ws(struct json *j)
{
	while (j->s[j->pos] == ' ' || j->s[j->pos] == '\t' || j->s[j->pos] == '\n' ||
	       j->s[j->pos] == '\r')
		j->pos++;
}

static int json_fail(struct json *j, const char *what)
{
	hwt_diag__error(j->diag, j->pos, "panthor --info JSON", "%s", what);
	return -1;
}

/* A string without escapes (keys and number strings need none) into @buf. */
static int json_string(struct json *j, char *buf, size_t len)
{
	size_t n = 0;

	if (j->s[j->pos] != '"')
		return json_fail(j, "expected a string");
	j->pos++;
	while (j->s[j->pos] && j->s[j->pos] != '"') {
		if (j->s[j->pos] == '\\')
			return json_fail(j, "escapes are not supported in this file");
		if (n + 1 < len)
			buf[n++] = j->s[j->pos];
		j->pos++;
	}
	if (!j->s[j->pos])
		return json_fail(j, "unterminated string");
	j->pos++;
	buf[n] = 0;
	return 0;
}

int panthor__parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return *end || errno ? -1 : 0;
}

static int json_value(struct json *j, uint64_t *v)
{
	char buf[40];	/* a u64 needs at most 20 digits; longer is refused, not cut */
	size_t n = 0;

	if (j->s[j->pos] == '"') {
		if (json_string(j, buf, sizeof(buf)))
			return -1;
		if (strlen(buf) + 1 >= sizeof(buf))
			return json_fail(j, "number too long");
	} else {
		while ((j->s[j->pos] >= '0' && j->s[j->pos] <= '9') || j->s[j->pos] == '-' ||
		       j->s[j->pos] == '.' || j->s[j->pos] == 'e' || j->s[j->pos] == 'E' ||
		       j->s[j->pos] == '+') {
			if (n + 1 < sizeof(buf))
				buf[n++] = j->s[j->pos];
			j->pos++;
		}
		buf[n] = 0;
		if (!n)
			return json_fail(j, "expected a number");
		if (n + 1 >= sizeof(buf))
			return json_fail(j, "number too long");
		if (buf[0] == '0' && n > 1)
			return json_fail(j, "leading zeros are not JSON");
	}
	if (panthor__parse_u64(buf, v))
		return json_fail(j, "value is not a non-negative integer below 2^64");
	return 0;
}

static int json_key_index(const char *key)
{
	static const struct { const char *key; int idx; } keys[] = {
		{ "layout", HWT_PANTHOR_PRIV_LAYOUT },
		{ "gpu_id", HWT_PANTHOR_PRIV_GPU_ID },
		{ "counters_per_block", HWT_PANTHOR_PRIV_CPB },
		{ "sample_header_size", HWT_PANTHOR_PRIV_SHS },
		{ "block_header_size", HWT_PANTHOR_PRIV_BHS },
		{ "sample_size", HWT_PANTHOR_PRIV_SAMPLE_SIZE },
		{ "flags", HWT_PANTHOR_PRIV_FLAGS },
		{ "supported_clocks", HWT_PANTHOR_PRIV_CLOCKS },
		{ "shader_present", HWT_PANTHOR_PRIV_SHADER_PRESENT },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i].key))
			return keys[i].idx;
	for (int k = 0; k < HWT_PANTHOR_NKINDS; k++)
		if (!strcmp(key, kind_keys[k]))
			return HWT_PANTHOR_PRIV_BLOCKS + k;
	return -1;
}

int hwt_panthor_info__parse_json(const char *json, uint64_t *priv, struct hwt_diag *diag)
{
	struct json j = { .s = json, .diag = diag };

	json_ws(&j);
	if (j.s[j.pos] != '{')
		return json_fail(&j, "expected '{' (a flat object of perf_info fields)");
	j.pos++;
	json_ws(&j);
	if (j.s[j.pos] == '}')
		return 0;
	for (;;) {
		char key[64];
		uint64_t v;
		size_t at;
		int idx;

		json_ws(&j);
		at = j.pos;
		if (json_string(&j, key, sizeof(key)))
			return -1;
		json_ws(&j);
		if (j.s[j.pos] != ':')
			return json_fail(&j, "expected ':'");
		j.pos++;
		json_ws(&j);
		if (json_value(&j, &v))
			return -1;
		idx = json_key_index(key);
		if (idx >= 0)
			priv[idx] = v;
		else if (strcmp(key, "pad"))
			hwt_diag__warn(diag, at, "panthor --info JSON", "unknown key \"%s\" ignored",
				       key);
		json_ws(&j);
		if (j.s[j.pos] == ',') {
			j.pos++;
			continue;
		}
		if (j.s[j.pos] == '}')
			break;
		return json_fail(&j, "expected ',' or '}'");
	}
	j.pos++;
	json_ws(&j);
	if (j.s[j.pos])
		return json_fail(&j, "trailing text after the object");
	return 0;
}
