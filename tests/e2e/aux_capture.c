// SPDX-License-Identifier: GPL-2.0
/*
 * aux_capture - minimal perf AUX reader for the QEMU end-to-end test.
 *
 * Built static and run inside the guest.  Opens one system-wide event on a
 * CPU, maps the data ring and a writable (non-overwrite) AUX area, and for
 * every PERF_RECORD_AUX copies the bytes it covers into the output file:
 *
 *	u64 aux_offset, u64 aux_size, u64 flags, aux_size bytes (padded to 8)
 *
 * Event terms are resolved through the PMU's sysfs format/ files, so a wrong
 * bit range there shows up as a wrong recording.  Results are printed as one
 * "AUXCAP ..." line for the console log.
 *
 *   aux_capture -e 'pmu/term=v,.../' [-C cpu] [-m aux_pages] [-t ms] [-b bytes]
 *		 [-s sleep_ms] [-o file] [-n cycles] [-u uid] [-P n] [-D n] [-H ms] [-c n]
 *		 [-T] [-R] [-F] [-N] [-V] [-U]
 *   -T opens the event per task (pid 0, cpu -1), -R maps the AUX area read-only
 *   (overwrite mode), -u drops to that uid/gid before opening, -F asks for
 *   frequency mode (4000 Hz), -N enables the event without an AUX mapping,
 *   -P issues n PERF_EVENT_IOC_PERIOD calls while recording, -V prints the
 *   record count every 500 ms with the time since boot (/proc/uptime's clock),
 *   -D toggles DISABLE/ENABLE n times while recording, -U unmaps the AUX area
 *   while the event is enabled, -H keeps both mappings for ms after close(),
 *   -c opens n events at once (no mapping) and reports how many succeeded.
 *
 *   For a cxl_hmu PMU the device model's counters (the cxl_hmu_sim module's
 *   stat_* parameters) are read around the capture and their differences
 *   printed as "AUXCAP DEVICE name=delta ...".
 *
 *   After a TRUNCATED record the event is disabled and enabled again: the PMU
 *   stops on real loss, and whether the core also disabled the event depends
 *   on the kernel and, on 6.1, on the CPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DATA_PAGES 16

struct opts {
	const char *event;
	int cpu;
	unsigned int aux_pages;
	unsigned int ms;
	unsigned long long max_bytes;
	unsigned int sleep_ms;
	const char *out;
	unsigned int cycles;
	int uid;
	int per_task;
	int read_only;
	int freq;
	int no_aux;
	int ticks;
	int unmap_enabled;
	unsigned int periods;
	unsigned int toggles;
	unsigned int hold_ms;
	unsigned int concurrent;
};

struct stats {
	unsigned long long records, bytes, truncated, partial, collision, lost, gaps, enables;
	unsigned long long after_trunc, periods, toggles;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

#define DEVICE_STATS "/sys/module/cxl_hmu_sim/parameters/stat_"
static const char *const device_stats[] = { "dropped", "overflows", "wraps", "disables",
					    "undrained" };
#define NSTATS (sizeof(device_stats) / sizeof(device_stats[0]))

/* the device model's counters; 0 when there is none */
static int read_device_stats(unsigned long long *v)
{
	char path[128], buf[64];
	unsigned int i;

	for (i = 0; i < NSTATS; i++) {
		snprintf(path, sizeof(path), DEVICE_STATS "%s", device_stats[i]);
		if (read_line(path, buf, sizeof(buf)))
			return -1;
		v[i] = strtoull(buf, NULL, 0);
	}
	return 0;
}

/* Place @val into config/config1/config2 as the format file "configN:lo-hi" says. */
static int put_term(struct perf_event_attr *a, const char *pmu, const char *term,
		    unsigned long long val)
{
	char path[2200], fmt[128], *colon;
	unsigned int lo, hi;
	unsigned long long *dst, mask;

	/* raw config=, config1=, config2= as perf accepts them */
	if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2")) {
		dst = term[6] == '1' ? (unsigned long long *)&a->config1 :
		      term[6] == '2' ? (unsigned long long *)&a->config2 :
		      (unsigned long long *)&a->config;
		*dst |= val;
		return 0;
	}
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/%s", pmu, term);
	if (read_line(path, fmt, sizeof(fmt))) {
		fprintf(stderr, "aux_capture: unknown term %s\n", term);
		return -1;
	}
	colon = strchr(fmt, ':');
	if (!colon)
		return -1;
	*colon = 0;
	if (!strcmp(fmt, "config"))
		dst = (unsigned long long *)&a->config;
	else if (!strcmp(fmt, "config1"))
		dst = (unsigned long long *)&a->config1;
	else if (!strcmp(fmt, "config2"))
		dst = (unsigned long long *)&a->config2;
	else
		return -1;
	if (sscanf(colon + 1, "%u-%u", &lo, &hi) != 2)
		hi = lo = (unsigned int)strtoul(colon + 1, NULL, 10);
	if (hi > 63 || lo > hi)
		return -1;
	mask = hi - lo == 63 ? ~0ULL : ((1ULL << (hi - lo + 1)) - 1);
	if (val & ~mask) {
		fprintf(stderr, "aux_capture: %s=%llu does not fit %s\n", term, val, fmt);
		return -1;
	}
	*dst |= val << lo;
	return 0;
}

/* "pmu/a=1,b=2/" -> attr */
static int parse_event(const char *ev, struct perf_event_attr *a)
{
	char buf[1024], *pmu, *terms, *tok, *save, *eq, path[1100], type[32];

	snprintf(buf, sizeof(buf), "%s", ev);
	pmu = buf;
	terms = strchr(buf, '/');
	if (terms) {
		*terms++ = 0;
		terms[strcspn(terms, "/")] = 0;
	}
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (read_line(path, type, sizeof(type))) {
		fprintf(stderr, "aux_capture: no PMU %s\n", pmu);
		return -1;
	}
	a->type = (uint32_t)strtoul(type, NULL, 10);
	for (tok = terms ? strtok_r(terms, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			return -1;
		*eq = 0;
		if (put_term(a, pmu, tok, strtoull(eq + 1, NULL, 0)))
			return -1;
	}
	a->disabled = 1;
	a->sample_period = 1;
	return 0;
}

static void set_freq(struct perf_event_attr *a)
{
	a->freq = 1;
	a->sample_freq = 4000;
}

/* Copy @len bytes at ring offset @off of a power-of-two ring. */
static void ring_copy(void *dst, const unsigned char *ring, uint64_t size, uint64_t off,
		      uint64_t len)
{
	uint64_t pos = off & (size - 1), first = len < size - pos ? len : size - pos;

	memcpy(dst, ring + pos, first);
	memcpy((unsigned char *)dst + first, ring, len - first);
}

struct capture {
	int fd;
	struct perf_event_mmap_page *up;
	unsigned char *data;
	unsigned char *aux;
	uint64_t data_size, aux_size, next_off;
	FILE *out;
	struct stats st;
	int need_enable;
};

static void consume(struct capture *c)
{
	uint64_t head = __atomic_load_n(&c->up->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = c->up->data_tail;
	static unsigned char rec[65536], *chunk;

	while (tail < head) {
		struct perf_event_header h;

		ring_copy(&h, c->data, c->data_size, tail, sizeof(h));
		if (h.size < sizeof(h))
			break;
		ring_copy(rec, c->data, c->data_size, tail, h.size);
		if (h.type == PERF_RECORD_AUX) {
			uint64_t v[3], pad = 0;

			memcpy(v, rec + sizeof(h), sizeof(v));
			c->st.records++;
			c->st.after_trunc += c->st.truncated > 0;
			c->st.bytes += v[1];
			c->st.truncated += !!(v[2] & PERF_AUX_FLAG_TRUNCATED);
			c->st.partial += !!(v[2] & PERF_AUX_FLAG_PARTIAL);
			c->st.collision += !!(v[2] & PERF_AUX_FLAG_COLLISION);
			if (c->st.records > 1 && v[0] != c->next_off)
				c->st.gaps += v[0] - c->next_off;
			c->next_off = v[0] + v[1];
			if (c->out && v[1] <= c->aux_size) {
				chunk = realloc(chunk, v[1] + 8);
				ring_copy(chunk, c->aux, c->aux_size, v[0], v[1]);
				fwrite(v, sizeof(v), 1, c->out);
				fwrite(chunk, 1, v[1], c->out);
				fwrite(&pad, 1, (8 - v[1] % 8) % 8, c->out);
			}
			__atomic_store_n(&c->up->aux_tail, v[0] + v[1], __ATOMIC_RELEASE);
			if (v[2] & PERF_AUX_FLAG_TRUNCATED)
				c->need_enable = 1;
		} else if (h.type == PERF_RECORD_LOST) {
			c->st.lost++;
		}
		tail += h.size;
	}
	__atomic_store_n(&c->up->data_tail, tail, __ATOMIC_RELEASE);
}

static int open_event(const struct opts *o, struct perf_event_attr *a, struct capture *c)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *base;

	memset(c, 0, sizeof(*c));
	c->fd = (int)syscall(SYS_perf_event_open, a, o->per_task ? 0 : -1,
			     o->per_task ? -1 : o->cpu, -1, 0);
	if (c->fd < 0) {
		printf("AUXCAP OPEN errno=%d (%s)\n", errno, strerror(errno));
		return -1;
	}
	c->data_size = (uint64_t)DATA_PAGES * pg;
	c->aux_size = (uint64_t)o->aux_pages * pg;
	base = mmap(NULL, (DATA_PAGES + 1) * pg, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (base == MAP_FAILED) {
		printf("AUXCAP MMAP errno=%d (%s)\n", errno, strerror(errno));
		close(c->fd);
		return -1;
	}
	c->up = base;
	c->data = (unsigned char *)base + pg;
	if (o->no_aux) {
		c->aux_size = 0;
		return 0;
	}
	c->up->aux_offset = (DATA_PAGES + 1) * pg;
	c->up->aux_size = c->aux_size;
	c->aux = mmap(NULL, c->aux_size, PROT_READ | (o->read_only ? 0 : PROT_WRITE),
		      MAP_SHARED, c->fd, (off_t)c->up->aux_offset);
	if (c->aux == MAP_FAILED) {
		printf("AUXCAP AUXMMAP errno=%d (%s)\n", errno, strerror(errno));
		munmap(base, (DATA_PAGES + 1) * pg);
		close(c->fd);
		return -1;
	}
	return 0;
}

static void close_event(const struct opts *o, struct capture *c)
{
	long pg = sysconf(_SC_PAGESIZE);

	if (o->hold_ms) {
		/* the mappings alone keep the event (and the module) alive */
		close(c->fd);
		printf("AUXCAP HOLD closed, mapped for %u ms\n", o->hold_ms);
		fflush(stdout);
		usleep(o->hold_ms * 1000);
		c->fd = -1;
	}
	if (c->aux_size)
		munmap(c->aux, c->aux_size);
	munmap(c->up, (DATA_PAGES + 1) * pg);
	if (c->fd >= 0)
		close(c->fd);
}

/* Open @n events on the same CPU at once: an exclusive PMU takes one. */
static int open_many(const struct opts *o, struct perf_event_attr *a)
{
	int *fds = calloc(o->concurrent, sizeof(*fds)), busy = 0, other = 0, ok = 0;
	unsigned int i;

	if (!fds)
		return 1;
	for (i = 0; i < o->concurrent; i++) {
		fds[i] = (int)syscall(SYS_perf_event_open, a, -1, o->cpu, -1, 0);
		if (fds[i] >= 0)
			ok++;
		else if (errno == EBUSY)
			busy++;
		else
			other++;
	}
	for (i = 0; i < o->concurrent; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	printf("AUXCAP MANY n=%u opened=%d ebusy=%d other=%d\n", o->concurrent, ok, busy, other);
	free(fds);
	return 0;
}

static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Record until @ms passed or @max_bytes of AUX data arrived. */
static void record(const struct opts *o, struct capture *c, unsigned int ms,
		   unsigned long long max_bytes)
{
	uint64_t end = now_ms() + ms, tick = now_ms() + 500;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };

	ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0);
	if (o->unmap_enabled) {
		/* the AUX area goes away under a running event */
		usleep(ms * 500);
		munmap(c->aux, c->aux_size);
		c->aux_size = 0;
		printf("AUXCAP UNMAPPED while enabled\n");
		fflush(stdout);
	}
	while (now_ms() < end && (!max_bytes || c->st.bytes < max_bytes)) {
		if (o->no_aux)
			usleep(100000);	/* nothing to read: add no timer interrupts */
		else if (o->sleep_ms)
			usleep(o->sleep_ms * 1000);
		else
			poll(&p, 1, 2);
		consume(c);
		if (c->need_enable) {
			/* the PMU stopped on TRUNCATED; the core may not have disabled it */
			c->need_enable = 0;
			c->st.enables++;
			ioctl(c->fd, PERF_EVENT_IOC_DISABLE, 0);
			ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0);
		}
		if (o->ticks && now_ms() >= tick) {
			tick += 500;
			printf("AUXCAP TICK up=%.2f records=%llu\n", uptime(), c->st.records);
			fflush(stdout);
		}
		if (c->st.toggles < o->toggles) {
			ioctl(c->fd, PERF_EVENT_IOC_DISABLE, 0);
			ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0);
			c->st.toggles++;
		}
		if (c->st.periods < o->periods) {
			uint64_t period = 1;

			if (!ioctl(c->fd, PERF_EVENT_IOC_PERIOD, &period))
				c->st.periods++;
		}
	}
	ioctl(c->fd, PERF_EVENT_IOC_DISABLE, 0);
	consume(c);
}

int main(int argc, char **argv)
{
	struct opts o = { .aux_pages = 64, .ms = 1000, .uid = -1 };
	struct perf_event_attr attr;
	unsigned long long stats0[NSTATS], stats1[NSTATS];
	struct capture c;
	int opt, have_stats;

	while ((opt = getopt(argc, argv, "e:C:m:t:b:s:o:n:u:P:D:H:c:TRFNVU")) != -1) {
		switch (opt) {
		case 'e': o.event = optarg; break;
		case 'C': o.cpu = atoi(optarg); break;
		case 'm': o.aux_pages = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't': o.ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'b': o.max_bytes = strtoull(optarg, NULL, 0); break;
		case 's': o.sleep_ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'o': o.out = optarg; break;
		case 'n': o.cycles = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'u': o.uid = atoi(optarg); break;
		case 'T': o.per_task = 1; break;
		case 'R': o.read_only = 1; break;
		case 'F': o.freq = 1; break;
		case 'N': o.no_aux = 1; break;
		case 'V': o.ticks = 1; break;
		case 'U': o.unmap_enabled = 1; break;
		case 'D': o.toggles = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'H': o.hold_ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'c': o.concurrent = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'P': o.periods = (unsigned int)strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (!o.event || parse_event(o.event, &attr))
		return 2;
	if (o.freq)
		set_freq(&attr);
	printf("AUXCAP ATTR type=%u config=%#llx config1=%#llx config2=%#llx\n", attr.type,
	       (unsigned long long)attr.config, (unsigned long long)attr.config1,
	       (unsigned long long)attr.config2);
	if (o.uid >= 0 && (setgid((gid_t)o.uid) || setuid((uid_t)o.uid))) {
		printf("AUXCAP SETUID errno=%d\n", errno);
		return 1;
	}
	if (o.concurrent)
		return open_many(&o, &attr);
	if (o.cycles) {
		unsigned int i, ok = 0;
		unsigned long long records = 0;

		for (i = 0; i < o.cycles; i++) {
			if (open_event(&o, &attr, &c))
				break;
			record(&o, &c, o.ms, 1);
			records += c.st.records;
			ok += c.st.records > 0;
			close_event(&o, &c);
		}
		printf("AUXCAP CYCLES n=%u opened=%u with_data=%u records=%llu\n", o.cycles, i, ok,
		       records);
		fflush(stdout);
		return i == o.cycles ? 0 : 1;
	}
	have_stats = !strncmp(o.event, "cxl_hmu", 7) && !read_device_stats(stats0);
	if (open_event(&o, &attr, &c))
		return 3;
	if (o.out) {
		c.out = fopen(o.out, "w");
		if (!c.out)
			return 1;
	}
	record(&o, &c, o.ms, o.max_bytes);
	if (c.out)
		fclose(c.out);
	close_event(&o, &c);
	printf("AUXCAP DONE records=%llu bytes=%llu truncated=%llu partial=%llu collision=%llu "
	       "lost=%llu gaps=%llu enables=%llu after_trunc=%llu periods=%llu toggles=%llu\n",
	       c.st.records, c.st.bytes, c.st.truncated, c.st.partial, c.st.collision, c.st.lost,
	       c.st.gaps, c.st.enables, c.st.after_trunc, c.st.periods, c.st.toggles);
	if (have_stats && !read_device_stats(stats1)) {
		unsigned int i;

		printf("AUXCAP DEVICE");
		for (i = 0; i < NSTATS; i++)
			printf(" %s=%llu", device_stats[i], stats1[i] - stats0[i]);
		printf("\n");
	}
	fflush(stdout);
	return 0;
}
