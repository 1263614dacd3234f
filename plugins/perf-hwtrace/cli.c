// SPDX-License-Identifier: GPL-2.0
/* cli.c - shared command-line plumbing for the decoding commands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/device.h"

#include "cli.h"
#include "commands.h"
#include "out.h"
#include "run.h"
#include "text_file.h"

/* a decoder option that names a file takes it whole, up to this size */
#define FILE_OPT_MAX	(16u << 20)

static void print_error(void *ctx, const struct hwt_error *e)
{
	/* escaped, a byte takes up to 4 ("\\x1b") */
	char file[4 * 4096 + 1], rtype[4 * 64 + 1], msg[4 * sizeof(e->msg) + 1];
	struct cli *c = ctx;

	if (c->quiet && e->severity != HWT_ERROR)	/* -q: counted, not shown */
		return;
	if (c->shown++ >= c->max_shown) {
		if (c->shown == c->max_shown + 1)
			fprintf(stderr, "perf hwtrace %s: %s: further problems are counted, "
				"not shown\n", c->cmd, out__escape(file, sizeof(file), e->file));
		return;
	}
	/* a message quotes names from the input: their control bytes must not reach the terminal */
	fprintf(stderr, "%s: %s: offset %#llx: %s: %s\n",
		e->severity == HWT_ERROR ? "error" : "warning",
		out__escape(file, sizeof(file), e->file), (unsigned long long)e->offset,
		out__escape(rtype, sizeof(rtype), e->rtype), out__escape(msg, sizeof(msg), e->msg));
}

void cli__init(struct cli *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->max_shown = 100;
	c->diag.report = print_error;
	c->diag.ctx = c;
}

void cli__fini(struct cli *c)
{
	for (unsigned i = 0; i < CLI_MAX_OPTS; i++)
		free(c->loaded[i]);
	if (c->table)	/* the group headings past the verb's own options are ours */
		for (struct parse_opt *o = c->table + c->nbase; o->type != OPTION_END; o++)
			if (o->type == OPTION_GROUP)
				free((char *)o->help);
	free(c->table);
	c->table = NULL;
}

/* A decoder option: value is the struct cli, data the device's option. */
static int decoder_opt(const struct parse_opt *opt, const char *val, int unset)
{
	const struct hwt_dev_opt *key = opt->data;
	struct cli *c = opt->value;

	(void)unset;
	if (c->nopts == CLI_MAX_OPTS)
		return usage_error(c->cmd, "too many decoder options");
	if (key->file) {
		char *text = text_file__read(val, FILE_OPT_MAX);

		if (!text && errno == EFBIG)
			return usage_error(c->cmd, "--%s %s: larger than %u MiB", key->key, val,
					   FILE_OPT_MAX >> 20);
		if (!text)
			return usage_error(c->cmd, "--%s %s: %s", key->key, val, strerror(errno));
		c->loaded[c->nopts] = text;
		val = text;
	}
	c->opts[c->nopts].key = key->key;
	c->opts[c->nopts].val = val;
	c->nopts++;
	return 0;
}

/* the entry of @t (@n long) for --@name, or NULL */
static const struct parse_opt *find_long(const struct parse_opt *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].long_name && !strcmp(t[i].long_name, name))
			return &t[i];
	return NULL;
}

const struct parse_opt *cli__table(struct cli *c, const struct parse_opt *base)
{
	size_t nbase = 0, n = 0, max;
	struct parse_opt *t;

	while (base[nbase].type != OPTION_END)
		nbase++;
	max = nbase + 1;
	for (const struct hwt_device *const *d = hwt_devices; *d; d++)
		for (const struct hwt_dev_opt *o = (*d)->options; o && o->key; o++)
			max += 2;
	t = calloc(max, sizeof(*t));
	if (!t)
		return NULL;
	memcpy(t, base, nbase * sizeof(*t));
	n = nbase;
	for (const struct hwt_device *const *d = hwt_devices; *d; d++) {
		bool group = false;

		for (const struct hwt_dev_opt *o = (*d)->options; o && o->key; o++) {
			const struct parse_opt *first = find_long(t, n, o->key);
			char *h;

			/* a key the base table has is not a decoder option */
			if (first && first - t < (ptrdiff_t)nbase)
				continue;
			if (!group && asprintf(&h, "  decoder options of %s:", (*d)->name) > 0) {
				t[n++] = (struct parse_opt)OPT_GROUP(h);
				group = true;
			}
			t[n++] = (struct parse_opt)OPT_CALLBACK(0, o->key, c, o->arg, o->help,
								 decoder_opt);
			/*
			 * A key two devices share is one option (the first entry's data:
			 * the parser takes the two as the same); each device's help
			 * says what it does there.
			 */
			t[n - 1].data = first ? first->data : o;
		}
	}
	t[n] = (struct parse_opt)OPT_END();
	c->table = t;
	c->nbase = nbase;
	return t;
}

int cli__parse(struct cli *c, struct parse_cmd *cmd, const struct parse_opt *base, int argc,
	       char **argv, int flags)
{
	cmd->opts = cli__table(c, base);
	if (!cmd->opts)
		return usage_error(c->cmd, "out of memory"), PARSE_OPT_ERROR;
	return parse_options(argc, argv, cmd, flags);
}

/* Does @d take @key, and does its check accept @val?  Reason in @err. */
static bool device_takes(const struct hwt_device *d, const struct hwt_opt *opt, char *err,
			 size_t errlen)
{
	const struct hwt_dev_opt *o = hwt_device__opt(d, opt->key, strlen(opt->key));

	if (!o) {
		snprintf(err, errlen, "is not an option of %s", d->name);
		return false;
	}
	return !o->check || !o->check(opt->val, err, errlen);
}

int cli__check_opts(struct cli *c, const struct hwt_device *dev)
{
	char err[4096];

	for (unsigned i = 0; i < c->nopts; i++) {
		const struct hwt_opt *opt = &c->opts[i];
		bool ok = false;

		if (dev && !hwt_device__opt(dev, opt->key, strlen(opt->key))) {
			return usage_error(c->cmd, "--%s is not an option of %s", opt->key,
					   dev->name);
		} else if (dev) {
			ok = device_takes(dev, opt, err, sizeof(err));
		} else {
			for (const struct hwt_device *const *d = hwt_devices; *d && !ok; d++)
				if (hwt_device__opt(*d, opt->key, strlen(opt->key)))
					ok = device_takes(*d, opt, err, sizeof(err));
		}
		if (!ok)
			return usage_error(c->cmd, "--%s: %s", opt->key, err);
	}
	return 0;
}

/*
 * The sink guard: one run per process, so its state is static and the
 * wrapped sink keeps its own ctx (the record path stays a direct call).
 */
static struct {
	struct cli *c;
	struct hwt_sink inner;
	const struct hwt_device *seen[16];
	unsigned nseen;
	bool checked;
} guard;

static void guard_check(void)
{
	struct cli *c = guard.c;

	guard.checked = true;
	if (!guard.nseen)	/* nothing decodable: the options change nothing */
		return;
	for (unsigned i = 0; i < c->nopts; i++) {
		const char *key = c->opts[i].key;
		bool taken = false;
		char names[256] = "";

		for (unsigned k = 0; k < guard.nseen && !taken; k++) {
			taken = hwt_device__opt(guard.seen[k], key, strlen(key)) != NULL;
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 k ? ", " : "", guard.seen[k]->name);
		}
		if (!taken) {
			usage_error(c->cmd, "--%s is not an option of the input's device (%s)",
				    key, names);
			/* a usage error prints no output: drop what -D buffered so far */
			_exit(EXIT_USAGE);
		}
	}
}

static void guard_stream(void *ctx, const struct hwt_stream *s)
{
	for (const struct hwt_device *const *d = hwt_devices; *d; d++) {
		unsigned k = 0;

		if (!s->ops || (*d)->decoder != s->ops)
			continue;
		while (k < guard.nseen && guard.seen[k] != *d)
			k++;
		if (k == guard.nseen && k < sizeof(guard.seen) / sizeof(guard.seen[0]))
			guard.seen[guard.nseen++] = *d;
	}
	if (guard.inner.stream)
		guard.inner.stream(ctx, s);
}

static void guard_chunk(void *ctx, const struct hwt_stream *s, const struct hwt_chunk *ch,
			uint64_t total)
{
	if (!guard.checked)
		guard_check();
	if (guard.inner.chunk)
		guard.inner.chunk(ctx, s, ch, total);
}

static void guard_end(void *ctx, const struct hwt_stream *const *streams, uint32_t nstreams,
		      const struct hwt_reader *r)
{
	if (!guard.checked)
		guard_check();
	if (guard.inner.end)
		guard.inner.end(ctx, streams, nstreams, r);
}

void cli__guard_sink(struct cli *c, struct hwt_sink *sink)
{
	if (!c->nopts)
		return;
	memset(&guard, 0, sizeof(guard));
	guard.c = c;
	guard.inner = *sink;
	sink->stream = guard_stream;
	sink->chunk = guard_chunk;
	sink->end = guard_end;
}

void cli__print_totals(struct cli *c, FILE *f)
{
	const struct hwt_bytes *b = &c->diag.bytes;

	fprintf(f, "bytes: %llu decoded, %llu skipped, %llu lost; %llu errors, %llu warnings\n",
		(unsigned long long)b->decoded, (unsigned long long)b->skipped,
		(unsigned long long)b->lost, (unsigned long long)c->diag.errors,
		(unsigned long long)c->diag.warnings);
}

int cli__status(struct cli *c, int ret)
{
	if (ret < 0)
		return EXIT_INPUT_ERROR;
	return ret || c->diag.errors ? EXIT_INPUT_ERROR : 0;
}

static int field_of(const struct hwt_record_type *t, const char *name, size_t len)
{
	for (uint32_t i = 0; i < t->nfields; i++)
		if (strlen(t->fields[i].name) == len && !strncmp(t->fields[i].name, name, len))
			return (int)i;
	return -1;
}

/* Add @name to @f unless there; false when full. */
static bool fields_add(struct cli_fields *f, const char *name)
{
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->names[i], name))
			return true;
	if (f->n == CLI_MAX_FIELDS)
		return false;
	f->names[f->n++] = name;
	return true;
}

/* The name as the record types spell it (so @f never points into argv pieces). */
static bool device_has_type(const struct hwt_device *d, const struct hwt_record_type *t)
{
	for (const struct hwt_record_type *const *p = d->record_types; *p; p++)
		if (*p == t)
			return true;
	return false;
}

/* -F's @name as a record field's or a metric's name (*@metric then), or NULL */
static const char *known_field(const struct cli_fields *f, const char *name, size_t len,
			       bool *metric)
{
	*metric = false;
	hwt_devices__for_each_type(d, t) {
		int i;

		if ((*t)->kind != HWT_RK_DATA || (f->type && *t != f->type))
			continue;
		i = field_of(*t, name, len);
		if (i >= 0)
			return (*t)->fields[i].name;
	}
	/* the metrics of --metrics: all of them, or one by name */
	*metric = true;
	if (len == 7 && !strncmp(name, "metrics", 7))
		return "metrics";
	for (const struct hwt_device *const *d = hwt_devices; *d; d++) {
		const char *m;

		if (f->type && !device_has_type(*d, f->type))
			continue;
		m = (*d)->metrics && (*d)->metrics->known ? (*d)->metrics->known(name, len) : NULL;
		if (m)
			return m;
	}
	return NULL;
}

/* the first device of @f's records whose metric names cannot be told now, and why */
static const struct hwt_device *metrics_unknowable(const struct cli_fields *f, char *why,
						   size_t n)
{
	for (const struct hwt_device *const *d = hwt_devices; *d; d++) {
		if (f->type && !device_has_type(*d, f->type))
			continue;
		if ((*d)->metrics && (*d)->metrics->unknowable &&
		    (*d)->metrics->unknowable(why, n))
			return *d;
	}
	return NULL;
}

int cli__parse_fields(const char *cmd, const char *spec, struct cli_fields *f)
{
	const char *colon = strchr(spec, ':'), *p = spec;
	bool plus = false;

	memset(f, 0, sizeof(*f));
	f->cmd = cmd;
	if (colon) {
		char type[64];
		size_t len = (size_t)(colon - spec);

		snprintf(type, sizeof(type), "%.*s", (int)len, spec);
		f->type = hwt_record_type__find(type);
		if (!f->type || f->type->kind != HWT_RK_DATA)
			return usage_error(cmd, "-F: unknown record type '%s'", type), -1;
		p = colon + 1;
	}
	plus = *p == '+';
	for (;;) {
		size_t len = strcspn(p, ",");
		const char *name;
		bool metric;

		if ((*p == '+') != plus)
			return usage_error(cmd, "-F: give either fields or +fields, not both"), -1;
		if (plus) {
			p++;
			len--;
		}
		if (!len)
			return usage_error(cmd, "-F '%s': empty field name", spec), -1;
		name = known_field(f, p, len, &metric);
		if (!name) {
			char why[256];
			const struct hwt_device *d = metrics_unknowable(f, why, sizeof(why));

			if (d)
				return usage_error(cmd, "-F: unknown field '%.*s' (the metric names "
						   "of %s cannot be checked: %s)", (int)len, p,
						   d->name, why), -1;
			return usage_error(cmd, "-F: unknown field '%.*s'%s%s", (int)len, p,
					   f->type ? " of " : "", f->type ? f->type->name : ""), -1;
		}
		if (metric && !f->metric)
			f->metric = name;
		if (!fields_add(f, name))
			return usage_error(cmd, "-F: too many fields"), -1;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (plus) {	/* the default fields besides */
		hwt_devices__for_each_type(d, t) {
			if ((*t)->kind != HWT_RK_DATA || (f->type && *t != f->type))
				continue;
			for (uint32_t i = 0; i < (*t)->nfields; i++)
				if (!((*t)->fields[i].flags & HWT_FF_NODUMP) &&
				    !fields_add(f, (*t)->fields[i].name))
					return usage_error(cmd, "-F: too many fields"), -1;
		}
	}
	return 0;
}

int cli__fields_metrics(const struct cli_fields *f, bool metrics, enum field_style style)
{
	if (!f->metric)
		return 0;
	if (!metrics)
		return usage_error(f->cmd, "-F %s: a metric; %s", f->metric,
				   strcmp(f->cmd, "script") ? "only script computes them "
				   "(script --metrics)" : "add --metrics");
	if (style == FS_CSV)
		return usage_error(f->cmd, "-F %s: CSV rows have the record type's columns, "
				   "not metrics; use text or --json", f->metric);
	return 0;
}

int cli__fields_opt(const struct parse_opt *opt, const char *arg, int unset)
{
	struct cli_fields *f = opt->value;

	(void)unset;
	return cli__parse_fields(f->cmd, arg, f);
}

void cli__fields_apply(const struct cli_fields *f, struct run_args *a)
{
	if (!f->n)
		return;
	a->fields = f->names;
	a->nfields = f->n;
	a->fields_type = f->type;
}
