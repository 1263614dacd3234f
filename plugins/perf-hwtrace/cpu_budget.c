// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_budget.c - how many CPUs this process can keep busy at once.
 *
 * A cgroup's CPU bandwidth limit is quota microseconds of CPU time every
 * period microseconds, for all the cgroup's threads together; it binds
 * the cgroup's descendants too, so the lowest along the way to the root
 * is the one that counts.  The cgroup is named in /proc/self/cgroup
 * relative to its hierarchy's root; where that hierarchy is mounted, and
 * which part of it the mount shows (a container sees only its own
 * subtree), is in /proc/self/mountinfo (proc(5)).  cgroup v2 has one
 * hierarchy ("0::/path") and the limit in cpu.max ("max 100000" or
 * "150000 100000"); v1 the "cpu" controller's hierarchy and the limit in
 * cpu.cfs_quota_us (-1: none) and cpu.cfs_period_us.  A machine may have
 * both (the v1 cpu controller beside an empty v2 hierarchy): both are
 * read, the lower wins.
 */
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_budget.h"
#include "text_file.h"

#define TEXT_MAX	(4u << 20)	/* a mountinfo of tens of thousands of mounts */

/* Is @tok one of the comma-separated words of @list (@len bytes)? */
static bool has_word(const char *list, size_t len, const char *tok)
{
	size_t tl = strlen(tok);
	const char *end = list + len;

	while (list < end) {
		const char *c = memchr(list, ',', (size_t)(end - list));
		size_t wl = (size_t)((c ? c : end) - list);

		if (wl == tl && !memcmp(list, tok, tl))
			return true;
		list += wl + 1;
	}
	return false;
}

/* mountinfo's octal escapes (\040 a space, \134 a backslash) undone, in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = 0;
}

/* Where one hierarchy's cgroup of this process is, and the limit found there. */
struct hierarchy {
	bool v1;
	char path[PATH_MAX];	/* from /proc/self/cgroup */
	bool have_path;
	char mroot[PATH_MAX];	/* from mountinfo: the part of the hierarchy mounted */
	char mpoint[PATH_MAX];	/* and where */
	bool have_mount;
};

static void copy_field(char *dst, const char *s, size_t n)
{
	if (n >= PATH_MAX)
		n = PATH_MAX - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* /proc/self/cgroup: "ID:CONTROLLERS:PATH" lines */
static void find_paths(char *text, struct hierarchy *v2, struct hierarchy *v1)
{
	for (char *line = text, *next; line && *line; line = next) {
		char *c1, *c2, *nl = strchr(line, '\n');

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2 || c2[1] != '/')
			continue;
		if (c1 - line == 1 && line[0] == '0' && c2 == c1 + 1) {
			copy_field(v2->path, c2 + 1, strlen(c2 + 1));
			v2->have_path = true;
		} else if (has_word(c1 + 1, (size_t)(c2 - c1 - 1), "cpu")) {
			copy_field(v1->path, c2 + 1, strlen(c2 + 1));
			v1->have_path = true;
		}
	}
}

/*
 * /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...]
 * - FSTYPE SOURCE SUPEROPTIONS"; the first cgroup2 mount and the first
 * cgroup mount with the cpu controller.
 */
static void find_mounts(char *text, struct hierarchy *v2, struct hierarchy *v1)
{
	for (char *line = text, *next; line && *line; line = next) {
		char *f[6], *nl = strchr(line, '\n'), *save = NULL, *fs, *opts;
		struct hierarchy *h;
		int n;

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		for (n = 0; n < 6; n++)
			if (!(f[n] = strtok_r(n ? NULL : line, " ", &save)))
				break;
		if (n < 6)
			continue;
		/* the optional fields end at a lone "-" */
		for (fs = strtok_r(NULL, " ", &save); fs && strcmp(fs, "-");
		     fs = strtok_r(NULL, " ", &save))
			;
		fs = fs ? strtok_r(NULL, " ", &save) : NULL;
		opts = fs && strtok_r(NULL, " ", &save) ? strtok_r(NULL, " ", &save) : NULL;
		if (!fs)
			continue;
		if (!strcmp(fs, "cgroup2"))
			h = v2;
		else if (!strcmp(fs, "cgroup") && opts && has_word(opts, strlen(opts), "cpu"))
			h = v1;
		else
			continue;
		if (h->have_mount)
			continue;
		unescape(f[3]);
		unescape(f[4]);
		copy_field(h->mroot, f[3], strlen(f[3]));
		copy_field(h->mpoint, f[4], strlen(f[4]));
		h->have_mount = true;
	}
}

/* An unsigned decimal at @s, or -1 */
static long long number(const char *s)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoll(s, &end, 10);
	return *end && *end != '\n' && *end != ' ' ? -1 : v;
}

/* The limit set in cgroup directory @dir, if any: quota and period in *@q, *@p. */
static bool dir_limit(const char *dir, bool v1, long long *q, long long *p)
{
	char path[PATH_MAX + 32], *a, *b = NULL;
	bool ok = false;

	snprintf(path, sizeof(path), "%s/%s", dir, v1 ? "cpu.cfs_quota_us" : "cpu.max");
	a = text_file__read(path, TEXT_MAX);
	if (!a)
		return false;
	if (v1) {
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
		b = text_file__read(path, TEXT_MAX);
		if (b) {
			*q = number(a);
			*p = number(b);
			ok = true;
		}
	} else {
		char *sp = strchr(a, ' ');

		if (sp) {	/* "max PERIOD" reads as no quota */
			*q = number(a);
			*p = number(sp + 1);
			ok = true;
		}
	}
	free(a);
	free(b);
	return ok && *q > 0 && *p > 0;
}

/* The lowest quota/period from @h's cgroup up to its mount's top, into *@bq, *@bp. */
static void walk_up(const char *root, const struct hierarchy *h, long long *bq, long long *bp)
{
	size_t rl = strlen(h->mroot), top;
	const char *rel = h->path;
	char dir[3 * PATH_MAX];

	if (!h->have_path || !h->have_mount)
		return;
	if (strcmp(h->mroot, "/")) {
		/* only what lies below the mounted part can be read */
		if (strncmp(rel, h->mroot, rl) || (rel[rl] && rel[rl] != '/'))
			return;
		rel += rl;
	}
	snprintf(dir, sizeof(dir), "%s%s", root, h->mpoint);
	top = strlen(dir);
	snprintf(dir + top, sizeof(dir) - top, "%s", rel);
	for (;;) {
		long long q, p;
		char *slash;

		if (dir_limit(dir, h->v1, &q, &p) &&
		    (!*bq || (unsigned __int128)q * (unsigned long long)*bp <
				     (unsigned __int128)*bq * (unsigned long long)p)) {
			*bq = q;
			*bp = p;
		}
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < top)
			break;
		*slash = 0;
	}
}

unsigned int cpu_budget__limit(const char *root)
{
	struct hierarchy *h = calloc(2, sizeof(*h));
	char path[PATH_MAX + 32], *text;
	long long q = 0, p = 0;

	if (!h)
		return 0;
	h[1].v1 = true;
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	text = text_file__read(path, TEXT_MAX);
	if (text)
		find_paths(text, &h[0], &h[1]);
	free(text);
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	text = (h[0].have_path || h[1].have_path) ? text_file__read(path, TEXT_MAX) : NULL;
	if (text)
		find_mounts(text, &h[0], &h[1]);
	free(text);
	walk_up(root, &h[0], &q, &p);
	walk_up(root, &h[1], &q, &p);
	free(h);
	if (!q)
		return 0;
	/* rounded up, without q + p, which may not fit */
	if (q / p >= UINT_MAX)
		return UINT_MAX;
	return (unsigned int)(q / p + (q % p != 0));
}

unsigned int cpu_budget__affinity(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned int)n : 1;
}

unsigned int cpu_budget__cpus(void)
{
	unsigned int n = cpu_budget__affinity(), lim;

	if (n < 2)
		return n;	/* no cgroup file to read */
	lim = cpu_budget__limit("");
	return lim && lim < n ? lim : n;
}
