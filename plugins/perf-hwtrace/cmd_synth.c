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
 * keys its help line lists ("--KEY") are accepted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "out.h"
#include "synth.h"

/* One generator per line; a new device type adds one line here. */
static const struct synth_ops *const synth_types[] = {
	&synth_cxl_hmu,
	&synth_panthor,
	&synth_i915_oa,
	NULL,
};

#define MAX_OPTS 64

const char *synth_opt(const struct synth_opts *o, const char *key, const char *def)
{
	const char *val = def;

	/* the last one given wins, as with any command-line option */
	for (uint32_t i = 0; i < o->nopts; i++)
		if (!strcmp(o->opts[i].key, key))
			val = o->opts[i].val;
	return val;
}

static void synth_usage(FILE *f)
{
	fprintf(f, "usage: perf hwtrace synth --type T [--seed N] [--size B] [--auxtrace-type N]\n"
		   "                          [--pipe] [--manifest FILE] [--KEY VALUE ...] -o F\n\n"
		   "  --size B  approximate AUX payload bytes (K/M/G suffixes), default 1M\n"
		   "  -o -      pipe mode to standard output\n\ntypes:\n");
	for (int i = 0; synth_types[i]; i++)
		fprintf(f, "  %-10s %s\n", synth_types[i]->type, synth_types[i]->help);
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

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* Does the generator's help line list "--key"? */
static bool type_has_opt(const struct synth_ops *ops, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = ops->help; (p = strstr(p, "--")); p += 2) {
		const char *k = p + 2;

		if (!strncmp(k, key, n) && !(k[n] == '_' || k[n] == '-' ||
					     (k[n] >= 'a' && k[n] <= 'z') ||
					     (k[n] >= '0' && k[n] <= '9')))
			return true;
	}
	return false;
}

int cmd_synth(int argc, char **argv)
{
	const char *type = NULL, *out = NULL, *manifest = NULL;
	const struct synth_ops *ops = NULL;
	struct hwt_opt opts[MAX_OPTS];
	struct synth_opts so = { .size = 1 << 20, .opts = opts };
	struct hwt_writer *w;
	bool pipe = false;
	uint64_t v;
	int ret;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char *eq = NULL;
		size_t alen;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			synth_usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--pipe")) {
			pipe = true;
			continue;
		}
		if (strncmp(a, "--", 2) && strcmp(a, "-o"))
			return usage_error("synth", "unexpected argument '%s'", a);
		if (!strncmp(a, "--", 2) && (eq = strchr(a, '='))) {
			val = eq + 1;
		} else {
			if (i + 1 >= argc)
				return usage_error("synth", "%s needs a value", a);
			val = argv[++i];
		}
		/* compare the option name without any "=value" */
		alen = eq ? (size_t)(eq - a) : strlen(a);
#define IS(name) (alen == strlen(name) && !strncmp(a, name, alen))
		if (IS("--type")) {
			type = val;
		} else if (IS("-o") || IS("--output")) {
			out = val;
		} else if (IS("--seed")) {
			if (parse_u64(val, &so.seed))
				return usage_error("synth", "bad --seed '%s'", val);
		} else if (IS("--size")) {
			if (parse_size(val, &so.size))
				return usage_error("synth", "bad --size '%s' (K/M/G suffix)", val);
		} else if (IS("--auxtrace-type")) {
			if (parse_u64(val, &v) || v > UINT32_MAX)
				return usage_error("synth", "bad --auxtrace-type '%s'", val);
			so.auxtrace_type = (uint32_t)v;
		} else if (IS("--manifest")) {
			manifest = val;
		} else if (alen > 2) {
			if (so.nopts == MAX_OPTS)
				return usage_error("synth", "too many options");
			/* the key lives in argv: cut it at '=' in place */
			if (eq)
				*eq = '\0';
			opts[so.nopts++] = (struct hwt_opt){ .key = a + 2, .val = val };
		} else {
			return usage_error("synth", "bad option '%s'", a);
		}
#undef IS
	}

	if (!type)
		return usage_error("synth", "--type is required (try --help)");
	for (int i = 0; synth_types[i]; i++)
		if (!strcmp(synth_types[i]->type, type))
			ops = synth_types[i];
	if (!ops)
		return usage_error("synth", "unknown --type '%s' (try --help)", type);
	for (uint32_t i = 0; i < so.nopts; i++)
		if (!type_has_opt(ops, opts[i].key))
			return usage_error("synth", "--%s is not an option of type %s", opts[i].key,
					   type);
	if (!out)
		return usage_error("synth", "-o FILE is required (-o - for a pipe to stdout)");
	if (manifest && !strcmp(manifest, "-") && !strcmp(out, "-"))
		return usage_error("synth", "--manifest - and -o - both want standard output");

	if (manifest) {
		so.manifest = strcmp(manifest, "-") ? fopen(manifest, "w") : stdout;
		if (!so.manifest) {
			fprintf(stderr, "perf hwtrace synth: %s: %s\n", manifest, strerror(errno));
			return EXIT_INPUT_ERROR;
		}
	}
	w = hwt_writer__new(out, pipe);
	if (!w) {
		fprintf(stderr, "perf hwtrace synth: %s: %s\n", out, strerror(errno));
		if (so.manifest && so.manifest != stdout)
			fclose(so.manifest);
		return EXIT_INPUT_ERROR;
	}
	ret = ops->write(w, &so) ? EXIT_INPUT_ERROR : 0;
	if (hwt_writer__delete(w) < 0) {
		out__path_failed(out, errno);
		ret = EXIT_INPUT_ERROR;
	}
	/* the manifest on stdout is checked by the exit path (out.h) */
	if (so.manifest && so.manifest != stdout &&
	    (fflush(so.manifest) || ferror(so.manifest))) {
		fprintf(stderr, "perf hwtrace synth: %s: write error\n", manifest);
		ret = EXIT_INPUT_ERROR;
	}
	if (so.manifest && so.manifest != stdout)
		fclose(so.manifest);
	return ret;
}
