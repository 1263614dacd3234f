// SPDX-License-Identifier: GPL-2.0
/*
 * dump_machine.c - perf report's threads and maps, for the lines -D prints
 * under a SAMPLE.  The rules are perf 6.1's (machine.c, thread.c, map.c):
 * a thread is known by its tid and named ":TID" until a COMM names it; a
 * FORK starts a new thread with its parent's name (if the parent was
 * named) and, for a new process, a copy of the parent's maps; the threads
 * of a process share the maps of its leader (tid == pid); a newer map
 * hides the older ones it overlaps; the kernel's maps come from MMAPs with
 * the kernel cpumode.  A kernel sample outside them shows "<not found>", a
 * sample of another cpumode "[hypervisor]".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump_machine.h"

struct dump_thread {
	int32_t pid, tid;
	char *comm;		/* NULL: never named, perf shows ":TID" */
	size_t maps;		/* index in machine->maps */
	bool removed;		/* a FORK of the same tid replaced it */
};

struct dump_map {
	uint64_t start, end;
	char *name;
	bool vmlinux;		/* the kernel's text: a KSYMBOL unregister keeps it */
};

struct dump_maps {
	struct dump_map *v;	/* in insertion order: the last one wins */
	size_t n, cap;
};

static size_t new_maps(struct dump_machine *m)
{
	if (m->nmaps == m->capmaps) {
		size_t cap = m->capmaps ? m->capmaps * 2 : 16;
		struct dump_maps *v = realloc(m->maps, cap * sizeof(*v));

		if (!v)
			return 0;	/* the kernel's: wrong dso names, no crash */
		m->maps = v;
		m->capmaps = cap;
	}
	m->maps[m->nmaps] = (struct dump_maps){ 0 };
	return m->nmaps++;
}

static void add_map(struct dump_maps *g, uint64_t start, uint64_t end, const char *name,
		    size_t len)
{
	struct dump_map *v;

	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;

		v = realloc(g->v, cap * sizeof(*v));
		if (!v)
			return;
		g->v = v;
		g->cap = cap;
	}
	v = &g->v[g->n];
	v->name = strndup(name, len);
	if (!v->name)
		return;
	v->start = start;
	v->end = end;
	v->vmlinux = false;
	g->n++;
}

/* the newest map holding @addr, or -1 */
static long find_map_index(const struct dump_maps *g, uint64_t addr)
{
	for (size_t i = g->n; i--;)
		if (addr >= g->v[i].start && addr < g->v[i].end)
			return (long)i;
	return -1;
}

static const char *find_map(const struct dump_maps *g, uint64_t addr)
{
	long i = find_map_index(g, addr);

	return i < 0 ? NULL : g->v[i].name;
}

static struct dump_thread *find_thread(struct dump_machine *m, int32_t tid)
{
	if (m->last < m->nthreads && !m->threads[m->last].removed &&
	    m->threads[m->last].tid == tid)
		return &m->threads[m->last];
	for (size_t i = 0; i < m->nthreads; i++) {
		if (!m->threads[i].removed && m->threads[i].tid == tid) {
			m->last = i;
			return &m->threads[i];
		}
	}
	return NULL;
}

static struct dump_thread *findnew_thread(struct dump_machine *m, int32_t pid, int32_t tid);
static void set_comm(struct dump_thread *t, const char *comm, size_t len);

/* thread__init_maps() and machine__update_thread_pid(): share the leader's maps */
static size_t leader_maps(struct dump_machine *m, int32_t pid)
{
	return findnew_thread(m, pid, pid)->maps;
}

/*
 * The kernel's maps, and the idle thread perf registers before the first
 * record (perf_session__register_idle_thread(): pid 0 is "swapper").
 */
static void machine_start(struct dump_machine *m)
{
	struct dump_thread *t;

	if (m->nmaps)
		return;
	new_maps(m);
	t = findnew_thread(m, 0, 0);
	if (t)
		set_comm(t, "swapper", 7);
}

/* machine__findnew_thread(); pointers into m->threads are valid until the next call */
static struct dump_thread *findnew_thread(struct dump_machine *m, int32_t pid, int32_t tid)
{
	struct dump_thread *t;
	size_t i, maps;

	machine_start(m);
	t = find_thread(m, tid);
	if (t) {
		if (pid != t->pid && pid != -1 && t->pid == -1) {
			t->pid = pid;
			if (pid != tid) {
				i = t - m->threads;
				maps = leader_maps(m, pid);
				m->threads[i].maps = maps;
				t = &m->threads[i];
			}
		}
		return t;
	}
	if (m->nthreads == m->capthreads) {
		size_t cap = m->capthreads ? m->capthreads * 2 : 64;

		t = realloc(m->threads, cap * sizeof(*t));
		if (!t)
			return NULL;
		m->threads = t;
		m->capthreads = cap;
	}
	i = m->nthreads++;
	m->threads[i] = (struct dump_thread){ .pid = pid, .tid = tid };
	maps = pid == tid || pid == -1 ? new_maps(m) : leader_maps(m, pid);
	m->threads[i].maps = maps;
	m->last = i;
	return &m->threads[i];
}

static void set_comm(struct dump_thread *t, const char *comm, size_t len)
{
	char *c = strndup(comm, len);

	if (!c)
		return;
	free(t->comm);
	t->comm = c;
}

/* machine__process_fork_event() */
static void fork_thread(struct dump_machine *m, struct out *o, int32_t pid, int32_t ppid,
			int32_t tid, int32_t ptid, bool clone_maps)
{
	struct dump_thread *t = find_thread(m, tid), *p;
	size_t ti = t ? (size_t)(t - m->threads) : 0, pi;

	p = findnew_thread(m, ppid, ptid);
	if (!p)
		return;
	if (p->pid != ppid) {
		out__printf(o, "\nremoving erroneous parent thread %d/%d", p->pid, p->tid);
		p->removed = true;
		p = findnew_thread(m, ppid, ptid);
		if (!p)
			return;
	}
	pi = p - m->threads;
	if (t)
		m->threads[ti].removed = true;
	t = findnew_thread(m, pid, tid);
	if (!t)
		return;
	p = &m->threads[pi];
	if (p->comm)
		set_comm(t, p->comm, strlen(p->comm));
	/* thread__clone_maps(): a new process starts with a copy of its parent's maps */
	if (t->pid != p->pid && t->maps != p->maps && clone_maps) {
		struct dump_maps *from = &m->maps[p->maps];

		for (size_t i = 0; i < from->n; i++)
			add_map(&m->maps[t->maps], from->v[i].start, from->v[i].end,
				from->v[i].name, strlen(from->v[i].name));
	}
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static bool equals(const char *s, size_t len, const char *what)
{
	return len == strlen(what) && !memcmp(s, what, len);
}

/* machine__process_mmap{,2}_event() and map__new(): the map's dso name */
static void mmap_event(struct dump_machine *m, const struct hwt_event *ev)
{
	uint8_t cpumode = ev->hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const char *name;
	struct hwt_mmap_view v;
	struct dump_thread *t;
	uint32_t prot;
	size_t len;
	char tmp[32];

	if (!hwt_event__mmap(ev, &v))
		return;
	name = v.filename;
	len = v.name_len;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		bool kernel = starts(name, len, "[kernel.kallsyms]");

		machine_start(m);
		if (name[0] == '/' || (!kernel && name[0] == '['))	/* a module */
			add_map(&m->maps[0], v.start, v.start + v.len, name, len);
		else if (kernel) {	/* no length: the rest of the address space */
			size_t n = m->maps[0].n;

			add_map(&m->maps[0], v.start, v.len ? v.start + v.len : UINT64_MAX,
				"[kernel.kallsyms]", 17);
			if (m->maps[0].n > n)
				m->maps[0].v[n].vmlinux = true;
		} else if (m->x86_64 && equals(name, len, "__entry_SYSCALL_64_trampoline")) {
			/* perf's extra kernel map: the kernel's dso */
			add_map(&m->maps[0], v.start, v.start + v.len, "[kernel.kallsyms]", 17);
		}
		return;
	}
	t = findnew_thread(m, (int32_t)v.pid, (int32_t)v.tid);
	if (!t)
		return;
	/* an MMAP without PERF_RECORD_MISC_MMAP_DATA is executable */
	prot = v.mmap2 ? v.prot : ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : 4;
	if ((equals(name, len, "//anon") || starts(name, len, "/dev/zero") ||
	     starts(name, len, "/anon_hugepage") || (v.mmap2 && v.flags & 0x40000) ||
	     starts(name, len, "[stack") || starts(name, len, "/SYSV") ||
	     equals(name, len, "[heap]")) && prot & 4) {
		/* anonymous code (a JIT's): perf looks for the symbols in its map file */
		snprintf(tmp, sizeof(tmp), "/tmp/perf-%d.map", t->pid);
		name = tmp;
		len = strlen(tmp);
	}
	add_map(&m->maps[t->maps], v.start, v.start + v.len, name, len);
}

/* machine__process_ksymbol_register() / _unregister() */
static void ksymbol_event(struct dump_machine *m, const struct hwt_event *ev)
{
	uint64_t addr;
	uint32_t len;
	uint16_t type, flags;
	const char *name;
	size_t nlen;
	long i;

	if (!hwt_event__ksymbol(ev, &addr, &len, &type, &flags, &name, &nlen))
		return;
	machine_start(m);
	i = find_map_index(&m->maps[0], addr);
	if (!(flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)) {
		if (i >= 0)
			return;	/* perf adds a symbol to the map already there */
		/* a BPF trampoline or dispatcher image has no file name */
		if (starts(name, nlen, "bpf_trampoline_") || starts(name, nlen, "bpf_dispatcher_"))
			nlen = 0;
		add_map(&m->maps[0], addr, addr + len, name, nlen);
	} else if (i >= 0 && !m->maps[0].v[i].vmlinux) {
		struct dump_maps *g = &m->maps[0];

		free(g->v[i].name);
		memmove(&g->v[i], &g->v[i + 1], (g->n - (size_t)i - 1) * sizeof(*g->v));
		g->n--;
	}
}

void dump_machine__event(struct dump_machine *m, struct out *o, const struct hwt_event *ev)
{
	uint32_t pid, ppid, tid, ptid;
	const char *comm;
	size_t len;

	switch (ev->hdr->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		mmap_event(m, ev);
		break;
	case PERF_RECORD_COMM:
		if (hwt_event__comm(ev, &pid, &tid, &comm, &len)) {
			struct dump_thread *t = findnew_thread(m, (int32_t)pid, (int32_t)tid);

			if (t)
				set_comm(t, comm, len);
		}
		break;
	case PERF_RECORD_KSYMBOL:
		ksymbol_event(m, ev);
		break;
	case PERF_RECORD_FORK:
		if (hwt_event__task(ev, &pid, &ppid, &tid, &ptid))
			fork_thread(m, o, (int32_t)pid, (int32_t)ppid, (int32_t)tid, (int32_t)ptid,
				    !(ev->hdr->misc & PERF_RECORD_MISC_FORK_EXEC));
		break;
	default:
		break;
	}
}

void dump_machine__sample(struct dump_machine *m, struct out *o,
			  const struct hwt_sample_view *sv)
{
	struct dump_thread *t = findnew_thread(m, sv->pid, sv->tid);
	const char *dso = NULL;

	if (!t)
		return;
	out__puts(o, "\n ... thread: ");
	if (t->comm)
		out__puts(o, t->comm);
	else
		out__printf(o, ":%d", t->tid);
	out__printf(o, ":%d\n ...... dso: ", t->tid);
	if (sv->cpumode == PERF_RECORD_MISC_KERNEL)
		dso = find_map(&m->maps[0], sv->ip);
	else if (sv->cpumode == PERF_RECORD_MISC_USER)
		dso = find_map(&m->maps[t->maps], sv->ip);
	else
		dso = "[hypervisor]";
	out__puts(o, dso ? dso : "<not found>");
}

void dump_machine__free(struct dump_machine *m)
{
	for (size_t i = 0; i < m->nthreads; i++)
		free(m->threads[i].comm);
	for (size_t i = 0; i < m->nmaps; i++) {
		for (size_t j = 0; j < m->maps[i].n; j++)
			free(m->maps[i].v[j].name);
		free(m->maps[i].v);
	}
	free(m->threads);
	free(m->maps);
	memset(m, 0, sizeof(*m));
}
