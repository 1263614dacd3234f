// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_synth.c - `perf hwtrace synth`: write a deterministic perf.data as the
 * kernel driver and perf would, for tests, demos and benchmarks.
 *
 *   perf hwtrace synth --type T [--seed N] [--size B] [--auxtrace-type N]
 *                      [--pipe] [--manifest FILE] [--KEY VALUE ...] -o F
 *
 * B takes K/M/G/T suffixes (powers of 1024).  -o - writes pipe mode to
 * standard output.  --KEY VALUE options are handed to the generator; only the
 * keys its help line lists ("--KEY") are accepted.  The generators are the
 * devices' (decoders/<device>/synth.c); this file prints their errors and
 * writes the manifest file.  Both files appear whole or not at all
 * (hwt_outfile: a temporary file renamed when complete), and a size the
 * output's filesystem cannot hold is refused before anything is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/device.h"

#include "commands.h"
#include "out.h"
#include "output_file.h"
#include "parse_options.h"
#include "hwtrace/synth.h"

#define MAX_OPTS 64

/*
 * What --size B writes: B of payload plus the records around it (48-byte
 * AUXTRACE and AUX records per drain, attrs, features): under 0.3% and
 * 16 KiB on every generator; this errs on the large side.
 */
static uint64_t estimated_size(uint64_t size)
{
	return size + size / 256 + (64 << 10);
}

/* "123", "0x10", "256K", "1.5"-free: integer with an optional K/M/G/T[i][B] suffix */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && *end == 'i')
		end++;
	if (*end == 'B' || (shift && *end == 'b'))
		end++;
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/* Does the generator's help line list "--key"? */
static bool type_has_opt(const struct hwt_device *dev, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = dev->synth->help; (p = strstr(p, "--")); p += 2) {
		const char *k = p + 2;

		if (!strncmp(k, key, n) && !(k[n] == '_' || k[n] == '-' ||
					     (k[n] >= 'a' && k[n] <= 'z') ||
					     (k[n] >= '0' && k[n] <= '9')))
			return true;
	}
	return false;
}

/* The generators' manifest text goes to the --manifest file. */
static int manifest_write(void *ctx, const char *text, size_t len)
{
	return fwrite(text, 1, len, ctx) == len ? 0 : -1;
}

/* The generators' errors, one line each. */
static void report(void *ctx, const struct hwt_error *e)
{
	fprintf(stderr, "perf hwtrace synth: %s\n", e->msg);
}

static const char *const synth_usage[] = {
	"--type TYPE [--seed N] [--size B] [--auxtrace-type N] [--pipe] [--manifest FILE] "
	"[--KEY VALUE ...] -o FILE",
	NULL,
};

#define KEY_CHARS "abcdefghijklmnopqrstuvwxyz0123456789-_"

static struct hwt_opt gen_opts[MAX_OPTS];
static uint32_t ngen_opts;

/* A generator option: the key is the option's long name. */
static int gen_opt(const struct parse_opt *opt, const char *val, int unset)
{
	(void)unset;
	if (ngen_opts == MAX_OPTS)
		return usage_error("synth", "too many options");
	gen_opts[ngen_opts++] = (struct hwt_opt){ .key = opt->long_name, .val = val };
	return 0;
}

static int size_opt(const struct parse_opt *opt, const char *val, int unset)
{
	(void)unset;
	if (parse_size(val, opt->value))
		return usage_error("synth", "bad --size '%s' (K/M/G suffix)", val);
	return 0;
}

/*
 * The table: synth's own options, then every "--KEY" some generator's help
 * line lists (the generator checks which of them its type takes).
 */
static struct parse_opt *synth_table(const struct parse_opt *base, size_t nbase)
{
	size_t max = nbase + 1, n = nbase;
	struct parse_opt *t;

	for (const struct hwt_device *const *d = hwt_devices; *d; d++) {
		if (!(*d)->synth)
			continue;
		max++;		/* its heading */
		for (const char *p = (*d)->synth->help; (p = strstr(p, "--")); p += 2)
			max++;
	}
	t = calloc(max, sizeof(*t));
	if (!t)
		return NULL;
	memcpy(t, base, nbase * sizeof(*t));
	for (const struct hwt_device *const *dv = hwt_devices; *dv; dv++) {
		char *h = NULL;

		if (!(*dv)->synth)
			continue;
		if (asprintf(&h, "  options of --type %s:", (*dv)->name) > 0)
			t[n++] = (struct parse_opt)OPT_GROUP(h);
		for (const char *p = (*dv)->synth->help; (p = strstr(p, "--")); p += 2) {
			/* "--KEY ARG (DEFAULT)": the help line's own words */
			const char *k = p + 2, *a = k + strspn(k, KEY_CHARS), *d;
			size_t alen;
			char *key = strndup(k, (size_t)(a - k)), *arg, *help = NULL;

			a += strspn(a, " ");
			alen = strcspn(a, " ,])");
			d = a + alen + strspn(a + alen, " ");
			if (*d == '(' && strchr(d, ')'))
				asprintf(&help, "default %.*s", (int)(strchr(d, ')') - d - 1), d + 1);
			arg = strndup(a, alen);
			if (!key || !arg || !*arg) {
				free(arg);
				arg = NULL;
			}
			if (!key) {
				free(help);
				continue;
			}
			t[n++] = (struct parse_opt)OPT_CALLBACK(0, key, NULL, arg ? arg : "VALUE",
								 help ? help : "", gen_opt);
		}
	}
	t[n] = (struct parse_opt)OPT_END();
	return t;
}

/* A value the device's own check refuses is refused here too (synth --layout 3). */
static int check_gen_opts(const char *type, const struct hwt_device *dev)
{
	char err[4096];

	for (uint32_t i = 0; i < ngen_opts; i++) {
		const struct hwt_dev_opt *o;

		if (!type_has_opt(dev, gen_opts[i].key))
			return usage_error("synth", "--%s is not an option of type %s",
					   gen_opts[i].key, type);
		o = hwt_device__opt(dev, gen_opts[i].key, strlen(gen_opts[i].key));
		if (o && o->check && o->check(gen_opts[i].val, err, sizeof(err)))
			return usage_error("synth", "--%s: %s", gen_opts[i].key, err);
	}
	return 0;
}

int cmd_synth(int argc, char **argv)
{
	const char *type = NULL, *out = NULL, *manifest = NULL;
	const struct hwt_device *dev = NULL;
	struct hwt_synth_opts so = { .size = 1 << 20, .opts = gen_opts };
	struct hwt_diag diag = { .report = report };
	FILE *mf = NULL;
	struct hwt_outfile *mfile = NULL;
	struct output_progress progress = { 0 };
	struct hwt_writer *w;
	bool pipe = false;
	uint64_t auxtrace_type = 0;
	const struct parse_opt base[] = {
		OPT_STRING(0, "type", &type, "TYPE", "the device: cxl-hmu, panthor, i915-oa"),
		OPT_STRING('o', "output", &out, "FILE", "the perf.data to write ('-': pipe mode "
			   "to standard output)"),
		OPT_U64(0, "seed", &so.seed, "N", "model seed", 0, UINT64_MAX),
		OPT_CALLBACK(0, "size", &so.size, "B",
			     "approximate AUX payload bytes (K/M/G suffixes), default 1M", size_opt),
		OPT_U64(0, "auxtrace-type", &auxtrace_type, "N",
			"AUXTRACE_INFO type to write instead of the device's", 0, UINT32_MAX),
		OPT_BOOLEAN(0, "pipe", &pipe, "write pipe mode"),
		OPT_STRING(0, "manifest", &manifest, "FILE",
			   "also write what was put in ('-': standard output)"),
	};
	struct parse_cmd cmd = { "synth", synth_usage, command__summary("synth"), NULL };
	/* static: the table and its strings live as long as the options parsed with it */
	static struct parse_opt *table;
	int ret;

	table = synth_table(base, sizeof(base) / sizeof(base[0]));
	if (!table)
		return EXIT_INPUT_ERROR;
	cmd.opts = table;
	ret = parse_options(argc, argv, &cmd, 0);
	if (ret < 0)
		return parse_options__status(ret);
	if (ret > 0)
		return usage_error("synth", "unexpected argument '%s'", argv[0]);
	so.auxtrace_type = (uint32_t)auxtrace_type;
	so.nopts = ngen_opts;
	if (!type)
		return usage_error("synth", "--type is required (try --help)");
	dev = hwt_device__find(type);
	if (!dev || !dev->synth)
		return usage_error("synth", "unknown --type '%s' (try --help)", type);
	ret = check_gen_opts(type, dev);
	if (ret)
		return ret;
	if (!out)
		return usage_error("synth", "-o FILE is required (-o - for a pipe to stdout)");
	if (manifest && !strcmp(manifest, "-") && !strcmp(out, "-"))
		return usage_error("synth", "--manifest - and -o - both want standard output");
	/* two outputs renamed onto one file: the manifest would replace the data */
	if (manifest && strcmp(manifest, "-") &&
	    (!strcmp(manifest, out) || output_file__same(manifest, out)))
		return usage_error("synth", "--manifest and -o name the same file '%s'", out);

	if (strcmp(out, "-")) {
		ret = output_file__check_space("synth", out, estimated_size(so.size));
		if (ret)
			return ret;
	}
	if (manifest && strcmp(manifest, "-")) {
		mfile = hwt_outfile__new(manifest);
		mf = mfile ? fdopen(dup(hwt_outfile__fd(mfile)), "w") : NULL;
		if (!mf) {
			fprintf(stderr, "perf hwtrace synth: %s: %s\n", manifest, strerror(errno));
			hwt_outfile__delete(mfile, false);
			return EXIT_INPUT_ERROR;
		}
	} else if (manifest) {
		mf = stdout;
	}
	if (mf) {
		so.manifest = manifest_write;
		so.manifest_ctx = mf;
	}
	w = hwt_writer__new(out, pipe);
	if (!w) {
		fprintf(stderr, "perf hwtrace synth: %s: %s\n", out, strerror(errno));
		if (mf && mf != stdout)
			fclose(mf);
		hwt_outfile__delete(mfile, false);
		return EXIT_INPUT_ERROR;
	}
	if (strcmp(out, "-") && output_progress__start(&progress, "synth", estimated_size(so.size)))
		hwt_writer__set_progress(w, output_progress__update, &progress);
	ret = hwt_synth__write(dev, w, &so, &diag) ? EXIT_INPUT_ERROR : 0;
	output_progress__end(&progress);
	/* a generator that failed wrote a file that is not what was asked for */
	if (ret) {
		hwt_writer__discard(w);
	} else if (hwt_writer__delete(w) < 0) {
		out__path_failed(out, errno);
		ret = EXIT_INPUT_ERROR;
	}
	/* the manifest on stdout is checked by the exit path (out.h) */
	if (mf && mf != stdout) {
		if (fclose(mf)) {
			fprintf(stderr, "perf hwtrace synth: %s: write error: %s\n", manifest,
				strerror(errno));
			ret = EXIT_INPUT_ERROR;
		}
		if (hwt_outfile__delete(mfile, !ret) < 0) {
			fprintf(stderr, "perf hwtrace synth: %s: %s\n", manifest, strerror(errno));
			ret = EXIT_INPUT_ERROR;
		}
	}
	return ret;
}
