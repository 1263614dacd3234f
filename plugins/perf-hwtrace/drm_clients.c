// SPDX-License-Identifier: GPL-2.0
/*
 * drm_clients.c - find DRM clients under a proc root and sample their fdinfo.
 *
 * Cost model: a full rescan is readdir of every <pid>/fd plus one stat per
 * fd and one fdinfo read per DRM fd; a cheap sample is one fdinfo read per
 * client through a cached (pid, fd).  fdinfo of non-DRM fds is never read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drm_clients.h"

#define NO_ID_FLAG (1ull << 63)		/* dev bit for clients without drm-client-id */
#define FDINFO_MAX (64u << 20)		/* far beyond any real fdinfo; guards the buffer */

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

void drm_clients__init(struct drm_clients *c, const char *proc)
{
	memset(c, 0, sizeof(*c));
	c->proc = proc;
}

void drm_clients__set_proc(struct drm_clients *c, const char *proc)
{
	c->proc = proc;
}

static void client_free(struct drm_client *cl)
{
	hwt_drm_fdinfo__free(&cl->cur);
	hwt_drm_fdinfo__free(&cl->prev);
	free(cl->util);
	free(cl->pids);
	free(cl->fdrefs);
}

void drm_clients__exit(struct drm_clients *c)
{
	for (int i = 0; i < c->nclients; i++)
		client_free(&c->clients[i]);
	free(c->clients);
	free(c->fds);
	free(c->hash);
	free(c->buf);
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

/* Read <proc>/<pid>/<what> into c->buf; returns its length or -1. */
static ssize_t read_proc(struct drm_clients *c, int pid, const char *what, int fd)
{
	char path[4096];
	size_t len = 0;
	int f;

	if (fd >= 0)
		snprintf(path, sizeof(path), "%s/%d/%s/%d", c->proc, pid, what, fd);
	else
		snprintf(path, sizeof(path), "%s/%d/%s", c->proc, pid, what);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return -1;
	for (;;) {
		ssize_t n;

		if (len + 1 >= c->buf_size) {
			size_t ns = c->buf_size ? c->buf_size * 2 : 8192;
			char *nb;

			if (ns > FDINFO_MAX)
				break;	/* keep what we have */
			nb = realloc(c->buf, ns);
			if (!nb)
				break;
			c->buf = nb;
			c->buf_size = ns;
		}
		n = read(f, c->buf + len, c->buf_size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(f);
	c->buf[len] = 0;
	return len;
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

/* Make @fi the client's new sample taken at @t; computes utilisation. */
static int client_rotate(struct drm_client *cl, struct hwt_drm_fdinfo *fi, uint64_t t)
{
	struct hwt_drm_util *u;

	hwt_drm_fdinfo__free(&cl->prev);
	cl->prev = cl->cur;
	cl->t_prev = cl->t_cur;
	cl->has_prev = true;
	cl->cur = *fi;
	cl->t_cur = t;
	memset(fi, 0, sizeof(*fi));
	u = realloc(cl->util, (cl->cur.nengines + 1) * sizeof(*u));
	if (!u)
		return -1;
	cl->util = u;
	hwt_drm_usage__compute(&cl->prev, &cl->cur, t > cl->t_prev ? t - cl->t_prev : 0, u);
	cl->total_util = 0;
	for (uint32_t i = 0; i < cl->cur.nengines; i++)
		if (u[i].src != HWT_DRM_UTIL_NONE)
			cl->total_util += u[i].percent;
	return 0;
}

static int client_new(struct drm_clients *c, struct hwt_drm_fdinfo *fi, uint64_t dev,
		      uint64_t id, uint64_t t)
{
	struct drm_client *cl;

	if (grow((void **)&c->clients, &c->cap_clients, c->nclients, sizeof(*cl)))
		return -1;
	cl = &c->clients[c->nclients];
	memset(cl, 0, sizeof(*cl));
	cl->dev = dev;
	cl->client_id = id;
	cl->has_id = fi->has_client_id;
	cl->cur = *fi;
	cl->t_cur = t;
	memset(fi, 0, sizeof(*fi));
	cl->util = calloc(cl->cur.nengines + 1, sizeof(*cl->util));	/* all null */
	if (!cl->util)
		return -1;
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

/* Full scan: read one DRM fd's fdinfo and attach it to its client. */
static int scan_fd(struct drm_clients *c, int fdref)
{
	const struct drm_fdref *r = &c->fds[fdref];
	struct hwt_drm_fdinfo fi;
	struct drm_client *cl;
	uint64_t t, dev, id;
	ssize_t len;
	int ci;

	t = c->clock(c->clock_ctx);
	len = read_proc(c, r->pid, "fdinfo", r->fd);
	c->stats.fdinfo_reads++;
	if (len < 0)
		return 0;	/* closed or the process exited meanwhile */
	if (hwt_drm_fdinfo__parse(&fi, c->buf, len, c->diag))
		return -1;
	if (!fi.driver) {
		hwt_drm_fdinfo__free(&fi);
		return 0;
	}
	dev = fi.has_client_id ? r->dev : r->dev | NO_ID_FLAG;
	id = fi.has_client_id ? fi.client_id : (uint64_t)r->pid << 32 | (uint32_t)r->fd;
	ci = hash_find(c, dev, id);
	if (ci < 0) {
		ci = client_new(c, &fi, dev, id, t);
		if (ci < 0)
			return -1;
	} else if (c->clients[ci].gen != c->gen) {
		if (client_rotate(&c->clients[ci], &fi, t))
			return -1;
	}
	hwt_drm_fdinfo__free(&fi);	/* a duplicate fd of a client already read */
	cl = &c->clients[ci];
	cl->gen = c->gen;
	if (grow((void **)&cl->fdrefs, &cl->cap_fdrefs, cl->nfdrefs, sizeof(int)))
		return -1;
	cl->fdrefs[cl->nfdrefs++] = fdref;
	return client_add_pid(cl, r->pid, r->comm);
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

static int scan_pid(struct drm_clients *c, int pid)
{
	char path[4096], comm[64] = "";
	bool have_comm = false;
	struct dirent *de;
	int dfd, ret = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%d/fd", c->proc, pid);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;	/* gone, or not ours to look at */
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	while (!ret && (de = readdir(d))) {
		struct drm_fdref *r;
		uint64_t dev;

		if (!all_digits(de->d_name))
			continue;
		dev = fd_dev(c, dirfd(d), de->d_name);
		if (!dev)
			continue;
		if (!have_comm) {
			ssize_t n = read_proc(c, pid, "comm", -1);

			if (n > 0) {
				while (n && (c->buf[n - 1] == '\n'))
					n--;
				snprintf(comm, sizeof(comm), "%.*s", (int)n, c->buf);
			}
			have_comm = true;
		}
		if (grow((void **)&c->fds, &c->cap_fds, c->nfds, sizeof(*r))) {
			ret = -1;
			break;
		}
		r = &c->fds[c->nfds];
		r->pid = pid;
		r->fd = atoi(de->d_name);
		r->dev = dev;
		memcpy(r->comm, comm, sizeof(r->comm));
		ret = scan_fd(c, c->nfds++);
	}
	closedir(d);
	return ret;
}

/* Drop clients not seen in this sample; keeps the order of the others. */
static int prune(struct drm_clients *c)
{
	int n = 0;

	for (int i = 0; i < c->nclients; i++) {
		if (c->clients[i].gen != c->gen) {
			client_free(&c->clients[i]);
			continue;
		}
		c->clients[n++] = c->clients[i];
	}
	if (n == c->nclients)
		return 0;
	c->nclients = n;
	return hash_rebuild(c);
}

static int full_scan(struct drm_clients *c)
{
	struct dirent *de;
	DIR *d = opendir(c->proc);
	int ret = 0;

	if (!d)
		return -1;
	c->stats.full_scans++;
	c->nfds = 0;
	for (int i = 0; i < c->nclients; i++) {
		c->clients[i].npids = 0;
		c->clients[i].nfdrefs = 0;
	}
	while (!ret && (de = readdir(d)))
		if (all_digits(de->d_name))
			ret = scan_pid(c, atoi(de->d_name));
	closedir(d);
	return ret;
}

/* Cheap sample: re-read one cached fd per client (another holder if that one went). */
static int quick_scan(struct drm_clients *c)
{
	for (int i = 0; i < c->nclients; i++) {
		struct drm_client *cl = &c->clients[i];

		for (int j = 0; j < cl->nfdrefs; j++) {
			const struct drm_fdref *r = &c->fds[cl->fdrefs[j]];
			struct hwt_drm_fdinfo fi;
			uint64_t t = c->clock(c->clock_ctx);
			ssize_t len = read_proc(c, r->pid, "fdinfo", r->fd);
			bool same;

			c->stats.fdinfo_reads++;
			if (len < 0)
				continue;
			if (hwt_drm_fdinfo__parse(&fi, c->buf, len, c->diag))
				return -1;
			/* the fd number may have been reused for another file */
			same = fi.driver && fi.has_client_id == cl->has_id &&
			       (!cl->has_id || fi.client_id == cl->client_id);
			if (same) {
				if (client_rotate(cl, &fi, t))
					return -1;
				cl->gen = c->gen;
				if (j) {	/* read through this one from now on */
					int tmp = cl->fdrefs[0];

					cl->fdrefs[0] = cl->fdrefs[j];
					cl->fdrefs[j] = tmp;
				}
				hwt_drm_fdinfo__free(&fi);
				break;
			}
			hwt_drm_fdinfo__free(&fi);
		}
	}
	return 0;
}

int drm_clients__sample(struct drm_clients *c, bool full)
{
	int ret;

	c->gen++;
	c->stats.samples++;
	if (!c->hash_size && hash_rebuild(c))
		return -1;
	ret = full ? full_scan(c) : quick_scan(c);
	if (prune(c))
		return -1;
	return ret;
}
