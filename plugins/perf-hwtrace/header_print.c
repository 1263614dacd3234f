// SPDX-License-Identifier: GPL-2.0
/*
 * header_print.c - `report --header` / `--header-only`: the file header and
 * the feature sections in perf 6.1's words (header.c print_*() and
 * perf_event_attr_fprintf.c), so the lines equal stock perf's on one file.
 * Features perf prints only with -I show "info available", as perf does.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "header_print.h"

/* perf 6.1's feat_ops[].name, by feature bit */
static const char *const feat_names[HWT_FEAT_LAST_PERF61] = {
	"", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
	"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC",
	"CPU_TOPOLOGY", "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC",
	"AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID",
	"DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
	"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

struct bit_name {
	uint64_t bit;
	const char *name;
};

#define B(pfx, n) { pfx##n, #n }
static const struct bit_name sample_bits[] = {
	B(PERF_SAMPLE_, IP), B(PERF_SAMPLE_, TID), B(PERF_SAMPLE_, TIME), B(PERF_SAMPLE_, ADDR),
	B(PERF_SAMPLE_, READ), B(PERF_SAMPLE_, CALLCHAIN), B(PERF_SAMPLE_, ID),
	B(PERF_SAMPLE_, CPU), B(PERF_SAMPLE_, PERIOD), B(PERF_SAMPLE_, STREAM_ID),
	B(PERF_SAMPLE_, RAW), B(PERF_SAMPLE_, BRANCH_STACK), B(PERF_SAMPLE_, REGS_USER),
	B(PERF_SAMPLE_, STACK_USER), B(PERF_SAMPLE_, IDENTIFIER), B(PERF_SAMPLE_, REGS_INTR),
	B(PERF_SAMPLE_, DATA_SRC), B(PERF_SAMPLE_, WEIGHT), B(PERF_SAMPLE_, PHYS_ADDR),
	B(PERF_SAMPLE_, AUX), B(PERF_SAMPLE_, CGROUP), B(PERF_SAMPLE_, DATA_PAGE_SIZE),
	B(PERF_SAMPLE_, CODE_PAGE_SIZE), B(PERF_SAMPLE_, WEIGHT_STRUCT), { 0, NULL },
};

static const struct bit_name branch_bits[] = {
	B(PERF_SAMPLE_BRANCH_, USER), B(PERF_SAMPLE_BRANCH_, KERNEL), B(PERF_SAMPLE_BRANCH_, HV),
	B(PERF_SAMPLE_BRANCH_, ANY), B(PERF_SAMPLE_BRANCH_, ANY_CALL),
	B(PERF_SAMPLE_BRANCH_, ANY_RETURN), B(PERF_SAMPLE_BRANCH_, IND_CALL),
	B(PERF_SAMPLE_BRANCH_, ABORT_TX), B(PERF_SAMPLE_BRANCH_, IN_TX),
	B(PERF_SAMPLE_BRANCH_, NO_TX), B(PERF_SAMPLE_BRANCH_, COND),
	B(PERF_SAMPLE_BRANCH_, CALL_STACK), B(PERF_SAMPLE_BRANCH_, IND_JUMP),
	B(PERF_SAMPLE_BRANCH_, CALL), B(PERF_SAMPLE_BRANCH_, NO_FLAGS),
	B(PERF_SAMPLE_BRANCH_, NO_CYCLES), B(PERF_SAMPLE_BRANCH_, TYPE_SAVE),
	B(PERF_SAMPLE_BRANCH_, HW_INDEX), B(PERF_SAMPLE_BRANCH_, PRIV_SAVE), { 0, NULL },
};

static const struct bit_name read_bits[] = {
	B(PERF_FORMAT_, TOTAL_TIME_ENABLED), B(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	B(PERF_FORMAT_, ID), B(PERF_FORMAT_, GROUP), { 1U << 4, "LOST" }, { 0, NULL },
};
#undef B

static void bits(struct out *o, const char *name, uint64_t v, const struct bit_name *b)
{
	const char *sep = "";

	if (!v)
		return;
	out__printf(o, ", %s = ", name);
	for (; b->name; b++) {
		if (v & b->bit) {
			out__printf(o, "%s%s", sep, b->name);
			sep = "|";
		}
	}
}

static void u(struct out *o, const char *name, uint64_t v)
{
	if (v)
		out__printf(o, ", %s = %" PRIu64, name, v);
}

static void x(struct out *o, const char *name, uint64_t v)
{
	if (v)
		out__printf(o, ", %s = %#" PRIx64, name, v);
}

void header_print_attr(struct out *o, const struct perf_event_attr *a)
{
	u(o, "type", a->type);
	u(o, "size", a->size);
	x(o, "config", a->config);
	u(o, "{ sample_period, sample_freq }", a->sample_period);
	bits(o, "sample_type", a->sample_type, sample_bits);
	bits(o, "read_format", a->read_format, read_bits);
#define F(f) u(o, #f, a->f)
	F(disabled); F(inherit); F(pinned); F(exclusive); F(exclude_user);
	F(exclude_kernel); F(exclude_hv); F(exclude_idle); F(mmap); F(comm); F(freq);
	F(inherit_stat); F(enable_on_exec); F(task); F(watermark); F(precise_ip);
	F(mmap_data); F(sample_id_all); F(exclude_host); F(exclude_guest);
	F(exclude_callchain_kernel); F(exclude_callchain_user); F(mmap2); F(comm_exec);
	F(use_clockid); F(context_switch); F(write_backward); F(namespaces); F(ksymbol);
	F(bpf_event); F(aux_output); F(cgroup); F(text_poke); F(build_id);
	F(inherit_thread); F(remove_on_exec); F(sigtrap);
	u(o, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	F(bp_type);
	x(o, "{ bp_addr, config1 }", a->bp_addr);
	x(o, "{ bp_len, config2 }", a->bp_len);
	bits(o, "branch_sample_type", a->branch_sample_type, branch_bits);
	x(o, "sample_regs_user", a->sample_regs_user);
	F(sample_stack_user);
	if (a->clockid)
		out__printf(o, ", clockid = %" PRId64, (int64_t)a->clockid);
	x(o, "sample_regs_intr", a->sample_regs_intr);
	F(aux_watermark); F(sample_max_stack); F(aux_sample_size); F(sig_data);
#undef F
}

static void event_desc(struct out *o, const struct hwt_reader *r)
{
	for (uint32_t i = 0; i < hwt_reader__nr_attrs(r); i++) {
		const struct hwt_attr *a = hwt_reader__attr(r, i);

		out__printf(o, "# event : name = %s, ", a->name ? a->name : "");
		if (a->nr_ids) {
			out__puts(o, ", id = {");
			for (uint32_t j = 0; j < a->nr_ids; j++)
				out__printf(o, "%s %" PRIu64, j ? "," : "", a->ids[j]);
			out__puts(o, " }");
		}
		header_print_attr(o, &a->attr);
		out__putc(o, '\n');
	}
}

/* print_cmdline(): each argument and a space, quotes as \' */
static void cmdline(struct out *o, const char *s)
{
	out__puts(o, "# cmdline : ");
	for (; s && *s; s++) {
		if (*s == '\'')
			out__putc(o, '\\');
		out__putc(o, *s);
	}
	out__puts(o, " \n");
}

static void pmu_mappings(struct out *o, const struct hwt_reader *r)
{
	const char *name, *sep = "# pmu mappings: ";
	uint32_t type, i;

	for (i = 0; (name = hwt_reader__pmu(r, i, &type)); i++) {
		out__printf(o, "%s%s = %u", sep, name, type);
		sep = ", ";
	}
	out__puts(o, i ? "\n" : "# pmu mappings: not available\n");
}

/* timestamp__scnprintf_usec() */
static void usec(struct out *o, const char *label, uint64_t ns)
{
	out__printf(o, "# %s : %" PRIu64 ".%06" PRIu64 "\n", label, ns / 1000000000,
		    ns % 1000000000 / 1000);
}

void header_print_feature(struct out *o, const struct hwt_reader *r, uint32_t feat)
{
	static const char *const strings[] = {
		[HWT_FEAT_HOSTNAME] = "hostname", [HWT_FEAT_OSRELEASE] = "os release",
		[HWT_FEAT_VERSION] = "perf version", [HWT_FEAT_ARCH] = "arch",
		[HWT_FEAT_CPUDESC] = "cpudesc", [HWT_FEAT_CPUID] = "cpuid",
	};
	struct hwt_header_info hi;
	const char *s = hwt_reader__feature_string(r, feat);

	hwt_reader__header_info(r, &hi);
	switch (feat) {
	case HWT_FEAT_HOSTNAME: case HWT_FEAT_OSRELEASE: case HWT_FEAT_VERSION:
	case HWT_FEAT_ARCH: case HWT_FEAT_CPUDESC: case HWT_FEAT_CPUID:
		out__printf(o, "# %s : %s\n", strings[feat], s ? s : "(null)");
		break;
	case HWT_FEAT_NRCPUS:
		out__printf(o, "# nrcpus online : %u\n# nrcpus avail : %u\n", hi.nr_cpus_online,
			    hi.nr_cpus_avail);
		break;
	case HWT_FEAT_TOTAL_MEM:
		out__printf(o, "# total memory : %" PRIu64 " kB\n", hi.total_mem);
		break;
	case HWT_FEAT_CMDLINE:
		cmdline(o, s);
		break;
	case HWT_FEAT_EVENT_DESC:
		event_desc(o, r);
		break;
	case HWT_FEAT_PMU_MAPPINGS:
		pmu_mappings(o, r);
		break;
	case HWT_FEAT_BRANCH_STACK:
		out__puts(o, "# contains samples with branch stack\n");
		break;
	case HWT_FEAT_AUXTRACE:
		out__puts(o, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case HWT_FEAT_STAT:
		out__puts(o, "# contains stat data\n");
		break;
	case HWT_FEAT_CPU_TOPOLOGY: case HWT_FEAT_NUMA_TOPOLOGY: case HWT_FEAT_CACHE:
	case HWT_FEAT_MEM_TOPOLOGY: case HWT_FEAT_HYBRID_TOPOLOGY:
		out__printf(o, "# %s info available, use -I to display\n", feat_names[feat]);
		break;
	case HWT_FEAT_SAMPLE_TIME:
		/* perf reads the section into the evlist after printing it in pipe mode */
		if (hwt_reader__is_pipe(r))
			hi.first_sample_time = hi.last_sample_time = 0;
		usec(o, "time of first sample", hi.first_sample_time);
		usec(o, "time of last sample", hi.last_sample_time);
		out__printf(o, "# sample duration : %10.3f ms\n",
			    (double)(hi.last_sample_time - hi.first_sample_time) / 1e6);
		break;
	case HWT_FEAT_CLOCKID:
		out__printf(o, "# clockid frequency: %" PRIu64 " MHz\n", hi.clockid_res_ns * 1000);
		break;
	case HWT_FEAT_COMPRESSED:
		out__printf(o, "# compressed : %s, level = %u, ratio = %u\n",
			    hi.comp_type == 1 ? "Zstd" : "Unknown", hi.comp_level, hi.comp_ratio);
		break;
	default:
		/* TRACING_DATA, BUILD_ID, GROUP_DESC, BPF_*, *PMU_CAPS, ...: not printed */
		break;
	}
}

void header_print_begin(struct out *o, const struct hwt_reader *r, const char *path)
{
	struct hwt_header_info hi;
	struct stat st;
	time_t t = 0;

	hwt_reader__header_info(r, &hi);
	if (!strcmp(path, "-") ? !fstat(0, &st) : !stat(path, &st))
		t = st.st_mtime;
	out__printf(o, "# ========\n# captured on    : %s", ctime(&t));
	out__printf(o, "# header version : 1\n");
	out__printf(o, "# data offset    : %" PRIu64 "\n", hi.data_offset);
	out__printf(o, "# data size      : %" PRIu64 "\n", hi.data_size);
	out__printf(o, "# feat offset    : %" PRIu64 "\n",
		    hi.data_size ? hi.data_offset + hi.data_size : 0);
	if (!hwt_reader__is_pipe(r)) {
		for (uint32_t f = 1; f < HWT_FEAT_LAST_PERF61; f++)
			if (hwt_reader__has_feature(r, f))
				header_print_feature(o, r, f);
		out__puts(o, "# missing features: ");
		for (uint32_t f = 1; f < HWT_FEAT_LAST_PERF61; f++)
			if (!hwt_reader__has_feature(r, f))
				out__printf(o, "%s ", feat_names[f]);
		out__putc(o, '\n');
	}
	out__puts(o, "# ========\n#\n");
}
