/* SPDX-License-Identifier: GPL-2.0 */
/*
 * commands.h - the perf-hwtrace subcommands (design.rst section 6).
 *
 * Each command lives in cmd_<name>.c and returns the process exit status:
 * 0 success, 1 the input had errors, 2 usage error.
 */
#ifndef PERF_HWTRACE_COMMANDS_H
#define PERF_HWTRACE_COMMANDS_H

#define EXIT_INPUT_ERROR 1
#define EXIT_USAGE 2

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_exporter(int argc, char **argv);
int cmd_convert(int argc, char **argv);

/* The one-line summary of verb @name (main.c's verb list), or NULL. */
const char *command__summary(const char *name);

/* Print "perf hwtrace <cmd>: <msg>" to stderr; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct hwt_pmu;
/* "perf hwtrace CMD: warning: ..." for each term the PMU's sysfs files lost */
void pmu_warnings__print(const char *cmd, const struct hwt_pmu *pmu);

#endif
