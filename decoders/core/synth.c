// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - running a device's perf.data generator (synth.h) and what the
 * generators share (synth_run.h): options, the manifest buffer handed to the
 * caller's callback, AUXTRACE_INFO through the device's encoder, AUX drains.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_run.h"
#include "decoder_internal.h"

const char *hwt_synth_run__opt(const struct hwt_synth_run *run, const char *key,
			       const char *def)
{
	const struct hwt_synth_opts *o = run->o;
	const char *val = def;

	/* the last one given wins, as with any command-line option */
	for (uint32_t i = 0; i < o->nopts; i++)
		if (!strcmp(o->opts[i].key, key))
			val = o->opts[i].val;
	return val;
}

int hwt_synth_run__u64(struct hwt_synth_run *run, const char *key, uint64_t def, uint64_t min,
		       uint64_t max, uint64_t *out)
{
	const char *s = hwt_synth_run__opt(run, key, NULL);
	char *end;

	*out = def;
	if (!s)
		return 0;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return hwt_synth_run__error(run, "--%s '%s' is not a number", key, s);
	if (*out < min || *out > max)
		return hwt_synth_run__error(run, "--%s '%s': want %llu..%llu", key, s,
					    (unsigned long long)min, (unsigned long long)max);
	return 0;
}

void *hwt_synth_run__buffer(struct hwt_synth_run *run, size_t size)
{
	free(run->buf);
	run->buf = malloc(size);
	if (!run->buf)
		hwt_synth_run__error(run, "out of memory");
	return run->buf;
}

static void mf_flush(struct hwt_synth_run *run)
{
	if (run->mflen && !run->mferr &&
	    run->o->manifest(run->o->manifest_ctx, run->mf, run->mflen) < 0)
		run->mferr = true;
	run->mflen = 0;
}

void hwt_synth_run__put(struct hwt_synth_run *run, const char *text, size_t len)
{
	if (!run->mf)
		return;
	if (run->mflen + len > HWT_SYNTH_MF_SIZE)
		mf_flush(run);
	if (len > HWT_SYNTH_MF_SIZE) {
		if (!run->mferr && run->o->manifest(run->o->manifest_ctx, text, len) < 0)
			run->mferr = true;
		return;
	}
	memcpy(run->mf + run->mflen, text, len);
	run->mflen += len;
}

void hwt_synth_run__printf(struct hwt_synth_run *run, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	if (!run->mf)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		hwt_synth_run__put(run, line, (size_t)n < sizeof(line) ? (size_t)n :
				   sizeof(line) - 1);
}

int hwt_synth_run__error(struct hwt_synth_run *run, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hwt_diag__error(run->diag, 0, "synth", "%s", msg);
	return -1;
}

int hwt_synth_run__auxinfo(struct hwt_synth_run *run, const struct hwt_device *dev,
			   uint32_t pmu_type, const char *pmu_name,
			   const struct hwt_auxinfo_lookup *lk, bool finished_init)
{
	uint64_t buf[2 + 64];
	struct hwt_auxtrace_info *info = (struct hwt_auxtrace_info *)buf;
	struct perf_event_header fin = { .type = HWT_REC_FINISHED_INIT, .size = sizeof(fin) };
	char err[256];

	if (hwt_device__auxinfo(dev, pmu_type, pmu_name, lk, buf, sizeof(buf) / sizeof(buf[0]),
				err, sizeof(err)) < 0)
		return hwt_synth_run__error(run, "%s", err);
	if (run->o->auxtrace_type)
		info->type = run->o->auxtrace_type;
	if (hwt_writer__write(run->w, &info->header) ||
	    (finished_init && hwt_writer__write(run->w, &fin)))
		return hwt_synth_run__error(run, "write failed: %s", strerror(errno));
	return 0;
}

/* PERF_RECORD_AUX with its sample_id trailer (TID, TIME, CPU, IDENTIFIER). */
struct aux_rec {
	struct hwt_aux aux;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t id;
};

int hwt_synth_run__drain(struct hwt_synth_run *run, uint64_t id, uint64_t time,
			 uint64_t offset, const void *buf, size_t len)
{
	struct aux_rec aux = {
		.aux.header = { .type = PERF_RECORD_AUX, .size = sizeof(aux) },
		.aux.aux_offset = offset, .aux.aux_size = len, .time = time, .id = id,
	};
	struct hwt_auxtrace at = { .offset = offset, .reference = time, .tid = UINT32_MAX };

	struct perf_event_header round = { .type = HWT_REC_FINISHED_ROUND, .size = 8 };

	if (hwt_writer__write(run->w, &aux.aux.header) ||
	    hwt_writer__write_auxtrace(run->w, &at, buf, len) ||
	    (++run->drains % HWT_SYNTH_ROUND_EVERY == 0 && hwt_writer__write(run->w, &round)))
		return hwt_synth_run__error(run, "write failed: %s", strerror(errno));
	return 0;
}

int hwt_synth_run__drains_end(struct hwt_synth_run *run)
{
	struct perf_event_header round = { .type = HWT_REC_FINISHED_ROUND, .size = 8 };

	if (run->drains % HWT_SYNTH_ROUND_EVERY && hwt_writer__write(run->w, &round))
		return hwt_synth_run__error(run, "write failed: %s", strerror(errno));
	return 0;
}

int hwt_synth_run__aux_events(struct hwt_synth_run *run, struct hwt_writer_attr *aux,
			      uint64_t dummy_id, bool dummy_tracks)
{
	const uint64_t sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct hwt_writer_attr dummy = { .ids = &dummy_id, .nr_ids = 1, .name = "dummy:u" };

	aux->attr.sample_period = 1;
	aux->attr.sample_type = sample_type;
	aux->attr.disabled = 1;
	aux->attr.sample_id_all = 1;
	dummy.attr.type = PERF_TYPE_SOFTWARE;
	dummy.attr.config = PERF_COUNT_SW_DUMMY;
	dummy.attr.sample_period = 1;
	dummy.attr.sample_type = sample_type;
	dummy.attr.exclude_kernel = 1;
	dummy.attr.sample_id_all = 1;
	if (dummy_tracks) {
		dummy.attr.disabled = 1;
		dummy.attr.exclude_hv = 1;
		dummy.attr.mmap = 1;
		dummy.attr.comm = 1;
		dummy.attr.task = 1;
	}
	return hwt_writer__add_attr(run->w, aux) || hwt_writer__add_attr(run->w, &dummy) ? -1 : 0;
}

int hwt_synth_run__host(struct hwt_synth_run *run, const struct hwt_synth_host *h)
{
	const struct { enum hwt_feature feat; const char *val; } str[] = {
		{ HWT_FEAT_HOSTNAME, "hwtrace-synth" }, { HWT_FEAT_OSRELEASE, h->osrelease },
		{ HWT_FEAT_VERSION, h->version }, { HWT_FEAT_ARCH, h->arch },
		{ HWT_FEAT_CPUDESC, h->cpudesc }, { HWT_FEAT_CPUID, h->cpuid },
	};
	int err = 0;

	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (str[i].val)
			err |= hwt_writer__set_feature_string(run->w, str[i].feat, str[i].val);
	if (h->ncpus)
		err |= hwt_writer__set_nrcpus(run->w, h->ncpus, h->ncpus);
	return err ? -1 : 0;
}

int hwt_synth__write(const struct hwt_device *dev, struct hwt_writer *w,
		     const struct hwt_synth_opts *o, struct hwt_diag *diag)
{
	struct hwt_synth_run run = { .w = w, .o = o, .diag = diag };
	int ret;

	if (!dev->synth) {
		hwt_diag__error(diag, 0, "synth", "%s has no generator", dev->name);
		return -1;
	}
	if (o->manifest) {
		run.mf = malloc(HWT_SYNTH_MF_SIZE);
		if (!run.mf) {
			hwt_diag__error(diag, 0, "synth", "out of memory");
			return -1;
		}
	}
	ret = dev->synth->write(&run);
	if (run.mf)
		mf_flush(&run);
	free(run.mf);
	free(run.buf);
	if (run.mferr) {
		hwt_diag__error(diag, 0, "synth", "manifest: write error");
		ret = -1;
	}
	return ret;
}
