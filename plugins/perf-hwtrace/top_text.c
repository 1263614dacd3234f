// SPDX-License-Identifier: GPL-2.0
/*
 * top_text.c - `top`'s text views: client order, -b blocks, the terminal view.
 *
 * The terminal view builds each line whole (an out into a membuf) so that it
 * can cut it at the window's width: nothing wraps, and the headers never
 * scroll away.  A client's row is a head and a body (top_rows.h), which -b
 * stages as clients are read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "membuf.h"
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

/* Room human_bytes() needs: out__put_u64() and out__put_fixed() store past the number */
#define HB_SIZE (OUT_NUM_ROOM + 8)

/* @v bytes as "%lluB" or "%.1f" and a unit (K, M, ...), at most 8 characters */
static void human_bytes(char buf[HB_SIZE], uint64_t v)
{
	static const char units[] = "BKMGTP";
	double x = (double)v;
	char *end;
	int u = 0;

	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	if (u == 0) {
		end = out__put_u64(buf, v);
		*end++ = 'B';
	} else {
		end = out__put_fixed(buf, x, 1);
		if (!end) {	/* beyond 2^51 / 10 P: printf's own */
			snprintf(buf, HB_SIZE, "%.1f%c", x, units[u]);
			return;
		}
		*end++ = units[u];
	}
	*end = 0;
}

/*
 * The rows are built with copies and out.c's number formatting, not a
 * printf() per piece: in batch mode a refresh is thousands of rows, and
 * printf() was most of their cost.
 */

/* @n spaces */
static void put_spaces(struct out *o, size_t n)
{
	static const char sp[16] = "                ";

	for (size_t k; n; n -= k) {
		k = n < sizeof(sp) ? n : sizeof(sp);
		out__write(o, sp, k);
	}
}

/* @s (@n bytes) in @width columns, as "%-*s" (@left) or "%*s" would put it */
static void put_pad(struct out *o, const char *s, size_t n, size_t width, bool left)
{
	size_t pad = n < width ? width - n : 0;

	if (!left)
		put_spaces(o, pad);
	out__write(o, s, n);
	if (left)
		put_spaces(o, pad);
}

/*
 * @s escaped as out__escape() into @size bytes gives it (cut to fit): @s
 * itself when nothing needs escaping, the common case, with no copy
 */
static const char *esc(char *buf, size_t size, const char *s, size_t *len)
{
	size_t n = out__text_plain(s);

	if (!s[n] && n < size) {
		*len = n;
		return s;
	}
	out__escape(buf, size, s);
	*len = strlen(buf);
	return buf;
}

/* Text from other processes and drivers, escaped (out__escape()) */
static void put_text(struct out *o, const char *s)
{
	char buf[512];
	size_t n;
	const char *t = esc(buf, sizeof(buf), s, &n);

	out__write(o, t, n);
}

/* @s escaped into @size bytes, in @width columns (left-aligned) */
static void put_text_col(struct out *o, const char *s, size_t size, size_t width)
{
	char buf[512];
	size_t n;
	const char *t = esc(buf, size < sizeof(buf) ? size : sizeof(buf), s, &n);

	put_pad(o, t, n, width, true);
}

/* @x as "%.1f" would put it, then @suffix */
static void put_fixed1(struct out *o, double x, const char *suffix)
{
	char *p = out__room(o, OUT_NUM_ROOM + 8), *end = out__put_fixed(p, x, 1);

	if (end)
		out__set_end(o, end);
	else
		out__printf(o, "%.1f", x);
	out__puts(o, suffix);
}

static void pct_or_dash(struct out *o, double pct)
{
	if (isnan(pct))
		out__putc(o, '-');
	else	/* clamp for display only */
		put_fixed1(o, pct < 0 ? 0 : pct > 100 ? 100 : pct, "%");
}

/* A client's row up to the busy column: what only a scan or a new driver, pdev or id changes. */
static void text_client_head(struct out *o, const struct drm_client *cl)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;
	char pids[64 + OUT_NUM_ROOM], id[32 + OUT_NUM_ROOM];
	size_t off = 0, n;

	/* as "%s%d" each while off < 52: every pid a kernel gives fits */
	for (int i = 0; i < cl->npids && off < sizeof(pids) - OUT_NUM_ROOM - 12; i++) {
		if (i)
			pids[off++] = ',';
		if (cl->pids[i] >= 0)
			off = out__put_u64(pids + off, (uint64_t)cl->pids[i]) - pids;
		else
			off += (size_t)snprintf(pids + off, 12, "%d", cl->pids[i]);
	}
	put_pad(o, pids, off, 12, true);
	out__putc(o, ' ');
	put_text_col(o, cl->comm, 4 * sizeof(cl->comm), 15);
	out__putc(o, ' ');
	put_text_col(o, fi->driver, 128, 8);
	out__putc(o, ' ');
	put_text_col(o, fi->pdev ? fi->pdev : "-", 128, 12);
	out__putc(o, ' ');
	/* no drm-client-id: the fd is the client (its holder is in PID) */
	if (cl->has_id) {
		n = (size_t)(out__put_u64(id, cl->client_id) - id);
	} else {
		memcpy(id, "fd", 2);
		n = (size_t)(out__put_u64(id + 2, drm_client__fd(cl)) - id);
	}
	put_pad(o, id, n, 6, false);
	out__putc(o, ' ');
}

/* The rest: busy, memory, each engine's busy and each region's memory. */
static void text_client_body(struct out *o, const struct drm_client *cl)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;
	char mem[HB_SIZE], busy[16 + OUT_NUM_ROOM];
	bool is_total, any_util = false;

	/* no engine has a utilisation yet (a first sample): "-", as the engines say */
	for (uint32_t i = 0; i < fi->nengines && !any_util; i++)
		any_util = cl->util[i].src != HWT_DRM_UTIL_NONE;
	if (any_util) {
		double u = cl->total_util < 0 ? 0 : cl->total_util > 999 ? 999 : cl->total_util;
		char *end = out__put_fixed(busy, u, 1);

		if (!end)	/* NaN */
			end = busy + snprintf(busy, 16, "%.1f", u);
		*end++ = '%';
		put_pad(o, busy, (size_t)(end - busy), 6, false);
	} else {
		put_pad(o, "-", 1, 6, false);
	}
	out__putc(o, ' ');
	human_bytes(mem, top_client_mem(cl, &is_total));
	if (fi->nregions)
		put_pad(o, mem, strlen(mem), 7, false);
	else
		put_pad(o, "-", 1, 7, false);
	out__putc(o, is_total ? 't' : ' ');
	for (uint32_t i = 0; i < fi->nengines; i++) {
		const struct hwt_drm_util *u = &cl->util[i];

		out__putc(o, ' ');
		put_text(o, fi->engines[i].name);
		out__putc(o, ':');
		pct_or_dash(o, u->src == HWT_DRM_UTIL_NONE ? NAN : u->percent);
	}
	out__write(o, " |", 2);
	for (uint32_t i = 0; i < fi->nregions; i++) {
		const struct hwt_drm_region *r = &fi->regions[i];
		bool res = r->have & (1u << HWT_DRM_MEM_RESIDENT);

		/* resident; a driver that prints only drm-total-*: total, marked "t" */
		if (!res && !(r->have & (1u << HWT_DRM_MEM_TOTAL)))
			continue;
		human_bytes(mem, r->bytes[res ? HWT_DRM_MEM_RESIDENT : HWT_DRM_MEM_TOTAL]);
		out__putc(o, ' ');
		put_text(o, r->name);
		out__putc(o, ':');
		out__puts(o, mem);
		if (!res)
			out__putc(o, 't');
	}
}

const struct top_rows_ops top_text_rows = { .head = text_client_head, .body = text_client_body };

static void text_device(struct out *o, const struct gpu_device *d)
{
	char a[HB_SIZE], b[HB_SIZE];

	out__printf(o, "%s ", d->card);
	put_text(o, d->driver[0] ? d->driver : "-");
	out__putc(o, ' ');
	put_text(o, d->pdev[0] ? d->pdev : "-");
	if (d->cur_mhz >= 0)
		snprintf(a, sizeof(a), "%lld", (long long)d->cur_mhz);
	else
		snprintf(a, sizeof(a), "-");
	if (d->max_mhz >= 0)
		snprintf(b, sizeof(b), "%lld", (long long)d->max_mhz);
	else
		snprintf(b, sizeof(b), "-");
	out__printf(o, "  freq %s/%s MHz", a, b);
	if (isnan(d->power_w))
		out__puts(o, "  power -");
	else
		out__printf(o, "  power %.1f W", d->power_w);
	if (isnan(d->temp_c))
		out__puts(o, "  temp -");
	else
		out__printf(o, "  temp %.1f C", d->temp_c);
	if (d->vram_used >= 0)
		human_bytes(a, d->vram_used);
	else
		snprintf(a, sizeof(a), "-");
	if (d->vram_total >= 0)
		human_bytes(b, d->vram_total);
	else
		snprintf(b, sizeof(b), "-");
	out__printf(o, "  vram %s/%s", a, b);
	for (int i = 0; i < d->nengines; i++) {
		/* an i915 engine is named by its PMU's sysfs event file */
		out__putc(o, ' ');
		put_text(o, d->engines[i].name);
		out__putc(o, ':');
		pct_or_dash(o, d->engines[i].busy_pct);
	}
}

static const char *const col_titles[COL_N] = {
	"PID", "COMM", "DRIVER", "PDEV", "ID", "BUSY", "MEM",
};

static void column_header(struct out *o, const struct top_order *ord)
{
	static const int widths[COL_N] = { -12, -15, -8, -12, 6, 6, 8 };
	char t[16];

	for (int i = 0; i < COL_N; i++) {
		/* the sort column is marked: v largest first, ^ smallest first */
		bool down = (i == COL_BUSY || i == COL_MEM) != ord->reverse;

		snprintf(t, sizeof(t), "%s%s", col_titles[i], i != (int)ord->col ? "" : down ? "v" : "^");
		out__printf(o, "%*s ", widths[i], t);
	}
	out__puts(o, "ENGINES | MEMORY (t: total, no resident)");
}

/*
 * One screen line, built whole in @l (an out that flushes into @m) so that
 * it can be clipped to @cols and nothing wraps: written, the rest of the
 * row cleared, and @l emptied for the next line.
 */
static void screen_line(struct out *o, struct out *l, struct membuf *m, int cols, bool last)
{
	out__flush(l);
	out__write(o, m->p ? m->p : "", m->len < (size_t)cols ? m->len : (size_t)cols);
	out__puts(o, last ? "\033[K" : "\033[K\r\n");
	m->len = 0;
}

void top_text_tty(struct out *o, double delay, struct drm_client **v, int n,
		  const struct gpu_devices *g, const struct top_order *ord, struct top_view *tv)
{
	struct winsize ws;
	int rows = 24, cols = 80, y = 0, fixed;
	struct membuf m = { 0 };
	struct out l;

	out__init_mem(&l, &m);
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
	out__printf(&l, "hwtrace top - %d DRM client%s, every %.1fs, rows %d-%d%s",
		    n, n == 1 ? "" : "s", delay, n ? tv->scroll + 1 : 0,
		    tv->scroll + tv->page < n ? tv->scroll + tv->page : n,
		    tv->nwarnings ? ", fdinfo warnings shown on exit" : "");
	out__puts(&l, " | </>/F6 sort, r reverse, arrows PgUp PgDn scroll, q quit");
	screen_line(o, &l, &m, cols, ++y >= rows);
	for (int i = 0; i < g->n && y < rows; i++) {
		text_device(&l, &g->dev[i]);
		screen_line(o, &l, &m, cols, ++y >= rows);
	}
	if (y < rows) {
		column_header(&l, ord);
		screen_line(o, &l, &m, cols, ++y >= rows);
	}
	for (int i = tv->scroll; i < n && y < rows; i++) {
		text_client_head(&l, v[i]);
		text_client_body(&l, v[i]);
		screen_line(o, &l, &m, cols, ++y >= rows);
	}
	out__puts(o, "\033[J");
	membuf__free(&m);
}

void top_text_batch(struct out *o, double time, struct drm_client **v, struct drm_clients *c,
		    const struct gpu_devices *g, const struct top_order *ord,
		    struct top_rows *rows)
{
	out__printf(o, "# time %.3f clients %d\n", time, c->nclients);
	for (int i = 0; i < g->n; i++) {
		out__puts(o, "# gpu ");
		text_device(o, &g->dev[i]);
		out__putc(o, '\n');
	}
	column_header(o, ord);
	out__putc(o, '\n');
	top_rows__write(rows, o, c, v, c->nclients, 0, '\n');
	out__putc(o, '\n');
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

