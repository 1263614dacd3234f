// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_record.c - `perf hwtrace record`: record events, AUX PMUs included,
 * into a perf.data that stock perf parses (design.rst 3, 4, 6).
 *
 * Stock perf maps an AUX area only for the PMUs it knows, so this recorder
 * does the perf_event_open/mmap work itself: per-CPU events, a data ring and
 * (for AUX PMUs) an AUX area per event fd, a poll loop copying ring records
 * and AUX bytes (as PERF_RECORD_AUXTRACE) into the file, AUXTRACE_INFO first.
 * Stops on SIGINT/SIGTERM or when the command exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "commands.h"
#include "out.h"
#include "parse_options.h"
#include "pmu/pmu_internal.h"
#include "record_state.h"

struct rec_opts {
	const char *events[REC_MAX_EVENTS];
	int nevents;
	bool all_cpus;
	const char *cpu_list;
	unsigned int data_pages, aux_pages;
	const char *output;
	const char *sysfs;
	const char *proc;
	bool quiet;
	char **cmd;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
}

static const char *const record_usage[] = {
	"-e EVENT [-e EVENT] [-a | -C CPUS] [-m DATA,AUX] [-o FILE] [--sysfs DIR] [--proc DIR] "
	"[-q] "
	"[-- CMD [ARGS]]",
	NULL,
};

/* "16" pages, or "64K"/"4M" bytes rounded up to a power-of-two page count */
static int parse_pages(const char *s, size_t len, unsigned int *pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned long long v, bytes;
	unsigned int shift;
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (end == buf || errno)
		return -1;
	switch (*end) {
	case 0:
		if (!v || v > (1u << 24) || (v & (v - 1)))
			return -1;
		*pages = (unsigned int)v;
		return 0;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	if (end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "b"))
		return -1;
	/* at most 2^24 pages of at most 64 KiB: checked before the shift can wrap */
	if (!v || v > (1ull << 40) >> shift)
		return -1;
	bytes = v << shift;
	v = 1;
	while (v * pg < bytes)
		v <<= 1;
	if (v > (1u << 24))
		return -1;
	*pages = (unsigned int)v;
	return 0;
}

static int parse_mmap(const char *arg, struct rec_opts *o)
{
	const char *comma = strchr(arg, ',');
	size_t dlen = comma ? (size_t)(comma - arg) : strlen(arg);

	if (dlen && parse_pages(arg, dlen, &o->data_pages))
		return -1;
	if (comma && parse_pages(comma + 1, strlen(comma + 1), &o->aux_pages))
		return -1;
	return 0;
}

static int mmap_opt(const struct parse_opt *opt, const char *val, int unset)
{
	(void)unset;
	if (parse_mmap(val, opt->value))
		return usage_error("record", "bad -m '%s': want DATA_PAGES[,AUX_PAGES], each a "
				   "power of two or a size like 4M", val);
	return 0;
}

/* Returns 0, PARSE_OPT_DONE (help shown) or EXIT_USAGE. */
static int parse_opts(int argc, char **argv, struct rec_opts *o)
{
	const struct parse_opt opts[] = {
		OPT_EVENT_LIST('e', "event", o->events, &o->nevents, REC_MAX_EVENTS, "EVENT",
				"pmu/term=value,.../ (sysfs format terms) or a generic name "
				"(cpu-clock, task-clock, cycles, ...)"),
		OPT_BOOLEAN('a', "all-cpus", &o->all_cpus, "system-wide on every online CPU"),
		OPT_STRING('C', "cpu", &o->cpu_list, "CPUS", "system-wide on these CPUs (0-3,8)"),
		OPT_CALLBACK('m', "mmap-pages", o, "DATA,AUX",
			     "data ring and AUX area pages per CPU (powers of two), or sizes "
			     "with a K/M/G suffix", mmap_opt),
		OPT_STRING('o', "output", &o->output, "FILE",
			   "output (default perf.data; - for pipe mode on stdout)"),
		OPT_STRING(0, "sysfs", &o->sysfs, "DIR", "sysfs root for PMU descriptions "
			   "(default /sys)"),
		OPT_STRING(0, "proc", &o->proc, "DIR", "procfs root for the processes running "
			   "at the start of a system-wide recording (default /proc)"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "no summary on stderr"),
		OPT_END(),
	};
	const struct parse_cmd cmd = { "record", record_usage, command__summary("record"), opts };
	/* parse a copy: argv itself goes into the file's cmdline (static: the
	 * command's argv lives as long as the recording) */
	static char **args;
	int n;

	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return EXIT_INPUT_ERROR;
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	n = parse_options(argc, args, &cmd, PARSE_OPT_STOP_AT_NON_OPTION);
	if (n < 0) {
		free(args);
		return n == PARSE_OPT_DONE ? n : EXIT_USAGE;
	}
	if (n)
		o->cmd = args;	/* lives as long as the recording */
	else
		free(args);
	if (!o->nevents)
		return usage_error("record", "no event: give -e EVENT (try `perf hwtrace list`)");
	if (o->all_cpus && o->cpu_list)
		return usage_error("record", "-a and -C exclude each other");
	return 0;
}

/*
 * Fork @cmd stopped on a pipe so events can be opened on its pid before it
 * runs; writing to *go lets it exec.
 */
static pid_t start_cmd(char **cmd, bool stdout_is_data, int *go)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		char c;

		close(p[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		/* the perf.data stream owns stdout in pipe mode */
		if (stdout_is_data)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(cmd[0], cmd);
		fprintf(stderr, "perf hwtrace record: cannot run '%s': %s\n", cmd[0],
			strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* The CPUs @ev is opened on; *per_task says whether it follows the command. */
static int event_cpus(const struct rec_opts *o, const struct rec_event *ev, int *cpus,
		      bool *per_task)
{
	int n = -1;

	*per_task = false;
	if (o->cpu_list) {
		n = hwt_cpulist__parse(o->cpu_list, cpus, REC_MAX_CPUS);
		if (n <= 0) {
			usage_error("record", "bad CPU list '%s'", o->cpu_list);
			return -1;
		}
		return n;
	}
	/* uncore-style and AUX PMUs count on the CPUs of their cpumask */
	if (ev->pmu && *hwt_pmu__cpumask(ev->pmu))
		n = hwt_pmu__cpus(ev->pmu, cpus, REC_MAX_CPUS);
	if (n > 0)
		return n;
	if (!o->all_cpus && o->cmd && ev->aux == REC_AUX_NONE)
		*per_task = true;
	return hwt_cpulist__online(o->sysfs, cpus, REC_MAX_CPUS);
}

static void print_summary(const struct rec_opts *o, const struct rec_stats *st, int nrings)
{
	if (o->quiet)
		return;
	fprintf(stderr, "[ perf hwtrace record: %llu records from %d rings, %llu AUXTRACE "
		"records (%llu bytes of AUX data) written to %s ]\n",
		(unsigned long long)st->records, nrings,
		(unsigned long long)st->auxtrace_records, (unsigned long long)st->aux_bytes,
		!strcmp(o->output, "-") ? "stdout" : o->output);
	fprintf(stderr, "%llu AUX records truncated, %llu bytes lost\n",
		(unsigned long long)st->aux_truncated, (unsigned long long)st->aux_lost_bytes);
	fprintf(stderr, "%llu PERF_RECORD_AUX: %llu partial, %llu collision; %llu PERF_RECORD_LOST "
		"(%llu events lost), %llu samples lost\n", (unsigned long long)st->aux_records,
		(unsigned long long)st->aux_partial, (unsigned long long)st->aux_collision,
		(unsigned long long)st->lost_records, (unsigned long long)st->lost_events,
		(unsigned long long)st->lost_samples);
	if (st->aux_gap_bytes)
		fprintf(stderr, "%llu bytes of the AUX area were in no PERF_RECORD_AUX (driver "
			"padding) and were not copied\n", (unsigned long long)st->aux_gap_bytes);
	if (st->reenabled)
		fprintf(stderr, "the device lost data %llu times (TRUNCATED): each time the "
			"PMU stopped until re-enabled, and that gap is missing; a larger "
			"-m ,AUX_PAGES loses less\n",
			(unsigned long long)st->reenabled);
	if (st->bad_records)
		fprintf(stderr, "%llu ring reads had a corrupt data_head or record size; the "
			"rest of that ring read was dropped\n", (unsigned long long)st->bad_records);
	if (st->aux_bad_records)
		fprintf(stderr, "%llu PERF_RECORD_AUX named bytes outside the AUX area's window; "
			"they were not copied\n", (unsigned long long)st->aux_bad_records);
}

struct rec_session {
	struct rec_opts o;
	struct rec_event *ev;
	struct rec_ring *rings;
	struct pollfd *pfd;
	int nrings;
	struct hwt_writer *w;
	pid_t child;
	int go;
	bool cmd_failed;
	struct rec_stats st;
	struct rec_dsos dsos;		/* files mapped executable, for the build ids */
};

/* Map a ring per fd; the AUX area for AUX events (tried for unknown PMUs). */
static int map_rings(struct rec_session *s)
{
	int n = 0;

	for (int e = 0; e < s->o.nevents; e++)
		n += s->ev[e].nfd;
	s->rings = calloc((size_t)n, sizeof(*s->rings));
	s->pfd = calloc((size_t)n, sizeof(*s->pfd));
	if (!s->rings || !s->pfd)
		return -1;
	for (int e = 0; e < s->o.nevents; e++) {
		struct rec_event *ev = &s->ev[e];

		for (int i = 0; i < ev->nfd; i++) {
			struct rec_ring *r = &s->rings[s->nrings];
			bool aux = ev->aux != REC_AUX_NONE || ev->maybe_aux;

			r->fd = ev->fds[i];
			r->cpu = ev->cpus[i];
			r->idx = (uint32_t)s->nrings;
			r->ev = ev;
			s->pfd[s->nrings] = (struct pollfd){ .fd = r->fd, .events = POLLIN };
			s->nrings++;
			if (!rec_ring__mmap(r, s->o.data_pages, aux ? s->o.aux_pages : 0))
				continue;
			if (r->up && ev->maybe_aux &&
			    (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOTSUP)) {
				ev->maybe_aux = false;	/* not an AUX PMU after all */
				continue;
			}
			fprintf(stderr, "perf hwtrace record: event '%s' cpu %d: cannot mmap %s "
				"(%u pages): %s%s\n", ev->name, r->cpu, r->up ? "the AUX area" :
				"the ring buffer", r->up ? s->o.aux_pages : s->o.data_pages + 1,
				strerror(errno), errno == EPERM || errno == ENOMEM ?
				" (over perf_event_mlock_kb? try a smaller -m)" : "");
			return -1;
		}
		if (ev->maybe_aux)
			ev->aux = REC_AUX_OTHER;
	}
	return 0;
}

/*
 * System-wide: COMM/MMAP2 of the processes already running, as perf record
 * -a synthesizes them; the files they map go into the build ids at the end.
 */
static int write_running(struct rec_session *s)
{
	return rec_synth__threads(s->w, s->o.proc, s->ev[0].attr.sample_type, &s->dsos);
}

/* the command the events follow (per task), or -1 */
static pid_t followed(const struct rec_session *s)
{
	for (int e = 0; e < s->o.nevents; e++)
		if (s->ev[e].pid > 0)
			return s->ev[e].pid;
	return -1;
}

/*
 * The kernel text's MMAP first, as perf: kernel samples resolve to
 * [kernel.kallsyms].  Then the task and CPU maps, the running processes,
 * and FINISHED_INIT: the ring records follow.
 */
static int write_synth(struct rec_session *s)
{
	int ret = rec_synth__kernel(s->w, s->o.proc, s->ev[0].attr.sample_type);

	if (!ret)
		ret = rec_maps__threads_cpus(s->w, s->ev, s->o.nevents, followed(s));
	/* a followed command is named by the kernel's COMM at its exec */
	if (!ret && !s->child)
		ret = write_running(s);
	return ret ? ret : rec_maps__finished_init(s->w);
}

/*
 * Attrs with their ids, features, ID_INDEX, AUXTRACE_INFO, then what runs
 * already (system-wide): before any ring record.
 */
static int write_head(struct rec_session *s, int argc, char **argv)
{
	uint64_t buf[2 + 32];
	char err[512];
	int naux = 0;

	for (int e = 0; e < s->o.nevents; e++) {
		struct hwt_writer_attr a = {
			.attr = s->ev[e].attr,
			.ids = s->ev[e].ids,
			.nr_ids = (uint32_t)s->ev[e].nfd,
			.name = s->ev[e].name,
		};

		if (hwt_writer__add_attr(s->w, &a) < 0)
			return -1;
	}
	if (rec_features__set(s->w, s->o.sysfs, argc, argv) < 0)
		return -1;
	/* before AUXTRACE_INFO, as perf: each id's ring, CPU and task */
	if (rec_maps__id_index(s->w, s->ev, s->o.nevents) < 0)
		return -1;
	for (int e = 0; e < s->o.nevents; e++) {
		int n;

		if (s->ev[e].aux == REC_AUX_NONE)
			continue;
		n = rec_aux__info(s->o.sysfs, &s->ev[e], buf, sizeof(buf) / 8, err, sizeof(err));
		if (n < 0) {
			fprintf(stderr, "perf hwtrace record: %s\n", err);
			return -2;
		}
		if (!n) {
			fprintf(stderr, "perf hwtrace record: warning: no AUXTRACE_INFO of "
				"ours for '%s': AUX data is recorded, but no decoder will "
				"claim it\n", s->ev[e].name);
			continue;
		}
		if (naux++)
			continue;	/* one AUX stream per file (see the check in open) */
		if (hwt_writer__write(s->w, (struct perf_event_header *)buf) < 0)
			return -1;
	}
	return write_synth(s);
}

static long drain_all(struct rec_session *s)
{
	struct perf_event_header round = { .type = HWT_REC_FINISHED_ROUND, .size = 8 };
	long total = 0;

	for (int i = 0; i < s->nrings; i++) {
		long n = rec_ring__drain(&s->rings[i], s->w, &s->st, &s->dsos);

		if (n < 0)
			return -1;
		total += n;
	}
	/* lets perf flush its ordered queue up to here, as perf record does */
	if (total && hwt_writer__write(s->w, &round) < 0)
		return -1;
	return total;
}

static int record_loop(struct rec_session *s)
{
	bool child_done = false;	/* without a command: until a signal */

	while (!stop_requested && !child_done) {
		long n = drain_all(s);

		if (n < 0)
			return -1;
		if (s->child > 0) {
			int status;

			if (waitpid(s->child, &status, WNOHANG) == s->child) {
				child_done = true;
				s->child = 0;
				s->cmd_failed = WIFEXITED(status) && WEXITSTATUS(status) == 127;
			}
		}
		if (!n && !child_done)
			poll(s->pfd, (nfds_t)s->nrings, 100);
	}
	for (int e = 0; e < s->o.nevents; e++)
		rec_event__enable(&s->ev[e], false);
	/* the last AUX data is flushed into the area when the PMU stops */
	return drain_all(s) < 0 ? -1 : 0;
}

static int open_events(struct rec_session *s)
{
	static int cpus[REC_MAX_CPUS];
	bool per_task;
	int naux = 0;

	for (int e = 0; e < s->o.nevents; e++) {
		if (rec_event__setup(&s->ev[e], s->o.sysfs, s->o.events[e]))
			return EXIT_USAGE;
		naux += s->ev[e].aux != REC_AUX_NONE;
	}
	if (naux > 1)
		return usage_error("record", "one AUX PMU event per recording");
	/*
	 * The first plain event tracks task names and executable mappings, as
	 * perf's tracking event: processes started during the recording get
	 * their COMM and MMAP2 (dso names, build ids) from the kernel.
	 */
	for (int e = 0; e < s->o.nevents; e++)
		if (s->ev[e].aux == REC_AUX_NONE) {
			s->ev[e].attr.mmap = 1;
			s->ev[e].attr.mmap2 = 1;
			s->ev[e].attr.comm = 1;
			s->ev[e].attr.comm_exec = 1;
			s->ev[e].attr.task = 1;
			break;
		}
	for (int e = 0; e < s->o.nevents; e++) {
		int n = event_cpus(&s->o, &s->ev[e], cpus, &per_task);

		if (n < 0)
			return EXIT_USAGE;
		if (per_task && !s->child) {
			s->child = start_cmd(s->o.cmd, !strcmp(s->o.output, "-"), &s->go);
			if (s->child < 0) {
				fprintf(stderr, "perf hwtrace record: fork: %s\n", strerror(errno));
				s->child = 0;
				return 1;
			}
		}
		if (rec_event__open(&s->ev[e], cpus, n, per_task ? s->child : -1))
			return 1;
	}
	return 0;
}

static void cleanup(struct rec_session *s)
{
	for (int i = 0; i < s->nrings; i++)
		rec_ring__unmap(&s->rings[i]);
	for (int e = 0; e < s->o.nevents; e++) {
		rec_event__close(&s->ev[e]);
		hwt_pmu__delete(s->ev[e].pmu);
	}
	if (s->go >= 0) {
		/* the command never ran: EOF on the go pipe makes it exit */
		close(s->go);
	} else if (s->child > 0) {
		kill(s->child, SIGTERM);
	}
	if (s->child > 0)
		waitpid(s->child, NULL, 0);
	free(s->rings);
	free(s->pfd);
	free(s->ev);
	rec_dsos__free(&s->dsos);
}

/* Run @cmd (if any, not yet started) for a system-wide recording. */
static int release_cmd(struct rec_session *s)
{
	if (s->o.cmd && !s->child) {
		s->child = start_cmd(s->o.cmd, !strcmp(s->o.output, "-"), &s->go);
		if (s->child < 0) {
			fprintf(stderr, "perf hwtrace record: fork: %s\n", strerror(errno));
			s->child = 0;
			return -1;
		}
	}
	if (s->go >= 0) {
		if (write(s->go, "g", 1) != 1)
			return -1;
		close(s->go);
		s->go = -1;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct rec_session s = { .go = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	int ret;

	s.o.output = "perf.data";
	s.o.sysfs = "/sys";
	s.o.proc = "/proc";
	s.o.data_pages = 128;
	s.o.aux_pages = geteuid() ? 32 : 1024;
	ret = parse_opts(argc, argv, &s.o);
	if (ret)
		return ret == PARSE_OPT_DONE ? 0 : ret;
	s.ev = calloc((size_t)s.o.nevents, sizeof(*s.ev));
	if (!s.ev)
		return 1;
	/* no SA_RESTART: poll() must return at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	ret = open_events(&s);
	if (ret)
		goto out;
	ret = 1;
	if (map_rings(&s))
		goto out;
	s.w = hwt_writer__new(s.o.output, false);
	if (!s.w) {
		fprintf(stderr, "perf hwtrace record: %s: %s\n", s.o.output, strerror(errno));
		goto out;
	}
	ret = write_head(&s, argc, argv);
	if (ret) {
		if (ret == -1)
			out__path_failed(s.o.output, errno);
		ret = 1;
		hwt_writer__discard(s.w);	/* the old file stays */
		goto out;
	}
	for (int e = 0; e < s.o.nevents; e++)
		if (!s.ev[e].attr.enable_on_exec)
			rec_event__enable(&s.ev[e], true);
	ret = 0;
	/*
	 * The build ids of the kernel, its modules and every file mapped
	 * executable (as perf record --buildid-all): a feature, or in pipe
	 * mode HEADER_BUILD_ID records after the last sample.
	 */
	if (release_cmd(&s) || record_loop(&s) ||
	    rec_buildid__set(s.w, s.o.sysfs, &s.dsos, !strcmp(s.o.output, "-"))) {
		out__path_failed(s.o.output, errno);
		ret = 1;
	}
	if (hwt_writer__delete(s.w) < 0) {
		out__path_failed(s.o.output, errno);
		ret = 1;
	}
	print_summary(&s.o, &s.st, s.nrings);
	if (s.cmd_failed)
		ret = 1;
out:
	cleanup(&s);
	return ret;
}
