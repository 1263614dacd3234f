// SPDX-License-Identifier: GPL-2.0
/*
 * sink_dump.c - `report -D`: perf report -D's layout for every record, and
 * under each PERF_RECORD_AUXTRACE the decoder's records through their
 * dump_fmt templates (for CXL HMU, byte-identical to the RFC perf tool).
 * Kernel records with a time are held and printed sorted by time when a
 * FINISHED_ROUND or the end lets perf's ordered_events flush them (with
 * --file-order: as read); perf's user records are printed as read.
 */
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "dump_branch.h"
#include "perf_data/perf_record_names.h"
#include "perf_data/record_views_internal.h"
#include "sinks.h"
#include "stats_print.h"

static void hexdump(struct out *o, const uint8_t *p, size_t n)
{
	for (size_t off = 0; off < n; off += 16) {
		out__puts(o, ".  ");
		out__hex(o, off, 4);
		out__puts(o, ":  ");
		for (size_t i = 0; i < 16; i++) {
			if (off + i < n) {
				out__hex(o, p[off + i], 2);
				out__putc(o, ' ');
			} else {
				out__puts(o, "   ");
			}
		}
		out__putc(o, ' ');
		for (size_t i = 0; i < 16; i++) {
			char c = off + i < n ? (char)p[off + i] : ' ';

			out__putc(o, off + i < n && (c < 0x20 || c > 0x7e) ? '.' : c);
		}
		out__putc(o, '\n');
	}
}

/* perf_evlist__print_tstamp(): "<cpu> <time> " from the sample fields present. */
static void tstamp(struct dump_sink *s, const struct hwt_event *ev)
{
	uint32_t type = ev->hdr->type;
	uint64_t st = s->sample_type;
	bool user = type >= HWT_REC_HEADER_ATTR;

	if (!user && type != PERF_RECORD_SAMPLE && !s->sample_id_all) {
		out__puts(s->o, "-1 -1 ");
		return;
	}
	if (st & PERF_SAMPLE_CPU) {
		out__u64(s->o, user ? 0 : ev->sid.cpu);
		out__putc(s->o, ' ');
	}
	if (st & PERF_SAMPLE_TIME) {
		out__u64(s->o, user ? 0 : ev->sid.time);
		out__putc(s->o, ' ');
	}
}

static void hex0x(struct out *o, uint64_t v)
{
	/* printf's %#llx: 0 prints as "0" */
	if (v)
		out__puts(o, "0x");
	out__hex(o, v, 0);
}

/* One " label: value" piece of a record's line, read from the record at @off. */
struct dump_item {
	const char *label;
	size_t off;
	uint8_t size;		/* 4 or 8 bytes */
	char conv;		/* 'x': %#llx, 'u': decimal, 'd': signed decimal */
};

#define ITEM(st, memb, label, conv) \
	{ label, offsetof(st, memb), sizeof(((st *)0)->memb), conv }

static const struct dump_item auxtrace_items[] = {
	ITEM(struct hwt_auxtrace, size, " size: ", 'x'),
	ITEM(struct hwt_auxtrace, offset, "  offset: ", 'x'),
	ITEM(struct hwt_auxtrace, reference, "  ref: ", 'x'),
	ITEM(struct hwt_auxtrace, idx, "  idx: ", 'u'),
	ITEM(struct hwt_auxtrace, tid, "  tid: ", 'd'),
	ITEM(struct hwt_auxtrace, cpu, "  cpu: ", 'd'),
	{ NULL },
};

static const struct dump_item aux_items[] = {
	ITEM(struct hwt_aux, aux_offset, " offset: ", 'x'),
	ITEM(struct hwt_aux, aux_size, " size: ", 'x'),
	ITEM(struct hwt_aux, flags, " flags: ", 'x'),
	{ NULL },
};

#undef ITEM

static void dump_items(struct out *o, const void *rec, const struct dump_item *it)
{
	for (; it->label; it++) {
		const char *p = (const char *)rec + it->off;
		uint64_t v;

		if (it->size == 8) {
			memcpy(&v, p, 8);
		} else {
			int32_t v32;

			memcpy(&v32, p, 4);	/* tid, cpu: -1 is "any" */
			v = it->conv == 'd' ? (uint64_t)(int64_t)v32 : (uint32_t)v32;
		}
		out__puts(o, it->label);
		if (it->conv == 'x')
			hex0x(o, v);
		else if (it->conv == 'u')
			out__u64(o, v);
		else
			out__s64(o, (int64_t)v);
	}
}

/* " offset: .. size: .. flags: .. [TOP]" */
static void aux_details(struct out *o, const struct hwt_aux *a)
{
	dump_items(o, a, aux_items);
	out__puts(o, " [");
	if (a->flags & PERF_AUX_FLAG_TRUNCATED)
		out__putc(o, 'T');
	if (a->flags & PERF_AUX_FLAG_OVERWRITE)
		out__putc(o, 'O');
	if (a->flags & PERF_AUX_FLAG_PARTIAL)
		out__putc(o, 'P');
	out__putc(o, ']');
}

/* perf_event__fprintf_mmap() / _mmap2(): " pid/tid: [start(len) @ pgoff ...]: prot name" */
static void mmap_details(struct out *o, const struct hwt_event *ev)
{
	struct hwt_mmap_view m;

	if (!hwt_event__mmap(ev, &m))
		return;
	out__printf(o, " %d/%d: [", (int32_t)m.pid, (int32_t)m.tid);
	hex0x(o, m.start);
	out__putc(o, '(');
	hex0x(o, m.len);
	out__puts(o, ") @ ");
	hex0x(o, m.pgoff);
	if (!m.mmap2) {
		out__printf(o, "]: %c ", ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x');
	} else {
		if (m.build_id) {
			out__puts(o, " <");
			for (uint8_t i = 0; i < m.build_id_size; i++)
				out__hex(o, m.build_id[i], 2);
			out__putc(o, '>');
		} else {
			out__printf(o, " %02x:%02x %llu %llu", m.maj, m.min,
				    (unsigned long long)m.ino,
				    (unsigned long long)m.ino_generation);
		}
		out__printf(o, "]: %c%c%c%c ", m.prot & 1 ? 'r' : '-', m.prot & 2 ? 'w' : '-',
			    m.prot & 4 ? 'x' : '-', m.flags & 1 ? 's' : 'p');
	}
	out__write(o, m.filename, m.name_len);
}


/*
 * deliver_sample_value(): perf hands a sample with read values to the tool
 * once per value of a known id that grew since that id's last sample.
 */
static bool value_delivered(struct dump_sink *s, uint64_t id, uint64_t value)
{
	size_t i;
	uint64_t period;

	if (!hwt_reader__attr_by_id(s->r, id))
		return false;
	for (i = 0; i < s->nids && s->ids[i].id != id; i++)
		;
	if (i == s->nids) {
		struct dump_id *v = realloc(s->ids, (s->nids + 1) * sizeof(*v));

		if (!v)
			return false;
		s->ids = v;
		s->ids[s->nids++] = (struct dump_id){ .id = id };
	}
	period = value - s->ids[i].last;
	s->ids[i].last = value;
	return period != 0;
}

/* perf_env__arch(): the file's arch as perf's register tables name it */
static const char *perf_arch(const struct hwt_reader *r)
{
	static struct utsname u;
	const char *a = hwt_reader__feature_string(r, HWT_FEAT_ARCH);

	if (!a) {	/* perf takes the machine it runs on */
		if (!u.machine[0] && uname(&u))
			return "";
		a = u.machine;
	}
	if (!strcmp(a, "x86_64") || (a[0] == 'i' && a[1] && a[2] == '8' && a[3] == '6'))
		return "x86";
	if (!strcmp(a, "aarch64") || !strcmp(a, "arm64"))
		return "arm64";
	return a;
}

/* perf_reg_name() for the arches here; perf's "unknown" for the others */
static void reg_name(char *buf, size_t size, const char *arch, unsigned id)
{
	static const char *const x86[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};

	if (!strcmp(arch, "x86") && id < 24)
		snprintf(buf, size, "%s", x86[id]);
	else if (!strcmp(arch, "x86") && id >= 32 && id < 64)	/* two ids per XMM */
		snprintf(buf, size, "XMM%u", (id - 32) / 2);
	else if (!strcmp(arch, "arm64") && id < 30)
		snprintf(buf, size, "x%u", id);
	else if (!strcmp(arch, "arm64") && (id == 30 || id == 31 || id == 32 || id == 46))
		snprintf(buf, size, "%s", id == 30 ? "lr" : id == 31 ? "sp" : id == 32 ? "pc" : "vg");
	else
		snprintf(buf, size, "unknown");
}

/* regs__printf() */
static void regs(struct dump_sink *s, const char *type, uint64_t abi, uint64_t mask,
		 const uint8_t *values)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	const char *arch = perf_arch(s->r);
	uint64_t i = 0;
	char name[16];

	out__printf(s->o, "\n... %s regs: mask 0x%llx ABI %s", type, (unsigned long long)mask,
		    abi < 3 ? abis[abi] : "unknown");
	for (unsigned id = 0; id < 64; id++) {
		if (!(mask >> id & 1))
			continue;
		reg_name(name, sizeof(name), arch, id);
		out__printf(s->o, "\n.... %-5s 0x%016llx", name,
			    (unsigned long long)hwt_sample_view__reg(values, i++));
	}
}

/* get_page_size_name(): "N/A" for 0, else divided by 1024 while above 2K, up to G */
static void page_size(struct out *o, const char *what, uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	out__printf(o, "\n .. %s page size: ", what);
	if (!n) {
		out__puts(o, "N/A");
		return;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	out__printf(o, "%llu%c", (unsigned long long)n, unit[i]);
}

/* the lines of dump_sample() between the callchain and the read values */
static void sample_fields(struct dump_sink *s, const struct hwt_event *ev,
			  const struct hwt_sample_view *sv)
{
	uint64_t st = ev->attr->attr.sample_type;
	struct out *o = s->o;

	if (sv->regs_user_abi)
		regs(s, "user", sv->regs_user_abi, sv->regs_user_mask, sv->regs_user);
	if (sv->regs_intr_abi)
		regs(s, "intr", sv->regs_intr_abi, sv->regs_intr_mask, sv->regs_intr);
	if (st & PERF_SAMPLE_STACK_USER)
		out__printf(o, "\n... ustack: size %llu, offset 0x%x",
			    (unsigned long long)sv->ustack_size, sv->ustack_offset);
	if (st & PERF_SAMPLE_WEIGHT_STRUCT)	/* var1_dw, then the u16s ins_lat, p_stage_cyc */
		out__printf(o, "\n... weight: %llu,0x%x,0x%x",
			    (unsigned long long)(uint32_t)sv->weight,
			    (unsigned)(uint16_t)(sv->weight >> 32),
			    (unsigned)(uint16_t)(sv->weight >> 48));
	else if (st & PERF_SAMPLE_WEIGHT)
		out__printf(o, "\n... weight: %llu", (unsigned long long)sv->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		out__printf(o, "\n . data_src: 0x%llx", (unsigned long long)sv->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		out__printf(o, "\n .. phys_addr: 0x%llx", (unsigned long long)sv->phys_addr);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		page_size(o, "data", sv->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		page_size(o, "code", sv->code_page_size);
	if (st & PERF_SAMPLE_TRANSACTION)
		out__printf(o, "\n... transaction: %llx", (unsigned long long)sv->transaction);
}

/* sample_read__printf() */
static void sample_read(struct out *o, const struct hwt_sample_view *sv)
{
	uint64_t rf = sv->read_format, id, value, lost;

	out__puts(o, "\n... sample_read:");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out__printf(o, "\n...... time enabled %016llx", (unsigned long long)sv->time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out__printf(o, "\n...... time running %016llx", (unsigned long long)sv->time_running);
	if (rf & PERF_FORMAT_GROUP)
		out__printf(o, "\n.... group nr %llu", (unsigned long long)sv->read_nr);
	for (uint64_t i = 0; i < sv->read_nr; i++) {
		hwt_sample_view__read_value(sv, i, &id, &value, &lost);
		out__printf(o, "\n..... id %016llx, value %016llx", (unsigned long long)id,
			    (unsigned long long)value);
		if (rf & PERF_FORMAT_LOST)
			out__printf(o, ", lost %llu", (unsigned long long)lost);
	}
}

/*
 * dump_sample(): the first line, the callchain and the read values; then
 * what perf report's machine__resolve() adds: the thread and the dso.
 */
static void sample_details(struct dump_sink *s, const struct hwt_event *ev)
{
	struct out *o = s->o;
	struct hwt_sample_view sv;

	if (!hwt_event__sample(ev, &sv))
		return;
	out__printf(o, "(IP, 0x%x): %d/%d: ", ev->hdr->misc, sv.pid, sv.tid);
	hex0x(o, sv.ip);
	out__puts(o, " period: ");
	out__u64(o, sv.period);
	out__puts(o, " addr: ");
	hex0x(o, sv.addr);
	if (sv.has_callchain) {
		out__printf(o, "\n... FP chain: nr:%llu", (unsigned long long)sv.callchain_nr);
		for (uint64_t i = 0; i < sv.callchain_nr; i++)
			out__printf(o, "\n..... %2d: %016llx", (int)i,
				    (unsigned long long)hwt_sample_view__callchain_ip(&sv, i));
	}
	if (sv.has_branch)
		dump_branch_stack(o, &sv, ev->attr->attr.branch_sample_type &
				  PERF_SAMPLE_BRANCH_CALL_STACK);
	if (sv.parsed_all)
		sample_fields(s, ev, &sv);
	if (!sv.has_read) {
		stats_count_sample(&s->samples, &s->nsamples, s->r, ev->attr);
		dump_machine__sample(&s->machine, o, &sv);
		return;
	}
	sample_read(o, &sv);
	for (uint64_t i = 0; i < sv.read_nr; i++) {
		uint64_t id, value, lost;

		hwt_sample_view__read_value(&sv, i, &id, &value, &lost);
		if (!value_delivered(s, id, value))
			continue;
		stats_count_sample(&s->samples, &s->nsamples, s->r, hwt_reader__attr_by_id(s->r, id));
		dump_machine__sample(&s->machine, o, &sv);
	}
}

/*
 * perf_event__fprintf_switch(), _namespaces(), _cgroup(), _ksymbol(), _bpf(),
 * _itrace_start(), _aux_output_hw_id(), the lines of LOST and LOST_SAMPLES
 * and report's stub for THROTTLE and UNTHROTTLE
 */
static void other_details(struct out *o, const struct hwt_event *ev)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint16_t misc = ev->hdr->misc, type, flags;
	uint64_t id, n, nfit, dev, ino, addr;
	int32_t pid, tid;
	uint32_t pid32, tid32;
	const char *str;
	uint32_t len32;
	size_t len;
	bool out;

	switch (ev->hdr->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		out = misc & PERF_RECORD_MISC_SWITCH_OUT;
		out__printf(o, " %s", !out ? "IN         " :
			    misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT ? "OUT preempt" :
			    "OUT        ");
		if (hwt_event__switch_cpu_wide(ev, &pid, &tid))
			out__printf(o, "  %s pid/tid: %5d/%-5d", out ? "next" : "prev", pid, tid);
		break;
	case PERF_RECORD_NAMESPACES:
		if (!hwt_event__namespaces(ev, &pid, &tid, &n, &nfit))
			break;
		out__printf(o, " %d/%d - nr_namespaces: %u\n\t\t[", pid, tid, (uint32_t)n);
		for (uint64_t i = 0; i < nfit; i++) {
			if (i && i % 4 == 0)
				out__puts(o, "\n\t\t ");
			hwt_event__namespace(ev, i, &dev, &ino);
			out__printf(o, "%u/%s: %llu/", (unsigned)i, i < 7 ? ns[i] : "UNKNOWN",
				    (unsigned long long)dev);
			hex0x(o, ino);
			out__puts(o, i + 1 != n ? ", " : "]");
		}
		break;
	case PERF_RECORD_CGROUP:
		if (hwt_event__cgroup(ev, &id, &str, &len)) {
			out__printf(o, " cgroup: %llu ", (unsigned long long)id);
			out__write(o, str, len);
		}
		break;
	case PERF_RECORD_LOST:
		if (hwt_event__lost(ev, &id, &n))
			out__printf(o, ": id:%llu: lost:%llu", (unsigned long long)id,
				    (unsigned long long)n);
		break;
	case PERF_RECORD_KSYMBOL:
		if (hwt_event__ksymbol(ev, &addr, &len32, &type, &flags, &str, &len)) {
			out__printf(o, " addr %llx len %u type %u flags 0x%x name ",
				    (unsigned long long)addr, len32, type, flags);
			out__write(o, str, len);
		}
		break;
	case PERF_RECORD_BPF_EVENT:
		if (hwt_event__bpf(ev, &type, &flags, &len32))
			out__printf(o, " type %u, flags %u, id %u", type, flags, len32);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:	/* perf report's stub */
		out__puts(o, ": unhandled!");
		break;
	case PERF_RECORD_ITRACE_START:
		if (hwt_event__itrace_start(ev, &pid32, &tid32))
			out__printf(o, " pid: %u tid: %u", pid32, tid32);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		if (hwt_event__first_u64(ev, &n)) {
			out__puts(o, " hw_id: ");
			hex0x(o, n);
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		/* the sample id from the record's trailer; perf's -1 without one */
		id = ev->sid.valid & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? ev->sid.id :
									     UINT64_MAX;
		if (hwt_event__first_u64(ev, &n))
			out__printf(o, ": id:%llu: lost samples :%llu", (unsigned long long)id,
				    (unsigned long long)n);
		break;
	default:
		break;
	}
}

/*
 * The text perf prints after a record's name (perf_event__fprintf_*() and
 * dump_sample()) for the kernel records a recording holds; the records that
 * name threads and map files update the machine the samples are resolved in.
 */
static void kernel_details(struct dump_sink *s, const struct hwt_event *ev)
{
	struct out *o = s->o;
	uint32_t pid, ppid, tid, ptid;
	const char *comm;
	size_t len;

	switch (ev->hdr->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		mmap_details(o, ev);
		break;
	case PERF_RECORD_COMM:
		if (!hwt_event__comm(ev, &pid, &tid, &comm, &len))
			break;
		out__puts(o, ev->hdr->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec: " : ": ");
		out__write(o, comm, len);
		out__printf(o, ":%d/%d", (int32_t)pid, (int32_t)tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (hwt_event__task(ev, &pid, &ppid, &tid, &ptid))
			out__printf(o, "(%d:%d):(%d:%d)", (int32_t)pid, (int32_t)tid,
				    (int32_t)ppid, (int32_t)ptid);
		break;
	case PERF_RECORD_SAMPLE:
		sample_details(s, ev);
		break;
	default:
		other_details(o, ev);
		break;
	}
	dump_machine__event(&s->machine, o, ev);
}

/* cpu_map__snprint(): runs of consecutive cpus as "a-b", joined by "," */
static void print_cpus(struct out *o, const int32_t *cpus, size_t n)
{
	size_t start = 0;

	for (size_t i = 1; i <= n; i++) {
		if (i < n && (int64_t)cpus[i] - cpus[start] == (int64_t)(i - start))
			continue;
		out__printf(o, "%s%d", start ? "," : "", cpus[start]);
		if (i - 1 > start)
			out__printf(o, "-%d", cpus[i - 1]);
		start = i;
	}
}

/* cpu_map__new_data() and cpu_map__fprintf(), but for its newline; false when unreadable */
static bool cpu_list(struct out *o, const uint8_t *data, size_t len)
{
	long n = hwt_cpu_map_data__cpus(data, len, NULL, 0);
	int32_t *cpus;

	if (n < 0)
		return false;
	cpus = malloc((size_t)n * sizeof(*cpus) + 1);
	if (!cpus)
		return false;
	hwt_cpu_map_data__cpus(data, len, cpus, (size_t)n);
	print_cpus(o, cpus, (size_t)n);
	free(cpus);
	return true;
}

/*
 * What perf 6.1's handlers print after a user record's name (session.c,
 * header.c, event.c): the stubs' ": unhandled!", ID_INDEX's entries,
 * THREAD_MAP's threads, CPU_MAP's cpus, EVENT_UPDATE's value.
 */
static void user_details(struct out *o, const struct hwt_event *ev)
{
	struct hwt_id_index_entry e;
	const uint8_t *val;
	uint64_t n, type, id;
	size_t len;
	double scale;

	switch (ev->hdr->type) {
	case HWT_REC_FINISHED_INIT:
		out__puts(o, ": unhandled!");
		break;
	case HWT_REC_CPU_MAP:
		out__puts(o, ": ");
		if (!hwt_event__cpu_map(ev, &val, &len) || !cpu_list(o, val, len))
			out__puts(o, "failed to get cpumap from event");
		out__puts(o, "\n: unhandled!");
		break;
	case HWT_REC_ID_INDEX:
		n = hwt_event__id_index_nr(ev);
		out__printf(o, " nr: %llu", (unsigned long long)n);
		for (uint64_t i = 0; i < n; i++) {
			hwt_event__id_index_entry(ev, i, &e);
			out__printf(o, "\n ... id: %llu  idx: %llu  cpu: %lld  tid: %lld",
				    (unsigned long long)e.id, (unsigned long long)e.idx,
				    (long long)e.cpu, (long long)e.tid);
			if (e.has_e2)
				out__printf(o, "  machine_pid: %lld  vcpu: %llu",
					    (long long)e.machine_pid, (unsigned long long)e.vcpu);
		}
		break;
	case HWT_REC_THREAD_MAP:
		n = hwt_event__thread_map_nr(ev);
		out__printf(o, " nr: %llu thread%s: ", (unsigned long long)n, n > 1 ? "s" : "");
		for (uint64_t i = 0; i < n; i++)
			out__printf(o, "%s%lld", i ? ", " : "",
				    (long long)hwt_event__thread_map_pid(ev, i));
		out__puts(o, "\n: unhandled!");
		break;
	case HWT_REC_EVENT_UPDATE:
		if (!hwt_event__event_update(ev, &type, &id, &val, &len))
			break;
		out__printf(o, "\n... id:    %llu\n", (unsigned long long)id);
		if (type == 0 || type == 2) {		/* unit, name */
			out__puts(o, type ? "... name:  " : "... unit:  ");
			out__write(o, val, strnlen((const char *)val, len));
		} else if (type == 1 && len >= sizeof(scale)) {
			memcpy(&scale, val, sizeof(scale));
			out__printf(o, "... scale: %f", scale);
		} else if (type == 3) {
			out__puts(o, "... ");
			if (!cpu_list(o, val, len))
				out__puts(o, "failed to get cpus");
		} else {
			out__puts(o, "... unknown type");
		}
		break;
	default:
		break;
	}
}

/* perf's handler prints nothing after these: the next record's "\n" ends the line */
static bool no_newline(uint32_t type)
{
	return type == HWT_REC_HEADER_ATTR || type == HWT_REC_HEADER_FEATURE ||
	       type == HWT_REC_HEADER_BUILD_ID;
}

static void details(struct dump_sink *s, const struct hwt_event *ev)
{
	struct out *o = s->o;

	switch (ev->hdr->type) {
	case HWT_REC_AUXTRACE_INFO: {
		const struct hwt_auxtrace_info *in = (const void *)ev->hdr;
		uint32_t npriv;

		if (ev->hdr->size < sizeof(*in))
			break;
		npriv = (ev->hdr->size - sizeof(*in)) / 8;
		out__puts(o, " type: ");
		out__u64(o, in->type);
		out__putc(o, '\n');
		if (npriv) {
			out__puts(o, "  PMU Type           ");
			out__s64(o, (int64_t)in->priv[HWT_AUXTRACE_PRIV_PMU]);
		}
		for (uint32_t i = HWT_AUXTRACE_PRIV_PMU + 1; i < npriv; i++) {
			out__printf(o, "\n  priv[%u]%*s", i, i < 10 ? 11 : 10, "");
			hex0x(o, in->priv[i]);
		}
		break;
	}
	case HWT_REC_AUXTRACE:
		if (ev->hdr->size >= sizeof(struct hwt_auxtrace))
			dump_items(o, ev->hdr, auxtrace_items);
		break;
	case PERF_RECORD_AUX:
		if (ev->hdr->size >= sizeof(struct hwt_aux))
			aux_details(o, (const void *)ev->hdr);
		break;
	default:
		if (ev->hdr->type < HWT_REC_HEADER_ATTR)
			kernel_details(s, ev);
		else
			user_details(o, ev);
		break;
	}
}

/* dump_event() of perf's session.c, and the record's details */
static void print_event(struct dump_sink *s, const struct hwt_event *ev, bool pipe,
			bool no_attr_yet)
{
	struct out *o = s->o;

	out__putc(o, '\n');
	hex0x(o, ev->dump_offset);	/* the first pipe record is "0@pipe" */
	out__putc(o, '@');
	out__puts(o, pipe ? "pipe" : s->path);
	out__puts(o, " [0x");
	out__hex(o, ev->hdr->size, 0);
	out__puts(o, "]: event: ");
	out__u64(o, ev->hdr->type);
	out__puts(o, "\n.\n. ... raw event: size ");
	out__u64(o, ev->hdr->size);
	out__puts(o, " bytes\n");
	hexdump(o, (const uint8_t *)ev->hdr, ev->hdr->size);
	out__putc(o, '\n');
	if (no_attr_yet)	/* perf's evlist is still empty: no sample_id_all */
		out__puts(o, "-1 -1 ");
	else
		tstamp(s, ev);
	hex0x(o, ev->dump_offset);
	out__puts(o, " [0x");
	out__hex(o, ev->hdr->size, 0);
	out__puts(o, "]: PERF_RECORD_");
	out__puts(o, perf_event_name(ev->hdr->type));
	details(s, ev);
	if (!no_newline(ev->hdr->type))
		out__putc(o, '\n');
}

/* a kernel record held for its time: its copy and what print_event() reads */
struct dump_queued {
	uint64_t time;
	struct hwt_event ev;
	uint8_t *rec;
};

/* ordered_events' do_flush(): deliver the held records up to @limit */
static void flush_upto(struct dump_sink *s, uint64_t limit, bool pipe)
{
	size_t i;

	for (i = 0; i < s->nq && s->q[i].time <= limit; i++) {
		print_event(s, &s->q[i].ev, pipe, false);
		free(s->q[i].rec);
	}
	if (!i)
		return;	/* nothing held may be no queue at all */
	memmove(s->q, s->q + i, (s->nq - i) * sizeof(*s->q));
	s->nq -= i;
}

/* ordered_events__queue(): after every held record of the same or an earlier time */
static bool queue(struct dump_sink *s, const struct hwt_event *ev, uint64_t time)
{
	struct dump_queued *q;
	size_t at = s->nq;

	if (s->nq == s->capq) {
		size_t cap = s->capq ? s->capq * 2 : 256;

		q = realloc(s->q, cap * sizeof(*q));
		if (!q)
			return false;
		s->q = q;
		s->capq = cap;
	}
	while (at && s->q[at - 1].time > time)
		at--;
	q = &s->q[at];
	memmove(q + 1, q, (s->nq - at) * sizeof(*q));
	q->rec = malloc(ev->hdr->size);
	if (!q->rec) {
		memmove(q, q + 1, (s->nq - at) * sizeof(*q));
		return false;
	}
	memcpy(q->rec, ev->hdr, ev->hdr->size);
	q->time = time;
	q->ev = *ev;
	q->ev.hdr = (const void *)q->rec;
	if (at == s->nq)	/* perf moves max_timestamp only when appending */
		s->max_ts = time;
	s->nq++;
	return true;
}

/* what perf report prints first unless -q, --header or --header-only */
static void heading(struct dump_sink *s)
{
	if (s->started)
		return;
	s->started = true;
	if (!s->quiet)
		out__puts(s->o, "# To display the perf.data header info, "
			  "please use --header/--header-only options.\n#\n");
}

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct dump_sink *s = ctx;
	uint32_t type = ev->hdr->type;
	bool pipe = hwt_reader__is_pipe(r);

	if (!s->started) {	/* machine__is(machine, "x86_64"): the file's raw arch */
		const char *arch = hwt_reader__feature_string(r, HWT_FEAT_ARCH);
		struct utsname u;

		s->machine.x86_64 = arch ? !strcmp(arch, "x86_64") :
				    !uname(&u) && !strcmp(u.machine, "x86_64");
	}
	heading(s);
	s->r = r;

	if (!s->have_attr && hwt_reader__nr_attrs(r)) {
		const struct hwt_attr *a = hwt_reader__attr(r, 0);

		s->sample_type = a->attr.sample_type;
		s->sample_id_all = a->attr.sample_id_all;
		s->have_attr = true;
	}
	/* perf inflates COMPRESSED records and dumps only what was inside */
	if (type == HWT_REC_COMPRESSED)
		return;
	/* perf queues kernel records with a time (0 and -1 are none) */
	if (!s->file_order && type < HWT_REC_HEADER_ATTR && ev->sid.valid & PERF_SAMPLE_TIME &&
	    ev->sid.time && ev->sid.time != UINT64_MAX && queue(s, ev, ev->sid.time))
		return;
	print_event(s, ev, pipe, type == HWT_REC_HEADER_ATTR && hwt_reader__nr_attrs(r) <= 1);
	if (type == HWT_REC_FINISHED_ROUND && !s->file_order) {
		/* perf_event__process_finished_round(): the flush, no line of its own */
		if (s->next_flush)
			flush_upto(s, s->next_flush, pipe);
		s->next_flush = s->max_ts;
	}
}

static void on_chunk(void *ctx, const struct hwt_stream *st, const struct hwt_chunk *c,
		     uint64_t total)
{
	struct dump_sink *s = ctx;
	uint32_t align = st->ops && st->ops->dump_align ? st->ops->dump_align : 1;

	if (!st->ops)
		return;
	out__puts(s->o, ".\n. ... ");
	out__puts(s->o, st->ops->dump_title);
	out__puts(s->o, " data: size ");
	out__u64(s->o, total / align * align);
	out__puts(s->o, " bytes\n");
}

void dump_record(struct out *o, const struct hwt_record *rec)
{
	/* types without a dump_fmt: the script text line */
	static struct field_views text = { .style = FS_TEXT };

	if (rec->type->kind == HWT_RK_SUMMARY)
		return;
	if (!field_fmt__dump(o, rec))
		field_fmt__record(o, &text, rec);
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct dump_sink *s = ctx;

	dump_record(s->o, rec);
}

static void on_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		   const struct hwt_reader *r)
{
	struct dump_sink *s = ctx;

	heading(s);
	if (r)
		flush_upto(s, UINT64_MAX, hwt_reader__is_pipe(r));
	free(s->q);
	s->q = NULL;
	dump_machine__free(&s->machine);
	if (r) {
		/*
		 * perf's stats: stats_print() starts with the blank line perf
		 * prints before them; the byte totals follow (run.c)
		 */
		stats_print(s->o, hwt_reader__stats(r), NULL,
			    hwt_reader__has_feature(r, HWT_FEAT_AUXTRACE));
		stats_print_events(s->o, r, s->samples, s->nsamples);
	}
	free(s->samples);
	s->samples = NULL;
	free(s->ids);
	s->ids = NULL;
}

void dump_sink__init(struct dump_sink *s, struct out *o, const char *path,
		     struct hwt_bytes *bytes, struct hwt_sink *sink)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->path = path;
	s->bytes = bytes;
	*sink = (struct hwt_sink){ .event = on_event, .chunk = on_chunk, .record = on_record,
				   .end = on_end, .ctx = s };
}
