// SPDX-License-Identifier: GPL-2.0
/*
 * record_features.c - the header features a recording carries: HOSTNAME,
 * OSRELEASE, VERSION, ARCH, NRCPUS, CMDLINE and PMU_MAPPINGS (EVENT_DESC is
 * built by the writer from the attr names, BUILD_ID in record_buildid.c).  Readers use PMU_MAPPINGS to
 * tell a cxl_hmu_mem* AUXTRACE_INFO type 7 from upstream's VPA_DTL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "pmu/pmu_internal.h"
#include "record_state.h"

/* CMDLINE: this program's name, then the record command line */
static int set_cmdline(struct hwt_writer *w, int argc, char **argv)
{
	const char **v = calloc((size_t)argc + 1, sizeof(*v));
	int ret;

	if (!v)
		return -1;
	v[0] = "perf-hwtrace";
	for (int i = 0; i < argc; i++)
		v[i + 1] = argv[i];
	ret = hwt_writer__set_cmdline(w, argc + 1, v);
	free(v);
	return ret;
}

/* Every PMU under <sysfs>/bus/event_source/devices with its type. */
static int set_pmu_mappings(struct hwt_writer *w, const char *sysfs)
{
	struct hwt_pmu_mapping *m;
	char **names;
	uint32_t nm = 0;
	int n, ret;

	n = hwt_pmu__list(sysfs, &names);
	if (n <= 0)
		return 0;
	m = calloc((size_t)n, sizeof(*m));
	if (!m) {
		hwt_pmu__list_free(names, n);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uint64_t type;

		if (hwt_pmu__sysfs_u64(sysfs, names[i], "type", &type) || type > UINT32_MAX)
			continue;
		m[nm].type = (uint32_t)type;
		m[nm].name = names[i];
		nm++;
	}
	ret = nm ? hwt_writer__set_pmu_mappings(w, m, nm) : 0;
	free(m);
	hwt_pmu__list_free(names, n);
	return ret;
}

/**
 * rec_features__set - set the features of a recording on @w
 * @w:		the writer (before its first record)
 * @sysfs:	sysfs root, for PMU_MAPPINGS
 * @argc, @argv: the record command line ("record", options...)
 *
 * Returns 0, or -1 with errno set.
 */
int rec_features__set(struct hwt_writer *w, const char *sysfs, int argc, char **argv)
{
	struct utsname u;
	char host[256];
	int err = 0;

	if (uname(&u) < 0)
		return -1;
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "%s", u.nodename);
	host[sizeof(host) - 1] = 0;
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_HOSTNAME, host);
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_OSRELEASE, u.release);
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_VERSION, HWTRACE_VERSION);
	err |= hwt_writer__set_feature_string(w, HWT_FEAT_ARCH, u.machine);
	err |= hwt_writer__set_nrcpus(w, (uint32_t)sysconf(_SC_NPROCESSORS_CONF),
				      (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	err |= set_cmdline(w, argc, argv);
	err |= set_pmu_mappings(w, sysfs);
	return err ? -1 : 0;
}
