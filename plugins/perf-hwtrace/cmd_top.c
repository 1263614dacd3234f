// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_top.c - `perf hwtrace top`: DRM client usage from fdinfo, GPUs from sysfs.
 *
 * Views: interactive (a tty: fits the window, redraws on SIGWINCH, scrolls,
 * sorts by a chosen column; top_keys() lists the keys), batch text (-b or not
 * a tty: one block per refresh, for logs) and --json (one object per refresh).
 * Several --proc roots replay recorded trees, one per refresh; the hidden
 * --clock-file gives the monotonic time of each refresh (one ns value per
 * line) so tests get exact utilisation; --stats prints the cost per refresh.
 * --record FILE also keeps every refresh in a perf.data (top_record.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
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
#include "gpu_devices.h"
#include "top_rows.h"
#include "top_text.h"
#include "top_record.h"
#include "out.h"

#define MAX_ROOTS 64

struct top_opts {
	const char *roots[MAX_ROOTS];
	int nroots;
	const char *sys;	/* sysfs root for the GPU headers */
	struct top_order order;
	double delay;
	long iterations;	/* -1: until q or a signal */
	double rescan;		/* seconds between full rescans */
	bool json, batch, stats, reparse;
	uint64_t *clock_vals;	/* --clock-file */
	const char *record;	/* --record FILE */
	int nclock;
};

struct top_clock {
	const struct top_opts *o;
	int sample;
};

static volatile sig_atomic_t stop, resized;
static struct termios saved_tio;
static bool tio_saved;

static void on_signal(int sig)
{
	stop = 1;
}

static void on_winch(int sig)
{
	resized = 1;
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
		"top stats: samples %llu full_scans %llu new_scans %llu fdinfo_reads %llu "
		"kept_reads %llu same_reads %llu fd_stats %llu readlinks %llu dir_stats %llu dir_lists %llu "
		"clients %d kept_fds %d "
		"cpu_ms_per_refresh %.3f full_ms %.3f quick_ms %.3f render_ms %.3f\n",
		(unsigned long long)c->stats.samples, (unsigned long long)c->stats.full_scans,
		(unsigned long long)c->stats.new_scans, (unsigned long long)c->stats.fdinfo_reads,
		(unsigned long long)c->stats.kept_reads, (unsigned long long)c->stats.same_reads,
		(unsigned long long)c->stats.fd_stats, (unsigned long long)c->stats.readlinks,
		(unsigned long long)c->stats.dir_stats, (unsigned long long)c->stats.dir_lists,
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

/*
 * A client's engines and memory are written in place (out__room()): one
 * check for room per engine or region instead of one per piece, and no
 * reload of the out's length after each byte, which a char store may
 * alias.  Room for one piece when its name is short and plain; a longer
 * name, one to escape, or a percentage printf must write goes the out's
 * way, then writing in place goes on.
 */
#define PIECE_ROOM	512
#define NAME_FAST	64

static inline char *lit(char *p, const char *s, size_t n)
{
	out__copy(p, s, n);
	return p + n;
}

/* a key of a table: 16 bytes copied whatever its length, no call */
struct key16 {
	char s[16];
	size_t n;
};

#define KEY16(str) { str, sizeof(str) - 1 }

static inline char *key16(char *p, const struct key16 *k)
{
	memcpy(p, k->s, 16);
	return p + k->n;
}

#define PLIT(p, s) lit(p, s, sizeof(s) - 1)

/* out__json_u64() of @v, or null when the driver gives none, at @p */
static inline char *json_num(char *p, bool have, uint64_t v)
{
	return have ? out__put_json_u64(p, v) : PLIT(p, "null");
}

static void json_u64_or_null(struct out *o, bool have, uint64_t v)
{
	out__set_end(o, json_num(out__room(o, OUT_NUM_ROOM + 2), have, v));
}

/* @s quoted at @p, where out__room(@o, PIECE_ROOM) gave it; returns the end */
static char *json_name(struct out *o, char *p, const char *s)
{
	char *q = out__put_json_name(p, s, NAME_FAST);

	if (q)
		return q;
	out__set_end(o, p);
	out__json_str(o, s);
	return out__room(o, PIECE_ROOM);
}

/* printf("%.2f", @x): out__put_fixed() where it can, else printf */
static char *json_pct(struct out *o, char *p, double x)
{
	char *end = out__put_fixed(p, x, 2);

	if (end)
		return end;
	out__set_end(o, p);
	out__printf(o, "%.2f", x);
	return out__room(o, PIECE_ROOM);
}

/* engine @e, with a ',' before it unless @first */
static void json_engine(struct out *o, const struct hwt_drm_engine *e,
			const struct hwt_drm_util *u, bool first)
{
	/* the counters a driver gives, in the order of enum hwt_drm_have's bits */
#define NUM(bit, key, memb) { bit, KEY16(key), offsetof(struct hwt_drm_engine, memb) }
	static const struct { unsigned bit; struct key16 key; size_t off; } nums[] = {
		NUM(HWT_DRM_HAVE_NS, "\"busy_ns\":", busy_ns),
		NUM(HWT_DRM_HAVE_CYCLES, "\"cycles\":", cycles),
		NUM(HWT_DRM_HAVE_TOTAL, "\"total_cycles\":", total_cycles),
	};
#undef NUM
	char *p = out__room(o, PIECE_ROOM);

	if (!first)
		*p++ = ',';
	p = json_name(o, p, e->name);
	p = PLIT(p, ":{");
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (!(e->have & nums[i].bit))
			continue;
		p = key16(p, &nums[i].key);
		p = json_num(p, true, *(const uint64_t *)((const char *)e + nums[i].off));
		*p++ = ',';
	}
	p = PLIT(p, "\"capacity\":");
	p = out__put_dec(p, e->capacity);
	p = PLIT(p, ",\"util\":");
	if (u->src == HWT_DRM_UTIL_NONE || !isfinite(u->percent))
		p = PLIT(p, "null");
	else
		p = json_pct(o, p, u->percent);
	*p++ = '}';
	out__set_end(o, p);
}

/* A client's object up to its engines: what only a scan or a new driver, pdev or id changes. */
static void json_client_head(struct out *o, const struct drm_client *cl)
{
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
	if (!cl->has_id) {
		/* no id: the fd is the client (of the first pid) */
		PUT_LIT(o, ",\"fd\":");
		json_u64_or_null(o, true, drm_client__fd(cl));
	}
	PUT_LIT(o, ",\"engines\":{");
}

/* The rest: the engines and the memory. */
static void json_client_body(struct out *o, const struct drm_client *cl)
{
	/* the keys of enum hwt_drm_mem, quoted, with the separator before each */
	static const struct key16 mem_keys[HWT_DRM_MEM_N] = {
		KEY16("{\"total\":"), KEY16(",\"shared\":"), KEY16(",\"resident\":"),
		KEY16(",\"purgeable\":"), KEY16(",\"active\":"),
	};
	const struct hwt_drm_fdinfo *fi = &cl->cur;

	for (uint32_t i = 0; i < fi->nengines; i++)
		json_engine(o, &fi->engines[i], &cl->util[i], !i);
	PUT_LIT(o, "},\"memory\":{");
	for (uint32_t i = 0; i < fi->nregions; i++) {
		const struct hwt_drm_region *r = &fi->regions[i];
		char *p = out__room(o, PIECE_ROOM);

		if (i)
			*p++ = ',';
		p = json_name(o, p, r->name);
		*p++ = ':';
		for (int m = 0; m < HWT_DRM_MEM_N; m++) {
			p = key16(p, &mem_keys[m]);
			p = json_num(p, r->have & (1u << m), r->bytes[m]);
		}
		*p++ = '}';
		out__set_end(o, p);
	}
	PUT_LIT(o, "}}");
}

static void json_num_or_null(struct out *o, bool have, int prec, double v)
{
	if (have)
		out__printf(o, "%.*f", prec, v);
	else
		PUT_LIT(o, "null");
}

static void json_device(struct out *o, const struct gpu_device *d)
{
	PUT_LIT(o, "{\"card\":");
	out__json_str(o, d->card);
	PUT_LIT(o, ",\"driver\":");
	out__json_str(o, d->driver);
	PUT_LIT(o, ",\"pdev\":");
	if (d->pdev[0])
		out__json_str(o, d->pdev);
	else
		PUT_LIT(o, "null");
	PUT_LIT(o, ",\"cur_freq_mhz\":");
	json_num_or_null(o, d->cur_mhz >= 0, 0, (double)d->cur_mhz);
	PUT_LIT(o, ",\"max_freq_mhz\":");
	json_num_or_null(o, d->max_mhz >= 0, 0, (double)d->max_mhz);
	PUT_LIT(o, ",\"power_w\":");
	json_num_or_null(o, !isnan(d->power_w), 3, d->power_w);
	PUT_LIT(o, ",\"temp_c\":");
	json_num_or_null(o, !isnan(d->temp_c), 3, d->temp_c);
	PUT_LIT(o, ",\"vram_total\":");
	json_u64_or_null(o, d->vram_total >= 0, (uint64_t)d->vram_total);
	PUT_LIT(o, ",\"vram_used\":");
	json_u64_or_null(o, d->vram_used >= 0, (uint64_t)d->vram_used);
	PUT_LIT(o, ",\"pmu\":");
	if (d->pmu[0])
		out__json_str(o, d->pmu);
	else
		PUT_LIT(o, "null");
	PUT_LIT(o, ",\"engines\":{");
	for (int i = 0; i < d->nengines; i++) {
		if (i)
			out__putc(o, ',');
		out__json_str(o, d->engines[i].name);
		PUT_LIT(o, ":{\"busy\":");
		json_num_or_null(o, !isnan(d->engines[i].busy_pct), 2, d->engines[i].busy_pct);
		out__putc(o, '}');
	}
	PUT_LIT(o, "}}");
}

static double time_now(const struct top_opts *o, uint64_t mono)
{
	struct timespec ts;

	if (o->nclock)
		return (double)mono / 1e9;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The JSON view's rows (top_rows.h): a client's object, its head and the rest */
static const struct top_rows_ops json_rows = { .head = json_client_head, .body = json_client_body };

static void render(struct out *o, const struct top_opts *opts, struct drm_clients *c,
		   const struct gpu_devices *g, uint64_t mono, bool tty, struct top_view *tv,
		   struct top_rows *rows)
{
	struct drm_client **v = malloc((c->nclients + 1) * sizeof(*v));

	if (!v)
		return;
	for (int i = 0; i < c->nclients; i++)
		v[i] = &c->clients[i];
	top_sort(v, c->nclients, &opts->order);
	if (opts->json) {
		out__printf(o, "{\"time\":%.3f,\"clients\":[", time_now(opts, mono));
		top_rows__write(rows, o, c, v, c->nclients, ',', 0);
		PUT_LIT(o, "],\"devices\":[");
		for (int i = 0; i < g->n; i++) {
			if (i)
				out__putc(o, ',');
			json_device(o, &g->dev[i]);
		}
		out__puts(o, "]}\n");
	} else if (tty) {
		top_text_tty(o, opts->delay, v, c->nclients, g, &opts->order, tv);
	} else {
		top_text_batch(o, time_now(opts, mono), v, c, g, &opts->order, rows);
	}
	free(v);
}

/*
 * Sleep until @end (monotonic ns); on a tty also handle keys and SIGWINCH.
 * Returns WAIT_REDRAW to draw the same data again (a key, a new window size).
 */
static enum top_wait wait_refresh(uint64_t end, bool tty, struct top_opts *o,
				  struct top_view *tv)
{
	for (;;) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		uint64_t now = mono_ns();
		int left = now >= end ? 0 : (int)((end - now) / 1000000);
		int r;

		if (stop)
			return WAIT_QUIT;
		if (tty && resized) {
			resized = 0;
			return WAIT_REDRAW;
		}
		if (!tty) {
			struct timespec ts = { left / 1000, (left % 1000) * 1000000L };

			if (left)
				nanosleep(&ts, NULL);
			return stop ? WAIT_QUIT : WAIT_TIMEOUT;
		}
		r = poll(&p, 1, left);
		if (r > 0) {
			char buf[64];
			ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
			enum top_wait w;

			if (n <= 0)
				return WAIT_TIMEOUT;
			w = top_keys(buf, n, &o->order, tv);
			if (w != WAIT_TIMEOUT)
				return w;
			continue;
		}
		if (r == 0)
			return WAIT_TIMEOUT;
		if (errno != EINTR)
			return WAIT_TIMEOUT;
	}
}

static const char *const top_usage[] = {
	"[--proc DIR]... [--sys DIR] [-d SECONDS] [-n N] [--json|-b] [--sort COLUMN] [--rescan SECONDS] [--record FILE]",
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

/* --sort COLUMN: a column name, "-" in front for the reverse order */
static int sort_opt(const struct parse_opt *opt, const char *val, int unset)
{
	struct top_opts *o = opt->value;
	const char *name = val;

	(void)unset;
	o->order.reverse = *name == '-';
	name += o->order.reverse;
	for (int i = 0; i < COL_N; i++) {
		if (!strcmp(name, top_col_names[i])) {
			o->order.col = i;
			return 0;
		}
	}
	return usage_error("top", "--sort: unknown column '%s' (pid, comm, driver, pdev, id, busy, mem; '-' reverses)",
			   val);
}

/* Returns 0, PARSE_OPT_DONE (help shown) or EXIT_USAGE. */
static int parse_opts(int argc, char **argv, struct top_opts *o)
{
	const struct parse_opt opts[] = {
		OPT_STRING_LIST(0, "proc", o->roots, &o->nroots, MAX_ROOTS, "DIR",
				"proc root (default /proc); repeat to replay recorded trees"),
		OPT_STRING(0, "sys", &o->sys, "DIR",
			   "sysfs root for the GPU headers (default /sys; PMUs only with /sys)"),
		OPT_STRING(0, "sysfs", &o->sys, "DIR", "the same as --sys (list, record and stat's name)"),
		OPT_CALLBACK('d', "delay", &o->delay, "SECONDS", "refresh interval (default 1)",
			     seconds_opt),
		OPT_CALLBACK('n', "iterations", &o->iterations, "N",
			     "stop after N refreshes (the first has no utilisation)",
			     iterations_opt),
		OPT_BOOLEAN(0, "json", &o->json, "one JSON object per refresh"),
		OPT_BOOLEAN('b', "batch", &o->batch,
			    "plain text blocks, for logs (default when not a tty)"),
		OPT_CALLBACK(0, "sort", o, "COLUMN",
			     "pid, comm, driver, pdev, id, busy (default) or mem; -COLUMN reverses",
			     sort_opt),
		OPT_CALLBACK(0, "rescan", &o->rescan, "SECONDS",
			     "full /proc rescan interval (default 5; 0: every refresh)",
			     seconds_opt),
		OPT_STRING(0, "record", &o->record, "FILE",
			   "also keep every refresh in perf.data FILE (continued if top wrote it)"),
		OPT_BOOLEAN(0, "stats", &o->stats, "print the CPU cost of sampling at the end"),
		OPT_BOOLEAN(0, "reparse", &o->reparse,
			    "parse and render every client each refresh, changed or not (benchmarks)"),
		OPT_CALLBACK(0, "clock-file", o, "FILE",
			     "replay: nanosecond timestamps, one per refresh (tests)", clock_opt),
		OPT_END(),
	};
	const struct parse_cmd cmd = { "top", top_usage, command__summary("top"), opts };
	int n;

	o->delay = 1;
	o->iterations = -1;
	o->rescan = 5;
	o->order.col = COL_BUSY;
	n = parse_options(argc, argv, &cmd, 0);
	if (n < 0)
		return n == PARSE_OPT_DONE ? n : EXIT_USAGE;
	if (n)
		return usage_error("top", "unexpected argument '%s' (see --help)", argv[0]);
	if (o->json && o->batch)
		return usage_error("top", "--json and -b are two outputs: give one");
	if (!o->nroots)
		o->roots[o->nroots++] = "/proc";
	if (!o->sys)
		o->sys = "/sys";
	if (o->record)
		return top_rec__check(o->record);
	return 0;
}

/*
 * A bad drm-engine-* or drm-*-memory value: once per client and key (the
 * caller dedups).  On a terminal the screen is ours: held until it is left.
 */
static void report_warning(void *ctx, const struct drm_client *cl, const char *path,
			   const struct hwt_error *e)
{
	struct top_view *tv = ctx;
	char comm[4 * sizeof(cl->comm)], line[1024];
	int n;

	n = snprintf(line, sizeof(line),
		     "perf hwtrace top: warning: %s: offset %llu: %s: %s (client of pid %d %s; not repeated)\n",
		     path, (unsigned long long)e->offset, e->rtype, e->msg,
		     cl->npids ? cl->pids[0] : 0, out__escape(comm, sizeof(comm), cl->comm));
	if (n < 0)
		return;
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	tv->nwarnings++;
	if (!tio_saved) {
		fputs(line, stderr);
		return;
	}
	{
		char *p = realloc(tv->warnings, tv->warnings_len + n + 1);

		if (!p)
			return;
		memcpy(p + tv->warnings_len, line, n + 1);
		tv->warnings = p;
		tv->warnings_len += n;
	}
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o = { 0 };
	struct top_view tv = { 0 };
	struct top_rows rows;
	struct drm_clients c;
	struct gpu_devices g;
	struct top_clock tc = { .o = &o };
	struct out *out;
	struct top_cost cost = { 0 };
	struct top_rec *rec = NULL;
	uint64_t last_full = 0;
	int ret = 0, r;
	bool tty;

	r = parse_opts(argc, argv, &o);
	if (r) {
		free(o.clock_vals);	/* loaded before a later option ended the run */
		return r == PARSE_OPT_DONE ? 0 : r;
	}
	out = out__stdout();
	/*
	 * A refresh of thousands of clients is megabytes of JSON or text: into
	 * a pipe of 1 MiB rather than the default 64 KiB it goes in a few
	 * writes, not a block and a context switch per 64 KiB.  Not a pipe, or
	 * over the user's pipe limits: the call fails and nothing changes.
	 */
	tty = !o.json && !o.batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
	if (!tty)
		fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
	{
		/* no SA_RESTART: a blocked open() or read() returns EINTR and top stops */
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sa.sa_handler = on_winch;	/* interrupts the wait: the view is redrawn */
		sigaction(SIGWINCH, &sa, NULL);
	}
	if (gpu_devices__scan(&g, o.sys) < 0) {
		fprintf(stderr, "perf hwtrace top: out of memory\n");
		free(o.clock_vals);
		return EXIT_INPUT_ERROR;
	}
	if (o.record && !(rec = top_rec__open(o.record))) {
		gpu_devices__exit(&g);
		free(o.clock_vals);
		return EXIT_INPUT_ERROR;
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
	c.reparse = o.reparse;
	c.warn = report_warning;
	c.warn_ctx = &tv;
	/* the rows of a whole refresh, JSON or batch text, are staged as read */
	top_rows__init(&rows, &c, o.json ? &json_rows : &top_text_rows);
	if (!tty) {
		c.updated = top_rows__updated;
		c.updated_ctx = &rows;
	}
	for (long it = 0; o.iterations < 0 || it < o.iterations; it++) {
		int ri = it < o.nroots ? (int)it : o.nroots - 1;
		bool full = it == 0 || o.roots[ri] != c.proc || o.rescan == 0;
		uint64_t now, cpu0, cpu1, end;
		enum top_wait w;

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
		gpu_devices__sample(&g, now);
		if (rec && top_rec__sample(rec, &c, &g, now)) {
			ret = EXIT_INPUT_ERROR;
			break;
		}
		cpu1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		render(out, &o, &c, &g, now, tty, &tv, &rows);
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
		if (o.iterations >= 0 && it + 1 >= o.iterations)
			break;
		/* keys and resizes redraw the same data until the refresh is due */
		end = mono_ns() + (uint64_t)(o.delay * 1e9);
		while ((w = wait_refresh(end, tty, &o, &tv)) == WAIT_REDRAW) {
			render(out, &o, &c, &g, now, tty, &tv, &rows);
			out__flush(out);
		}
		if (w == WAIT_QUIT || out->error)
			break;
	}
	tty_restore();
	out__flush(out);
	/* what was sampled before an error is kept: the samples are whole */
	if (rec && top_rec__close(rec, true))
		ret = EXIT_INPUT_ERROR;
	if (tv.warnings)
		fputs(tv.warnings, stderr);
	free(tv.warnings);
	if (o.stats && cost.nfull + cost.nquick)
		print_cost(&c, &cost);
	top_rows__exit(&rows);
	drm_clients__exit(&c);
	gpu_devices__exit(&g);
	free(o.clock_vals);
	return ret;
}
