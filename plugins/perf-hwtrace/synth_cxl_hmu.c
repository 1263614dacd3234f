// SPDX-License-Identifier: GPL-2.0
/*
 * synth_cxl_hmu.c - a CXL HMU recording as the RFC driver and RFC perf write
 * it (design.rst 4.1):
 *
 *   attrs	cxl_hmu_mem0.0.0/<the RFC doc's terms>/ (type --pmu-type, 42) and
 *		dummy:u; sample_type IP|TID|TIME|CPU|IDENTIFIER, sample_id_all
 *   features	HOSTNAME .. CMDLINE, EVENT_DESC, PMU_MAPPINGS, AUXTRACE index
 *   records	AUXTRACE_INFO (type 7 or --auxtrace-type, priv[0] = PMU type),
 *		FINISHED_INIT, then per AUX drain a PERF_RECORD_AUX (cpu 0, time
 *		T0 + i * 10 ms) and a PERF_RECORD_AUXTRACE whose payload is one or
 *		more RFC packets; FINISHED_ROUND every 4 drains and at the end.
 *
 * Entries come from the shared model (hwtrace/sim_hmu.h), called in this
 * order, which the kernel's simulated CHMU follows too:
 *	hwt_sim_hmu__init(seed, nunits = (range_size << 28) >> granual, width, threshold)
 *	per packet: n = hwt_sim_hmu__packet_units(s, 512); n x hwt_sim_hmu__entry(s)
 * Packets are generated until the payload reaches --size, so the total
 * overshoots --size by less than one packet (16 + 512 * 8 bytes).
 *
 * Manifest (--manifest FILE), the generator's own account:
 *	# packets P units U bytes B		totals, first line
 *	# aux cpu C time T offset O size S packets P units U
 *						one per drain (= AUXTRACE record)
 *	<cpu> <time> <unit> <count> <dpa>	one line per hotlist entry, in order
 * all decimal except dpa (0x%llx); time is the PERF_RECORD_AUX time of the
 * drain the entry is in; dpa = unit << hotness_granual; B and S are AUX
 * payload bytes.  `grep -v '^#'` leaves exactly the entries.
 *
 * Options: --granual N (hotness_granual, 12), --threshold N (hotness_threshold,
 * 1024), --width N (counter width, 16), --pmu-type N (attr.type, 42).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cxl_hmu/sim_hmu.h"
#include "synth.h"

#define HMU_PMU_NAME	"cxl_hmu_mem0.0.0"
#define HMU_MAX_UNITS	512		/* per packet; the kernel sim uses the same */
#define HMU_PKT_MAX	((2 + HMU_MAX_UNITS) * 8)
#define HMU_ID		11		/* sample ids of the two events */
#define DUMMY_ID	12
#define T0_NS		1000000000ULL
#define DRAIN_NS	10000000ULL
#define ROUND_EVERY	4
#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* The RFC doc's example event, with what the options change. */
struct hmu_cfg {
	uint64_t epoch_type, access_type, epoch_scale, epoch_multiplier;
	uint64_t randomized_downsampling, downsampling_factor;
	uint64_t hotness_threshold, hotness_granual, range_base, range_size;
	uint32_t width, pmu_type, auxtrace_type;
};

/* PERF_RECORD_AUX with its sample_id trailer (TID, TIME, CPU, IDENTIFIER). */
struct aux_rec {
	struct hwt_aux aux;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t id;
};

struct gen_stats {
	uint64_t packets, units, bytes;
};

static int opt_u64(const struct synth_opts *o, const char *key, uint64_t def, uint64_t min,
		   uint64_t max, uint64_t *out)
{
	const char *s = synth_opt(o, key, NULL);
	char *end;

	*out = def;
	if (!s)
		return 0;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || *out < min || *out > max) {
		fprintf(stderr, "perf hwtrace synth: --%s '%s': want %llu..%llu\n", key, s,
			(unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	return 0;
}

static int hmu_cfg__init(struct hmu_cfg *c, const struct synth_opts *o)
{
	uint64_t v;

	*c = (struct hmu_cfg){
		.access_type = 6, .epoch_scale = 4, .epoch_multiplier = 4,
		.downsampling_factor = 32, .range_size = 1024,
	};
	if (opt_u64(o, "granual", 12, 8, 63, &c->hotness_granual) ||
	    opt_u64(o, "threshold", 1024, 0, UINT32_MAX, &c->hotness_threshold))
		return -1;
	if (opt_u64(o, "width", 16, 1, 32, &v))
		return -1;
	c->width = (uint32_t)v;
	/* the monitored range, in the range_size term's 256 MiB blocks */
	if (opt_u64(o, "range-size", 1024, 1, UINT32_MAX, &c->range_size))
		return -1;
	if (opt_u64(o, "pmu-type", 42, 6, UINT32_MAX, &v))
		return -1;
	c->pmu_type = (uint32_t)v;
	c->auxtrace_type = o->auxtrace_type ? o->auxtrace_type : HWT_AUXTRACE_CXL_HMU;
	return 0;
}

/* Bit ranges of the sysfs format/ terms (design.rst 4.1). */
static void hmu_cfg__attr(const struct hmu_cfg *c, struct perf_event_attr *a)
{
	a->config = c->epoch_type | c->access_type << 2 | c->epoch_scale << 10 |
		    c->epoch_multiplier << 14 | c->randomized_downsampling << 26 |
		    c->downsampling_factor << 27;
	a->config1 = c->hotness_threshold | c->hotness_granual << 32;
	a->config2 = c->range_base | c->range_size << 32;
}

static void hmu_cfg__name(const struct hmu_cfg *c, char *buf, size_t len)
{
	snprintf(buf, len, HMU_PMU_NAME "/epoch_type=%llu,access_type=%llu,"
		 "hotness_threshold=%llu,epoch_multiplier=%llu,epoch_scale=%llu,range_base=%llu,"
		 "range_size=%llu,randomized_downsampling=%llu,downsampling_factor=%llu,"
		 "hotness_granual=%llu/",
		 (unsigned long long)c->epoch_type, (unsigned long long)c->access_type,
		 (unsigned long long)c->hotness_threshold,
		 (unsigned long long)c->epoch_multiplier, (unsigned long long)c->epoch_scale,
		 (unsigned long long)c->range_base, (unsigned long long)c->range_size,
		 (unsigned long long)c->randomized_downsampling,
		 (unsigned long long)c->downsampling_factor,
		 (unsigned long long)c->hotness_granual);
}

static uint64_t hmu_cfg__nunits(const struct hmu_cfg *c)
{
	/* range_size counts 256 MiB blocks */
	return (c->range_size << 28) >> c->hotness_granual;
}

static int write_header(struct hwt_writer *w, const struct hmu_cfg *c, const char *name)
{
	static const uint64_t hmu_id = HMU_ID, dummy_id = DUMMY_ID;
	const struct hwt_pmu_mapping maps[] = {
		{ 4, "cpu" }, { c->pmu_type, HMU_PMU_NAME }, { 1, "software" }, { 2, "tracepoint" },
	};
	const char *argv[] = { "/usr/bin/perf", "record", "-a", "-e", name, "--", "sleep", "10" };
	struct hwt_writer_attr hmu = { .ids = &hmu_id, .nr_ids = 1, .name = name };
	struct hwt_writer_attr dummy = { .ids = &dummy_id, .nr_ids = 1, .name = "dummy:u" };
	int err = 0;

	/* as the RFC perf configures it: period 1, TIME; -a adds CPU; 2 events add IDENTIFIER */
	hmu.attr.type = c->pmu_type;
	hmu_cfg__attr(c, &hmu.attr);
	hmu.attr.sample_period = 1;
	hmu.attr.sample_type = SAMPLE_TYPE;
	hmu.attr.disabled = 1;
	hmu.attr.sample_id_all = 1;

	dummy.attr.type = PERF_TYPE_SOFTWARE;
	dummy.attr.config = PERF_COUNT_SW_DUMMY;
	dummy.attr.sample_period = 1;
	dummy.attr.sample_type = SAMPLE_TYPE;
	dummy.attr.disabled = 1;
	dummy.attr.exclude_kernel = 1;
	dummy.attr.exclude_hv = 1;
	dummy.attr.mmap = 1;
	dummy.attr.comm = 1;
	dummy.attr.task = 1;
	dummy.attr.sample_id_all = 1;

	err |= hwt_writer__add_attr(w, &hmu);
	err |= hwt_writer__add_attr(w, &dummy);
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_HOSTNAME, "hwtrace-synth");
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_OSRELEASE, "6.12.0-rc6-cxl-hmu-rfc");
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_VERSION, "6.12.rc6.g0cxlhmu");
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_ARCH, "x86_64");
	err |= hwt_writer__set_nrcpus(w, 4, 4);
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_CPUDESC, "QEMU Virtual CPU version 2.5+");
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_CPUID, "GenuineIntel,6,6,3");
	err |= hwt_writer__set_cmdline(w, sizeof(argv) / sizeof(argv[0]), argv);
	err |= hwt_writer__set_pmu_mappings(w, maps, sizeof(maps) / sizeof(maps[0]));
	return err ? -1 : 0;
}

/*
 * Fill @buf with whole packets up to @target bytes or until @stats->bytes
 * plus what is in @buf reaches @size.  Returns the bytes put in @buf (at most
 * @target - 8 + HMU_PKT_MAX).
 */
static size_t gen_chunk(struct hwt_sim_hmu *sim, uint64_t *buf, size_t target, uint64_t size,
			struct gen_stats *st)
{
	/* a local copy: stores to buf[] cannot alias it, so it stays in registers */
	struct hwt_sim_hmu s = *sim;
	size_t len = 0;

	while (len < target && st->bytes + len < size) {
		uint64_t *p = buf + len / 8;
		uint32_t n = hwt_sim_hmu__packet_units(&s, HMU_MAX_UNITS);

		p[0] = n | (uint64_t)s.width << 16;
		p[1] = 0xdeadbeefULL;
		for (uint32_t k = 0; k < n; k++)
			p[2 + k] = hwt_sim_hmu__entry(&s);
		len += (2 + (size_t)n) * 8;
		st->packets++;
		st->units += n;
	}
	*sim = s;
	st->bytes += len;
	return len;
}

static char *fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *fmt_hex(char *p, uint64_t v)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*p++ = '0';
	*p++ = 'x';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* One manifest line per entry of the chunk's packets. */
static void manifest_chunk(FILE *f, const uint64_t *buf, size_t len, uint32_t cpu,
			   uint64_t time, const struct hmu_cfg *c)
{
	char line[4096];
	char *p = line;

	for (size_t i = 0; i < len / 8; ) {
		uint32_t n = buf[i] & 0xffff, width = (buf[i] >> 16) & 0xff;
		uint64_t mask = (1ULL << width) - 1;

		for (uint32_t k = 0; k < n; k++) {
			uint64_t e = buf[i + 2 + k], unit = e >> width;

			if (p - line > (long)sizeof(line) - 100) {
				fwrite(line, 1, p - line, f);
				p = line;
			}
			p = fmt_u64(p, cpu);
			*p++ = ' ';
			p = fmt_u64(p, time);
			*p++ = ' ';
			p = fmt_u64(p, unit);
			*p++ = ' ';
			p = fmt_u64(p, e & mask);
			*p++ = ' ';
			p = fmt_hex(p, unit << c->hotness_granual);
			*p++ = '\n';
		}
		i += 2 + n;
	}
	fwrite(line, 1, p - line, f);
}

static int write_round(struct hwt_writer *w)
{
	struct perf_event_header h = { .type = HWT_REC_FINISHED_ROUND, .size = sizeof(h) };

	return hwt_writer__write(w, &h);
}

static int hmu_write(struct hwt_writer *w, const struct synth_opts *o)
{
	struct hmu_cfg c;
	struct hwt_sim_hmu sim;
	struct gen_stats st = { 0 };
	char name[512];
	uint64_t *buf;
	size_t target;
	uint64_t nchunk = 0;
	uint64_t info_buf[3] = { 0 };	/* AUXTRACE_INFO with one priv word: 24 bytes */
	struct hwt_auxtrace_info *info = (struct hwt_auxtrace_info *)info_buf;
	struct perf_event_header fin = { .type = HWT_REC_FINISHED_INIT, .size = sizeof(fin) };
	int ret = -1;

	if (hmu_cfg__init(&c, o))
		return -1;
	hmu_cfg__name(&c, name, sizeof(name));
	if (write_header(w, &c, name)) {
		fprintf(stderr, "perf hwtrace synth: cannot set up the file: %s\n",
			strerror(errno));
		return -1;
	}

	/* drains grow with the file so that huge files have few, big chunks */
	target = o->size / 256;
	if (target < 8192)
		target = 8192;
	if (target > (4 << 20))
		target = 4 << 20;
	buf = malloc(target + HMU_PKT_MAX);
	if (!buf) {
		fprintf(stderr, "perf hwtrace synth: out of memory\n");
		return -1;
	}

	hwt_sim_hmu__init(&sim, o->seed, hmu_cfg__nunits(&c), c.width,
			  (uint32_t)c.hotness_threshold);
	if (o->manifest) {
		/* totals first: run a copy of the model through the same drains */
		struct hwt_sim_hmu dry = sim;
		struct gen_stats t = { 0 };

		while (t.bytes < o->size)
			gen_chunk(&dry, buf, target, o->size, &t);
		fprintf(o->manifest, "# packets %llu units %llu bytes %llu\n",
			(unsigned long long)t.packets, (unsigned long long)t.units,
			(unsigned long long)t.bytes);
	}

	info->header.type = HWT_REC_AUXTRACE_INFO;
	info->header.size = sizeof(info_buf);
	info->type = c.auxtrace_type;
	info->priv[0] = c.pmu_type;
	if (hwt_writer__write(w, &info->header) || hwt_writer__write(w, &fin))
		goto out;

	while (st.bytes < o->size) {
		uint64_t aux_offset = st.bytes, time = T0_NS + nchunk * DRAIN_NS;
		struct gen_stats before = st;
		size_t len = gen_chunk(&sim, buf, target, o->size, &st);
		struct aux_rec aux = {
			.aux.header = { .type = PERF_RECORD_AUX, .size = sizeof(aux) },
			.aux.aux_offset = aux_offset,
			.aux.aux_size = len,
			.time = time,
			.id = HMU_ID,
		};
		struct hwt_auxtrace at = {
			.offset = aux_offset,
			.reference = time,
			.tid = UINT32_MAX,
		};

		if (hwt_writer__write(w, &aux.aux.header) ||
		    hwt_writer__write_auxtrace(w, &at, buf, len))
			goto out;
		if (o->manifest) {
			fprintf(o->manifest,
				"# aux cpu 0 time %llu offset %llu size %llu packets %llu units %llu\n",
				(unsigned long long)time, (unsigned long long)aux_offset,
				(unsigned long long)len,
				(unsigned long long)(st.packets - before.packets),
				(unsigned long long)(st.units - before.units));
			manifest_chunk(o->manifest, buf, len, 0, time, &c);
		}
		if (++nchunk % ROUND_EVERY == 0 && write_round(w))
			goto out;
	}
	if (nchunk % ROUND_EVERY && write_round(w))
		goto out;
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "perf hwtrace synth: write failed: %s\n", strerror(errno));
	free(buf);
	return ret;
}

const struct synth_ops synth_cxl_hmu = {
	.type = "cxl-hmu",
	.write = hmu_write,
	.help = "CXL HMU hotlists [--granual N (12)] [--threshold N (1024)] [--width N (16)] "
		"[--range-size N (1024, in 256 MiB)] [--pmu-type N (42)]",
};
