// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_top.c - `perf hwtrace top`: DRM client usage from fdinfo.
 *
 * Views: interactive (a tty: redraws, 'q' quits), batch text (-b or not a
 * tty: one block per refresh, for logs) and --json (one object per refresh).
 * Several --proc roots replay recorded trees, one per refresh; the hidden
 * --clock-file gives the monotonic time of each refresh (one ns value per
 * line) so tests get exact utilisation; --stats prints the cost per refresh.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "parse_options.h"
#include "drm_clients.h"
#include "out.h"

#define MAX_ROOTS 64

struct top_opts {
	const char *roots[MAX_ROOTS];
	int nroots;
	double delay;
	long iterations;	/* -1: until q or a signal */
	double rescan;		/* seconds between full rescans */
	bool json, batch, stats;
	uint64_t *clock_vals;	/* --clock-file */
	int nclock;
};

struct top_clock {
	const struct top_opts *o;
	int sample;
};

static volatile sig_atomic_t stop;
static struct termios saved_tio;
static bool tio_saved;

static void on_signal(int sig)
{
	stop = 1;
}

static void tty_restore(void)
{
	if (tio_saved) {
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
		tio_saved = false;
		/* leave the alternate screen, show the cursor */
		if (write(STDOUT_FILENO, "\033[?25h\033[?1049l", 14) < 0)
			return;
	}
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* CPU time per phase, for --stats and tests/bench/top.sh */
struct top_cost {
	uint64_t full_ns, quick_ns, render_ns;
	uint64_t nfull, nquick;
};

static void print_cost(const struct drm_clients *c, const struct top_cost *k)
{
	uint64_t n = k->nfull + k->nquick;
	double ms = 1e-6;

	fprintf(stderr,
		"top stats: samples %llu full_scans %llu fdinfo_reads %llu kept_reads %llu "
		"fd_stats %llu readlinks %llu clients %d kept_fds %d "
		"cpu_ms_per_refresh %.3f full_ms %.3f quick_ms %.3f render_ms %.3f\n",
		(unsigned long long)c->stats.samples, (unsigned long long)c->stats.full_scans,
		(unsigned long long)c->stats.fdinfo_reads,
		(unsigned long long)c->stats.kept_reads,
		(unsigned long long)c->stats.fd_stats, (unsigned long long)c->stats.readlinks,
		c->nclients, c->nkept,
		(k->full_ns + k->quick_ns + k->render_ns) * ms / n,
		k->nfull ? k->full_ns * ms / k->nfull : 0,
		k->nquick ? k->quick_ns * ms / k->nquick : 0, k->render_ns * ms / n);
}

static uint64_t top_clock(void *ctx)
{
	struct top_clock *tc = ctx;

	if (!tc->o->nclock)
		return mono_ns();
	return tc->o->clock_vals[tc->sample < tc->o->nclock ? tc->sample : tc->o->nclock - 1];
}

static int load_clock(struct top_opts *o, const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long v;

	if (!f)
		return usage_error("top", "--clock-file %s: %s", path, strerror(errno));
	while (fscanf(f, "%llu", &v) == 1) {
		uint64_t *n = realloc(o->clock_vals, (o->nclock + 1) * sizeof(*n));

		if (!n)
			break;
		o->clock_vals = n;
		o->clock_vals[o->nclock++] = v;
	}
	fclose(f);
	if (!o->nclock)
		return usage_error("top", "--clock-file %s: no nanosecond values", path);
	return 0;
}

static int cmp_client(const void *a, const void *b)
{
	const struct drm_client *x = *(const struct drm_client *const *)a;
	const struct drm_client *y = *(const struct drm_client *const *)b;

	if (x->total_util != y->total_util)
		return x->total_util > y->total_util ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->client_id < y->client_id ? -1 : x->client_id > y->client_id;
}

/*
 * The JSON view prints thousands of clients per refresh: short writes go
 * straight into the buffer, without a call each.
 */
static inline void put(struct out *o, const char *s, size_t n)
{
	if (n <= sizeof(o->buf) - o->len) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else {
		out__write(o, s, n);
	}
}

/* A string literal: its length is known at compile time (out__puts() runs strlen). */
#define PUT_LIT(o, s) put(o, s, sizeof(s) - 1)

static void json_u64_or_null(struct out *o, bool have, uint64_t v)
{
	if (have)
		out__json_u64(o, v);
	else
		PUT_LIT(o, "null");
}

/*
 * printf("%.2f", @x) without printf for the usual percentages.  Below 1e9,
 * x * 100 is within 1e-5 of its exact value, so rounding it gives printf's
 * digits unless it lies near a half; those, and anything odd, go to printf.
 */
static void json_pct(struct out *o, double x)
{
	double y = x * 100.0, r = floor(y);
	uint64_t v;

	if (!(x >= 0 && x < 1e9) || fabs(y - r - 0.5) < 1e-4) {
		out__printf(o, "%.2f", x);
		return;
	}
	v = (uint64_t)r + (y - r > 0.5);
	out__u64(o, v / 100);
	out__putc(o, '.');
	out__putc(o, '0' + v % 100 / 10);
	out__putc(o, '0' + v % 10);
}

static void json_engine(struct out *o, const struct hwt_drm_engine *e,
			const struct hwt_drm_util *u)
{
	/* the counters a driver gives, in the order of enum hwt_drm_have's bits */
#define NUM(bit, key, memb) { bit, key, sizeof(key) - 1, offsetof(struct hwt_drm_engine, memb) }
	static const struct { unsigned bit; const char *key; size_t len, off; } nums[] = {
		NUM(HWT_DRM_HAVE_NS, "\"busy_ns\":", busy_ns),
		NUM(HWT_DRM_HAVE_CYCLES, "\"cycles\":", cycles),
		NUM(HWT_DRM_HAVE_TOTAL, "\"total_cycles\":", total_cycles),
	};
#undef NUM

	out__json_str(o, e->name);
	PUT_LIT(o, ":{");
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (!(e->have & nums[i].bit))
			continue;
		put(o, nums[i].key, nums[i].len);
		out__json_u64(o, *(const uint64_t *)((const char *)e + nums[i].off));
		out__putc(o, ',');
	}
	PUT_LIT(o, "\"capacity\":");
	out__u64(o, e->capacity);
	PUT_LIT(o, ",\"util\":");
	if (u->src == HWT_DRM_UTIL_NONE || !isfinite(u->percent))
		PUT_LIT(o, "null");
	else
		json_pct(o, u->percent);
	out__putc(o, '}');
}

static void json_client(struct out *o, const struct drm_client *cl)
{
	/* the keys of enum hwt_drm_mem, quoted, with the separator before each */
#define LIT(s) { s, sizeof(s) - 1 }
	static const struct { const char *s; size_t n; } mem_keys[HWT_DRM_MEM_N] = {
		LIT("{\"total\":"), LIT(",\"shared\":"), LIT(",\"resident\":"),
		LIT(",\"purgeable\":"), LIT(",\"active\":"),
	};
#undef LIT
	const struct hwt_drm_fdinfo *fi = &cl->cur;

	PUT_LIT(o, "{\"pids\":[");
	for (int i = 0; i < cl->npids; i++) {
		if (i)
			out__putc(o, ',');
		out__s64(o, cl->pids[i]);
	}
	PUT_LIT(o, "],\"comm\":");
	out__json_str(o, cl->comm);
	PUT_LIT(o, ",\"driver\":");
	out__json_str(o, fi->driver);
	PUT_LIT(o, ",\"pdev\":");
	if (fi->pdev)
		out__json_str(o, fi->pdev);
	else
		PUT_LIT(o, "null");
	PUT_LIT(o, ",\"client_id\":");
	json_u64_or_null(o, cl->has_id, cl->client_id);
	PUT_LIT(o, ",\"engines\":{");
	for (uint32_t i = 0; i < fi->nengines; i++) {
		if (i)
			out__putc(o, ',');
		json_engine(o, &fi->engines[i], &cl->util[i]);
	}
	PUT_LIT(o, "},\"memory\":{");
	for (uint32_t i = 0; i < fi->nregions; i++) {
		const struct hwt_drm_region *r = &fi->regions[i];

		if (i)
			out__putc(o, ',');
		out__json_str(o, r->name);
		out__putc(o, ':');
		for (int m = 0; m < HWT_DRM_MEM_N; m++) {
			put(o, mem_keys[m].s, mem_keys[m].n);
			json_u64_or_null(o, r->have & (1u << m), r->bytes[m]);
		}
		out__putc(o, '}');
	}
	PUT_LIT(o, "}}");
}

static void human_bytes(char *buf, size_t n, uint64_t v)
{
	static const char units[] = "BKMGTP";
	double x = (double)v;
	int u = 0;

	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%lluB", (unsigned long long)v);
	else
		snprintf(buf, n, "%.1f%c", x, units[u]);
}

static void text_client(struct out *o, const struct drm_client *cl)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;
	/* names come from other processes and drivers: escaped (out__escape) */
	char pids[64] = "", mem[32], comm[4 * sizeof(cl->comm)], drv[128], pdev[128];
	int off = 0;

	for (int i = 0; i < cl->npids && off < (int)sizeof(pids) - 12; i++)
		off += snprintf(pids + off, sizeof(pids) - off, "%s%d", i ? "," : "",
				cl->pids[i]);
	out__printf(o, "%-12s %-15s %-8s %-12s %6llu ", pids,
		    out__escape(comm, sizeof(comm), cl->comm),
		    out__escape(drv, sizeof(drv), fi->driver),
		    fi->pdev ? out__escape(pdev, sizeof(pdev), fi->pdev) : "-",
		    (unsigned long long)cl->client_id);
	for (uint32_t i = 0; i < fi->nengines; i++) {
		const struct hwt_drm_util *u = &cl->util[i];

		out__putc(o, ' ');
		out__text_str(o, fi->engines[i].name);
		if (u->src == HWT_DRM_UTIL_NONE)
			out__puts(o, ":-");
		else	/* clamp for display only */
			out__printf(o, ":%.1f%%",
				    u->percent < 0 ? 0 : u->percent > 100 ? 100 : u->percent);
	}
	out__puts(o, " |");
	for (uint32_t i = 0; i < fi->nregions; i++) {
		const struct hwt_drm_region *r = &fi->regions[i];

		if (!(r->have & (1u << HWT_DRM_MEM_RESIDENT)))
			continue;
		human_bytes(mem, sizeof(mem), r->bytes[HWT_DRM_MEM_RESIDENT]);
		out__putc(o, ' ');
		out__text_str(o, r->name);
		out__printf(o, ":%s", mem);
	}
	out__putc(o, '\n');
}

static double time_now(const struct top_opts *o, uint64_t mono)
{
	struct timespec ts;

	if (o->nclock)
		return (double)mono / 1e9;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Thousands of clients, each spread over several small allocations, in sort
 * order: ask for the next one's pieces while this one is printed.
 */
static void prefetch_client(const struct drm_client *next, const struct drm_client *after)
{
	if (after)
		__builtin_prefetch(after);
	__builtin_prefetch(next->pids);
	__builtin_prefetch(next->util);
	__builtin_prefetch(next->cur.driver);
	__builtin_prefetch(next->cur.engines);
	__builtin_prefetch(next->cur.regions);
	if (next->cur.nengines)
		__builtin_prefetch(next->cur.engines[0].name);
}

static void render(struct out *o, const struct top_opts *opts, struct drm_clients *c,
		   uint64_t mono, bool tty)
{
	struct drm_client **v = malloc((c->nclients + 1) * sizeof(*v));
	int rows = 1 << 30;

	if (!v)
		return;
	for (int i = 0; i < c->nclients; i++)
		v[i] = &c->clients[i];
	qsort(v, c->nclients, sizeof(*v), cmp_client);
	if (opts->json) {
		out__printf(o, "{\"time\":%.3f,\"clients\":[", time_now(opts, mono));
		for (int i = 0; i < c->nclients; i++) {
			if (i + 1 < c->nclients)
				prefetch_client(v[i + 1], i + 2 < c->nclients ? v[i + 2] : NULL);
			if (i)
				out__putc(o, ',');
			json_client(o, v[i]);
		}
		out__puts(o, "]}\n");
		free(v);
		return;
	}
	if (tty) {
		struct winsize ws;

		if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row > 3)
			rows = ws.ws_row - 3;
		out__puts(o, "\033[H\033[2J");
		out__printf(o, "hwtrace top - %d DRM client%s, every %.1fs, q quits\n",
			    c->nclients, c->nclients == 1 ? "" : "s", opts->delay);
	} else {
		out__printf(o, "# time %.3f clients %d\n", time_now(opts, mono), c->nclients);
	}
	out__printf(o, "%-12s %-15s %-8s %-12s %6s  %s\n", "PID", "COMM", "DRIVER", "PDEV", "ID",
		    "ENGINES | RESIDENT MEMORY");
	for (int i = 0; i < c->nclients && i < rows; i++)
		text_client(o, v[i]);
	if (!tty)
		out__putc(o, '\n');
	free(v);
}

/* Sleep @sec; on a tty also watch for 'q'.  Returns true to quit. */
static bool wait_refresh(double sec, bool tty)
{
	int ms = sec > 0 ? (int)(sec * 1000) : 0;
	uint64_t end = mono_ns() + (uint64_t)ms * 1000000ull;

	for (;;) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		uint64_t now = mono_ns();
		int left = now >= end ? 0 : (int)((end - now) / 1000000);
		int r;

		if (stop)
			return true;
		if (!tty) {
			struct timespec ts = { left / 1000, (left % 1000) * 1000000L };

			if (left)
				nanosleep(&ts, NULL);
			return stop;
		}
		r = poll(&p, 1, left);
		if (r > 0) {
			char ch;

			if (read(STDIN_FILENO, &ch, 1) == 1 && (ch == 'q' || ch == 'Q'))
				return true;
			continue;
		}
		if (r == 0)
			return false;
		if (errno != EINTR)
			return false;
	}
}

static const char *const top_usage[] = {
	"[--proc DIR]... [-d SECONDS] [-n N] [--json|-b] [--rescan SECONDS]",
	NULL,
};

/* -d and --rescan: seconds, 0 to a day */
static int seconds_opt(const struct parse_opt *opt, const char *val, int unset)
{
	double *d = opt->value;
	char *end;

	(void)unset;
	*d = strtod(val, &end);
	if (*end || end == val || !(*d >= 0) || *d > 86400)
		return usage_error("top", "--%s: bad interval '%s' (0 to 86400 seconds)",
				   opt->long_name, val);
	return 0;
}

static int iterations_opt(const struct parse_opt *opt, const char *val, int unset)
{
	long *n = opt->value;
	char *end;

	(void)unset;
	errno = 0;
	*n = strtol(val, &end, 10);
	if (*end || end == val || errno || *n < 1)
		return usage_error("top", "-n: bad count '%s'", val);
	return 0;
}

static int clock_opt(const struct parse_opt *opt, const char *val, int unset)
{
	(void)unset;
	return load_clock((struct top_opts *)opt->value, val) ? -1 : 0;
}

/* Returns 0, PARSE_OPT_DONE (help shown) or EXIT_USAGE. */
static int parse_opts(int argc, char **argv, struct top_opts *o)
{
	const struct parse_opt opts[] = {
		OPT_STRING_LIST(0, "proc", o->roots, &o->nroots, MAX_ROOTS, "DIR",
				"proc root (default /proc); repeat to replay recorded trees"),
		OPT_CALLBACK('d', "delay", &o->delay, "SECONDS", "refresh interval (default 1)",
			     seconds_opt),
		OPT_CALLBACK('n', "iterations", &o->iterations, "N",
			     "stop after N refreshes (the first has no utilisation)",
			     iterations_opt),
		OPT_BOOLEAN(0, "json", &o->json, "one JSON object per refresh"),
		OPT_BOOLEAN('b', "batch", &o->batch,
			    "plain text blocks, for logs (default when not a tty)"),
		OPT_CALLBACK(0, "rescan", &o->rescan, "SECONDS",
			     "full /proc rescan interval (default 5; 0: every refresh)",
			     seconds_opt),
		OPT_BOOLEAN(0, "stats", &o->stats, "print the CPU cost of sampling at the end"),
		OPT_CALLBACK(0, "clock-file", o, "FILE",
			     "replay: nanosecond timestamps, one per refresh (tests)", clock_opt),
		OPT_END(),
	};
	const struct parse_cmd cmd = { "top", top_usage, command__summary("top"), opts };
	int n;

	o->delay = 1;
	o->iterations = -1;
	o->rescan = 5;
	n = parse_options(argc, argv, &cmd, 0);
	if (n < 0)
		return n == PARSE_OPT_DONE ? n : EXIT_USAGE;
	if (n)
		return usage_error("top", "unexpected argument '%s' (see --help)", argv[0]);
	if (!o->nroots)
		o->roots[o->nroots++] = "/proc";
	return 0;
}

static void report_diag(void *ctx, const struct hwt_error *e)
{
	(void)ctx;
	(void)e;	/* odd fdinfo lines are expected across drivers: stay quiet */
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o = { 0 };
	struct hwt_diag diag = { .report = report_diag, .file = "fdinfo" };
	struct drm_clients c;
	struct top_clock tc = { .o = &o };
	struct out *out;
	struct top_cost cost = { 0 };
	uint64_t last_full = 0;
	int ret = 0, r;
	bool tty;

	r = parse_opts(argc, argv, &o);
	if (r) {
		free(o.clock_vals);	/* loaded before a later option ended the run */
		return r == PARSE_OPT_DONE ? 0 : r;
	}
	out = out__stdout();
	tty = !o.json && !o.batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
	{
		/* no SA_RESTART: a blocked open() or read() returns EINTR and top stops */
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	if (tty && !tcgetattr(STDIN_FILENO, &saved_tio)) {
		struct termios t = saved_tio;

		t.c_lflag &= ~(ICANON | ECHO);
		t.c_cc[VMIN] = 0;
		t.c_cc[VTIME] = 0;
		tio_saved = true;
		atexit(tty_restore);
		tcsetattr(STDIN_FILENO, TCSANOW, &t);
		out__puts(out, "\033[?1049h\033[?25l");
	}
	drm_clients__init(&c, o.roots[0]);
	c.clock = top_clock;
	c.clock_ctx = &tc;
	c.diag = &diag;
	for (long it = 0; o.iterations < 0 || it < o.iterations; it++) {
		int ri = it < o.nroots ? (int)it : o.nroots - 1;
		bool full = it == 0 || o.roots[ri] != c.proc || o.rescan == 0;
		uint64_t now, cpu0, cpu1;

		tc.sample = (int)it;
		now = top_clock(&tc);
		if (!full && (double)(now - last_full) >= o.rescan * 1e9)
			full = true;
		drm_clients__set_proc(&c, o.roots[ri]);
		if (full)
			last_full = now;
		cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		if (drm_clients__sample(&c, full)) {
			tty_restore();
			fprintf(stderr, "perf hwtrace top: cannot read %s: %s\n", c.proc,
				strerror(errno));
			ret = EXIT_INPUT_ERROR;
			break;
		}
		cpu1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		render(out, &o, &c, now, tty);
		out__flush(out);
		cost.render_ns += clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu1;
		if (full) {
			cost.full_ns += cpu1 - cpu0;
			cost.nfull++;
		} else {
			cost.quick_ns += cpu1 - cpu0;
			cost.nquick++;
		}
		if (out->error)
			break;
		if ((o.iterations < 0 || it + 1 < o.iterations) && wait_refresh(o.delay, tty))
			break;
	}
	tty_restore();
	out__flush(out);
	if (o.stats && cost.nfull + cost.nquick)
		print_cost(&c, &cost);
	drm_clients__exit(&c);
	free(o.clock_vals);
	return ret;
}
