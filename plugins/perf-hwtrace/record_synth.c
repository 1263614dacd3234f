// SPDX-License-Identifier: GPL-2.0
/*
 * record_synth.c - the records `perf record -a` synthesizes at start: the
 * MMAPs of the kernel's text and of its modules, and the FORK, COMM and
 * MMAP2 of the processes already running (perf's
 * perf_event__synthesize_threads()): the kernel reports only what starts
 * later, and without these stock perf names a running task ":PID" and a
 * kernel sample's dso "[unknown]".
 *
 * A FORK and a COMM per thread of /proc/PID/task (comm from its comm file,
 * the leader's parent from its status), one MMAP2 (misc
 * PERF_RECORD_MISC_USER) per executable mapping of /proc/PID/maps after the
 * leader's COMM; a zeroed sample_id trailer of the file's layout (time 0
 * and id 0, as perf writes them: sorted first, given to the first event).
 * The file names mapped are collected for the BUILD_ID feature.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "record_state.h"

/* room for the largest record: an MMAP2 of a PATH_MAX name and a trailer */
#define SYNTH_MAX	(72 + PATH_MAX + 64)

struct synth {
	struct hwt_writer *w;
	const char *proc;
	size_t trailer;
	struct rec_dsos *dsos;
	uint64_t rec[SYNTH_MAX / 8];
};

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The sample_id_all trailer's size for @sample_type. */
static size_t trailer_size(uint64_t sample_type)
{
	const uint64_t in_trailer = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
				    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
				    PERF_SAMPLE_IDENTIFIER;

	return 8 * (size_t)__builtin_popcountll(sample_type & in_trailer);
}

/* Finish a record of @body bytes (header included): zero trailer, write. */
static int emit(struct synth *s, uint32_t type, uint16_t misc, size_t body)
{
	struct perf_event_header *h = (struct perf_event_header *)s->rec;

	memset((uint8_t *)s->rec + body, 0, s->trailer);
	h->type = type;
	h->misc = misc;
	h->size = (uint16_t)(body + s->trailer);
	return hwt_writer__write(s->w, h);
}

/* PPid of @proc/@pid/status, or 0 when it cannot be read */
static long read_ppid(const char *proc, long pid)
{
	char path[PATH_MAX], line[128];
	long ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%ld/status", proc, pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "PPid: %ld", &ppid) == 1)
			break;
	fclose(f);
	return ppid;
}

/*
 * FORK and COMM of thread @tid of process @pid, as perf's
 * __event__synthesize_thread() writes them: the leader's parent is @ppid,
 * another thread's is the leader (perf assumes the leader spawned it);
 * the FORK's misc PERF_RECORD_MISC_FORK_EXEC, the COMM's 0.  A thread gone
 * meanwhile is skipped.
 */
static int synth_thread(struct synth *s, long pid, long tid, long ppid)
{
	uint8_t *p = (uint8_t *)s->rec;
	uint32_t *u = (uint32_t *)s->rec;
	char path[PATH_MAX], comm[32] = "";
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%ld/task/%ld/comm", s->proc, pid, tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	/* pid, ppid, tid, ptid, time 0 */
	memset(p, 0, 32);
	u[2] = (uint32_t)pid;
	u[3] = (uint32_t)(tid == pid ? ppid : pid);
	u[4] = (uint32_t)tid;
	u[5] = u[3];
	if (emit(s, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, 32))
		return -1;
	n = align8(strlen(comm) + 1);
	memset(p, 0, 16 + n);
	u[2] = (uint32_t)pid;
	u[3] = (uint32_t)tid;
	memcpy(p + 16, comm, strlen(comm));
	return emit(s, PERF_RECORD_COMM, 0, 16 + n);
}

/*
 * A line of /proc/PID/maps: "start-end perms pgoff maj:min ino   path".
 * Returns 1 for an executable mapping (MMAP2 in s->rec, its body size in
 * *size), 0 for others.
 */
static int maps_line(struct synth *s, long pid, const char *line, size_t *size)
{
	uint8_t *p = (uint8_t *)s->rec;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[5];
	const char *name;
	size_t len;
	int used = 0;
	uint32_t prot = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &used) < 7 || !used || perms[2] != 'x')
		return 0;
	name = line + used;
	len = strcspn(name, "\n");
	if (!len) {
		name = "//anon";	/* perf's name for anonymous code */
		len = strlen(name);
	}
	if (len >= PATH_MAX)
		return 0;
	prot |= perms[0] == 'r' ? PROT_READ : 0;
	prot |= perms[1] == 'w' ? PROT_WRITE : 0;
	prot |= PROT_EXEC;
	memset(p, 0, 72 + align8(len + 1));
	((uint32_t *)p)[2] = (uint32_t)pid;
	((uint32_t *)p)[3] = (uint32_t)pid;
	((uint64_t *)p)[2] = start;
	((uint64_t *)p)[3] = end - start;
	((uint64_t *)p)[4] = pgoff;
	((uint32_t *)p)[10] = maj;
	((uint32_t *)p)[11] = min;
	((uint64_t *)p)[6] = ino;
	((uint32_t *)p)[16] = prot;
	((uint32_t *)p)[17] = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	memcpy(p + 72, name, len);
	if (name[0] == '/' && rec_dsos__add(s->dsos, (const char *)p + 72) < 0)
		return -1;
	*size = 72 + align8(len + 1);
	return 1;
}

/* MMAP2 for the executable mappings of process @pid (none for kernel threads). */
static int synth_mmaps(struct synth *s, long pid)
{
	char path[PATH_MAX];
	char *line = NULL;
	size_t cap = 0, size;
	int ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%ld/maps", s->proc, pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!ret && getline(&line, &cap, f) > 0) {
		int r = maps_line(s, pid, line, &size);

		if (r < 0)
			ret = -1;
		else if (r)
			ret = emit(s, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, size);
	}
	free(line);
	fclose(f);
	return ret;
}

static int synth_process(struct synth *s, long pid)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%ld/task", s->proc, pid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited since the listing */
	/* the leader first, as perf names the process by it, with its maps */
	ret = synth_thread(s, pid, pid, read_ppid(s->proc, pid));
	if (!ret)
		ret = synth_mmaps(s, pid);
	while (!ret && (de = readdir(d)))
		if (is_number(de->d_name) && atol(de->d_name) != pid)
			ret = synth_thread(s, pid, atol(de->d_name), 0);
	closedir(d);
	return ret;
}

/*
 * _text (else _stext) and _etext of @proc/kallsyms, in one pass that stops
 * once both are found (the file is large); 0 when absent or hidden.
 */
static void kernel_text(const char *proc, uint64_t *text, uint64_t *etext)
{
	uint64_t stext = 0;
	char path[PATH_MAX], sym[256], type;
	unsigned long long addr;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	*text = *etext = 0;
	snprintf(path, sizeof(path), "%s/kallsyms", proc);
	f = fopen(path, "r");
	if (!f)
		return;
	while ((!*text || !*etext) && getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (!strcmp(sym, "_text"))
			*text = addr;
		else if (!strcmp(sym, "_stext"))
			stext = addr;
		else if (!strcmp(sym, "_etext"))
			*etext = addr;
	}
	if (!*text)
		*text = stext;
	free(line);
	fclose(f);
}

/* A loaded module: where its core lies and its name. */
struct module_map {
	uint64_t start, size;
	char name[64];		/* MODULE_NAME_LEN */
};

static int module_cmp(const void *a, const void *b)
{
	const struct module_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The modules of @proc/modules ("name size refs deps state address"), by
 * address; those whose address is hidden (kptr_restrict: 0) left out.
 * Returns how many are in *@out (malloc'd), or -1 without memory.
 */
static int read_modules(const char *proc, struct module_map **out)
{
	struct module_map *m = NULL;
	char path[PATH_MAX], *line = NULL;
	int n = 0, cap = 0;
	size_t lcap = 0;
	FILE *f;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/modules", proc);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (getline(&line, &lcap, f) > 0) {
		struct module_map mod;
		unsigned long long size, addr;

		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", mod.name, &size, &addr) != 3 ||
		    !addr || !size)
			continue;
		if (n == cap) {
			struct module_map *nm = realloc(m, (cap ? cap * 2 : 64) * sizeof(*m));

			if (!nm) {
				n = -1;
				break;
			}
			m = nm;
			cap = cap ? cap * 2 : 64;
		}
		mod.start = addr;
		mod.size = size;
		m[n++] = mod;
	}
	free(line);
	fclose(f);
	if (n > 0) {
		qsort(m, n, sizeof(*m), module_cmp);
		*out = m;
	} else {
		free(m);
	}
	return n;
}

/*
 * An MMAP per loaded module, as perf_event__synthesize_modules() writes
 * them after the kernel's: pid -1, tid 0, the module's address and size,
 * page offset 0, named "[name]" (the name the BUILD_ID feature gives the
 * module's id, so stock perf pairs them).  Without them, stock perf puts a
 * recorded kernel sample in a module where the machine reading the file
 * has that module, if it has it at all.
 */
static int synth_modules(struct synth *s, const char *proc)
{
	uint8_t *p = (uint8_t *)s->rec;
	struct module_map *m;
	int n = read_modules(proc, &m), ret = 0;

	if (n < 0) {
		errno = ENOMEM;
		return -1;
	}
	for (int i = 0; i < n && !ret; i++) {
		size_t len = strlen(m[i].name) + 3, body = 40 + align8(len);

		memset(p, 0, body);
		((int32_t *)p)[2] = -1;
		((uint64_t *)p)[2] = m[i].start;
		((uint64_t *)p)[3] = m[i].size;
		snprintf((char *)p + 40, len, "[%s]", m[i].name);
		ret = emit(s, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, body);
	}
	free(m);
	return ret;
}

/**
 * rec_synth__kernel - the MMAP of the kernel's text, as perf record writes it
 * @w:		the writer (its attrs added)
 * @proc:	procfs root, for kallsyms
 * @sample_type: the file's attrs', for the zeroed trailer
 *
 * pid -1, start and page offset the address of _text (or _stext), length up
 * to _etext, named "[kernel.kallsyms]_text": stock perf relocates its
 * kernel symbols by it and names kernel samples' dso [kernel.kallsyms].
 * Nothing when kallsyms hides the addresses (kptr_restrict), as perf.
 * Then the loaded modules' (synth_modules()), from @proc/modules.
 * Returns 0, or -1 with errno set when the write failed.
 */
int rec_synth__kernel(struct hwt_writer *w, const char *proc, uint64_t sample_type)
{
	static const char name[] = "[kernel.kallsyms]_text";
	static struct synth s;
	uint8_t *p = (uint8_t *)s.rec;
	uint64_t start, end;

	s.w = w;
	s.trailer = trailer_size(sample_type);
	kernel_text(proc, &start, &end);
	if (start && end > start) {
		memset(p, 0, 40 + align8(sizeof(name)));
		((int32_t *)p)[2] = -1;
		((uint64_t *)p)[2] = start;
		((uint64_t *)p)[3] = end - start;
		((uint64_t *)p)[4] = start;
		memcpy(p + 40, name, sizeof(name));
		if (emit(&s, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
			 40 + align8(sizeof(name))))
			return -1;
	}
	return synth_modules(&s, proc);
}

/**
 * rec_synth__threads - COMM and MMAP2 records for the running processes
 * @w:		the writer (its attrs added)
 * @proc:	procfs root ("/proc")
 * @sample_type: the file's attrs' (all with sample_id_all), for the trailer
 * @dsos:	collects the paths of the files mapped executable
 *
 * Processes and threads that exit while being read are skipped.
 * Returns 0; -2 when @proc cannot be listed (said on stderr); -1 with errno
 * set when a write failed.
 */
int rec_synth__threads(struct hwt_writer *w, const char *proc, uint64_t sample_type,
		       struct rec_dsos *dsos)
{
	static struct synth s;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	s.w = w;
	s.proc = proc;
	s.trailer = trailer_size(sample_type);
	s.dsos = dsos;
	d = opendir(proc);
	if (!d) {
		fprintf(stderr, "perf hwtrace record: %s: cannot list the running processes: %s\n",
			proc, strerror(errno));
		return -2;
	}
	while (!ret && (de = readdir(d)))
		if (is_number(de->d_name))
			ret = synth_process(&s, atol(de->d_name));
	closedir(d);
	return ret;
}
