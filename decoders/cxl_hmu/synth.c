// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - `synth --type cxl-hmu`: a CXL HMU recording as the RFC driver and
 * RFC perf write it (design.rst 4.1):
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxl_hmu/sim_hmu.h"
#include "cxl_hmu_internal.h"
#include "synth_run.h"

#define HMU_PMU_NAME	"cxl_hmu_mem0.0.0"
#define HMU_MAX_UNITS	512		/* per packet; the kernel sim uses the same */
#define HMU_PKT_MAX	((2 + HMU_MAX_UNITS) * 8)
#define HMU_ID		11		/* sample ids of the two events */
#define DUMMY_ID	12
#define T0_NS		1000000000ULL
#define DRAIN_NS	10000000ULL

/* The RFC doc's example event, with what the options change. */
struct hmu_cfg {
	uint64_t epoch_type, access_type, epoch_scale, epoch_multiplier;
	uint64_t randomized_downsampling, downsampling_factor;
	uint64_t hotness_threshold, hotness_granual, range_base, range_size;
	uint32_t width, pmu_type;
};

struct gen_stats {
	uint64_t packets, units, bytes;
};

static int hmu_cfg__init(struct hmu_cfg *c, struct hwt_synth_run *o)
{
	uint64_t v;

	*c = (struct hmu_cfg){
		.access_type = 6, .epoch_scale = 4, .epoch_multiplier = 4,
		.downsampling_factor = 32, .range_size = 1024,
	};
	if (hwt_synth_run__u64(o, "granual", 12, 8, 63, &c->hotness_granual) ||
	    hwt_synth_run__u64(o, "threshold", 1024, 0, UINT32_MAX, &c->hotness_threshold))
		return -1;
	if (hwt_synth_run__u64(o, "width", 16, 1, 32, &v))
		return -1;
	c->width = (uint32_t)v;
	/* the monitored range, in the range_size term's 256 MiB blocks */
	if (hwt_synth_run__u64(o, "range-size", 1024, 1, UINT32_MAX, &c->range_size))
		return -1;
	if (hwt_synth_run__u64(o, "pmu-type", 42, 6, UINT32_MAX, &v))
		return -1;
	c->pmu_type = (uint32_t)v;
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

static int write_header(struct hwt_synth_run *run, const struct hmu_cfg *c, const char *name)
{
	static const struct hwt_synth_host host = {
		.osrelease = "6.12.0-rc6-cxl-hmu-rfc", .version = "6.12.rc6.g0cxlhmu",
		.arch = "x86_64", .ncpus = 4, .cpudesc = "QEMU Virtual CPU version 2.5+",
		.cpuid = "GenuineIntel,6,6,3",
	};
	struct hwt_writer *w = run->w;
	static const uint64_t hmu_id = HMU_ID;
	const struct hwt_pmu_mapping maps[] = {
		{ 4, "cpu" }, { c->pmu_type, HMU_PMU_NAME }, { 1, "software" }, { 2, "tracepoint" },
	};
	const char *argv[] = { "/usr/bin/perf", "record", "-a", "-e", name, "--", "sleep", "10" };
	struct hwt_writer_attr hmu = { .ids = &hmu_id, .nr_ids = 1, .name = name };
	int err = 0;

	/* as the RFC perf configures it: -a adds CPU, 2 events add IDENTIFIER */
	hmu.attr.type = c->pmu_type;
	hmu_cfg__attr(c, &hmu.attr);
	err |= hwt_synth_run__aux_events(run, &hmu, DUMMY_ID, true);
	err |= hwt_synth_run__host(run, &host);
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
static void manifest_chunk(struct hwt_synth_run *f, const uint64_t *buf, size_t len, uint32_t cpu,
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
				hwt_synth_run__put(f, line, p - line);
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
	hwt_synth_run__put(f, line, p - line);
}

static int hmu_write(struct hwt_synth_run *run)
{
	const struct hwt_synth_opts *o = run->o;
	struct hmu_cfg c;
	struct hwt_sim_hmu sim;
	struct gen_stats st = { 0 };
	char name[512];
	uint64_t *buf;
	size_t target;
	uint64_t nchunk = 0;

	if (hmu_cfg__init(&c, run))
		return -1;
	hmu_cfg__name(&c, name, sizeof(name));
	if (write_header(run, &c, name))
		return hwt_synth_run__error(run, "cannot set up the file: %s", strerror(errno));

	/* drains grow with the file so that huge files have few, big chunks */
	target = o->size / 256;
	if (target < 8192)
		target = 8192;
	if (target > (4 << 20))
		target = 4 << 20;
	buf = hwt_synth_run__buffer(run, target + HMU_PKT_MAX);
	if (!buf)
		return -1;

	hwt_sim_hmu__init(&sim, o->seed, hmu_cfg__nunits(&c), c.width,
			  (uint32_t)c.hotness_threshold);
	if (hwt_synth_run__has_manifest(run)) {
		/* totals first: run a copy of the model through the same drains */
		struct hwt_sim_hmu dry = sim;
		struct gen_stats t = { 0 };

		while (t.bytes < o->size)
			gen_chunk(&dry, buf, target, o->size, &t);
		hwt_synth_run__printf(run, "# packets %llu units %llu bytes %llu\n",
			(unsigned long long)t.packets, (unsigned long long)t.units,
			(unsigned long long)t.bytes);
	}

	if (hwt_synth_run__auxinfo(run, &hwt_device_cxl_hmu, c.pmu_type, HMU_PMU_NAME, NULL,
				   true))
		return -1;

	while (st.bytes < o->size) {
		uint64_t aux_offset = st.bytes, time = T0_NS + nchunk * DRAIN_NS;
		struct gen_stats before = st;
		size_t len = gen_chunk(&sim, buf, target, o->size, &st);

		if (hwt_synth_run__drain(run, HMU_ID, time, aux_offset, buf, len))
			return -1;
		nchunk++;
		if (hwt_synth_run__has_manifest(run)) {
			hwt_synth_run__printf(run, "# aux cpu 0 time %llu offset %llu size %llu "
					      "packets %llu units %llu\n",
					      (unsigned long long)time, (unsigned long long)aux_offset,
					      (unsigned long long)len,
					      (unsigned long long)(st.packets - before.packets),
					      (unsigned long long)(st.units - before.units));
			manifest_chunk(run, buf, len, 0, time, &c);
		}
	}
	return hwt_synth_run__drains_end(run);
}

const struct hwt_synth hwt_cxl_hmu_synth = {
	.write = hmu_write,
	.help = "CXL HMU hotlists [--granual N (12)] [--threshold N (1024)] [--width N (16)] "
		"[--range-size N (1024, in 256 MiB)] [--pmu-type N (42)]",
};
