// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_exporter.c - `perf hwtrace exporter`: DRM client usage (fdinfo) and
 * perf PMU counts and GPU device state (gpu_devices.c, as top's header)
 * as Prometheus series at http://ADDR:PORT/metrics.
 *
 * The proc tree is read as `top` reads it (drm_clients.c): every scrape
 * re-reads the fdinfo of the known clients through fds kept open, which
 * procfs fails once the client's fd is closed, and looks for new clients
 * where a <pid>/fd directory is new or changed (DRM_SAMPLE_NEW), so a client
 * shows up, and one that exited goes, at the next scrape.  A full scan every
 * --rescan seconds also finds a fd number reused in place (same fd count).
 * (A recorded tree is plain files that stay readable: replay a tree whose
 * files are rewritten with --rescan 0.)
 * exporter_metrics.c and exporter_pmu.c render, exporter_http.c serves and
 * serialises the scrapes.  Usage errors end the run (status 2) before the
 * socket is opened; SIGINT or SIGTERM stop it with status 0.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "out.h"
#include "drm_clients.h"
#include "gpu_devices.h"
#include "exporter_gpu.h"
#include "exporter_http.h"
#include "exporter_metrics.h"
#include "exporter_pmu.h"
#include "parse_options.h"

struct exporter {
	struct drm_clients clients;
	struct exporter_pmu pmu;
	struct gpu_devices gpus;	/* the hwtrace_gpu_* devices, found at start */
	double rescan;		/* seconds between full proc scans (new clients: every scrape) */
	uint64_t last_full;
	bool scanned;
	uint64_t errors;	/* hwtrace_exporter_scrape_errors_total */
	int last_errno;		/* of the proc root, said once per change */
};

static uint64_t mono_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* A bad fdinfo line: on stderr once per client and key, as top does. */
static void fdinfo_warning(void *ctx, const struct drm_client *cl, const char *path,
			   const struct hwt_error *e)
{
	char comm[4 * sizeof(cl->comm)];

	(void)ctx;
	fprintf(stderr, "perf hwtrace exporter: warning: %s: offset %llu: %s: %s "
		"(client of pid %d %s; not repeated)\n", path, (unsigned long long)e->offset,
		e->rtype, e->msg, cl->npids ? cl->pids[0] : 0,
		out__escape(comm, sizeof(comm), cl->comm));
}

/* One scrape, under exporter_http's lock. */
static void scrape(void *ctx, struct membuf *b)
{
	struct exporter *x = ctx;
	uint64_t t0 = mono_ns(NULL);
	bool full = !x->scanned || (double)(t0 - x->last_full) >= x->rescan * 1e9;

	if (drm_clients__sample(&x->clients, full ? DRM_SAMPLE_FULL : DRM_SAMPLE_NEW)) {
		x->errors++;
		if (errno != x->last_errno)
			fprintf(stderr, "perf hwtrace exporter: cannot read %s: %s\n",
				x->clients.proc, strerror(errno));
		x->last_errno = errno;
	} else {
		x->last_errno = 0;
		if (full) {
			x->scanned = true;
			x->last_full = t0;
		}
	}
	exporter_metrics__drm(b, &x->clients);
	gpu_devices__sample(&x->gpus, t0);
	exporter_gpu__render(b, &x->gpus);
	if (exporter_pmu__render(&x->pmu, b))
		x->errors++;
	exporter_metrics__self(b, (mono_ns(NULL) - t0) / 1e9, x->errors);
}

static const char *const exporter_usage[] = {
	"--listen ADDR:PORT [--proc DIR] [--sys DIR] [-e EVENT]... [--rescan SECONDS]",
	NULL,
};

static int rescan_opt(const struct parse_opt *opt, const char *val, int unset)
{
	double *d = opt->value;
	char *end;

	(void)unset;
	*d = strtod(val, &end);
	if (*end || end == val || !(*d >= 0) || *d > 86400)
		return usage_error("exporter", "--rescan: bad interval '%s' (0 to 86400 seconds)",
				   val);
	return 0;
}

int cmd_exporter(int argc, char **argv)
{
	static const char *ev_names[EXPORTER_MAX_EVENTS];
	static struct exporter x;
	const char *listen = NULL, *proc = "/proc", *sys = "/sys";
	int nev = 0, n, sig;
	const struct parse_opt opts[] = {
		OPT_STRING(0, "listen", &listen, "ADDR:PORT",
			   "serve /metrics here: HOST:PORT, [IPv6]:PORT or :PORT (every address)"),
		OPT_STRING(0, "proc", &proc, "DIR", "proc root of the DRM clients (default /proc)"),
		OPT_STRING(0, "sys", &sys, "DIR", "sysfs root of the PMUs and GPUs (default /sys)"),
		OPT_STRING(0, "sysfs", &sys, "DIR", "the same as --sys (list, record and stat's name)"),
		OPT_EVENT_LIST('e', "event", ev_names, &nev, EXPORTER_MAX_EVENTS, "EVENT",
			       "serve this PMU event's system-wide count: pmu/term=value,.../"),
		OPT_CALLBACK(0, "rescan", &x.rescan, "SECONDS",
			     "full proc scan interval (default 30; 0: every scrape); new pids and "
			     "changed fd tables are looked at on every scrape", rescan_opt),
		OPT_END(),
	};
	const struct parse_cmd cmd = { "exporter", exporter_usage, command__summary("exporter"),
				       opts };
	struct sockaddr_storage addr;
	socklen_t alen = 0;
	struct exporter_http *h;
	char err[512];
	sigset_t stop;

	x.rescan = 30;
	n = parse_options(argc, argv, &cmd, 0);
	if (n < 0)
		return parse_options__status(n);
	if (n)
		return usage_error("exporter", "unexpected argument '%s' (see --help)", argv[0]);
	if (!listen)
		return usage_error("exporter", "--listen ADDR:PORT is required");
	if (exporter_http__parse_addr(listen, &addr, &alen, err, sizeof(err)))
		return usage_error("exporter", "--listen %s", err);
	if (exporter_pmu__parse(&x.pmu, sys, ev_names, nev)) {
		exporter_pmu__exit(&x.pmu);
		return EXIT_USAGE;
	}
	if (exporter_pmu__open(&x.pmu, sys)) {
		exporter_pmu__exit(&x.pmu);
		return EXIT_INPUT_ERROR;
	}
	if (gpu_devices__scan(&x.gpus, sys) < 0) {
		exporter_pmu__exit(&x.pmu);
		return EXIT_INPUT_ERROR;
	}
	drm_clients__init(&x.clients, proc);
	x.clients.clock = mono_ns;
	x.clients.warn = fdinfo_warning;
	/* the server's threads inherit the mask: the signals come to sigwait() alone */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	h = exporter_http__start((struct sockaddr *)&addr, alen, scrape, &x);
	if (!h) {
		drm_clients__exit(&x.clients);
		gpu_devices__exit(&x.gpus);
		exporter_pmu__exit(&x.pmu);
		return EXIT_INPUT_ERROR;
	}
	fprintf(stderr, "perf hwtrace exporter: serving http://%s/metrics\n",
		exporter_http__where(h));
	while (sigwait(&stop, &sig))
		;
	exporter_http__stop(h);
	drm_clients__exit(&x.clients);
	gpu_devices__exit(&x.gpus);
	exporter_pmu__exit(&x.pmu);
	return 0;
}
