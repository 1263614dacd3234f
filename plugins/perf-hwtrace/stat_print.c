// SPDX-License-Identifier: GPL-2.0
/*
 * stat_print.c - perf stat's output for `perf hwtrace stat`.
 *
 * The layout is perf 6.1's (tools/perf/util/stat-display.c and
 * stat-shadow.c) for its default aggregation (one line per event, summed over
 * CPUs): the count right-aligned in 18 columns (two decimals when the event
 * has a fractional scale, as the clocks in msec), the unit, the name in 32,
 * then one derived column after "#": "CPUs utilized" for the clocks, GHz for
 * cycles, "insn per cycle", "of all branches", else a rate per second when a
 * clock is counted.  -x SEP gives perf's columns: count, unit, event,
 * running time, percent running, metric value, metric unit.  Nothing here
 * counts: cmd_stat hands in what it read.
 */
#include <string.h>

#include <linux/perf_event.h>

#include "stat_print.h"

#define METRIC_LEN 35

static bool is_sw(const struct stat_count *c, uint64_t config)
{
	return c->type == PERF_TYPE_SOFTWARE && c->config == config;
}

static bool is_hw(const struct stat_count *c, uint64_t config)
{
	return c->type == PERF_TYPE_HARDWARE && c->config == config;
}

static bool is_clock(const struct stat_count *c)
{
	return is_sw(c, PERF_COUNT_SW_CPU_CLOCK) || is_sw(c, PERF_COUNT_SW_TASK_CLOCK);
}

static bool counted(const struct stat_count *c)
{
	return c->supported && c->run && c->ena && c->scaled != -1;
}

/* perf's runtime_stat_avg: the mean of the counted events that match */
static double shadow_avg(const struct stat_count *c, int n, bool (*match)(const struct stat_count *),
			 int *nmatch)
{
	double sum = 0;
	int k = 0;

	for (int i = 0; i < n; i++)
		if (counted(&c[i]) && match(&c[i])) {
			sum += c[i].val;
			k++;
		}
	if (nmatch)
		*nmatch = k;
	return k ? sum / k : 0;
}

static bool match_cycles(const struct stat_count *c)
{
	return is_hw(c, PERF_COUNT_HW_CPU_CYCLES);
}

static bool match_branches(const struct stat_count *c)
{
	return is_hw(c, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
}

/*
 * One metric column, perf's "%<w>.<p>f<suffix>" value then its unit; w 0
 * leaves the column blank as perf does when the base count is missing.
 */
static void print_metric(const struct stat_print *sp, int w, int p, const char *suffix,
			 const char *unit, double val)
{
	if (!sp->sep) {
		int n;

		if (!unit || !w) {
			fprintf(sp->f, "%-*s", METRIC_LEN, "");
			return;
		}
		n = fprintf(sp->f, " # %*.*f%s", w, p, val, suffix);
		fprintf(sp->f, " %-*s", METRIC_LEN - n - 1, unit);
		return;
	}
	if (!unit || !w) {
		fprintf(sp->f, "%s%s", sp->sep, sp->sep);
		return;
	}
	/* the number alone, without perf's padding or "%" */
	fprintf(sp->f, "%s%.*f%s%s", sp->sep, p, val, sp->sep, unit);
}

/* perf's convert_unit_double: K, M, G above each thousand */
static double convert_unit(double v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

/* perf_stat__print_shadow_stats for the generic events */
static void print_shadow(const struct stat_print *sp, const struct stat_count *all, int n,
			 const struct stat_count *c, double avg)
{
	int nclock, nother;
	double nsecs = shadow_avg(all, n, is_clock, &nclock), total;

	if (is_hw(c, PERF_COUNT_HW_INSTRUCTIONS)) {
		total = shadow_avg(all, n, match_cycles, NULL);
		print_metric(sp, total ? 7 : 0, 2, " ", "insn per cycle", total ? avg / total : 0);
	} else if (is_hw(c, PERF_COUNT_HW_BRANCH_MISSES)) {
		total = shadow_avg(all, n, match_branches, &nother);
		print_metric(sp, nother ? 7 : 0, 2, "%", "of all branches",
			     total ? avg / total * 100.0 : 0);
	} else if (is_hw(c, PERF_COUNT_HW_CPU_CYCLES)) {
		print_metric(sp, nsecs ? 8 : 0, 3, "", nsecs ? "GHz" : "Ghz",
			     nsecs ? avg / nsecs : 0);
	} else if (is_clock(c)) {
		print_metric(sp, sp->walltime_ns ? 8 : 0, 3, "", "CPUs utilized",
			     sp->walltime_ns ? avg / (sp->walltime_ns * c->scale) : 0);
	} else if (nclock) {
		char u = ' ', ubuf[10] = "/sec";
		double ratio = nsecs ? convert_unit(1e9 * avg / nsecs, &u) : 0;

		if (u != ' ')
			snprintf(ubuf, sizeof(ubuf), "%c/sec", u);
		print_metric(sp, 8, 3, "", ubuf, ratio);
	} else {
		print_metric(sp, 0, 0, "", NULL, 0);
	}
}

/* perf's print_running: -x gives run time and an integer percentage */
static void print_running(const struct stat_print *sp, uint64_t run, uint64_t ena)
{
	double pct = 100;

	if (run != ena)
		pct = 100 * run / ena;
	if (sp->sep)
		fprintf(sp->f, "%s%llu%s%.2f", sp->sep, (unsigned long long)run, sp->sep, pct);
	else if (run != ena)
		fprintf(sp->f, "  (%.2f%%)", 100.0 * run / ena);
}

static void print_one(const struct stat_print *sp, const struct stat_count *all, int n,
		      const struct stat_count *c, const char *prefix)
{
	const char *sep = sp->sep ? sp->sep : " ";
	int uw = sp->sep ? 0 : (int)sp->unit_width;

	fputs(prefix, sp->f);
	if (!counted(c)) {
		fprintf(sp->f, "%*s%s", sp->sep ? 0 : 18,
			c->supported ? "<not counted>" : "<not supported>", sep);
		fprintf(sp->f, "%-*s%s", uw, c->unit, sep);
		fprintf(sp->f, "%*s", sp->sep ? 0 : -25, c->name);
		if (!sp->sep)
			print_metric(sp, 0, 0, "", NULL, 0);
		print_running(sp, c->run, c->ena);
		if (sp->sep)
			print_metric(sp, 0, 0, "", NULL, 0);
	} else {
		double avg = c->val * c->scale;
		bool frac = c->scale != (double)(uint64_t)c->scale;

		if (sp->sep)
			fprintf(sp->f, frac ? "%.2f%s" : "%.0f%s", avg, sep);
		else
			fprintf(sp->f, frac ? "%18.2f%s" : "%18.0f%s", avg, sep);
		fprintf(sp->f, "%-*s%s", uw, c->unit, sep);
		fprintf(sp->f, "%-*s", sp->sep ? 0 : 32, c->name);
		if (sp->sep)
			print_running(sp, c->run, c->ena);
		print_shadow(sp, all, n, c, avg);
		if (!sp->sep)
			print_running(sp, c->run, c->ena);
	}
	fputc('\n', sp->f);
}

/**
 * stat_print__init() - set up perf stat's output.
 * @sp: the output state
 * @f: where to print
 * @sep: -x SEP, or NULL for perf's aligned columns
 * @c: the events (their units set the unit column's width)
 * @n: how many
 */
void stat_print__init(struct stat_print *sp, FILE *f, const char *sep,
		      const struct stat_count *c, int n)
{
	memset(sp, 0, sizeof(*sp));
	sp->f = f;
	sp->sep = sep;
	sp->unit_width = 4;
	for (int i = 0; i < n; i++)
		if (strlen(c[i].unit) > sp->unit_width)
			sp->unit_width = strlen(c[i].unit);
}

/**
 * stat_print__header() - " Performance counter stats for 'CMD ARGS':" (not with -x).
 * @sp: the output state
 * @system_wide: -a: 'system wide'
 * @argv: the command, NULL-terminated
 */
void stat_print__header(const struct stat_print *sp, bool system_wide, char **argv)
{
	if (sp->sep)
		return;
	fprintf(sp->f, "\n Performance counter stats for '");
	if (system_wide || !argv || !*argv) {
		fprintf(sp->f, "system wide");
	} else {
		fputs(argv[0], sp->f);
		for (int i = 1; argv[i]; i++)
			fprintf(sp->f, " %s", argv[i]);
	}
	fprintf(sp->f, "':\n\n");
}

/**
 * stat_print__counts() - one line per event.
 * @sp: the output state (walltime_ns set: it divides the clocks)
 * @c: the events' counts
 * @n: how many
 * @interval_ns: -I: the time since the start, printed first on each line; 0 otherwise
 */
void stat_print__counts(struct stat_print *sp, const struct stat_count *c, int n,
			uint64_t interval_ns)
{
	char prefix[64] = "";

	if (interval_ns) {
		snprintf(prefix, sizeof(prefix), "%6lu.%09lu%s",
			 (unsigned long)(interval_ns / 1000000000),
			 (unsigned long)(interval_ns % 1000000000), sp->sep ? sp->sep : " ");
		if (!sp->sep && sp->intervals == 0)
			fprintf(sp->f, "#           time             counts %*s events\n",
				sp->unit_width, "unit");
		if (++sp->intervals == 25)
			sp->intervals = 0;
	}
	for (int i = 0; i < n; i++)
		print_one(sp, c, n, &c[i], prefix);
}

/**
 * stat_print__footer() - the elapsed time, and user/sys time of a command (not with -x).
 * @sp: the output state (walltime_ns: the elapsed time)
 * @user_sys: the command's user and system seconds, or NULL (system-wide)
 */
void stat_print__footer(const struct stat_print *sp, const double *user_sys)
{
	if (sp->sep)
		return;
	fprintf(sp->f, "\n %17.9f seconds time elapsed", sp->walltime_ns / 1e9);
	if (user_sys) {
		fprintf(sp->f, "\n\n");
		fprintf(sp->f, " %17.9f seconds user\n", user_sys[0]);
		fprintf(sp->f, " %17.9f seconds sys\n", user_sys[1]);
	}
	fprintf(sp->f, "\n\n");
}
