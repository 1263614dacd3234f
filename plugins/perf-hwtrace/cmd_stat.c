// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stat.c - `perf hwtrace stat`: perf stat for generic and sysfs PMU events.
 *
 * Counts through libperf (perf_evsel__open/__read, built from the kernel's
 * tools/lib/perf: Debian 12 does not package it).  System-wide (-a): one
 * counter per CPU of the PMU's cpumask (all online CPUs when it has none).
 * Otherwise the command after "--" is counted (inherit + enable_on_exec),
 * which counting-only PMUs such as cxl_pmu refuse: we say so before the
 * kernel answers with a bare EOPNOTSUPP.  The counters of an event are summed
 * and scaled by enabled/running as perf stat's default aggregation does;
 * stat_print.c prints them in perf's layout.  Without -e, perf's default
 * events.  An event the kernel does not have here is <not supported>.
 *
 * The counts go to stderr, as perf stat writes them, or with -o FILE to
 * FILE after perf's "# started on DATE" line, through hwt_outfile: the file
 * appears whole when counting ends.
 *
 * The exit status is the command's, as with perf stat: its exit code, or 0
 * with "CMD: <signal>" on stderr when a signal ended it; 1 when it could not
 * be started or counting failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "hwtrace/perf_data.h"
#include "commands.h"
#include "out.h"
#include "parse_options.h"
#include "pmu/pmu_internal.h"
#include "stat_event.h"
#include "stat_print.h"

#define MAX_EVENTS 64

static volatile sig_atomic_t stat_stop;

static void stat_signal(int sig)
{
	stat_stop = 1;
}

/* SIGCHLD only interrupts the -I sleep, to print the last partial interval */
static void stat_sigchld(int sig)
{
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* libperf's own messages: its warnings and errors, under our name */
__attribute__((format(printf, 2, 0)))
static int libperf_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBPERF_WARN)
		return 0;
	fprintf(stderr, "perf hwtrace stat: libperf: ");
	return vfprintf(stderr, fmt, ap);
}

/*
 * The unit and scale perf shows: msec for the clocks (counted in ns), else
 * those of the sysfs alias pmu/alias/ when it has .unit/.scale files.
 */
static void event_unit(const struct stat_event *ev, struct stat_count *c)
{
	const char *slash = strchr(ev->name, '/');

	c->unit = "";
	c->scale = 1;
	if (ev->attr.type == PERF_TYPE_SOFTWARE && (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
						    ev->attr.config == PERF_COUNT_SW_TASK_CLOCK)) {
		c->unit = "msec";
		c->scale = 1e-6;
		return;
	}
	if (!ev->pmu || !slash)
		return;
	for (int i = 0; i < hwt_pmu__nevents(ev->pmu); i++) {
		const char *alias = hwt_pmu__event(ev->pmu, i, NULL);
		size_t len = strlen(alias);

		if (strncmp(slash + 1, alias, len) || strcmp(slash + 1 + len, "/"))
			continue;
		if (hwt_pmu__event_unit(ev->pmu, i))
			c->unit = hwt_pmu__event_unit(ev->pmu, i);
		if (hwt_pmu__event_scale(ev->pmu, i))
			c->scale = strtod(hwt_pmu__event_scale(ev->pmu, i), NULL);
		return;
	}
}

/*
 * Reads every event into @out: the totals, or with @interval the change since
 * the previous call; each scaled by enabled/running as perf stat scales.
 */
static void read_counts(struct stat_event *evs, int nev, struct stat_count *out, bool interval)
{
	for (int i = 0; i < nev; i++) {
		struct stat_count *c = &out[i];
		struct perf_counts_values v = { { { 0 } } };

		c->supported = evs[i].evsel != NULL;
		if (c->supported) {
			struct perf_counts_values now = stat_event__read(&evs[i]);

			v = now;
			if (interval) {
				v.val -= evs[i].last.val;
				v.ena -= evs[i].last.ena;
				v.run -= evs[i].last.run;
			}
			evs[i].last = now;
		}
		perf_counts_values__scale(&v, true, &c->scaled);
		c->val = v.val;
		c->ena = v.ena;
		c->run = v.run;
	}
}

static void print_interval(struct stat_print *sp, struct stat_event *evs, struct stat_count *c,
			   int nev, uint64_t t_ns)
{
	read_counts(evs, nev, c, true);
	stat_print__counts(sp, c, nev, t_ns);
	/* a lost write to -o FILE ends the count; cmd_stat says why */
	if (fflush(sp->f) == EOF && sp->f != stderr)
		stat_stop = 1;
}

/* -o FILE: where the counts go until close_output(); stderr without -o */
static struct hwt_outfile *out_file;

static FILE *open_output(const char *path)
{
	time_t now = time(NULL);
	FILE *f;

	if (!path)
		return stderr;
	out_file = hwt_outfile__new(path);
	f = out_file ? fdopen(dup(hwt_outfile__fd(out_file)), "w") : NULL;
	if (!f) {
		fprintf(stderr, "perf hwtrace stat: %s: %s\n", path, strerror(errno));
		if (out_file)
			hwt_outfile__delete(out_file, false);
		out_file = NULL;
		return NULL;
	}
	/* perf stat -o starts the file so (ctime() ends with a newline) */
	fprintf(f, "# started on %s\n", ctime(&now));
	return f;
}

/* Finish -o FILE (@complete: rename it in place); returns 0 or EXIT_INPUT_ERROR. */
static int close_output(FILE *f, const char *path, bool complete)
{
	int err = 0;

	if (!f || f == stderr)
		return 0;
	if (ferror(f) | fclose(f))
		err = errno ? errno : EIO;
	if (hwt_outfile__delete(out_file, complete && !err) < 0 && complete && !err)
		err = errno;
	out_file = NULL;
	if (!err)
		return 0;
	fprintf(stderr, "perf hwtrace stat: %s: write error: %s\n", path, strerror(err));
	return EXIT_INPUT_ERROR;
}

static int check_mode(struct stat_event *ev, bool system_wide)
{
	const char *pmu = ev->pmu ? hwt_pmu__name(ev->pmu) : NULL;

	if (ev->attr.sample_period || ev->attr.freq) {
		if (pmu && hwt_pmu__counting_only(ev->pmu))
			return usage_error("stat", "%s: %s is a counting-only PMU: it cannot sample, "
					   "drop period=/freq=", ev->name, pmu);
		return usage_error("stat", "%s: stat only counts; period=/freq= are for "
				   "sampling (record)", ev->name);
	}
	if (!system_wide && pmu && (hwt_pmu__counting_only(ev->pmu) || *hwt_pmu__cpumask(ev->pmu)))
		return usage_error("stat", "%s: %s counts only system-wide (it is not tied to a "
				   "task; cpus %s): use -a", ev->name, pmu,
				   *hwt_pmu__cpumask(ev->pmu) ? hwt_pmu__cpumask(ev->pmu) : "any");
	return 0;
}

static const char *const stat_usage[] = {
	"[-e EVENT]... [-a] [-I MS] [-x SEP] [-o FILE] [--sysfs DIR] [--dry-run] [-- CMD [ARGS]]",
	NULL,
};

/* perf stat's default events (-e not given); cpu-clock replaces task-clock for -a */
static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};

static struct stat_event evs[MAX_EVENTS];
static struct stat_count counts[MAX_EVENTS];
static int nev;
static const char *ev_names[MAX_EVENTS];

/* forks the command, held until a byte arrives on go[1]; exec_err gets its errno */
static pid_t start_command(char **cmd_argv, int go[2], int exec_err[2])
{
	pid_t child;

	/* exec_err: closed by a successful exec, else carries its errno */
	if (pipe2(go, O_CLOEXEC) || pipe2(exec_err, O_CLOEXEC))
		return -1;
	child = fork();
	if (child == 0) {
		int e;
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(cmd_argv[0], cmd_argv);
		e = errno;
		fprintf(stderr, "perf hwtrace stat: %s: %s\n", cmd_argv[0], strerror(e));
		if (write(exec_err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(exec_err[1]);
	return child;
}

int cmd_stat(int argc, char **argv)
{
	const char *sysfs = "/sys", *sep = NULL, *output = NULL;
	FILE *f = NULL;
	char **cmd_argv = NULL, err[512];
	bool system_wide = false, dry_run = false;
	int ret = 0, go[2] = { -1, -1 }, status = 0;
	int exec_err[2] = { -1, -1 }, child_errno = 0;
	int interval_ms = 0;
	const struct parse_opt opts[] = {
		OPT_EVENT_LIST('e', "event", ev_names, &nev, MAX_EVENTS, "EVENT",
			       "pmu/term=value,.../ or a generic name"),
		OPT_BOOLEAN('a', "all-cpus", &system_wide, "system-wide"),
		OPT_INTEGER('I', "interval-print", &interval_ms, "MS",
			    "print counts every MS milliseconds (10 or more)", 10, 1000000000),
		OPT_STRING('x', "field-separator", &sep, "SEP", "CSV-style output with SEP"),
		OPT_STRING('o', "output", &output, "FILE",
			   "write the counts to FILE (default: standard error, as perf stat)"),
		OPT_STRING(0, "sysfs", &sysfs, "DIR", "sysfs root (default /sys)"),
		OPT_BOOLEAN(0, "dry-run", &dry_run, "show the event encodings, open nothing"),
		OPT_END(),
	};
	const struct parse_cmd cmd = { "stat", stat_usage, command__summary("stat"), opts };
	struct stat_print sp;
	struct rusage ru = { { 0 } };
	pid_t child = -1;
	uint64_t t0;

	memset(evs, 0, sizeof(evs));
	memset(counts, 0, sizeof(counts));
	ret = parse_options(argc, argv, &cmd, PARSE_OPT_STOP_AT_NON_OPTION);
	if (ret < 0)
		return parse_options__status(ret);
	if (ret)
		cmd_argv = argv;
	ret = 0;
	if (dry_run && output)
		return usage_error("stat", "--dry-run prints the encodings: -o does not apply");
	if (!system_wide && !dry_run && (!cmd_argv || !*cmd_argv))
		return usage_error("stat", "nothing to count: give -a (system-wide) or a command");
	if (!nev) {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(*default_events); i++)
			ev_names[nev++] = default_events[i];
		if (system_wide)
			ev_names[0] = "cpu-clock";
	}
	for (int i = 0; i < nev; i++)
		evs[i].name = ev_names[i];
	for (int i = 0; i < nev; i++) {
		if (hwt_pmu__parse_event_err(sysfs, evs[i].name, &evs[i].attr, &evs[i].pmu, err,
					     sizeof(err))) {
			ret = usage_error("stat", "%s", err);
			goto out;
		}
		pmu_warnings__print("stat", evs[i].pmu);
		ret = dry_run ? 0 : check_mode(&evs[i], system_wide);
		if (ret)
			goto out;
	}
	if (dry_run) {	/* show the encoding, open nothing */
		for (int i = 0; i < nev; i++)
			printf("%s: type=%u config=%#llx config1=%#llx config2=%#llx cpus=%s\n",
			       evs[i].name, evs[i].attr.type, (unsigned long long)evs[i].attr.config,
			       (unsigned long long)evs[i].attr.config1,
			       (unsigned long long)evs[i].attr.config2,
			       evs[i].pmu && *hwt_pmu__cpumask(evs[i].pmu) ?
			       hwt_pmu__cpumask(evs[i].pmu) : "all");
		goto out;
	}
	for (int i = 0; i < nev; i++) {
		counts[i].name = evs[i].name;
		counts[i].type = evs[i].attr.type;
		counts[i].config = evs[i].attr.config;
		event_unit(&evs[i], &counts[i]);
	}
	f = open_output(output);
	if (!f) {
		ret = EXIT_INPUT_ERROR;
		goto out;
	}
	stat_print__init(&sp, f, sep, counts, nev);
	libperf_init(libperf_print);
	signal(SIGINT, stat_signal);
	signal(SIGTERM, stat_signal);
	sigaction(SIGCHLD, &(struct sigaction){ .sa_handler = stat_sigchld }, NULL);
	if (cmd_argv && *cmd_argv) {
		child = start_command(cmd_argv, go, exec_err);
		if (child < 0) {
			fprintf(stderr, "perf hwtrace stat: %s: %s\n", cmd_argv[0], strerror(errno));
			ret = EXIT_INPUT_ERROR;
			goto out;
		}
	}
	for (int i = 0; i < nev; i++)
		if (stat_event__open(&evs[i], "stat", sysfs, system_wide, child)) {
			ret = EXIT_INPUT_ERROR;
			if (child > 0) {
				kill(child, SIGKILL);
				waitpid(child, NULL, 0);
			}
			goto out;
		}
	if (system_wide)
		for (int i = 0; i < nev; i++)
			if (evs[i].evsel)
				perf_evsel__enable(evs[i].evsel);
	t0 = now_ns();
	if (child > 0) {
		if (write(go[1], "g", 1) != 1)
			ret = EXIT_INPUT_ERROR;
		close(go[1]);
		/* 0 bytes: the exec succeeded (or the child died before it) */
		while (read(exec_err[0], &child_errno, sizeof(child_errno)) < 0 && errno == EINTR)
			;
	}
	sp.walltime_ns = interval_ms * 1e6;	/* perf divides by the interval's length */
	for (;;) {
		struct timespec ts = { interval_ms / 1000, (interval_ms % 1000) * 1000000L };
		bool done = false;

		if (child > 0 && !interval_ms) {
			if (wait4(child, &status, 0, &ru) == child)
				break;
			if (errno != EINTR)
				break;
			continue;	/* ^C goes to the child too; wait for it */
		}
		if (interval_ms)
			nanosleep(&ts, NULL);	/* cut short by the command's end or ^C */
		else
			pause();
		if (child > 0 && wait4(child, &status, WNOHANG, &ru) == child)
			done = true;
		if (child <= 0 && stat_stop)
			done = true;
		if (interval_ms)
			print_interval(&sp, evs, counts, nev, now_ns() - t0);
		if (done || (stat_stop && child <= 0))
			break;
	}
	for (int i = 0; i < nev; i++)
		if (evs[i].evsel)
			perf_evsel__disable(evs[i].evsel);
	if (!interval_ms) {
		double user_sys[2] = {
			ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
			ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
		};

		sp.walltime_ns = now_ns() - t0;
		read_counts(evs, nev, counts, false);
		stat_print__header(&sp, system_wide, cmd_argv);
		stat_print__counts(&sp, counts, nev, 0);
		stat_print__footer(&sp, child > 0 && !system_wide ? user_sys : NULL);
	}
	/* the command's status, as perf stat returns it */
	if (child > 0 && !ret) {
		if (child_errno)
			ret = EXIT_INPUT_ERROR;
		else if (WIFEXITED(status))
			ret = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			psignal(WTERMSIG(status), cmd_argv[0]);
	}
	if (close_output(f, output, true))
		ret = EXIT_INPUT_ERROR;
	f = NULL;
out:
	close_output(f, output, false);	/* counting never started: no file */
	if (exec_err[0] >= 0)
		close(exec_err[0]);
	for (int i = 0; i < nev; i++) {
		if (evs[i].evsel) {
			perf_evsel__close(evs[i].evsel);
			perf_evsel__delete(evs[i].evsel);
		}
		hwt_pmu__delete(evs[i].pmu);
	}
	return ret;
}
