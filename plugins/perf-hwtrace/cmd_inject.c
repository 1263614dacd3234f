// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_inject.c - perf hwtrace inject -i IN -o OUT: decoded records as
 * tracepoint-style samples that stock perf reads (design.rst 5).
 *
 * The output keeps the input's attrs and non-AUX records (with the sample
 * ids perf needs to tell them from ours: inject_passthrough.c), adds one attr of
 * type PERF_TYPE_TRACEPOINT per data record type (config = its tracepoint ID,
 * fresh sample ids) and writes one PERF_RECORD_SAMPLE with a PERF_SAMPLE_RAW
 * payload (tracepoint.h) per decoded record, where its AUXTRACE record was.
 * The TRACING_DATA section describes the events; the HOSTNAME .. CMDLINE
 * features (from the input, else this machine) let `perf data convert` work.
 * The events' attrs and the sample bytes are the library's
 * (decoders/perf_data/tracepoint_sample.c); this file decides what passes
 * through and reports.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perf_data/perf_record_names.h"
#include "perf_data/tracepoint_internal.h"
#include "cli.h"
#include "commands.h"
#include "inject_passthrough.h"
#include "inject_rounds.h"
#include "out.h"
#include "output_file.h"

struct inject {
	struct cli c;
	int argc;
	char **argv;
	struct hwt_writer *w;
	const struct hwt_reader *r;	/* the input, while the session runs */
	bool started;
	struct inject_pt pt;		/* the input's events and records */
	struct hwt_tp_events events;	/* our tracepoint events and their sample ids */
	struct hwt_where at;		/* of the AUXTRACE being decoded */
	struct inject_rounds rounds;	/* FINISHED_ROUNDs passed through or held */
	uint64_t samples, passed, dropped, too_big;
	uint64_t late_offset;		/* the first late sample's record */
	const char *late_type;
	int werr;
	uint8_t rec[65536];
};

static void werror(struct inject *in, const char *what)
{
	if (!in->werr)
		in->werr = errno ? errno : EIO;
}

/* ---- features: the input's, else this machine's ------------------------- */

static char *cpuinfo_value(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *val = NULL;
	size_t n = strlen(key);

	if (!f)
		return NULL;
	while (!val && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, n) || !colon || (line[n] != ' ' && line[n] != '\t'))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = 0;
		val = strdup(colon);
	}
	fclose(f);
	return val;
}

static void local_feature(struct inject *in, enum hwt_feature feat)
{
	struct utsname u;
	char buf[512];

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	switch (feat) {
	case HWT_FEAT_HOSTNAME:
		hwt_writer__set_feature_string(in->w, feat, u.nodename);
		break;
	case HWT_FEAT_OSRELEASE:
		hwt_writer__set_feature_string(in->w, feat, u.release);
		break;
	case HWT_FEAT_VERSION:
		hwt_writer__set_feature_string(in->w, feat, "hwtrace " HWTRACE_VERSION);
		break;
	case HWT_FEAT_ARCH:
		hwt_writer__set_feature_string(in->w, feat, u.machine);
		break;
	case HWT_FEAT_NRCPUS:
		hwt_writer__set_nrcpus(in->w, (uint32_t)sysconf(_SC_NPROCESSORS_CONF),
				       (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
		break;
	case HWT_FEAT_CPUDESC: {
		char *v = cpuinfo_value("model name");

		hwt_writer__set_feature_string(in->w, feat, v ? v : "unknown");
		free(v);
		break;
	}
	case HWT_FEAT_CPUID: {
		char *vendor = cpuinfo_value("vendor_id"), *fam = cpuinfo_value("cpu family");
		char *model = cpuinfo_value("model"), *step = cpuinfo_value("stepping");

		if (vendor && fam && model && step)
			snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, fam, model, step);
		else
			snprintf(buf, sizeof(buf), "%s", u.machine);
		hwt_writer__set_feature_string(in->w, feat, buf);
		free(vendor);
		free(fam);
		free(model);
		free(step);
		break;
	}
	case HWT_FEAT_CMDLINE: {
		/* the program, then "inject" and its options, as record writes it */
		const char **v = calloc((size_t)in->argc + 1, sizeof(*v));

		if (!v)
			break;
		v[0] = "perf-hwtrace";
		for (int i = 0; i < in->argc; i++)
			v[i + 1] = in->argv[i];
		hwt_writer__set_cmdline(in->w, in->argc + 1, v);
		free(v);
		break;
	}
	default:
		break;
	}
}

static void set_features(struct inject *in)
{
	static const enum hwt_feature feats[] = {
		HWT_FEAT_HOSTNAME, HWT_FEAT_OSRELEASE, HWT_FEAT_VERSION, HWT_FEAT_ARCH,
		HWT_FEAT_NRCPUS, HWT_FEAT_CPUDESC, HWT_FEAT_CPUID, HWT_FEAT_CMDLINE,
	};
	size_t size = 0;
	void *td;

	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		const void *p = in->r ? hwt_reader__feature(in->r, feats[i], &size) : NULL;

		if (p && size)
			hwt_writer__set_feature(in->w, feats[i], p, size);
		else
			local_feature(in, feats[i]);
	}
	td = hwt_tp__tracing_data(&size);
	if (!td || hwt_writer__set_tracing_data(in->w, td, size) < 0)
		werror(in, "tracing data");
	free(td);
}

/* ---- records ------------------------------------------------------------ */

static void start(struct inject *in)
{
	in->started = true;
	if (inject_pt__start(&in->pt, in->r, in->w, &in->c.diag) < 0) {
		if (!in->pt.refused)
			werror(in, "attr");
		return;
	}
	if (hwt_tp_events__declare(&in->events, in->w, in->r, in->pt.sample_id_all,
				   in->pt.fresh_id) < 0)
		werror(in, "attr");
	set_features(in);
}

/* The AUX area is decoded into samples instead; COMPRESSED records come inflated. */
static bool dropped_type(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_AUX:
	case HWT_REC_AUXTRACE_INFO:
	case HWT_REC_AUXTRACE:
	case HWT_REC_AUXTRACE_ERROR:
	case HWT_REC_COMPRESSED:
	case HWT_REC_COMPRESSED2:
		return true;
	default:
		return false;
	}
}

/* Pipe-mode header records: the writer writes its own. */
static bool header_type(uint32_t type)
{
	return type == HWT_REC_HEADER_ATTR || type == HWT_REC_HEADER_EVENT_TYPE ||
	       type == HWT_REC_HEADER_TRACING_DATA || type == HWT_REC_HEADER_BUILD_ID ||
	       type == HWT_REC_HEADER_FEATURE;
}

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct inject *in = ctx;
	uint32_t type = ev->hdr->type;
	const struct perf_event_header *out;

	in->r = r;
	if (ev->sid.valid & PERF_SAMPLE_TIME)
		in->at.time = ev->sid.time;
	if (header_type(type))
		return;
	if (!in->started)
		start(in);
	if (in->pt.refused)
		return;
	if (dropped_type(type))
		return;
	if (type == HWT_REC_FINISHED_ROUND && !inject_rounds__round(&in->rounds))
		return;		/* written at the end */
	/* stock perf 6.1 stops at types it does not know (the reader warned) */
	out = hwt_record__known(type) ? inject_pt__record(&in->pt, r, ev, &in->c.diag) : NULL;
	if (in->pt.refused)
		return;
	if (!out)
		in->dropped++;
	else if (hwt_writer__write(in->w, out) < 0)
		werror(in, "record");
	else
		in->passed++;
	if (out && (ev->sid.valid & PERF_SAMPLE_TIME))
		inject_rounds__event(&in->rounds, ev->sid.time);
}

static void on_stream(void *ctx, const struct hwt_stream *s)
{
	struct inject *in = ctx;

	if (s->ops)
		inject_rounds__stream(&in->rounds, s->idx);
}

static void on_chunk(void *ctx, const struct hwt_stream *s, const struct hwt_chunk *c,
		     uint64_t total)
{
	struct inject *in = ctx;

	hwt_where__update(&in->at, c);
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct inject *in = ctx;
	uint64_t id;
	size_t n;

	if (!in->started)
		start(in);
	if (in->pt.refused)
		return;
	id = hwt_tp_events__id(&in->events, rec->type);
	if (!id)
		return;		/* framing / summary records are not events */
	n = hwt_tp__sample(rec, id, in->at.time, in->at.cpu < 0 ? 0 : (uint32_t)in->at.cpu,
			   in->at.tid, in->rec, sizeof(in->rec));
	if (!n) {
		if (!in->too_big++)
			hwt_diag__warn(&in->c.diag, rec->offset, rec->type->name,
				       "record does not fit a perf sample (64 KiB); not injected");
		return;
	}
	if (hwt_writer__write(in->w, (const struct perf_event_header *)in->rec) < 0) {
		werror(in, "sample");
		return;
	}
	in->samples++;
	if (inject_rounds__sample(&in->rounds, rec->stream, hwt_tp__sample_cpu(in->rec),
				  hwt_tp__sample_time(in->rec)) && in->rounds.late == 1) {
		in->late_offset = rec->offset;
		in->late_type = rec->type->name;
	}
}

/* The rounds held back, after everything: perf sorts what is left at the end anyway. */
static void held_rounds(struct inject *in)
{
	static const struct perf_event_header round = {
		.type = HWT_REC_FINISHED_ROUND, .size = sizeof(round),
	};

	for (uint64_t i = 0; i < in->rounds.held; i++)
		if (hwt_writer__write(in->w, &round) < 0) {
			werror(in, "record");
			return;
		}
}

/* ---- command ------------------------------------------------------------ */

static const char *const inject_usage[] = {
	"[-i IN] -o OUT [decoder options]",
	NULL,
};

int cmd_inject(int argc, char **argv)
{
	static struct inject in;
	struct hwt_session_opts so = { 0 };
	struct hwt_sink sink = {
		.event = on_event, .stream = on_stream, .chunk = on_chunk, .record = on_record,
		.ctx = &in,
	};
	const char *out = NULL;
	const struct parse_opt opts[] = {
		OPT_STRING('i', "input", &in.c.input, "IN",
			   "perf.data to read ('-': stdin, pipe mode); default perf.data"),
		OPT_STRING('o', "output", &out, "OUT",
			   "perf.data to write ('-': pipe mode on stdout)"),
		OPT_END(),
	};
	struct parse_cmd cmd = { "inject", inject_usage, command__summary("inject"), NULL };
	char **args;
	int ret;

	memset(&in, 0, sizeof(in));
	cli__init(&in.c, "inject");
	in.c.input = "perf.data";
	in.argc = argc;
	in.argv = argv;
	in.at.cpu = -1;
	in.at.tid = -1;
	/* parse a copy: argv itself goes into the output's cmdline */
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return EXIT_INPUT_ERROR;
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	ret = cli__parse(&in.c, &cmd, opts, argc, args, 0);
	if (ret < 0)
		ret = ret == PARSE_OPT_DONE ? ret : EXIT_USAGE;
	else if (ret > 0)
		ret = usage_error("inject", "unexpected argument '%s' (see --help)", args[0]);
	else if (!out)
		ret = usage_error("inject", "-o OUT is required (-o - for a pipe)");
	else
		ret = output_file__not_input("inject", out, in.c.input);
	if (!ret)
		ret = cli__check_opts(&in.c, NULL);
	free(args);
	if (ret) {
		cli__fini(&in.c);
		return ret == PARSE_OPT_DONE ? 0 : ret;
	}
	in.w = hwt_writer__new(out, !strcmp(out, "-"));
	if (!in.w) {
		fprintf(stderr, "perf hwtrace inject: %s: %s\n", out, strerror(errno));
		cli__fini(&in.c);
		return EXIT_INPUT_ERROR;
	}
	so.opts = in.c.opts;
	so.nopts = in.c.nopts;
	in.c.diag.file = in.c.input;
	cli__guard_sink(&in.c, &sink);
	ret = hwt_session__run(in.c.input, &so, &sink, &in.c.diag);
	in.r = NULL;		/* closed by now */
	if (!in.started)
		start(&in);
	if (!in.pt.refused)
		held_rounds(&in);
	/*
	 * An input that could not be read at all, or whose records could not
	 * be passed through, leaves the old output as it was; one with errors
	 * still gives a complete file (as perf does).
	 */
	if (ret < 0 || in.pt.refused) {
		hwt_writer__discard(in.w);
		if (strcmp(out, "-"))
			fprintf(stderr, "perf hwtrace inject: %s: not written (%s)\n", out,
				ret < 0 ? "no input" : "input refused");
		ret = ret < 0 ? ret : 1;
	} else if (hwt_writer__delete(in.w) < 0)
		werror(&in, "close");
	if (in.werr) {
		out__path_failed(out, in.werr);
		ret = 1;
	}
	fprintf(stderr, "inject: %llu samples injected, %llu records passed through",
		(unsigned long long)in.samples, (unsigned long long)in.passed);
	if (in.dropped)
		fprintf(stderr, ", %llu dropped", (unsigned long long)in.dropped);
	if (in.rounds.held)
		fprintf(stderr, ", %llu FINISHED_ROUND moved to the end",
			(unsigned long long)in.rounds.held);
	fputc('\n', stderr);
	if (in.rounds.late)
		hwt_diag__warn(&in.c.diag, in.late_offset, in.late_type,
			       "%llu injected samples, from this one on, are dated before "
			       "records of rounds already written (a round waits at most %llu s "
			       "of input time for a decoder's samples): stock perf reports them "
			       "as out of order events",
			       (unsigned long long)in.rounds.late,
			       INJECT_ROUNDS_WAIT_NS / 1000000000ull);
	cli__print_totals(&in.c, stderr);
	inject_pt__fini(&in.pt);
	inject_rounds__fini(&in.rounds);
	ret = cli__status(&in.c, ret);
	cli__fini(&in.c);
	return ret;
}
