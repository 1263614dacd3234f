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
 */
#include <errno.h>
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
#include "out.h"

#define MAX_ROOTS 64

/* Sortable columns, in screen order; '<' '>' (F6) move along them. */
enum top_col { COL_PID, COL_COMM, COL_DRIVER, COL_PDEV, COL_ID, COL_BUSY, COL_MEM, COL_N };

static const char *const col_names[COL_N] = {
	"pid", "comm", "driver", "pdev", "id", "busy", "mem",
};

struct top_opts {
	const char *roots[MAX_ROOTS];
	int nroots;
	const char *sys;	/* sysfs root for the GPU headers */
	const char *sort_name;
	enum top_col sort;
	bool reverse;
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

/* Memory of a client: resident bytes of every region, total where resident is absent. */
static uint64_t client_mem(const struct drm_client *cl, bool *is_total)
{
	uint64_t sum = 0;

	if (is_total)
		*is_total = false;
	for (uint32_t i = 0; i < cl->cur.nregions; i++) {
		const struct hwt_drm_region *r = &cl->cur.regions[i];

		if (r->have & (1u << HWT_DRM_MEM_RESIDENT)) {
			sum += r->bytes[HWT_DRM_MEM_RESIDENT];
		} else if (r->have & (1u << HWT_DRM_MEM_TOTAL)) {
			sum += r->bytes[HWT_DRM_MEM_TOTAL];
			if (is_total)
				*is_total = true;
		}
	}
	return sum;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* qsort has no context: the order of the refresh being drawn */
static enum top_col sort_col = COL_BUSY;
static bool sort_reverse;

/*
 * Numbers (busy, memory) sort largest first, names and ids smallest first,
 * as in htop; 'r' reverses.  Ties: device, then client id.
 */
static int cmp_client(const void *a, const void *b)
{
	const struct drm_client *x = *(const struct drm_client *const *)a;
	const struct drm_client *y = *(const struct drm_client *const *)b;
	int r = 0;

	switch (sort_col) {
	case COL_PID:
		r = (x->npids ? x->pids[0] : 0) - (y->npids ? y->pids[0] : 0);
		break;
	case COL_COMM:
		r = strcmp(x->comm, y->comm);
		break;
	case COL_DRIVER:
		r = cmp_str(x->cur.driver, y->cur.driver);
		break;
	case COL_PDEV:
		r = cmp_str(x->cur.pdev, y->cur.pdev);
		break;
	case COL_ID:
		r = (x->has_id != y->has_id) ? (x->has_id ? -1 : 1) :
		    (x->client_id > y->client_id) - (x->client_id < y->client_id);
		break;
	case COL_BUSY:
		r = (x->total_util < y->total_util) - (x->total_util > y->total_util);
		break;
	case COL_MEM: {
		uint64_t mx = client_mem(x, NULL), my = client_mem(y, NULL);

		r = (mx < my) - (mx > my);
		break;
	}
	default:
		break;
	}
	if (sort_reverse)
		r = -r;
	if (r)
		return r;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->client_id < y->client_id ? -1 : x->client_id > y->client_id;
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

/* One text line being built; the tty view clips it to the window's width. */
struct line {
	char *s;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3))) lprintf(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = l->cap - l->len;

		va_start(ap, fmt);
		n = vsnprintf(l->s ? l->s + l->len : NULL, l->s ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (l->s && (size_t)n < room) {
			l->len += n;
			return;
		}
		{
			size_t ncap = (l->cap ? l->cap * 2 : 256) + n;
			char *p = realloc(l->s, ncap);

			if (!p)
				return;
			l->s = p;
			l->cap = ncap;
		}
	}
}

/* Text from other processes and drivers, escaped (out__escape) */
static void lput_text(struct line *l, const char *s)
{
	char buf[512];

	lprintf(l, "%s", out__escape(buf, sizeof(buf), s));
}

static void pct_or_dash(struct line *l, double pct)
{
	if (isnan(pct))
		lprintf(l, "-");
	else	/* clamp for display only */
		lprintf(l, "%.1f%%", pct < 0 ? 0 : pct > 100 ? 100 : pct);
}

static void text_client(struct line *l, const struct drm_client *cl)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;
	char pids[64] = "", mem[32], id[32], comm[4 * sizeof(cl->comm)], drv[128], pdev[128];
	bool is_total;
	int off = 0;

	for (int i = 0; i < cl->npids && off < (int)sizeof(pids) - 12; i++)
		off += snprintf(pids + off, sizeof(pids) - off, "%s%d", i ? "," : "",
				cl->pids[i]);
	/* no drm-client-id: the fd is the client (its holder is in PID) */
	if (cl->has_id)
		snprintf(id, sizeof(id), "%llu", (unsigned long long)cl->client_id);
	else
		snprintf(id, sizeof(id), "fd%u", (unsigned)(cl->client_id & 0xffffffffu));
	human_bytes(mem, sizeof(mem), client_mem(cl, &is_total));
	lprintf(l, "%-12s %-15s %-8s %-12s %6s ", pids,
		out__escape(comm, sizeof(comm), cl->comm), out__escape(drv, sizeof(drv), fi->driver),
		fi->pdev ? out__escape(pdev, sizeof(pdev), fi->pdev) : "-", id);
	lprintf(l, "%5.1f%% %7s%s", cl->total_util < 0 ? 0 : cl->total_util > 999 ? 999 :
		cl->total_util, fi->nregions ? mem : "-", is_total ? "t" : " ");
	for (uint32_t i = 0; i < fi->nengines; i++) {
		const struct hwt_drm_util *u = &cl->util[i];

		lprintf(l, " ");
		lput_text(l, fi->engines[i].name);
		lprintf(l, ":");
		pct_or_dash(l, u->src == HWT_DRM_UTIL_NONE ? NAN : u->percent);
	}
	lprintf(l, " |");
	for (uint32_t i = 0; i < fi->nregions; i++) {
		const struct hwt_drm_region *r = &fi->regions[i];
		bool res = r->have & (1u << HWT_DRM_MEM_RESIDENT);

		/* resident; a driver that prints only drm-total-*: total, marked "t" */
		if (!res && !(r->have & (1u << HWT_DRM_MEM_TOTAL)))
			continue;
		human_bytes(mem, sizeof(mem), r->bytes[res ? HWT_DRM_MEM_RESIDENT :
						     HWT_DRM_MEM_TOTAL]);
		lprintf(l, " ");
		lput_text(l, r->name);
		lprintf(l, ":%s%s", mem, res ? "" : "t");
	}
}

static void text_device(struct line *l, const struct gpu_device *d)
{
	char a[32], b[32];

	lprintf(l, "%s ", d->card);
	lput_text(l, d->driver[0] ? d->driver : "-");
	lprintf(l, " ");
	lput_text(l, d->pdev[0] ? d->pdev : "-");
	if (d->cur_mhz >= 0)
		snprintf(a, sizeof(a), "%lld", (long long)d->cur_mhz);
	else
		snprintf(a, sizeof(a), "-");
	if (d->max_mhz >= 0)
		snprintf(b, sizeof(b), "%lld", (long long)d->max_mhz);
	else
		snprintf(b, sizeof(b), "-");
	lprintf(l, "  freq %s/%s MHz", a, b);
	if (isnan(d->power_w))
		lprintf(l, "  power -");
	else
		lprintf(l, "  power %.1f W", d->power_w);
	if (isnan(d->temp_c))
		lprintf(l, "  temp -");
	else
		lprintf(l, "  temp %.1f C", d->temp_c);
	if (d->vram_used >= 0)
		human_bytes(a, sizeof(a), d->vram_used);
	else
		snprintf(a, sizeof(a), "-");
	if (d->vram_total >= 0)
		human_bytes(b, sizeof(b), d->vram_total);
	else
		snprintf(b, sizeof(b), "-");
	lprintf(l, "  vram %s/%s", a, b);
	for (int i = 0; i < d->nengines; i++) {
		lprintf(l, " %s:", d->engines[i].name);
		pct_or_dash(l, d->engines[i].busy_pct);
	}
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

/* What the interactive view keeps between draws. */
struct top_view {
	int scroll;		/* first client row shown */
	int page;		/* client rows that fit, from the last draw */
	int nwarnings;		/* held until the screen is left */
	char *warnings;
	size_t warnings_len;
};

static const char *const col_titles[COL_N] = {
	"PID", "COMM", "DRIVER", "PDEV", "ID", "BUSY", "MEM",
};

static void column_header(struct line *l, const struct top_opts *o)
{
	static const int widths[COL_N] = { -12, -15, -8, -12, 6, 6, 8 };
	char t[16];

	for (int i = 0; i < COL_N; i++) {
		/* the sort column is marked: v largest first, ^ smallest first */
		bool down = (i == COL_BUSY || i == COL_MEM) != o->reverse;

		snprintf(t, sizeof(t), "%s%s", col_titles[i], i != (int)o->sort ? "" : down ? "v" : "^");
		lprintf(l, "%*s ", widths[i], t);
	}
	lprintf(l, "ENGINES | MEMORY (t: total, no resident)");
}

/* One screen line: clipped to @cols, the rest of the row cleared. */
static void screen_line(struct out *o, const struct line *l, int cols, bool last)
{
	put(o, l->s ? l->s : "", l->len < (size_t)cols ? l->len : (size_t)cols);
	PUT_LIT(o, "\033[K");
	if (!last)
		PUT_LIT(o, "\r\n");
}

static void render_tty(struct out *o, const struct top_opts *opts, struct drm_clients *c,
		       const struct gpu_devices *g, struct drm_client **v, struct top_view *tv)
{
	struct winsize ws;
	int rows = 24, cols = 80, y = 0, fixed;
	struct line l = { 0 };

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		rows = ws.ws_row;
		cols = ws.ws_col;
	}
	fixed = 2 + g->n;	/* title, GPUs, column header */
	tv->page = rows > fixed ? rows - fixed : 0;
	if (tv->scroll > c->nclients - tv->page)
		tv->scroll = c->nclients - tv->page;
	if (tv->scroll < 0)
		tv->scroll = 0;
	PUT_LIT(o, "\033[H");
	lprintf(&l, "hwtrace top - %d DRM client%s, every %.1fs, rows %d-%d%s%s | </>/F6 sort, r reverse, arrows PgUp PgDn scroll, q quit",
		c->nclients, c->nclients == 1 ? "" : "s", opts->delay,
		c->nclients ? tv->scroll + 1 : 0,
		tv->scroll + tv->page < c->nclients ? tv->scroll + tv->page : c->nclients,
		tv->nwarnings ? ", warnings shown on exit" : "", "");
	screen_line(o, &l, cols, ++y >= rows);
	for (int i = 0; i < g->n && y < rows; i++) {
		l.len = 0;
		text_device(&l, &g->dev[i]);
		screen_line(o, &l, cols, ++y >= rows);
	}
	if (y < rows) {
		l.len = 0;
		column_header(&l, opts);
		screen_line(o, &l, cols, ++y >= rows);
	}
	for (int i = tv->scroll; i < c->nclients && y < rows; i++) {
		l.len = 0;
		text_client(&l, v[i]);
		screen_line(o, &l, cols, ++y >= rows);
	}
	PUT_LIT(o, "\033[J");
	free(l.s);
}

static void render(struct out *o, const struct top_opts *opts, struct drm_clients *c,
		   const struct gpu_devices *g, uint64_t mono, bool tty, struct top_view *tv)
{
	struct drm_client **v = malloc((c->nclients + 1) * sizeof(*v));
	struct line l = { 0 };

	if (!v)
		return;
	for (int i = 0; i < c->nclients; i++)
		v[i] = &c->clients[i];
	sort_col = opts->sort;
	sort_reverse = opts->reverse;
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
		PUT_LIT(o, "],\"devices\":[");
		for (int i = 0; i < g->n; i++) {
			if (i)
				out__putc(o, ',');
			json_device(o, &g->dev[i]);
		}
		out__puts(o, "]}\n");
		free(v);
		return;
	}
	if (tty) {
		render_tty(o, opts, c, g, v, tv);
		free(v);
		return;
	}
	out__printf(o, "# time %.3f clients %d\n", time_now(opts, mono), c->nclients);
	for (int i = 0; i < g->n; i++) {
		l.len = 0;
		lprintf(&l, "# gpu ");
		text_device(&l, &g->dev[i]);
		put(o, l.s, l.len);
		out__putc(o, '\n');
	}
	l.len = 0;
	column_header(&l, opts);
	put(o, l.s, l.len);
	out__putc(o, '\n');
	for (int i = 0; i < c->nclients; i++) {
		l.len = 0;
		text_client(&l, v[i]);
		put(o, l.s, l.len);
		out__putc(o, '\n');
	}
	out__putc(o, '\n');
	free(l.s);
	free(v);
}

enum top_wait { WAIT_TIMEOUT, WAIT_REDRAW, WAIT_QUIT };

/* Apply the keys in @buf to the view; WAIT_QUIT, WAIT_REDRAW, or WAIT_TIMEOUT if nothing changed. */
static enum top_wait top_keys(const char *buf, size_t n, struct top_opts *o, struct top_view *tv)
{
	/* escape sequences of xterm-likes (tmux, the Linux console), both cursor modes */
	static const struct { const char *seq; int scroll; } moves[] = {
		{ "\033[A", -1 }, { "\033OA", -1 }, { "\033[B", 1 }, { "\033OB", 1 },
		{ "\033[5~", -1000 }, { "\033[6~", 1000 },	/* PgUp, PgDn: a page */
		{ "\033[H", -2000 }, { "\033[1~", -2000 }, { "\033OH", -2000 },	/* Home */
		{ "\033[F", 2000 }, { "\033[4~", 2000 }, { "\033OF", 2000 },	/* End */
	};
	enum top_wait r = WAIT_TIMEOUT;

	for (size_t i = 0; i < n;) {
		size_t k, len = 0;

		if (buf[i] == '\033') {
			if (n - i >= 5 && !memcmp(buf + i, "\033[17~", 5)) {	/* F6 */
				o->sort = (o->sort + 1) % COL_N;
				r = WAIT_REDRAW;
				i += 5;
				continue;
			}
			for (k = 0; k < sizeof(moves) / sizeof(moves[0]); k++) {
				len = strlen(moves[k].seq);
				if (n - i >= len && !memcmp(buf + i, moves[k].seq, len))
					break;
			}
			if (k == sizeof(moves) / sizeof(moves[0])) {
				i++;	/* an unknown sequence: its bytes are ignored one by one */
				continue;
			}
			switch (moves[k].scroll) {
			case -1000: tv->scroll -= tv->page; break;
			case 1000: tv->scroll += tv->page; break;
			case -2000: tv->scroll = 0; break;
			case 2000: tv->scroll = 1 << 30; break;
			default: tv->scroll += moves[k].scroll; break;
			}
			r = WAIT_REDRAW;
			i += len;
			continue;
		}
		switch (buf[i++]) {
		case 'q': case 'Q':
			return WAIT_QUIT;
		case '<': case ',':
			o->sort = (o->sort + COL_N - 1) % COL_N;
			r = WAIT_REDRAW;
			break;
		case '>': case '.':
			o->sort = (o->sort + 1) % COL_N;
			r = WAIT_REDRAW;
			break;
		case 'r': case 'R':
			o->reverse = !o->reverse;
			r = WAIT_REDRAW;
			break;
		default:
			break;
		}
	}
	return r;
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
			w = top_keys(buf, n, o, tv);
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
	"[--proc DIR]... [--sys DIR] [-d SECONDS] [-n N] [--json|-b] [--sort COLUMN] [--rescan SECONDS]",
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
	o->reverse = *name == '-';
	name += o->reverse;
	for (int i = 0; i < COL_N; i++) {
		if (!strcmp(name, col_names[i])) {
			o->sort = i;
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
	o->sort = COL_BUSY;
	n = parse_options(argc, argv, &cmd, 0);
	if (n < 0)
		return n == PARSE_OPT_DONE ? n : EXIT_USAGE;
	if (n)
		return usage_error("top", "unexpected argument '%s' (see --help)", argv[0]);
	if (!o->nroots)
		o->roots[o->nroots++] = "/proc";
	if (!o->sys)
		o->sys = "/sys";
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
	struct drm_clients c;
	struct gpu_devices g;
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
		sa.sa_handler = on_winch;	/* interrupts the wait: the view is redrawn */
		sigaction(SIGWINCH, &sa, NULL);
	}
	if (gpu_devices__scan(&g, o.sys) < 0) {
		fprintf(stderr, "perf hwtrace top: out of memory\n");
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
	c.warn = report_warning;
	c.warn_ctx = &tv;
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
		cpu1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		render(out, &o, &c, &g, now, tty, &tv);
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
			render(out, &o, &c, &g, now, tty, &tv);
			out__flush(out);
		}
		if (w == WAIT_QUIT || out->error)
			break;
	}
	tty_restore();
	out__flush(out);
	if (tv.warnings)
		fputs(tv.warnings, stderr);
	free(tv.warnings);
	if (o.stats && cost.nfull + cost.nquick)
		print_cost(&c, &cost);
	drm_clients__exit(&c);
	gpu_devices__exit(&g);
	free(o.clock_vals);
	return ret;
}
