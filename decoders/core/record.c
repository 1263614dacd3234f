// SPDX-License-Identifier: GPL-2.0
/* record.c - reading field values through a record type's field table. */
#include <string.h>

#include "hwtrace/record.h"
#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "decoder_internal.h"

static const void *field_ptr(const struct hwt_field *f, const void *data)
{
	return (const char *)data + f->offset;
}

bool hwt_field__is_array(const struct hwt_field *f)
{
	return f->count > 1 || f->type == HWT_FT_U64_VEC || f->type == HWT_FT_KV;
}

uint32_t hwt_field__len(const struct hwt_field *f, const void *data)
{
	if (f->type == HWT_FT_U64_VEC || f->type == HWT_FT_KV)
		return *(const uint32_t *)((const char *)data + f->count_offset);
	return f->count > 1 ? f->count : 1;
}

uint64_t hwt_field__u64(const struct hwt_field *f, const void *data, uint32_t i)
{
	const void *p = field_ptr(f, data);

	bool sign = f->flags & HWT_FF_SIGNED;

	switch (f->type) {
	case HWT_FT_U8:
		return sign ? (uint64_t)((const int8_t *)p)[i] : ((const uint8_t *)p)[i];
	case HWT_FT_U16:
		return sign ? (uint64_t)((const int16_t *)p)[i] : ((const uint16_t *)p)[i];
	case HWT_FT_U32:
		return sign ? (uint64_t)((const int32_t *)p)[i] : ((const uint32_t *)p)[i];
	case HWT_FT_U64:
	case HWT_FT_S64:
		return ((const uint64_t *)p)[i];
	case HWT_FT_BOOL:
		return *(const bool *)p;
	case HWT_FT_U64_VEC:
		return (*(const uint64_t *const *)p)[i];
	case HWT_FT_KV:
		return (*(const struct hwt_kv *const *)p)[i].val;
	case HWT_FT_STR:
		break;
	}
	return 0;
}

const struct hwt_record_type *hwt_record_type__find(const char *name)
{
	hwt_devices__for_each_type(d, t)
		if (!strcmp((*t)->name, name))
			return *t;
	return NULL;
}

const struct hwt_decoder_ops *hwt_decoder__find(const char *name)
{
	const struct hwt_device *dev = hwt_device__find(name);

	return dev ? dev->decoder : NULL;
}

const char *hwt_aux_ctx__opt(const struct hwt_aux_ctx *ctx, const char *key)
{
	for (uint32_t i = 0; i < ctx->nopts; i++)
		if (!strcmp(ctx->opts[i].key, key))
			return ctx->opts[i].val;
	return NULL;
}

int hwt_metrics__find(const struct hwt_metrics *m, const char *name)
{
	for (uint32_t i = 0; m && i < m->n; i++)
		if (!strcmp(m->defs[i].name, name))
			return (int)i;
	return -1;
}
