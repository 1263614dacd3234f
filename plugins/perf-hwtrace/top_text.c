// SPDX-License-Identifier: GPL-2.0
/*
 * top_text.c - `top`'s text views: client order, -b blocks, the terminal view.
 *
 * Lines are built whole (struct line) so that the terminal view can cut each
 * at the window's width: nothing wraps, and the headers never scroll away.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "top_text.h"

const char *const top_col_names[COL_N] = {
	"pid", "comm", "driver", "pdev", "id", "busy", "mem",
};

uint64_t top_client_mem(const struct drm_client *cl, bool *is_total)
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

/*
 * The sort works on a compact key per client, built in one pass over @v:
 * comparing through the client pointers touched thousands of clients'
 * scattered structures again at every step of the sort.  Numbers map to
 * unsigned keys that sort smallest first (largest first where htop does
 * that: busy, memory), names stay strings; 'r' reverses the column only.
 */
struct sort_key {
	uint64_t k[2];		/* the column, most significant first */
	const char *s;		/* or its text (comm, driver, pdev) */
	uint64_t dev, id;	/* ties: device, then client id */
	struct drm_client *cl;
	uint32_t rank;		/* cl->view_rank, read in the pass in memory order */
	uint32_t idx;		/* cl's place in the input */
};

/* An order-preserving map of a double onto uint64_t (a NaN sorts beyond infinity). */
static uint64_t double_key(double x)
{
	uint64_t u;

	if (x == 0)
		x = 0;	/* -0 sorts with 0 */
	memcpy(&u, &x, sizeof(u));
	return (u >> 63) ? ~u : u | 1ull << 63;
}

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	int r;

	if (x->s || y->s) {
		r = strcmp(x->s, y->s);
		if (r)
			return x->k[0] ? -r : r;	/* k[0] marks reversal for strings */
	} else {
		if (x->k[0] != y->k[0])
			return x->k[0] < y->k[0] ? -1 : 1;
		if (x->k[1] != y->k[1])
			return x->k[1] < y->k[1] ? -1 : 1;
	}
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static void fill_key(struct sort_key *k, struct drm_client *cl, const struct top_order *ord)
{
	const char *s = NULL;
	uint64_t k0 = 0, k1 = 0;

	switch (ord->col) {
	case COL_PID:
		k0 = (uint64_t)(int64_t)(cl->npids ? cl->pids[0] : 0) ^ 1ull << 63;
		break;
	case COL_COMM:
		s = cl->comm;
		break;
	case COL_DRIVER:
		s = cl->cur.driver ? cl->cur.driver : "";
		break;
	case COL_PDEV:
		s = cl->cur.pdev ? cl->cur.pdev : "";
		break;
	case COL_ID:
		k0 = !cl->has_id;
		k1 = cl->client_id;
		break;
	case COL_BUSY:
		k0 = ~double_key(cl->total_util);
		break;
	case COL_MEM:
		k0 = ~top_client_mem(cl, NULL);
		break;
	default:
		break;
	}
	if (s) {
		k0 = ord->reverse;
	} else if (ord->reverse) {
		k0 = ~k0;
		k1 = ~k1;
	}
	*k = (struct sort_key){ { k0, k1 }, s, cl->dev, cl->client_id, cl, cl->view_rank };
}

/*
 * The keys in the order of the last sort, when the clients are the same
 * ones (each has a rank, every rank once): false otherwise.
 */
static bool last_order(const struct sort_key *keys, struct sort_key *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i].cl = NULL;
	for (int i = 0; i < n; i++) {
		uint32_t r = keys[i].rank;

		if (!r || r > (uint32_t)n || out[r - 1].cl)
			return false;
		out[r - 1] = keys[i];
	}
	return true;
}

/*
 * Between refreshes the order seldom changes (pids, names and ids never do,
 * idle clients tie on busy): the keys are first put in the last order, and
 * sorted only when that is no longer sorted.
 */
void top_sort(struct drm_client **v, int n, const struct top_order *ord)
{
	size_t m = n ? (size_t)n : 1;
	struct sort_key *keys = malloc(m * 2 * sizeof(*keys));
	struct drm_client **in = malloc(m * sizeof(*in));
	uint32_t *rank = malloc(m * sizeof(*rank));
	struct sort_key *by_rank;
	bool sorted;
	int i;

	if (!keys || !in || !rank)
		goto out;	/* unsorted is still every client */
	by_rank = keys + n;
	for (i = 0; i < n; i++) {
		fill_key(&keys[i], v[i], ord);
		keys[i].idx = (uint32_t)i;
		in[i] = v[i];
	}
	sorted = last_order(keys, by_rank, n);
	for (i = 1; sorted && i < n; i++)
		sorted = cmp_key(&by_rank[i - 1], &by_rank[i]) < 0;
	if (!sorted) {
		qsort(keys, n, sizeof(*keys), cmp_key);
		by_rank = keys;
	}
	for (i = 0; i < n; i++) {
		v[i] = by_rank[i].cl;
		rank[by_rank[i].idx] = (uint32_t)i + 1;
	}
	/* in the input's order: the clients lie in memory in that order */
	for (i = 0; i < n; i++)
		in[i]->view_rank = rank[i];
out:
	free(rank);
	free(in);
	free(keys);
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
	bool is_total, any_util = false;
	int off = 0;

	for (int i = 0; i < cl->npids && off < (int)sizeof(pids) - 12; i++)
		off += snprintf(pids + off, sizeof(pids) - off, "%s%d", i ? "," : "",
				cl->pids[i]);
	/* no drm-client-id: the fd is the client (its holder is in PID) */
	if (cl->has_id)
		snprintf(id, sizeof(id), "%llu", (unsigned long long)cl->client_id);
	else
		snprintf(id, sizeof(id), "fd%u", (unsigned)drm_client__fd(cl));
	human_bytes(mem, sizeof(mem), top_client_mem(cl, &is_total));
	lprintf(l, "%-12s %-15s %-8s %-12s %6s ", pids,
		out__escape(comm, sizeof(comm), cl->comm), out__escape(drv, sizeof(drv), fi->driver),
		fi->pdev ? out__escape(pdev, sizeof(pdev), fi->pdev) : "-", id);
	/* no engine has a utilisation yet (a first sample): "-", as the engines say */
	for (uint32_t i = 0; i < fi->nengines && !any_util; i++)
		any_util = cl->util[i].src != HWT_DRM_UTIL_NONE;
	if (any_util)
		lprintf(l, "%5.1f%% ", cl->total_util < 0 ? 0 : cl->total_util > 999 ? 999 :
			cl->total_util);
	else
		lprintf(l, "%6s ", "-");
	lprintf(l, "%7s%s", fi->nregions ? mem : "-", is_total ? "t" : " ");
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

static const char *const col_titles[COL_N] = {
	"PID", "COMM", "DRIVER", "PDEV", "ID", "BUSY", "MEM",
};

static void column_header(struct line *l, const struct top_order *ord)
{
	static const int widths[COL_N] = { -12, -15, -8, -12, 6, 6, 8 };
	char t[16];

	for (int i = 0; i < COL_N; i++) {
		/* the sort column is marked: v largest first, ^ smallest first */
		bool down = (i == COL_BUSY || i == COL_MEM) != ord->reverse;

		snprintf(t, sizeof(t), "%s%s", col_titles[i], i != (int)ord->col ? "" : down ? "v" : "^");
		lprintf(l, "%*s ", widths[i], t);
	}
	lprintf(l, "ENGINES | MEMORY (t: total, no resident)");
}

/* One screen line: clipped to @cols, the rest of the row cleared. */
static void screen_line(struct out *o, const struct line *l, int cols, bool last)
{
	out__write(o, l->s ? l->s : "", l->len < (size_t)cols ? l->len : (size_t)cols);
	out__puts(o, last ? "\033[K" : "\033[K\r\n");
}

void top_text_tty(struct out *o, double delay, struct drm_client **v, int n,
		  const struct gpu_devices *g, const struct top_order *ord, struct top_view *tv)
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
	if (tv->scroll > n - tv->page)
		tv->scroll = n - tv->page;
	if (tv->scroll < 0)
		tv->scroll = 0;
	out__puts(o, "\033[H");
	lprintf(&l, "hwtrace top - %d DRM client%s, every %.1fs, rows %d-%d%s",
		n, n == 1 ? "" : "s", delay, n ? tv->scroll + 1 : 0,
		tv->scroll + tv->page < n ? tv->scroll + tv->page : n,
		tv->nwarnings ? ", fdinfo warnings shown on exit" : "");
	lprintf(&l, " | </>/F6 sort, r reverse, arrows PgUp PgDn scroll, q quit");
	screen_line(o, &l, cols, ++y >= rows);
	for (int i = 0; i < g->n && y < rows; i++) {
		l.len = 0;
		text_device(&l, &g->dev[i]);
		screen_line(o, &l, cols, ++y >= rows);
	}
	if (y < rows) {
		l.len = 0;
		column_header(&l, ord);
		screen_line(o, &l, cols, ++y >= rows);
	}
	for (int i = tv->scroll; i < n && y < rows; i++) {
		l.len = 0;
		text_client(&l, v[i]);
		screen_line(o, &l, cols, ++y >= rows);
	}
	out__puts(o, "\033[J");
	free(l.s);
}

void top_text_batch(struct out *o, double time, struct drm_client **v, int n,
		    const struct gpu_devices *g, const struct top_order *ord)
{
	struct line l = { 0 };

	out__printf(o, "# time %.3f clients %d\n", time, n);
	for (int i = 0; i < g->n; i++) {
		l.len = 0;
		lprintf(&l, "# gpu ");
		text_device(&l, &g->dev[i]);
		out__write(o, l.s, l.len);
		out__putc(o, '\n');
	}
	l.len = 0;
	column_header(&l, ord);
	out__write(o, l.s, l.len);
	out__putc(o, '\n');
	for (int i = 0; i < n; i++) {
		l.len = 0;
		text_client(&l, v[i]);
		out__write(o, l.s, l.len);
		out__putc(o, '\n');
	}
	out__putc(o, '\n');
	free(l.s);
}

/*
 * The length of the escape sequence at @p (@n bytes, p[0] is ESC): CSI
 * (ESC [ parameters, intermediates, a final byte) or SS3 (ESC O and one
 * byte), as xterm-likes send them; 1 for a lone ESC, 2 for ESC and another
 * key (Alt).  A sequence cut at the end of the read takes the rest.
 */
static size_t esc_len(const char *p, size_t n)
{
	size_t i = 2;

	if (n < 2)
		return 1;
	if (p[1] == 'O')
		return n < 3 ? n : 3;
	if (p[1] != '[')
		return 2;
	while (i < n && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] <= 0x3f)
		i++;
	return i < n ? i + 1 : n;
}

/* Sort by @col in its natural order: largest first for numbers, smallest first for the rest. */
static void sort_by(struct top_order *ord, enum top_col col)
{
	ord->col = col;
	ord->reverse = false;
}

/* '+' ascending, '-' descending (nvtop): whatever the column's natural order */
static void sort_dir(struct top_order *ord, bool ascending)
{
	bool numeric = ord->col == COL_BUSY || ord->col == COL_MEM;

	ord->reverse = numeric == ascending;
}

enum top_wait top_keys(const char *buf, size_t n, struct top_order *ord, struct top_view *tv)
{
	/* escape sequences of xterm-likes (tmux, the Linux console), both cursor modes */
	static const struct { const char *seq; int act; } seqs[] = {
		{ "\033[A", -1 }, { "\033OA", -1 }, { "\033[B", 1 }, { "\033OB", 1 },
		{ "\033[5~", -1000 }, { "\033[6~", 1000 },	/* PgUp, PgDn: a page */
		{ "\033[H", -2000 }, { "\033[1~", -2000 }, { "\033OH", -2000 },	/* Home */
		{ "\033[F", 2000 }, { "\033[4~", 2000 }, { "\033OF", 2000 },	/* End */
		{ "\033[17~", 3000 },		/* F6: the next sort column */
		{ "\033[21~", 4000 },		/* F10: quit, as htop and nvtop */
	};
	enum top_wait r = WAIT_TIMEOUT;

	for (size_t i = 0; i < n;) {
		size_t k, len;

		if (buf[i] == '\033') {
			/* a whole sequence is one key: F2's "ESC O Q" is no 'Q' */
			len = esc_len(buf + i, n - i);
			for (k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++)
				if (strlen(seqs[k].seq) == len && !memcmp(buf + i, seqs[k].seq, len))
					break;
			i += len;
			if (k == sizeof(seqs) / sizeof(seqs[0]))
				continue;	/* a key top has no use for */
			switch (seqs[k].act) {
			case -1000: tv->scroll -= tv->page; break;
			case 1000: tv->scroll += tv->page; break;
			case -2000: tv->scroll = 0; break;
			case 2000: tv->scroll = 1 << 30; break;
			case 3000: ord->col = (ord->col + 1) % COL_N; break;
			case 4000: return WAIT_QUIT;
			default: tv->scroll += seqs[k].act; break;
			}
			r = WAIT_REDRAW;
			continue;
		}
		switch (buf[i++]) {
		case 'q': case 'Q':
			return WAIT_QUIT;
		case '<': case ',':
			ord->col = (ord->col + COL_N - 1) % COL_N;
			break;
		case '>': case '.':
			ord->col = (ord->col + 1) % COL_N;
			break;
		case 'r': case 'R': case 'I':	/* I: htop's invert */
			ord->reverse = !ord->reverse;
			break;
		case '+':
			sort_dir(ord, true);
			break;
		case '-':
			sort_dir(ord, false);
			break;
		case 'M':			/* htop: memory, CPU (here the GPU's busy), PID */
			sort_by(ord, COL_MEM);
			break;
		case 'P':
			sort_by(ord, COL_BUSY);
			break;
		case 'N':
			sort_by(ord, COL_PID);
			break;
		default:
			continue;
		}
		r = WAIT_REDRAW;
	}
	return r;
}

