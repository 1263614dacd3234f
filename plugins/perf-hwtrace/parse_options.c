// SPDX-License-Identifier: GPL-2.0
/* parse_options.c - parse argv, print help and list options from one table. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "parse_options.h"
#include "pmu/pmu_internal.h"

/* Here, with the parser, so that every part of the tool (and its unit tests) has it. */
int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perf hwtrace %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}


#define HELP_COLUMN 30

int parse_options__u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull takes "-1" as 2^64-1: refuse signs outright */
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static bool takes_value(const struct parse_opt *o)
{
	switch (o->type) {
	case OPTION_STRING:
	case OPTION_STRING_LIST:
	case OPTION_INTEGER:
	case OPTION_U64:
		return true;
	case OPTION_CALLBACK:
		return !(o->flags & PARSE_OPT_NOARG);
	default:
		return false;
	}
}

/* How the option is named in messages: "--long" or "-s". */
static const char *opt_name(const struct parse_opt *o, char *buf, size_t n)
{
	if (o->long_name)
		snprintf(buf, n, "--%s", o->long_name);
	else
		snprintf(buf, n, "-%c", o->short_name);
	return buf;
}

/* The events split out of -e lists, kept for the whole run. */
static struct {
	char **items;
	size_t n;
} kept;

/*
 * Append @val (or, with PARSE_OPT_EVENTS, each event of the list @val) to an
 * OPTION_STRING_LIST.  Split events live as long as the run, like argv.
 */
static int add_to_list(const char *cmd, const struct parse_opt *o, const char *name,
		       const char *val)
{
	const char **items = o->value;
	int *n = (int *)o->data;
	char **list = NULL;
	int count = 1;

	if (o->flags & PARSE_OPT_EVENTS) {
		count = hwt_event_list__split(val, &list);
		if (count < 0)
			return usage_error(cmd, "out of memory"), -1;
		if (!count)
			return usage_error(cmd, "%s '%s': no event", name, val), -1;
	}
	if (list) {	/* keep the pieces reachable: they live as long as the run */
		char **all = realloc(kept.items, (kept.n + (size_t)count) * sizeof(*all));

		if (!all) {
			for (int i = 0; i < count; i++)
				free(list[i]);
			free(list);
			return usage_error(cmd, "out of memory"), -1;
		}
		kept.items = all;
		memcpy(kept.items + kept.n, list, (size_t)count * sizeof(*list));
		kept.n += (size_t)count;
		free(list);
	}
	for (int i = 0; i < count; i++) {
		if ((uint64_t)*n >= o->max)
			return usage_error(cmd, "%s: at most %" PRIu64 " of them", name,
					   o->max), -1;
		items[(*n)++] = list ? kept.items[kept.n - (size_t)count + (size_t)i] : val;
	}
	return 0;
}

static int apply(const char *cmd, const struct parse_opt *o, const char *val, int unset)
{
	char name[64];

	opt_name(o, name, sizeof(name));
	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_SET_INT:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = val;
		return 0;
	case OPTION_INTEGER: {
		long long v;
		char *end;

		errno = 0;
		v = strtoll(val, &end, 0);
		if (!*val || errno || *end || v < (int64_t)o->min || v > (int64_t)o->max)
			return usage_error(cmd, "%s '%s': want a whole number in %" PRId64
					   "..%" PRId64, name, val, (int64_t)o->min,
					   (int64_t)o->max), -1;
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPTION_U64:
		if (parse_options__u64(val, o->min, o->max, o->value))
			return usage_error(cmd, "%s '%s': want a whole number in %" PRIu64
					   "..%" PRIu64, name, val, o->min, o->max), -1;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, val, unset) ? -1 : 0;
	case OPTION_STRING_LIST:
		return add_to_list(cmd, o, name, val);
	default:
		return -1;
	}
}

/* Same effect whichever of @a and @b is chosen: an alias, not an ambiguity. */
static bool same_effect(const struct parse_opt *a, const struct parse_opt *b)
{
	return a->type == b->type && a->value == b->value && a->defval == b->defval &&
	       a->callback == b->callback && a->data == b->data;
}

/* Does @name (@len bytes) start @full? */
static bool is_prefix(const char *name, size_t len, const char *full)
{
	return strlen(full) > len && !strncmp(full, name, len);
}

static int parse_long(const struct parse_cmd *cmd, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '='), *val = NULL;
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct parse_opt *found = NULL, *abbrev = NULL, *other = NULL;
	int unset = 0, abbrev_unset = 0;
	char oname[64];

	if (!eq && !strcmp(name, "list-opts")) {
		parse_options__list(stdout, cmd);
		return PARSE_OPT_DONE;
	}
	if (!eq && !strcmp(name, "help")) {
		parse_options__usage(stdout, cmd);
		return PARSE_OPT_DONE;
	}
	for (const struct parse_opt *o = cmd->opts; o->type != OPTION_END && !found; o++) {
		bool neg_ok = o->type == OPTION_BOOLEAN && !(o->flags & PARSE_OPT_NONEG);

		if (!o->long_name)
			continue;
		if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len)) {
			found = o;
		} else if (neg_ok && len > 3 && !strncmp(name, "no-", 3) &&
			   strlen(o->long_name) == len - 3 &&
			   !strncmp(o->long_name, name + 3, len - 3)) {
			found = o;
			unset = 1;
		} else if (is_prefix(name, len, o->long_name) ||
			   (neg_ok && len > 3 && !strncmp(name, "no-", 3) &&
			    is_prefix(name + 3, len - 3, o->long_name))) {
			/* 1 when only the --no- reading of @name matches */
			int u = !is_prefix(name, len, o->long_name);

			if (!abbrev) {
				abbrev = o;
				abbrev_unset = u;
			} else if (!same_effect(abbrev, o) || abbrev_unset != u) {
				other = o;
			}
		}
	}
	if (!found && abbrev && other)
		return usage_error(cmd->name, "ambiguous option '--%.*s' (could be --%s or --%s)",
				   (int)len, name, abbrev->long_name, other->long_name), -1;
	if (!found && abbrev) {
		found = abbrev;
		unset = abbrev_unset;
	}
	if (!found && !eq && is_prefix(name, len, "help")) {
		parse_options__usage(stdout, cmd);
		return PARSE_OPT_DONE;
	}
	if (!found)
		return usage_error(cmd->name, "unknown option '%.*s' (see --help)",
				   (int)len + 2, arg), -1;
	opt_name(found, oname, sizeof(oname));
	if (takes_value(found) && !unset) {
		if (eq)
			val = eq + 1;
		else if (*i + 1 < argc)
			val = argv[++*i];
		else
			return usage_error(cmd->name, "option %s needs a value", oname), -1;
	} else if (eq) {
		return usage_error(cmd->name, "option %s takes no value", oname), -1;
	}
	return apply(cmd->name, found, val, unset);
}

static int parse_short(const struct parse_cmd *cmd, int argc, char **argv, int *i)
{
	const char *p = argv[*i] + 1;

	for (; *p; p++) {
		const struct parse_opt *o = cmd->opts;
		const char *val = NULL;

		while (o->type != OPTION_END && o->short_name != *p)
			o++;
		if (o->type == OPTION_END) {
			if (*p == 'h') {
				parse_options__usage(stdout, cmd);
				return PARSE_OPT_DONE;
			}
			return usage_error(cmd->name, "unknown option '-%c' (see --help)", *p), -1;
		}
		if (takes_value(o)) {
			if (p[1])
				val = p + 1;
			else if (*i + 1 < argc)
				val = argv[++*i];
			else
				return usage_error(cmd->name, "option -%c needs a value", *p), -1;
			return apply(cmd->name, o, val, 0);
		}
		if (apply(cmd->name, o, NULL, 0))
			return -1;
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct parse_cmd *cmd, int flags)
{
	int n = 0;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int r;

		if (!strcmp(arg, "--")) {
			while (++i < argc)
				argv[n++] = argv[i];
			break;
		}
		if (arg[0] != '-' || !arg[1]) {		/* "-" is stdin: an argument */
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION) {
				while (i < argc)
					argv[n++] = argv[i++];
				break;
			}
			argv[n++] = argv[i];
			continue;
		}
		r = arg[1] == '-' ? parse_long(cmd, argc, argv, &i) : parse_short(cmd, argc, argv, &i);
		if (r < 0)
			return r;
	}
	argv[n] = NULL;
	return n;
}

/* One help line: "  -x, --long ARG    help", the help at HELP_COLUMN. */
static void usage_opt(FILE *f, const struct parse_opt *o)
{
	int pos = fprintf(f, "    ");

	if (o->short_name)
		pos += fprintf(f, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else
		pos += fprintf(f, "    ");
	if (o->long_name)
		pos += fprintf(f, "--%s", o->long_name);
	if (takes_value(o))
		pos += fprintf(f, " %s", o->argh ? o->argh : "VALUE");
	if (pos + 2 > HELP_COLUMN) {
		fputc('\n', f);
		pos = 0;
	}
	fprintf(f, "%*s%s\n", HELP_COLUMN - pos, "", o->help ? o->help : "");
}

void parse_options__usage(FILE *f, const struct parse_cmd *cmd)
{
	for (const char *const *u = cmd->usage; *u; u++)
		fprintf(f, "%s perf hwtrace %s %s\n", u == cmd->usage ? " usage:" : "    or:",
			cmd->name, *u);
	if (cmd->summary)
		fprintf(f, "\n    %s\n", cmd->summary);
	fputc('\n', f);
	for (const struct parse_opt *o = cmd->opts; o->type != OPTION_END; o++) {
		if (o->type == OPTION_GROUP)
			fprintf(f, "\n%s\n", o->help);
		else
			usage_opt(f, o);
	}
	fprintf(f, "\n    -h, --help%*s%s\n", HELP_COLUMN - 14, "", "show this help");
}

void parse_options__list(FILE *f, const struct parse_cmd *cmd)
{
	for (const struct parse_opt *o = cmd->opts; o->type != OPTION_END; o++) {
		const struct parse_opt *p = cmd->opts;

		if (!o->long_name)
			continue;
		while (p < o && !(p->long_name && !strcmp(p->long_name, o->long_name)))
			p++;
		if (p == o)	/* each name once (synth's types share some) */
			fprintf(f, "--%s ", o->long_name);
	}
	fputc('\n', f);
}
