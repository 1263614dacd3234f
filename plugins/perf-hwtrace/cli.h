/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what report, script, decode and inject share: input, decoder
 * options (their part of each verb's option table), -F, the error printer
 * and the byte totals.
 */
#ifndef PERF_HWTRACE_CLI_H
#define PERF_HWTRACE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"

#include "field_fmt.h"
#include "parse_options.h"

#define CLI_MAX_OPTS 32
#define CLI_MAX_FIELDS 256

struct cli {
	const char *cmd;
	const char *input;
	struct hwt_opt opts[CLI_MAX_OPTS];
	unsigned nopts;
	char *loaded[CLI_MAX_OPTS];
	struct hwt_diag diag;
	unsigned long shown;		/* errors printed so far */
	unsigned long max_shown;	/* then only counted */
	bool quiet;
	struct parse_opt *table;	/* cli__table() */
	size_t nbase;			/* the verb's own options in it */
};

void cli__init(struct cli *c, const char *cmd);
void cli__fini(struct cli *c);

/**
 * cli__table - a verb's option table: @base followed by every device's
 * decoder options (`--KEY VALUE`, one group per device, from hwt_devices[])
 * @c:		where the decoder options go when parsed
 * @base:	the verb's own options, ending with OPT_END()
 *
 * Returns the table (freed by cli__fini()), or NULL when out of memory.
 */
const struct parse_opt *cli__table(struct cli *c, const struct parse_opt *base);

/**
 * cli__parse - parse a decoding verb's command line with cli__table()
 * @c:		where the decoder options go
 * @cmd:	the verb; its opts are set to the table
 * @base:	the verb's own options
 * @argc:	argument count
 * @argv:	arguments, as for parse_options()
 * @flags:	parse_options() flags
 *
 * Returns what parse_options() does (PARSE_OPT_ERROR when out of memory).
 */
int cli__parse(struct cli *c, struct parse_cmd *cmd, const struct parse_opt *base, int argc,
	       char **argv, int flags);

/**
 * cli__check_opts - check each decoder option's value before any input is read
 * @c:		the parsed options
 * @dev:	the one device the input is (decode --type), or NULL: then an
 *		option must suit some device that takes it
 *
 * Returns 0, or EXIT_USAGE with the reason printed.
 */
int cli__check_opts(struct cli *c, const struct hwt_device *dev);

/**
 * cli__guard_sink - refuse decoder options the input's devices do not take
 * @c:		the parsed options
 * @sink:	the sink about to be handed to the session; wrapped in place
 *
 * When the first payload is about to be decoded (or at the end of an input
 * without payloads), an option no device of the input's streams takes is a
 * usage error: printed, and the process exits with EXIT_USAGE (stdout's
 * buffer unwritten).  An input with no stream any device decodes is left
 * alone.  The per-record path is not wrapped.
 */
void cli__guard_sink(struct cli *c, struct hwt_sink *sink);

/**
 * struct cli_fields - a parsed -F
 * @cmd:	the verb, for messages
 * @type:	TYPE of `-F TYPE:fields`: the list is for its records only (the
 *		others keep all their fields), or NULL: for every type
 * @names:	the fields to show
 * @n:		how many
 */
struct cli_fields {
	const char *cmd;
	const struct hwt_record_type *type;
	const char *names[CLI_MAX_FIELDS];
	unsigned n;
	const char *metric;	/* the first metric named ("GpuBusy", "metrics"), or NULL */
};

/**
 * cli__parse_fields - parse -F: `f1,f2`, `TYPE:f1,f2` or `+f1,+f2` (the
 * default fields plus these); every name must be a field of TYPE (or of some
 * record type).  Returns 0, or -1 with the reason printed.
 */
int cli__parse_fields(const char *cmd, const char *spec, struct cli_fields *f);

/**
 * cli__fields_metrics - whether -F's metric names can be shown: they need
 * @metrics (--metrics) and a style that carries metrics (not CSV, whose
 * header is the record type's).  Returns 0, or EXIT_USAGE with the reason
 * printed: a named metric is never left out in silence.
 */
int cli__fields_metrics(const struct cli_fields *f, bool metrics, enum field_style style);

/* -F as an OPT_CALLBACK: value is a struct cli_fields whose @cmd is set. */
int cli__fields_opt(const struct parse_opt *opt, const char *arg, int unset);

/* Hand a parsed -F to @a. */
struct run_args;
void cli__fields_apply(const struct cli_fields *f, struct run_args *a);

/* Print byte totals and the error count to @f. */
void cli__print_totals(struct cli *c, FILE *f);

/* Exit status from a session return value. */
int cli__status(struct cli *c, int ret);

#endif
