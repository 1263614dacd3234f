// SPDX-License-Identifier: GPL-2.0
/*
 * drm_clients.c - find DRM clients under a proc root and sample their fdinfo.
 *
 * Cost model: a full rescan is getdents of every <pid>/fd plus one stat per
 * fd and one fdinfo read per DRM fd; a cheap sample is one pread() per client
 * of an fdinfo file kept open since the rescan, parsed into memory the client
 * already owns.  fdinfo of non-DRM fds is never read.  When RLIMIT_NOFILE
 * does not allow another kept fd, that client is re-read by path instead.
 * A scan for new clients adds a getdents of the proc root and one fstatat
 * per pid; a pid's fds are listed only when its <pid>/fd stamp changed, and
 * stat (or readlink) only those not known.  A process whose fd table keeps
 * changing is re-listed each time, its non-DRM fds classified again.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drm_clients.h"

#define NO_ID_FLAG (1ull << 63)		/* dev bit for clients without drm-client-id */
#define FDINFO_MAX (64u << 20)		/* far beyond any real fdinfo; guards the buffer */
#define FD_RESERVE 128			/* fds left for everything but kept fdinfo */
#define DENTS_SIZE (32u << 10)

/* The kernel's getdents64 record. */
struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int grow(void **arr, int *cap, int n, size_t elem)
{
	int ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* Room for kept fdinfo fds: the soft limit raised to the hard one, less a reserve. */
static int fd_budget(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit want = rl;

		want.rlim_cur = rl.rlim_max > (1u << 20) ? (1u << 20) : rl.rlim_max;
		if (want.rlim_cur > rl.rlim_cur && !setrlimit(RLIMIT_NOFILE, &want))
			rl.rlim_cur = want.rlim_cur;
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1u << 20))
		rl.rlim_cur = 1u << 20;
	return rl.rlim_cur > 2 * FD_RESERVE ? (int)rl.rlim_cur - FD_RESERVE : 0;
}

/* The parser's diag: hold each warning until the client is known (flush_warnings). */
static void collect_warning(void *ctx, const struct hwt_error *e)
{
	struct drm_clients *c = ctx;
	struct drm_pending_warning *w;

	if (c->npending >= DRM_MAX_PENDING)
		return;
	w = &c->pending[c->npending++];
	w->offset = e->offset;
	memcpy(w->msg, e->msg, sizeof(w->msg));
}

void drm_clients__init(struct drm_clients *c, const char *proc)
{
	memset(c, 0, sizeof(*c));
	c->proc = proc;
	c->max_kept = fd_budget();
	c->pdiag.report = collect_warning;
	c->pdiag.ctx = c;
	c->pdiag.file = "fdinfo";
}

static uint64_t key_hash(const char *msg)
{
	const char *colon = strchr(msg, ':');
	size_t n = colon ? (size_t)(colon - msg) : strlen(msg);
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)msg[i]) * 1099511628211ull;
	return h;
}

/* Hand the parse's warnings to c->warn, each (client, key) once. */
static void flush_warnings(struct drm_clients *c, struct drm_client *cl, int pid, int fd)
{
	for (int i = 0; i < c->npending; i++) {
		const struct drm_pending_warning *w = &c->pending[i];
		uint64_t h = key_hash(w->msg);
		struct hwt_error e = { .offset = w->offset, .rtype = "drm fdinfo",
				       .severity = HWT_WARN };
		char path[4096];
		int k;

		for (k = 0; k < cl->nwarned && cl->warned[k] != h; k++)
			;
		if (k < cl->nwarned)
			continue;
		if (grow((void **)&cl->warned, &cl->cap_warned, cl->nwarned, sizeof(h)))
			break;
		cl->warned[cl->nwarned++] = h;
		if (!c->warn)
			continue;
		snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", c->proc, pid, fd);
		e.file = path;
		memcpy(e.msg, w->msg, sizeof(e.msg));
		c->warn(c->warn_ctx, cl, path, &e);
	}
	c->npending = 0;
}

void drm_clients__set_proc(struct drm_clients *c, const char *proc)
{
	c->proc = proc;
}

static void unkeep(struct drm_clients *c, struct drm_client *cl)
{
	if (cl->rfd < 0)
		return;
	close(cl->rfd);
	cl->rfd = -1;
	c->nkept--;
}

/* Keep @f open as @cl's fdinfo (of its fdrefs[0]) if the budget allows, else close it. */
static void keep(struct drm_clients *c, struct drm_client *cl, int f)
{
	if (cl->rfd < 0 && c->nkept + c->ndirfds < c->max_kept) {
		cl->rfd = f;
		c->nkept++;
	} else {
		close(f);
	}
}

static void client_free(struct drm_clients *c, struct drm_client *cl)
{
	unkeep(c, cl);
	hwt_drm_fdinfo__exit(&cl->cur);
	hwt_drm_fdinfo__exit(&cl->prev);
	free(cl->text);
	free(cl->util);
	free(cl->pids);
	free(cl->fdrefs);
	free(cl->warned);
}

void drm_clients__exit(struct drm_clients *c)
{
	for (int i = 0; i < c->nclients; i++)
		client_free(c, &c->clients[i]);
	hwt_drm_fdinfo__exit(&c->scratch);
	for (int i = 0; i < c->npst; i++)
		if (c->pst[i].dfd >= 0)
			close(c->pst[i].dfd);
	free(c->clients);
	free(c->fds);
	free(c->hash);
	free(c->buf);
	free(c->old);
	free(c->dents);
	free(c->names);
	free(c->name_inos);
	free(c->pst);
	free(c->pst_new);
	free(c->pst_hash);
	free(c->fd_hash);
	free(c->touched);
	memset(c, 0, sizeof(*c));
}

uint64_t drm_clients__dev_from_path(const char *t)
{
	static const struct { const char *prefix; unsigned major; } nodes[] = {
		{ "/dev/dri/card", DRM_MAJOR },
		{ "/dev/dri/renderD", DRM_MAJOR },
		{ "/dev/dri/controlD", DRM_MAJOR },
		{ "/dev/accel/accel", ACCEL_MAJOR },
	};
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		size_t n = strlen(nodes[i].prefix);
		char *end;
		unsigned long minor;

		if (strncmp(t, nodes[i].prefix, n) || t[n] < '0' || t[n] > '9')
			continue;
		minor = strtoul(t + n, &end, 10);
		if ((*end == 0 || *end == ' ') && minor < (1ul << 20))
			return (uint64_t)nodes[i].major << 32 | minor;
	}
	if (strncmp(t, "/dev/dri/", 9) && strncmp(t, "/dev/accel/", 11))
		return 0;
	/* an unusual node name: key it by its path */
	for (const char *p = t; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return (h | 1ull << 62) & ~NO_ID_FLAG;
}

static unsigned int hash_key(uint64_t dev, uint64_t id, unsigned int size)
{
	uint64_t h = (dev * 0x9e3779b97f4a7c15ull) ^ (id * 0xc2b2ae3d27d4eb4full);

	return (unsigned int)((h ^ (h >> 29)) & (size - 1));
}

static int hash_rebuild(struct drm_clients *c)
{
	unsigned int size = 64;

	while (size < (unsigned int)c->nclients * 2 + 2)
		size *= 2;
	if (size != c->hash_size) {
		int *h = realloc(c->hash, size * sizeof(*h));

		if (!h)
			return -1;
		c->hash = h;
		c->hash_size = size;
	}
	memset(c->hash, 0, c->hash_size * sizeof(*c->hash));
	for (int i = 0; i < c->nclients; i++) {
		unsigned int k = hash_key(c->clients[i].dev, c->clients[i].client_id, c->hash_size);

		while (c->hash[k])
			k = (k + 1) & (c->hash_size - 1);
		c->hash[k] = i + 1;
	}
	return 0;
}

static int hash_find(struct drm_clients *c, uint64_t dev, uint64_t id)
{
	unsigned int k;

	if (!c->hash_size)
		return -1;
	k = hash_key(dev, id, c->hash_size);
	while (c->hash[k]) {
		struct drm_client *cl = &c->clients[c->hash[k] - 1];

		if (cl->dev == dev && cl->client_id == id)
			return c->hash[k] - 1;
		k = (k + 1) & (c->hash_size - 1);
	}
	return -1;
}

/*
 * Read all of @f from offset 0 into c->buf (NUL-terminated); its length or -1.
 * A short read is the end: procfs fdinfo hands out its whole text at once
 * and a regular file all it has, so the usual extra read() for EOF is saved.
 */
static ssize_t read_fd(struct drm_clients *c, int f)
{
	size_t len = 0;

	for (;;) {
		size_t want;
		ssize_t n;

		if (len + 1 >= c->buf_size) {
			size_t ns = c->buf_size ? c->buf_size * 2 : 16384;
			char *nb;

			if (ns > FDINFO_MAX)
				break;	/* keep what we have */
			nb = realloc(c->buf, ns);
			if (!nb)
				break;
			c->buf = nb;
			c->buf_size = ns;
		}
		want = c->buf_size - 1 - len;
		n = pread(f, c->buf + len, want, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && !len)
			return -1;	/* the fd was closed, or its process exited */
		if (n <= 0)
			break;
		len += n;
		if ((size_t)n < want)
			break;
	}
	c->buf[len] = 0;
	return len;
}

/*
 * Open for reading.  O_NOATIME: a recorded tree's atimes need not change on
 * every refresh (procfs has none); it is refused (EPERM) for others' files.
 * O_NONBLOCK: fdinfo and comm are regular files in procfs, but a tree may
 * hold a FIFO there, whose open() would wait for a writer forever; opened
 * without waiting, its pread() fails (ESPIPE) and read_fd() skips it.
 * Regular files ignore the flag.
 */
static int open_ro(int dirfd, const char *path)
{
	const int fl = O_RDONLY | O_CLOEXEC | O_NONBLOCK;
	int f = openat(dirfd, path, fl | O_NOATIME);

	return f < 0 && errno == EPERM ? openat(dirfd, path, fl) : f;
}

/* Open <proc>/<pid>/fdinfo/<fd> for reading, or -1. */
static int open_fdinfo(struct drm_clients *c, int pid, int fd)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", c->proc, pid, fd);
	return open_ro(AT_FDCWD, path);
}

static int client_add_pid(struct drm_client *cl, int pid, const char *comm)
{
	int i;

	for (i = 0; i < cl->npids && cl->pids[i] < pid; i++)
		;
	if (i < cl->npids && cl->pids[i] == pid)
		return 0;
	if (grow((void **)&cl->pids, &cl->cap_pids, cl->npids, sizeof(int)))
		return -1;
	memmove(cl->pids + i + 1, cl->pids + i, (cl->npids - i) * sizeof(int));
	cl->pids[i] = pid;
	cl->npids++;
	if (i == 0)
		snprintf(cl->comm, sizeof(cl->comm), "%s", comm);
	return 0;
}

/* Utilisation array sized for @n engines (plus one, so never zero-sized). */
static int util_fit(struct drm_client *cl, uint32_t n)
{
	struct hwt_drm_util *u;

	if (n < cl->cap_util)
		return 0;
	u = realloc(cl->util, (n + 1) * sizeof(*u));
	if (!u)
		return -1;
	cl->util = u;
	cl->cap_util = n + 1;
	return 0;
}

/*
 * Make c->scratch the client's new sample taken at @t and compute utilisation.
 * The oldest sample becomes the scratch, so the next parse reuses its memory.
 */
static int client_rotate(struct drm_clients *c, struct drm_client *cl, uint64_t t)
{
	struct hwt_drm_fdinfo oldest = cl->prev;
	struct hwt_drm_util *u;

	cl->prev = cl->cur;
	cl->t_prev = cl->t_cur;
	cl->has_prev = true;
	cl->cur = c->scratch;
	cl->t_cur = t;
	c->scratch = oldest;
	if (util_fit(cl, cl->cur.nengines))
		return -1;
	u = cl->util;
	hwt_drm_usage__compute(&cl->prev, &cl->cur, t > cl->t_prev ? t - cl->t_prev : 0, u);
	cl->total_util = 0;
	for (uint32_t i = 0; i < cl->cur.nengines; i++)
		if (u[i].src != HWT_DRM_UTIL_NONE)
			cl->total_util += u[i].percent;
	return 0;
}

/*
 * Keep c->buf's text, which @cl's cur was just parsed from, for the next
 * re-read to compare with; without the memory, none is kept and the next
 * read is parsed.
 */
static void save_text(struct drm_clients *c, struct drm_client *cl, size_t len)
{
	/* read_fd() stops at FDINFO_MAX: a length and its slack fit text_len */
	_Static_assert(FDINFO_MAX < UINT32_MAX - 64, "fdinfo texts must fit 32 bits");

	cl->steady = false;
	cl->same_strings = false;
	if (len >= cl->cap_text) {
		char *t = realloc(cl->text, len + 64);

		if (!t) {
			cl->text_len = UINT32_MAX;
			return;
		}
		cl->text = t;
		cl->cap_text = (uint32_t)len + 64;
	}
	memcpy(cl->text, c->buf, len);
	cl->text_len = (uint32_t)len;
}

/*
 * @cl re-read at @t with the very text of its last read: what a parse and
 * client_rotate() would make of it, without them.  Every counter's delta is
 * zero; one that went backwards before (hwt_drm_usage__engine()) is held
 * again, so held carries over.  Steady when the utilisation comes out as
 * it was: then nothing about the client changed.
 */
static void client_same(struct drm_clients *c, struct drm_client *cl, uint64_t t)
{
	uint64_t wall = t > cl->t_cur ? t - cl->t_cur : 0;
	bool steady = true;

	c->stats.same_reads++;
	cl->total_util = 0;
	for (uint32_t i = 0; i < cl->cur.nengines; i++) {
		struct hwt_drm_engine *e = &cl->cur.engines[i];
		struct hwt_drm_util u = hwt_drm_usage__engine(e, e, wall);
		struct hwt_drm_util *was = &cl->util[i];

		u.held = was->held;
		if (u.src != was->src || u.percent != was->percent)
			steady = false;
		*was = u;
		if (u.src != HWT_DRM_UTIL_NONE)
			cl->total_util += u.percent;
	}
	cl->t_prev = cl->t_cur;
	cl->t_cur = t;
	cl->has_prev = true;
	cl->steady = steady;
	cl->same_strings = true;
}

/* Room for @n engines in c->old. */
static int grow_old(struct drm_clients *c, uint32_t n)
{
	struct hwt_drm_engine *o = realloc(c->old, (size_t)n * sizeof(*o));

	if (!o)
		return -1;
	c->old = o;
	c->cap_old = n;
	return 0;
}

/*
 * @cl re-read at @t with a text that changed only in its numbers (a busy
 * client): parsed over its own sample (hwt_drm_fdinfo__update()), from the
 * first line that differs from its last text, and every engine keeps its
 * slot, so the old counters, set aside first, pair with the new ones by
 * index.  What client_rotate() and a parse would give, without the other
 * sample's memory, a name compare, or the lines that did not change
 * (--reparse: all of them).  false: not such a text, @cl untouched.
 */
static bool client_update(struct drm_clients *c, struct drm_client *cl, size_t len, uint64_t t)
{
	uint32_t n = cl->cur.nengines;
	uint64_t wall = t > cl->t_cur ? t - cl->t_cur : 0;
	bool raw = cl->text_len != UINT32_MAX && !c->reparse;

	if (n > c->cap_old && grow_old(c, n))
		return false;	/* the long way then */
	memcpy(c->old, cl->cur.engines, n * sizeof(*c->old));
	/*
	 * Unchanged lines keep cur's values, which are the text's unless a
	 * counter was held above it (then it is held again: read them all).
	 */
	for (uint32_t i = 0; i < n && raw; i++)
		raw = !cl->util[i].held;
	if (hwt_drm_fdinfo__update(&cl->cur, c->buf, len, raw ? cl->text : NULL, cl->text_len,
				   &c->pdiag) != 1)
		return false;
	cl->total_util = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct hwt_drm_util *u = &cl->util[i];

		*u = hwt_drm_usage__engine(&c->old[i], &cl->cur.engines[i], wall);
		if (u->src != HWT_DRM_UTIL_NONE)
			cl->total_util += u->percent;
	}
	cl->t_prev = cl->t_cur;
	cl->t_cur = t;
	cl->has_prev = true;
	save_text(c, cl, len);
	cl->same_strings = true;
	return true;
}

static int client_new(struct drm_clients *c, uint64_t dev, uint64_t id, uint64_t t)
{
	struct drm_client *cl;

	if (grow((void **)&c->clients, &c->cap_clients, c->nclients, sizeof(*cl)))
		return -1;
	cl = &c->clients[c->nclients];
	memset(cl, 0, sizeof(*cl));
	cl->rfd = -1;
	cl->dev = dev;
	cl->client_id = id;
	cl->has_id = c->scratch.has_client_id;
	cl->cur = c->scratch;
	cl->t_cur = t;
	memset(&c->scratch, 0, sizeof(c->scratch));
	if (util_fit(cl, cl->cur.nengines))
		return -1;
	memset(cl->util, 0, cl->cap_util * sizeof(*cl->util));	/* all null */
	c->nclients++;
	if ((unsigned int)c->nclients * 2 + 2 > c->hash_size)
		return hash_rebuild(c) ? -1 : c->nclients - 1;
	{
		unsigned int k = hash_key(dev, id, c->hash_size);

		while (c->hash[k])
			k = (k + 1) & (c->hash_size - 1);
		c->hash[k] = c->nclients;
	}
	return c->nclients - 1;
}

/* Parse c->buf into c->scratch: only what the views use, not the other lines. */
static int parse_buf(struct drm_clients *c, ssize_t len)
{
	c->npending = 0;
	return hwt_drm_fdinfo__parse(&c->scratch, c->buf, len, HWT_DRM_PARSE_NO_OTHER, &c->pdiag);
}

/* Full scan: read one DRM fd's fdinfo (through @fidfd, its fdinfo dir) and attach it. */
static int scan_fd(struct drm_clients *c, int fdref, int fidfd, const char *name)
{
	const struct drm_fdref *r = &c->fds[fdref];
	struct drm_client *cl;
	uint64_t t, dev, id;
	ssize_t len;
	int ci, f;

	t = c->clock(c->clock_ctx);
	f = open_ro(fidfd, name);
	if (f < 0)
		return 0;	/* closed or the process exited meanwhile */
	c->stats.fdinfo_reads++;
	len = read_fd(c, f);
	if (len < 0 || !len) {
		close(f);
		return 0;
	}
	if (parse_buf(c, len)) {
		close(f);
		return -1;
	}
	if (!c->scratch.driver) {	/* a DRM node, but no usage stats */
		close(f);
		return 0;
	}
	dev = c->scratch.has_client_id ? r->dev : r->dev | NO_ID_FLAG;
	id = c->scratch.has_client_id ? c->scratch.client_id :
	     (uint64_t)r->pid << 32 | (uint32_t)r->fd;
	ci = hash_find(c, dev, id);
	if (ci < 0) {
		ci = client_new(c, dev, id, t);
		if (ci >= 0)
			save_text(c, &c->clients[ci], len);
	} else if (c->clients[ci].gen != c->gen) {
		if (client_rotate(c, &c->clients[ci], t))
			ci = -1;
		else
			save_text(c, &c->clients[ci], len);
	}	/* else a duplicate fd of a client already read: scratch stays scratch */
	if (ci < 0) {
		close(f);
		return -1;
	}
	cl = &c->clients[ci];
	cl->gen = c->gen;
	if (grow((void **)&cl->fdrefs, &cl->cap_fdrefs, cl->nfdrefs, sizeof(int))) {
		close(f);
		return -1;
	}
	cl->fdrefs[cl->nfdrefs++] = fdref;
	if (cl->nfdrefs == 1)
		keep(c, cl, f);		/* the fd later samples pread */
	else
		close(f);
	if (client_add_pid(cl, r->pid, r->comm))
		return -1;
	flush_warnings(c, cl, r->pid, r->fd);	/* after the pid: the message names it */
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* DRM device key of fd entry @name in @dfd, or 0. */
static uint64_t fd_dev(struct drm_clients *c, int dfd, const char *name)
{
	char target[512];
	struct stat st;
	ssize_t n;

	c->stats.fd_stats++;
	if (!fstatat(dfd, name, &st, 0)) {
		if (S_ISCHR(st.st_mode) &&
		    (major(st.st_rdev) == DRM_MAJOR || major(st.st_rdev) == ACCEL_MAJOR))
			return (uint64_t)major(st.st_rdev) << 32 | minor(st.st_rdev);
		return 0;
	}
	/* node absent here (a recorded tree): trust the link target */
	if (errno != ENOENT && errno != ENOTDIR)
		return 0;
	c->stats.readlinks++;
	n = readlinkat(dfd, name, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = 0;
	return drm_clients__dev_from_path(target);
}

static void read_comm(struct drm_clients *c, int pdfd, char *comm, size_t size)
{
	int f = open_ro(pdfd, "comm");
	ssize_t n;

	if (f < 0)
		return;
	n = read_fd(c, f);
	close(f);
	if (n <= 0)
		return;
	while (n && c->buf[n - 1] == '\n')
		n--;
	snprintf(comm, size, "%.*s", (int)n, c->buf);
}

static unsigned int int_hash(uint64_t k, unsigned int size)
{
	k *= 0x9e3779b97f4a7c15ull;
	return (unsigned int)((k ^ (k >> 31)) & (size - 1));
}

static uint64_t fd_key(int pid, int fd)
{
	return (uint64_t)(uint32_t)pid << 32 | (uint32_t)fd;
}

/* Index of the live fds entry of (@pid, @fd) through c->fd_hash, or -1. */
static int fd_find(struct drm_clients *c, int pid, int fd)
{
	unsigned int k = int_hash(fd_key(pid, fd), c->fd_hash_size);

	for (; c->fd_hash[k]; k = (k + 1) & (c->fd_hash_size - 1)) {
		const struct drm_fdref *r = &c->fds[c->fd_hash[k] - 1];

		if (r->pid == pid && r->fd == fd)
			return c->fd_hash[k] - 1;
	}
	return -1;
}

/* Index the live DRM fds of the last scans by (pid, fd). */
static int fd_hash_build(struct drm_clients *c)
{
	unsigned int size = 64;

	while (size < (unsigned int)c->nfds * 2 + 2)
		size *= 2;
	if (size != c->fd_hash_size) {
		int *h = realloc(c->fd_hash, size * sizeof(*h));

		if (!h)
			return -1;
		c->fd_hash = h;
		c->fd_hash_size = size;
	}
	memset(c->fd_hash, 0, size * sizeof(*c->fd_hash));
	for (int i = 0; i < c->nfds; i++) {
		unsigned int k;

		if (c->fds[i].dead)
			continue;
		k = int_hash(fd_key(c->fds[i].pid, c->fds[i].fd), size);
		while (c->fd_hash[k])
			k = (k + 1) & (size - 1);
		c->fd_hash[k] = i + 1;
	}
	c->fd_hash_ok = true;
	return 0;
}

/*
 * Every fd of one process: <proc>/<pid> opened once, the rest relative to it.
 * @known: fds already in c->fds (c->fd_hash) are only marked seen.
 */
static int scan_pid(struct drm_clients *c, int proc_fd, int pid, const char *pidname,
		    bool known)
{
	int pdfd, dfd, fidfd = -1, ret = 0;
	char comm[64] = "";
	bool have_comm = false;
	ssize_t n;

	pdfd = openat(proc_fd, pidname, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pdfd < 0)
		return 0;	/* gone */
	dfd = openat(pdfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		close(pdfd);
		return 0;	/* not ours to look at */
	}
	while (!ret && (n = getdents64(dfd, c->dents, DENTS_SIZE)) > 0) {
		for (ssize_t off = 0; !ret && off < n;) {
			const struct dent64 *de = (const struct dent64 *)(c->dents + off);
			struct drm_fdref *r;
			uint64_t dev;
			int i;

			off += de->reclen;
			if (!all_digits(de->name))
				continue;
			if (known && (i = fd_find(c, pid, atoi(de->name))) >= 0) {
				c->fds[i].seen = c->gen;
				continue;
			}
			dev = fd_dev(c, dfd, de->name);
			if (!dev)
				continue;
			if (!have_comm) {
				read_comm(c, pdfd, comm, sizeof(comm));
				fidfd = openat(pdfd, "fdinfo", O_PATH | O_DIRECTORY | O_CLOEXEC);
				have_comm = true;
			}
			if (fidfd < 0)
				break;
			if (grow((void **)&c->fds, &c->cap_fds, c->nfds, sizeof(*r))) {
				ret = -1;
				break;
			}
			r = &c->fds[c->nfds];
			r->pid = pid;
			r->fd = atoi(de->name);
			r->dev = dev;
			r->seen = c->gen;
			r->dead = false;
			memcpy(r->comm, comm, sizeof(r->comm));
			ret = scan_fd(c, c->nfds++, fidfd, de->name);
		}
	}
	if (fidfd >= 0)
		close(fidfd);
	close(dfd);
	close(pdfd);
	return ret;
}

/* Stamps: the new list is built while scanning, the old one looked up by pid. */
static struct drm_pidstamp *stamp_find(struct drm_clients *c, int pid)
{
	unsigned int k;

	if (!c->pst_hash_size)
		return NULL;
	for (k = int_hash((uint32_t)pid, c->pst_hash_size); c->pst_hash[k];
	     k = (k + 1) & (c->pst_hash_size - 1))
		if (c->pst[c->pst_hash[k] - 1].pid == pid)
			return &c->pst[c->pst_hash[k] - 1];
	return NULL;
}

static int stamp_add(struct drm_clients *c, const struct drm_pidstamp *s)
{
	if (grow((void **)&c->pst_new, &c->cap_pst_new, c->npst_new, sizeof(*s)))
		return -1;
	c->pst_new[c->npst_new++] = *s;
	return 0;
}

/* The new list becomes the one looked up; on ENOMEM none is (every pid looks new). */
static void stamps_end(struct drm_clients *c)
{
	struct drm_pidstamp *t = c->pst;
	int cap = c->cap_pst;
	unsigned int size = 64;

	for (int i = 0; i < c->npst; i++) {	/* pids gone, or now other processes */
		if (c->pst[i].dfd >= 0) {
			close(c->pst[i].dfd);
			c->ndirfds--;
		}
	}
	c->pst = c->pst_new;
	c->cap_pst = c->cap_pst_new;
	c->npst = c->npst_new;
	c->pst_new = t;
	c->cap_pst_new = cap;
	c->npst_new = 0;
	while (size < (unsigned int)c->npst * 2 + 2)
		size *= 2;
	if (size != c->pst_hash_size) {
		int *h = realloc(c->pst_hash, size * sizeof(*h));

		if (!h) {
			for (int i = 0; i < c->npst; i++) {
				if (c->pst[i].dfd >= 0) {
					close(c->pst[i].dfd);
					c->ndirfds--;
				}
			}
			c->npst = 0;
			return;
		}
		c->pst_hash = h;
		c->pst_hash_size = size;
	}
	memset(c->pst_hash, 0, size * sizeof(*c->pst_hash));
	for (int i = 0; i < c->npst; i++) {
		unsigned int k = int_hash((uint32_t)c->pst[i].pid, size);

		while (c->pst_hash[k])
			k = (k + 1) & (size - 1);
		c->pst_hash[k] = i + 1;
	}
}

/*
 * Stamp of <proc>/<pid>/fd (@path, relative to @proc_fd); false if it cannot
 * be had.  @prev: the pid's stamp of the last scan, whose kept O_PATH fd is
 * taken over (a fstat, no path walk) while the listing's d_ino @pid_ino is
 * the one it was opened under.  @keep: open one for the next scan.
 */
static bool stamp_take(struct drm_clients *c, int proc_fd, int pid, const char *path,
		       uint64_t pid_ino, struct drm_pidstamp *prev, bool keep,
		       struct drm_pidstamp *s)
{
	struct stat st;

	c->stats.dir_stats++;
	s->dfd = -1;
	if (prev && prev->dfd >= 0 && prev->pid_ino == pid_ino) {
		s->dfd = prev->dfd;	/* the stamp now owns it */
		prev->dfd = -1;
		if (fstatat(s->dfd, "", &st, AT_EMPTY_PATH) || !st.st_nlink) {
			close(s->dfd);	/* removed (a plain tree): walk the path again */
			c->ndirfds--;
			s->dfd = -1;
		}
	}
	if (s->dfd < 0) {
		if (keep && c->nkept + c->ndirfds < c->max_kept) {
			s->dfd = openat(proc_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (s->dfd >= 0)
				c->ndirfds++;
		}
		if (s->dfd >= 0 ? fstatat(s->dfd, "", &st, AT_EMPTY_PATH) :
		    fstatat(proc_fd, path, &st, 0)) {
			if (s->dfd >= 0) {
				close(s->dfd);
				c->ndirfds--;
			}
			return false;
		}
	}
	s->pid = pid;
	s->gen = c->gen;
	s->size = st.st_size;
	s->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	s->ino = st.st_ino;
	s->pid_ino = pid_ino;
	return true;
}

static int touch(struct drm_clients *c, int pid)
{
	if (grow((void **)&c->touched, &c->cap_touched, c->ntouched, sizeof(int)))
		return -1;
	c->touched[c->ntouched++] = pid;
	return 0;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * After a NEW scan: fds of touched pids that it did not list are dead; drop
 * them from c->fds and from their clients, whose pid lists are rebuilt.  A
 * client left with no fd is not seen in this sample (prune drops it).
 */
static int drop_dead(struct drm_clients *c)
{
	int *map, n = 0;
	bool any = false;

	qsort(c->touched, c->ntouched, sizeof(int), int_cmp);
	for (int i = 0; i < c->nfds; i++) {
		struct drm_fdref *r = &c->fds[i];

		if (!r->dead && r->seen != c->gen &&
		    bsearch(&r->pid, c->touched, c->ntouched, sizeof(int), int_cmp))
			r->dead = true;
		any |= r->dead;
	}
	if (!any)
		return 0;
	map = malloc((c->nfds + 1) * sizeof(*map));
	if (!map)
		return -1;
	for (int i = 0; i < c->nfds; i++) {
		map[i] = c->fds[i].dead ? -1 : n;
		if (!c->fds[i].dead)
			c->fds[n++] = c->fds[i];
	}
	c->nfds = n;
	for (int i = 0; i < c->nclients; i++) {
		struct drm_client *cl = &c->clients[i];
		bool changed = false;
		int m = 0;

		for (int j = 0; j < cl->nfdrefs; j++) {
			int k = map[cl->fdrefs[j]];

			if (k < 0) {
				if (!j)
					unkeep(c, cl);	/* the kept fdinfo was of this fd */
				changed = true;
				continue;
			}
			cl->fdrefs[m++] = k;
		}
		cl->nfdrefs = m;
		if (!changed)
			continue;
		cl->npids = 0;
		for (int j = 0; j < m; j++) {
			const struct drm_fdref *r = &c->fds[cl->fdrefs[j]];

			if (client_add_pid(cl, r->pid, r->comm)) {
				free(map);
				return -1;
			}
		}
		if (!m)
			cl->gen = c->gen - 1;
	}
	free(map);
	c->fd_hash_ok = false;
	return 0;
}

/* Drop clients not seen in this sample; keeps the order of the others. */
static int prune(struct drm_clients *c)
{
	int n = 0;

	for (int i = 0; i < c->nclients; i++) {
		if (c->clients[i].gen != c->gen) {
			client_free(c, &c->clients[i]);
			continue;
		}
		/* a client is over 600 bytes: not onto itself, every refresh */
		if (n != i)
			c->clients[n] = c->clients[i];
		n++;
	}
	if (n == c->nclients)
		return 0;
	c->nclients = n;
	return hash_rebuild(c);
}

/*
 * The pid names of the proc root, NUL-separated into c->names, and their
 * d_ino into c->name_inos: the names' length, or -1.
 */
static ssize_t list_pids(struct drm_clients *c, int proc_fd)
{
	size_t m = 0;
	ssize_t n;
	int k = 0;

	while ((n = getdents64(proc_fd, c->dents, DENTS_SIZE)) > 0) {
		for (ssize_t off = 0; off < n;) {
			const struct dent64 *de = (const struct dent64 *)(c->dents + off);
			size_t len = strlen(de->name) + 1;

			off += de->reclen;
			if (!all_digits(de->name))
				continue;
			if (grow((void **)&c->name_inos, &c->cap_name_inos, k, sizeof(uint64_t)))
				return -1;
			c->name_inos[k++] = de->ino;
			if (m + len > c->names_size) {
				size_t ns = c->names_size ? c->names_size * 2 : 16384;
				char *p = realloc(c->names, ns);

				if (!p)
					return -1;
				c->names = p;
				c->names_size = ns;
			}
			memcpy(c->names + m, de->name, len);
			m += len;
		}
	}
	return n < 0 ? -1 : (ssize_t)m;
}

/*
 * Walk the proc root.  @incr (a NEW scan): a pid whose <pid>/fd stamp is as
 * the last scan left it is skipped, a known one only has its new fds
 * classified.  Else every fd is (a full scan).  Both leave the stamps.
 */
static int scan_tree(struct drm_clients *c, bool incr)
{
	int proc_fd, ret = 0;
	ssize_t m;

	if (!c->dents) {
		c->dents = malloc(DENTS_SIZE);
		if (!c->dents)
			return -1;
	}
	proc_fd = open(c->proc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc_fd < 0)
		return -1;
	if (incr) {
		c->stats.new_scans++;
	} else {
		c->stats.full_scans++;
		c->nfds = 0;
		for (int i = 0; i < c->nclients; i++) {
			/* fds are re-found (and a kept one re-opened) from scratch */
			unkeep(c, &c->clients[i]);
			c->clients[i].npids = 0;
			c->clients[i].nfdrefs = 0;
		}
	}
	c->fd_hash_ok = false;
	c->ntouched = 0;
	c->npst_new = 0;
	/* the listing is read whole first: scan_pid reuses the dents buffer */
	m = list_pids(c, proc_fd);
	if (m < 0) {
		close(proc_fd);
		return -1;
	}
	for (ssize_t off = 0, k = 0; !ret && off < m; off += strlen(c->names + off) + 1, k++) {
		const char *name = c->names + off;
		struct drm_pidstamp st, *old, *prev;
		char path[64];
		int pid = atoi(name);
		bool known;

		snprintf(path, sizeof(path), "%s/fd", name);
		prev = stamp_find(c, pid);
		/* only NEW scans stamp often enough for a kept fd to pay */
		if (!stamp_take(c, proc_fd, pid, path, c->name_inos[k], prev, incr, &st))
			continue;	/* gone, or not ours: its fds are not listed either */
		if (stamp_add(c, &st)) {
			if (st.dfd >= 0) {
				close(st.dfd);
				c->ndirfds--;
			}
			ret = -1;
			break;
		}
		old = incr ? prev : NULL;	/* a full scan: every pid is new */
		if (old) {
			old->gen = c->gen;
			if (old->size == st.size && old->mtime_ns == st.mtime_ns &&
			    old->ino == st.ino)
				continue;
			if (touch(c, pid)) {	/* fds it no longer lists die */
				ret = -1;
				break;
			}
		}
		/* a new inode: the pid number now belongs to another process */
		known = old && old->ino == st.ino;
		if (known && !c->fd_hash_ok && fd_hash_build(c)) {
			ret = -1;
			break;
		}
		if (incr)
			c->stats.dir_lists++;
		ret = scan_pid(c, proc_fd, pid, name, known);
	}
	close(proc_fd);
	if (incr && !ret) {
		for (int i = 0; i < c->npst; i++)
			if (c->pst[i].gen != c->gen && touch(c, c->pst[i].pid))
				ret = -1;	/* exited */
		if (!ret && c->ntouched)
			ret = drop_dead(c);
	}
	stamps_end(c);
	return ret;
}

/* Re-read @cl through fd @f (taken at @t); 1 if it is still @cl's, 0 if not, -1 on ENOMEM. */
static int quick_read(struct drm_clients *c, struct drm_client *cl, int f, uint64_t t,
		      const struct drm_fdref *ref)
{
	const struct hwt_drm_fdinfo *fi = &c->scratch;
	ssize_t len;
	bool same;

	c->stats.fdinfo_reads++;
	len = read_fd(c, f);
	if (len < 0)
		return 0;
	same = len && (size_t)len == cl->text_len && !memcmp(c->buf, cl->text, len);
	if (same && !c->reparse) {
		client_same(c, cl, t);
	} else if (!client_update(c, cl, len, t)) {
		/* the long way: new keys, a bad line, or another client */
		if (parse_buf(c, len))
			return -1;
		/* the fd number may have been reused for another file */
		if (!fi->driver || fi->has_client_id != cl->has_id ||
		    (cl->has_id && fi->client_id != cl->client_id))
			return 0;
		if (client_rotate(c, cl, t))
			return -1;
		save_text(c, cl, len);
		flush_warnings(c, cl, ref->pid, ref->fd);
	}
	cl->gen = c->gen;
	if (c->updated && c->quick_only)
		c->updated(c->updated_ctx, cl);
	return 1;
}

/* Re-read @cl by path through its other holders' fds (after @from); keeps the one that works. */
static int quick_by_path(struct drm_clients *c, struct drm_client *cl, int from)
{
	for (int j = from; j < cl->nfdrefs; j++) {
		const struct drm_fdref *ref = &c->fds[cl->fdrefs[j]];
		uint64_t t = c->clock(c->clock_ctx);
		int f = open_fdinfo(c, ref->pid, ref->fd);
		int r;

		if (f < 0)
			continue;
		r = quick_read(c, cl, f, t, ref);
		if (r <= 0) {
			close(f);
			if (r < 0)
				return -1;
			continue;
		}
		if (j) {	/* read through this one from now on */
			int tmp = cl->fdrefs[0];

			cl->fdrefs[0] = cl->fdrefs[j];
			cl->fdrefs[j] = tmp;
		}
		keep(c, cl, f);
		return 1;
	}
	return 0;
}

/*
 * What the compare, the update and the caller's view touch for client @i is
 * cold by now (thousands of clients were read since a refresh ago): fetch
 * it during the read() system calls, in two stages one client apart, as
 * the names can only be asked for once the slots pointing to them are in.
 * A client steady at its last read is likely steady again: only its text,
 * engines and utilisation are wanted then.  (A text with new keys takes the
 * long way, a parse into c->scratch and a rotation: rare, not prefetched.)
 */
static void prefetch_ahead(const struct drm_clients *c, int i)
{
	const struct drm_client *cl = &c->clients[i];

	hwt_prefetch_bytes(cl->text, cl->text_len);
	if (cl->steady) {
		hwt_prefetch_bytes(cl->cur.engines, cl->cur.nengines * sizeof(*cl->cur.engines));
		hwt_prefetch_bytes(cl->util, cl->cur.nengines * sizeof(*cl->util));
		return;
	}
	if (i == 0)
		hwt_drm_fdinfo__prefetch(&cl->cur);
	if (i + 1 < c->nclients) {
		const struct drm_client *next = &c->clients[i + 1];

		hwt_drm_fdinfo__prefetch(&next->cur);
		__builtin_prefetch(next->util);
		__builtin_prefetch(next->pids);
	}
	hwt_drm_fdinfo__prefetch_names(&cl->cur);
}

/* Cheap sample: re-read one cached fd per client (another holder if that one went). */
static int quick_scan(struct drm_clients *c)
{
	for (int i = 0; i < c->nclients; i++) {
		struct drm_client *cl = &c->clients[i];
		int r, from = 0;

		prefetch_ahead(c, i);
		if (cl->rfd >= 0) {
			c->stats.kept_reads++;
			r = quick_read(c, cl, cl->rfd, c->clock(c->clock_ctx), &c->fds[cl->fdrefs[0]]);
			if (r < 0)
				return -1;
			if (r)
				continue;
			unkeep(c, cl);	/* closed, exited, or now another file */
			from = 1;
		}
		if (quick_by_path(c, cl, from) < 0)
			return -1;
	}
	return 0;
}

int drm_clients__sample(struct drm_clients *c, int mode)
{
	int ret;

	c->gen++;
	c->stats.samples++;
	c->quick_only = mode == DRM_SAMPLE_QUICK;
	if (!c->hash_size && hash_rebuild(c))
		return -1;
	if (mode == DRM_SAMPLE_FULL) {
		ret = scan_tree(c, false);
	} else {
		ret = quick_scan(c);
		if (!ret && mode == DRM_SAMPLE_NEW)
			ret = scan_tree(c, true);
	}
	if (prune(c))
		return -1;
	return ret;
}
