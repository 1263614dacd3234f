// SPDX-License-Identifier: GPL-2.0
/*
 * record_open.c - turn -e strings into perf_event_attr and open them per CPU
 * with the raw perf_event_open syscall, explaining the kernel's refusals.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "pmu/pmu_internal.h"
#include "hwtrace/pmu_format.h"
#include "hwtrace/device.h"
#include "record_state.h"
#include "commands.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static bool is_core_pmu(const char *name)
{
	return !strcmp(name, "cpu") || !strncmp(name, "cpu_", 4) || !strncmp(name, "armv", 4);
}

/**
 * rec_event__setup - parse an -e string and choose how it is recorded
 * @ev:		filled (name, attr, pmu, aux)
 * @sysfs:	sysfs root for the PMU description
 * @str:	"pmu/terms/" or a generic name
 *
 * AUX PMUs we carry (cxl_hmu_mem*, panthor_perf*, i915_oa*) are set up as
 * the RFC's perf does for the CXL HMU: freq 0, sample_period 1.  Others
 * sample at 4000 Hz unless the string gave period= or freq=.
 * Returns 0, or -1 after printing why (a usage error).
 */
int rec_event__setup(struct rec_event *ev, const char *sysfs, const char *str)
{
	char err[512];

	memset(ev, 0, sizeof(*ev));
	ev->name = str;
	if (hwt_pmu__parse_event_err(sysfs, str, &ev->attr, &ev->pmu, err, sizeof(err))) {
		fprintf(stderr, "perf hwtrace record: %s\n", err);
		return -1;
	}
	pmu_warnings__print("record", ev->pmu);
	ev->attr.size = sizeof(ev->attr);
	ev->attr.disabled = 1;
	ev->attr.sample_type = SAMPLE_TYPE;
	ev->attr.sample_id_all = 1;
	if (ev->pmu) {
		ev->dev = hwt_device__by_pmu(hwt_pmu__name(ev->pmu));
		ev->aux = ev->dev ? REC_AUX_DEVICE : REC_AUX_NONE;
		ev->maybe_aux = ev->aux == REC_AUX_NONE && ev->attr.type >= PERF_TYPE_MAX &&
				!is_core_pmu(hwt_pmu__name(ev->pmu));
	}
	if (ev->aux != REC_AUX_NONE) {
		if (!ev->attr.sample_period) {
			ev->attr.freq = 0;
			ev->attr.sample_period = 1;
		}
	} else {
		/* perf script wants an IP to print a sample */
		ev->attr.sample_type |= PERF_SAMPLE_IP;
		if (!ev->attr.sample_period) {
			ev->attr.freq = 1;
			ev->attr.sample_freq = 4000;
		}
	}
	return 0;
}

static void open_error(const struct rec_event *ev, pid_t pid, int cpu, int err)
{
	int paranoid = 2;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");

	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	fprintf(stderr, "perf hwtrace record: event '%s' on cpu %d%s: %s\n", ev->name, cpu,
		pid > 0 ? " (per task)" : "", strerror(err));
	switch (err) {
	case EACCES:
	case EPERM:
		fprintf(stderr, "  perf_event_paranoid is %d: %s needs CAP_PERFMON (or root), or\n"
			"  sysctl kernel.perf_event_paranoid=%d (or lower)\n", paranoid,
			pid > 0 ? "this event" : "system-wide recording", pid > 0 ? 1 : 0);
		break;
	case EINVAL:
		fprintf(stderr, "  the kernel refused event '%s': a term value the PMU does not "
			"accept, or a\n  mode it does not support (sampling, per-task, this cpu); "
			"see dmesg with dynamic debug\n", ev->name);
		break;
	case ENOENT:
		fprintf(stderr, "  no such PMU or event in this kernel (type %u config %#llx)\n",
			ev->attr.type, (unsigned long long)ev->attr.config);
		break;
	case ENODEV:
		fprintf(stderr, "  cpu %d is offline or outside the PMU's cpumask\n", cpu);
		break;
	case EOPNOTSUPP:
		fprintf(stderr, "  the PMU does not support %s\n",
			pid > 0 ? "per-task events (use -a or -C)" : "sampling this way");
		break;
	case EBUSY:
		fprintf(stderr, "  the PMU is busy (exclusive: someone else is using it)\n");
		break;
	}
}

/**
 * rec_event__open - open @ev on each of @cpus, for task @pid or system-wide
 * @ev:		set up by rec_event__setup()
 * @cpus:	CPUs
 * @ncpu:	how many
 * @pid:	-1 for system-wide, else the task (inherit and enable_on_exec set)
 *
 * Returns 0, or -1 after printing why (fds opened so far are closed).
 */
int rec_event__open(struct rec_event *ev, const int *cpus, int ncpu, pid_t pid)
{
	ev->pid = pid > 0 ? pid : -1;
	if (pid > 0) {
		ev->attr.inherit = 1;
		ev->attr.enable_on_exec = 1;
	}
	for (int i = 0; i < ncpu && i < REC_MAX_CPUS; i++) {
		int fd = (int)syscall(SYS_perf_event_open, &ev->attr, pid, cpus[i], -1,
				      PERF_FLAG_FD_CLOEXEC);

		if (fd < 0) {
			int e = errno;

			open_error(ev, pid, cpus[i], e);
			rec_event__close(ev);
			return -1;
		}
		ev->fds[ev->nfd] = fd;
		ev->cpus[ev->nfd] = cpus[i];
		if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->ids[ev->nfd]) < 0) {
			fprintf(stderr, "perf hwtrace record: PERF_EVENT_IOC_ID: %s\n",
				strerror(errno));
			ev->nfd++;
			rec_event__close(ev);
			return -1;
		}
		ev->nfd++;
	}
	return 0;
}

/* PERF_EVENT_IOC_ENABLE/DISABLE on every fd of @ev */
void rec_event__enable(struct rec_event *ev, bool on)
{
	for (int i = 0; i < ev->nfd; i++)
		ioctl(ev->fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

void rec_event__close(struct rec_event *ev)
{
	for (int i = 0; i < ev->nfd; i++)
		close(ev->fds[i]);
	ev->nfd = 0;
}
