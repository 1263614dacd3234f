// SPDX-License-Identifier: GPL-2.0
/*
 * record_buildid.c - the BUILD_ID feature of a recording: the build ids of
 * the kernel, its modules and the files the running processes map
 * executable, read as perf reads them (util/symbol-elf.c): the
 * NT_GNU_BUILD_ID note of an ELF file with elfutils' libelf, the kernel's
 * from <sysfs>/kernel/notes, a module's from
 * <sysfs>/module/NAME/notes/.note.gnu.build-id.
 *
 * The section is a run of perf_record_header_build_id entries: header
 * (misc: cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE), pid -1 (the host), 20
 * id bytes, their count, 3 reserved bytes, then the file name NUL-padded
 * to a multiple of 64.
 *
 * libelf is loaded here, when a recording ends (lazy_lib.h), not linked:
 * every other verb and every start would pay for it.  Without it the
 * kernel's and the modules' ids are still read (sysfs notes need no ELF
 * library) and the files' are left out, with a warning.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elf.h>

#include "blob.h"
#include "core/lazy_lib.h"
#include "record_state.h"

#define ELF_SONAME "libelf.so.1"	/* elfutils' */

/* the functions used, typed by <libelf.h> and <gelf.h> */
static struct {
	typeof(&elf_version) version;
	typeof(&elf_begin) begin;
	typeof(&elf_kind) kind;
	typeof(&elf_nextscn) nextscn;
	typeof(&elf_getdata) getdata;
	typeof(&elf_getdata_rawchunk) getdata_rawchunk;
	typeof(&elf_getphdrnum) getphdrnum;
	typeof(&elf_end) end;
	typeof(&gelf_getshdr) getshdr;
	typeof(&gelf_getphdr) getphdr;
	typeof(&gelf_getnote) getnote;
} elf;

static const struct hwt_lazy_sym elf_syms[] = {
	HWT_LAZY_SYM(elf.version, elf_version),
	HWT_LAZY_SYM(elf.begin, elf_begin),
	HWT_LAZY_SYM(elf.kind, elf_kind),
	HWT_LAZY_SYM(elf.nextscn, elf_nextscn),
	HWT_LAZY_SYM(elf.getdata, elf_getdata),
	HWT_LAZY_SYM(elf.getdata_rawchunk, elf_getdata_rawchunk),
	HWT_LAZY_SYM(elf.getphdrnum, elf_getphdrnum),
	HWT_LAZY_SYM(elf.end, elf_end),
	HWT_LAZY_SYM(elf.getshdr, gelf_getshdr),
	HWT_LAZY_SYM(elf.getphdr, gelf_getphdr),
	HWT_LAZY_SYM(elf.getnote, gelf_getnote),
};

static struct hwt_lazy_lib elf_lib = HWT_LAZY_LIB(ELF_SONAME, RTLD_NOW, "libelf1", elf_syms);

#define BUILD_ID_MAX	20
#define NAME_ALIGN	64
/* perf's PERF_RECORD_MISC_BUILD_ID_SIZE: the entry's size byte is valid */
#define MISC_BUILD_ID_SIZE	(1 << 15)

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and drop repeats. */
static void dsos_unique(struct rec_dsos *d)
{
	size_t k = 0;

	if (!d->n)
		return;
	qsort(d->names, d->n, sizeof(*d->names), cmp_names);
	for (size_t i = 1; i < d->n; i++) {
		if (!strcmp(d->names[i], d->names[k]))
			free(d->names[i]);
		else
			d->names[++k] = d->names[i];
	}
	d->n = k + 1;
}

/**
 * rec_dsos__add - remember a file mapped executable (once)
 * @d:		the set
 * @path:	its path
 *
 * Returns 0, or -1 (ENOMEM).
 */
int rec_dsos__add(struct rec_dsos *d, const char *path)
{
	char *copy;

	/* a process maps its files in a run: most repeats are the last one */
	if (d->n && !strcmp(d->names[d->n - 1], path))
		return 0;
	/* a long recording maps the same few files again and again: compact, grow if still full */
	if (d->n == d->cap) {
		dsos_unique(d);
		if (!d->cap || d->n > d->cap / 2) {
			size_t cap = d->cap ? 2 * d->cap : 256;
			char **nn = realloc(d->names, cap * sizeof(*nn));

			if (!nn)
				return -1;
			d->names = nn;
			d->cap = cap;
		}
	}
	copy = strdup(path);
	if (!copy)
		return -1;
	d->names[d->n++] = copy;
	return 0;
}

void rec_dsos__free(struct rec_dsos *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	memset(d, 0, sizeof(*d));
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* The GNU build id in a run of ELF notes (native byte order); its size or 0. */
static size_t notes_build_id(const uint8_t *p, size_t n, uint8_t *id)
{
	size_t off = 0;

	/* off may pass n after the last desc's padding: test it first */
	while (off <= n && n - off >= sizeof(Elf32_Nhdr)) {
		Elf32_Nhdr nh;
		size_t name, desc;

		memcpy(&nh, p + off, sizeof(nh));
		name = off + sizeof(nh);
		if (nh.n_namesz > n || nh.n_descsz > n)
			return 0;
		desc = name + align4(nh.n_namesz);
		if (desc > n || nh.n_descsz > n - desc)
			return 0;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(p + name, "GNU", 4) && nh.n_descsz) {
			size_t sz = nh.n_descsz < BUILD_ID_MAX ? nh.n_descsz : BUILD_ID_MAX;

			memcpy(id, p + desc, sz);
			return sz;
		}
		off = desc + align4(nh.n_descsz);
	}
	return 0;
}

/* The build id of a raw notes file (sysfs); its size or 0. */
static size_t file_notes_build_id(const char *path, uint8_t *id)
{
	uint8_t buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? notes_build_id(buf, (size_t)n, id) : 0;
}

/* The GNU build id in the notes of Elf_Data @d, via libelf's note walker. */
static size_t data_build_id(Elf_Data *d, uint8_t *id)
{
	size_t off = 0, next, name, desc;
	GElf_Nhdr nh;

	while (d && off < d->d_size && (next = elf.getnote(d, off, &nh, &name, &desc)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + name, "GNU", 4) && nh.n_descsz) {
			size_t sz = nh.n_descsz < BUILD_ID_MAX ? nh.n_descsz : BUILD_ID_MAX;

			memcpy(id, (const uint8_t *)d->d_buf + desc, sz);
			return sz;
		}
		off = next;
	}
	return 0;
}

/*
 * The build id of ELF file @path: its SHT_NOTE sections, or, for a file
 * without section headers, its PT_NOTE segments.  Its size or 0.
 */
static size_t elf_build_id(const char *path, uint8_t *id)
{
	Elf_Scn *scn = NULL;
	size_t sz = 0, nph;
	Elf *e;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	e = elf.begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf.kind(e) != ELF_K_ELF)
		goto out;
	while (!sz && (scn = elf.nextscn(e, scn))) {
		GElf_Shdr sh;

		if (elf.getshdr(scn, &sh) && sh.sh_type == SHT_NOTE)
			sz = data_build_id(elf.getdata(scn, NULL), id);
	}
	if (!sz && !elf.getphdrnum(e, &nph)) {
		for (size_t i = 0; !sz && i < nph; i++) {
			GElf_Phdr ph;

			if (elf.getphdr(e, (int)i, &ph) && ph.p_type == PT_NOTE)
				sz = data_build_id(elf.getdata_rawchunk(e, (int64_t)ph.p_offset,
									ph.p_filesz, ELF_T_NHDR),
						   id);
		}
	}
out:
	elf.end(e);
	close(fd);
	return sz;
}

/* One perf_record_header_build_id entry. */
static void put_entry(struct blob *b, uint16_t cpumode, const uint8_t *id, size_t sz,
		      const char *name)
{
	static const uint8_t zeros[NAME_ALIGN];
	size_t len = (strlen(name) + 1 + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	struct perf_event_header h = {
		.misc = cpumode | MISC_BUILD_ID_SIZE,
		.size = (uint16_t)(sizeof(h) + 4 + 24 + len),
	};
	uint8_t idbuf[24] = { 0 };
	int32_t pid = -1;

	memcpy(idbuf, id, sz);
	idbuf[20] = (uint8_t)sz;
	blob_put(b, &h, sizeof(h));
	blob_put(b, &pid, sizeof(pid));
	blob_put(b, idbuf, sizeof(idbuf));
	blob_put(b, name, strlen(name));
	blob_put(b, zeros, len - strlen(name));
}

/* The loaded modules that have a build id, named "[name]" as perf does without the .ko */
static void put_modules(struct blob *b, const char *sysfs)
{
	char path[4096], name[300];
	uint8_t id[BUILD_ID_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/module", sysfs);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t sz;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id", sysfs,
			 de->d_name);
		sz = file_notes_build_id(path, id);
		if (!sz)
			continue;
		snprintf(name, sizeof(name), "[%s]", de->d_name);
		put_entry(b, PERF_RECORD_MISC_KERNEL, id, sz, name);
	}
	closedir(d);
}

/* Pipe mode: each entry as a PERF_RECORD_HEADER_BUILD_ID record, as perf inject -b writes them. */
static int write_records(struct hwt_writer *w, const struct blob *b)
{
	/* entries are 36 + 64 * n bytes: copy each out to an aligned header */
	static uint64_t rec[(40 + 4096 + NAME_ALIGN) / 8];
	struct perf_event_header *h = (struct perf_event_header *)rec;
	size_t off = 0;

	while (off + sizeof(*h) <= b->len) {
		memcpy(h, b->p + off, sizeof(*h));
		if (h->size > sizeof(rec) || h->size > b->len - off)
			break;	/* a name longer than PATH_MAX: not put there */
		memcpy(rec, b->p + off, h->size);
		h->type = HWT_REC_HEADER_BUILD_ID;
		if (hwt_writer__write(w, h) < 0)
			return -1;
		off += h->size;
	}
	return 0;
}

/**
 * rec_buildid__set - the build ids of the kernel, its modules and @dsos
 * @w:		the writer
 * @sysfs:	sysfs root, for the kernel's and the modules' notes
 * @dsos:	files mapped executable; sorted and deduplicated here
 * @pipe:	@w writes pipe mode
 *
 * File mode sets the BUILD_ID feature (written at close); pipe mode, which
 * has no feature section after the records, appends HEADER_BUILD_ID records.
 * Files without a build id (or unreadable now) are left out, as perf does.
 * Returns 0, or -1 with errno set.
 */
int rec_buildid__set(struct hwt_writer *w, const char *sysfs, struct rec_dsos *dsos, bool pipe)
{
	uint8_t id[BUILD_ID_MAX];
	struct blob b = { 0 };
	char path[4096];
	bool have_elf;
	size_t sz;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/kernel/notes", sysfs);
	sz = file_notes_build_id(path, id);
	if (sz)
		put_entry(&b, PERF_RECORD_MISC_KERNEL, id, sz, "[kernel.kallsyms]");
	put_modules(&b, sysfs);
	dsos_unique(dsos);
	have_elf = !dsos->n || hwt_lazy_lib__load(&elf_lib);
	if (have_elf && dsos->n)
		elf.version(EV_CURRENT);
	else if (!have_elf)
		fprintf(stderr, "perf hwtrace record: warning: %s: the build ids of %zu mapped "
			"files are left out\n", elf_lib.why, dsos->n);
	for (size_t i = 0; have_elf && i < dsos->n; i++) {
		sz = elf_build_id(dsos->names[i], id);
		if (sz)
			put_entry(&b, PERF_RECORD_MISC_USER, id, sz, dsos->names[i]);
	}
	if (b.nomem) {
		free(b.p);
		errno = ENOMEM;
		return -1;
	}
	if (b.len)
		ret = pipe ? write_records(w, &b) :
			     hwt_writer__set_feature(w, HWT_FEAT_BUILD_ID, b.p, b.len);
	free(b.p);
	return ret;
}
