// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stat.c - `perf hwtrace stat`: count sysfs PMU events with perf_event_open.
 *
 * System-wide (-a): one counter per CPU of the PMU's cpumask (all online
 * CPUs when it has none).  Otherwise the command after "--" is counted
 * (inherit + enable_on_exec), which counting-only PMUs such as cxl_pmu
 * refuse: we say so before the kernel answers with a bare EOPNOTSUPP.
 * Counts are read with TOTAL_TIME_ENABLED/RUNNING and scaled when the
 * counter was multiplexed.  (libperf is not packaged in Debian 12.)
 *
 * The exit status is the command's, as with perf stat: its exit code, or 0
 * with "CMD: <signal>" on stderr when a signal ended it; 1 when it could not
 * be started or counting failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "commands.h"
#include "out.h"
#include "parse_options.h"
#include "pmu/pmu_internal.h"

#define MAX_EVENTS 64
#define MAX_CPUS 4096

struct stat_event {
	const char *name;
	struct perf_event_attr attr;
	struct hwt_pmu *pmu;
	int *fds;
	int nfds;
	double last;		/* scaled total at the previous interval */
	bool scaled;
};

static volatile sig_atomic_t stat_stop;

static void stat_signal(int sig)
{
	stat_stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sum of the event's counters, each scaled by enabled/running. */
static double read_event(struct stat_event *ev)
{
	double total = 0;

	ev->scaled = false;
	for (int i = 0; i < ev->nfds; i++) {
		uint64_t v[3];

		if (read(ev->fds[i], v, sizeof(v)) != sizeof(v))
			continue;
		if (v[2] && v[2] < v[1]) {
			total += (double)v[0] * v[1] / v[2];
			ev->scaled = true;
		} else if (v[2] || !v[1]) {
			total += (double)v[0];
		}
	}
	return total;
}

static int open_event(struct stat_event *ev, const char *sysfs, bool system_wide, pid_t child)
{
	int cpus[MAX_CPUS], ncpu;

	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	ev->attr.disabled = 1;
	if (system_wide) {
		ncpu = ev->pmu && *hwt_pmu__cpumask(ev->pmu) ?
		       hwt_pmu__cpus(ev->pmu, cpus, MAX_CPUS) :
		       hwt_cpulist__online(sysfs, cpus, MAX_CPUS);
	} else {
		ev->attr.inherit = 1;
		ev->attr.enable_on_exec = 1;
		ncpu = 1;
		cpus[0] = -1;
	}
	if (ncpu <= 0) {
		fprintf(stderr, "perf hwtrace stat: %s: no CPUs to count on\n", ev->name);
		return -1;
	}
	ev->fds = calloc(ncpu, sizeof(int));
	if (!ev->fds)
		return -1;
	for (int i = 0; i < ncpu; i++) {
		int fd = syscall(SYS_perf_event_open, &ev->attr, system_wide ? -1 : child, cpus[i],
				 -1, PERF_FLAG_FD_CLOEXEC);

		if (fd < 0) {
			int e = errno;

			fprintf(stderr, "perf hwtrace stat: %s: perf_event_open on cpu %d: %s%s\n",
				ev->name, cpus[i], strerror(e),
				e == EACCES || e == EPERM ?
				" (needs root or a lower /proc/sys/kernel/perf_event_paranoid)" :
				e == EOPNOTSUPP ? " (the PMU does not support this mode)" : "");
			return -1;
		}
		ev->fds[ev->nfds++] = fd;
	}
	return 0;
}

static void print_counts(struct stat_event *evs, int nev, const char *sep, double t,
			 bool interval)
{
	for (int i = 0; i < nev; i++) {
		double v = read_event(&evs[i]);
		double shown = interval ? v - evs[i].last : v;

		evs[i].last = v;
		if (sep) {
			if (interval)
				printf("%.6f%s", t, sep);
			printf("%.0f%s%s%s%s\n", shown, sep, evs[i].name, sep, evs[i].scaled ? "scaled" : "");
		} else {
			if (interval)
				printf("%14.6f ", t);
			printf("%20.0f      %s%s\n", shown, evs[i].name,
			       evs[i].scaled ? "  (scaled: multiplexed)" : "");
		}
	}
	/* a lost write ends the count; the exit path (out.h) says why */
	if (fflush(stdout) == EOF) {
		out__stdout_failed(errno);
		stat_stop = 1;
	}
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
	"-e EVENT [-e EVENT] [-a] [-I MS] [-x SEP] [--sysfs DIR] [--dry-run] [-- CMD [ARGS]]",
	NULL,
};

static struct stat_event evs[MAX_EVENTS];
static int nev;
static const char *ev_names[MAX_EVENTS];

int cmd_stat(int argc, char **argv)
{
	const char *sysfs = "/sys", *sep = NULL;
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
		OPT_STRING(0, "sysfs", &sysfs, "DIR", "sysfs root (default /sys)"),
		OPT_BOOLEAN(0, "dry-run", &dry_run, "show the event encodings, open nothing"),
		OPT_END(),
	};
	const struct parse_cmd cmd = { "stat", stat_usage, command__summary("stat"), opts };
	pid_t child = -1;
	double t0;

	memset(evs, 0, sizeof(evs));
	ret = parse_options(argc, argv, &cmd, PARSE_OPT_STOP_AT_NON_OPTION);
	if (ret < 0)
		return parse_options__status(ret);
	for (int i = 0; i < nev; i++)
		evs[i].name = ev_names[i];
	if (ret)
		cmd_argv = argv;
	ret = 0;
	if (!nev)
		return usage_error("stat", "no event: give -e EVENT");
	if (!system_wide && !dry_run && (!cmd_argv || !*cmd_argv))
		return usage_error("stat", "nothing to count: give -a (system-wide) or a command");
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
	signal(SIGINT, stat_signal);
	signal(SIGTERM, stat_signal);
	if (cmd_argv && *cmd_argv) {
		/* exec_err: closed by a successful exec, else carries its errno */
		if (pipe2(go, O_CLOEXEC) || pipe2(exec_err, O_CLOEXEC)) {
			ret = EXIT_INPUT_ERROR;
			goto out;
		}
		child = fork();
		if (child == 0) {
			char c;

			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(127);
			execvp(cmd_argv[0], cmd_argv);
			child_errno = errno;
			fprintf(stderr, "perf hwtrace stat: %s: %s\n", cmd_argv[0],
				strerror(child_errno));
			if (write(exec_err[1], &child_errno, sizeof(child_errno)) < 0)
				_exit(127);
			_exit(127);
		}
		close(go[0]);
		close(exec_err[1]);
	}
	for (int i = 0; i < nev; i++)
		if (open_event(&evs[i], sysfs, system_wide, child)) {
			ret = EXIT_INPUT_ERROR;
			if (child > 0) {
				kill(child, SIGKILL);
				waitpid(child, NULL, 0);
			}
			goto out;
		}
	if (system_wide)
		for (int i = 0; i < nev; i++)
			for (int j = 0; j < evs[i].nfds; j++)
				ioctl(evs[i].fds[j], PERF_EVENT_IOC_ENABLE, 0);
	t0 = now_s();
	if (child > 0) {
		if (write(go[1], "g", 1) != 1)
			ret = EXIT_INPUT_ERROR;
		close(go[1]);
		/* 0 bytes: the exec succeeded (or the child died before it) */
		while (read(exec_err[0], &child_errno, sizeof(child_errno)) < 0 && errno == EINTR)
			;
	}
	for (;;) {
		struct timespec ts = { interval_ms / 1000, (interval_ms % 1000) * 1000000L };

		if (child > 0 && !interval_ms) {
			if (waitpid(child, &status, 0) == child)
				break;
			if (errno != EINTR)
				break;
			continue;	/* ^C goes to the child too; wait for it */
		}
		if (interval_ms) {
			nanosleep(&ts, NULL);
			print_counts(evs, nev, sep, now_s() - t0, true);
		} else {
			pause();
		}
		if (child > 0 && waitpid(child, &status, WNOHANG) == child)
			break;
		if (child <= 0 && stat_stop)
			break;
	}
	for (int i = 0; i < nev; i++)
		for (int j = 0; j < evs[i].nfds; j++)
			ioctl(evs[i].fds[j], PERF_EVENT_IOC_DISABLE, 0);
	if (!interval_ms) {
		if (!sep)
			printf("\n Performance counter stats for '%s':\n\n",
			       system_wide ? "system wide" : cmd_argv[0]);
		print_counts(evs, nev, sep, 0, false);
		if (!sep)
			printf("\n%14.9f seconds time elapsed\n\n", now_s() - t0);
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
out:
	if (exec_err[0] >= 0)
		close(exec_err[0]);
	for (int i = 0; i < nev; i++) {
		for (int j = 0; j < evs[i].nfds; j++)
			close(evs[i].fds[j]);
		free(evs[i].fds);
		hwt_pmu__delete(evs[i].pmu);
	}
	return ret;
}
