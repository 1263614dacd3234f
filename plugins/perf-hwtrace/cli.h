/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what report, script and decode share: input, decoder options,
 * the error printer and the byte totals.
 */
#ifndef PERF_HWTRACE_CLI_H
#define PERF_HWTRACE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/decoder.h"

#define CLI_MAX_OPTS 32

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
};

void cli__init(struct cli *c, const char *cmd);
void cli__fini(struct cli *c);

/*
 * If argv[*i] is a decoder option (--KEY VALUE or --KEY=VALUE, KEY listed in
 * some decoder's ops->options), store it and advance *i.  Returns 1 when
 * consumed, 0 when not a decoder option, -1 on a usage error (reported).
 * A key listed as "@KEY" names a file whose contents are passed instead.
 */
int cli__decoder_opt(struct cli *c, int argc, char **argv, int *i);

/*
 * Options every decoding command takes: -i FILE, -iFILE, --input FILE and
 * decoder options.  Same return values as cli__decoder_opt().
 */
int cli__common_opt(struct cli *c, int argc, char **argv, int *i);

/* Value of --KEY VALUE style option at argv[*i] named @name; NULL if not it. */
const char *cli__opt_value(int argc, char **argv, int *i, const char *name);

/* Print byte totals and the error count to @f. */
void cli__print_totals(struct cli *c, FILE *f);

/* Exit status from a session return value. */
int cli__status(struct cli *c, int ret);

#endif
