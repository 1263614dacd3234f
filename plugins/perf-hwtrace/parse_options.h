/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_options.h - one table-driven option parser for every verb.
 *
 * Modelled on perf's parse-options: each verb describes its options once, in
 * a table ending with OPT_END(); the same table parses argv, prints `-h`,
 * answers `--list-opts` for shell completion and feeds the man pages, so help
 * can never offer an option the parser refuses.
 *
 * Accepted forms: `-x`, `-xVALUE`, `-x VALUE`, clustered short booleans
 * (`-aq`), `--long`, `--long VALUE`, `--long=VALUE`, a unique prefix of a long
 * name (`--dump` for `--dump-raw-trace`), `--no-long` for booleans without
 * PARSE_OPT_NONEG, and `--` to end the options.
 */
#ifndef PERF_HWTRACE_PARSE_OPTIONS_H
#define PERF_HWTRACE_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading in help */
	OPTION_BOOLEAN,		/* bool; --no-NAME clears it */
	OPTION_SET_INT,		/* int = defval, no value */
	OPTION_STRING,		/* const char * */
	OPTION_INTEGER,		/* int within [min, max] */
	OPTION_U64,		/* uint64_t within [min, max] */
	OPTION_CALLBACK,	/* callback(opt, value) */
	OPTION_STRING_LIST,	/* each use appends to a const char *[max]; count in int *data */
};

enum parse_opt_flags {
	PARSE_OPT_NONEG = 1 << 0,	/* no --no-NAME form */
	PARSE_OPT_NOARG = 1 << 1,	/* OPTION_CALLBACK without a value */
	PARSE_OPT_EVENTS = 1 << 2,	/* OPTION_STRING_LIST: "a/x=1/,b/y=1/" is two items */
};

/* parse_options() flags */
enum parse_opts_flags {
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,	/* the first non-option ends them */
};

struct parse_opt;

/*
 * An OPTION_CALLBACK: @arg is the value (NULL for PARSE_OPT_NOARG or @unset).
 * Return 0, or -1 having printed the reason with usage_error().
 */
typedef int (*parse_opt_cb)(const struct parse_opt *opt, const char *arg, int unset);

/**
 * struct parse_opt - one option of a verb
 * @type:	what it is
 * @short_name:	the letter of `-x`, or 0
 * @long_name:	the name of `--name`, or NULL
 * @value:	where the value goes (type depends on @type)
 * @argh:	what the value looks like in help ("FILE"); NULL: no value
 * @help:	one line for help (OPTION_GROUP: the heading)
 * @flags:	PARSE_OPT_*
 * @callback:	OPTION_CALLBACK's function
 * @data:	anything the callback needs
 * @defval:	OPTION_SET_INT's value
 * @min:	smallest value of an OPTION_INTEGER / OPTION_U64
 * @max:	largest value of an OPTION_INTEGER / OPTION_U64
 */
struct parse_opt {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int flags;
	parse_opt_cb callback;
	const void *data;
	int64_t defval;
	uint64_t min, max;
};

#define OPT_END()	{ .type = OPTION_END }
#define OPT_GROUP(h)	{ .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_SET_INT(s, l, v, h, i) \
	{ .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .help = (h), .defval = (i), .flags = PARSE_OPT_NONEG }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG }
#define OPT_INTEGER(s, l, v, a, h, lo, hi) \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG, .min = (lo), .max = (hi) }
#define OPT_U64(s, l, v, a, h, lo, hi) \
	{ .type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG, .min = (lo), .max = (hi) }
#define OPT_STRING_LIST(s, l, arr, cnt, n, a, h) \
	{ .type = OPTION_STRING_LIST, .short_name = (s), .long_name = (l), .value = (arr), \
	  .data = (cnt), .max = (n), .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG }
/* perf's -e: each use adds one or more events (split at commas outside slashes) */
#define OPT_EVENT_LIST(s, l, arr, cnt, n, a, h) \
	{ .type = OPTION_STRING_LIST, .short_name = (s), .long_name = (l), .value = (arr), \
	  .data = (cnt), .max = (n), .argh = (a), .help = (h), \
	  .flags = PARSE_OPT_NONEG | PARSE_OPT_EVENTS }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (f), .flags = PARSE_OPT_NONEG }
#define OPT_CALLBACK_NOOPT(s, l, v, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .help = (h), .callback = (f), .flags = PARSE_OPT_NONEG | PARSE_OPT_NOARG }

/* parse_options() results besides the argument count */
#define PARSE_OPT_ERROR	(-1)	/* usage error, reported */
#define PARSE_OPT_DONE	(-2)	/* -h or --list-opts answered: exit 0 */

/**
 * struct parse_cmd - a verb: its name, usage lines and option table
 * @name:	"report"
 * @usage:	NULL-terminated synopsis lines, without "perf hwtrace VERB"
 * @summary:	one line for the verb list
 * @opts:	its options, ending with OPT_END()
 */
struct parse_cmd {
	const char *name;
	const char *const *usage;
	const char *summary;
	const struct parse_opt *opts;
};

/**
 * parse_options - parse @argv (argv[0] is the verb) against @cmd's table
 * @argc:	argument count
 * @argv:	arguments; the non-options are moved to argv[0..n), in order
 * @cmd:	the verb
 * @flags:	PARSE_OPT_STOP_AT_NON_OPTION
 *
 * `-h`, `--help` print the verb's help to stdout and `--list-opts` its long
 * options on one line (for shell completion); both return PARSE_OPT_DONE.
 * After `--` everything is a non-option.
 *
 * Return: the number of non-option arguments left in @argv, PARSE_OPT_DONE,
 * or PARSE_OPT_ERROR (reported on stderr with usage_error()).
 */
int parse_options(int argc, char **argv, const struct parse_cmd *cmd, int flags);

/* Exit status for a negative parse_options() result. */
static inline int parse_options__status(int ret)
{
	return ret == PARSE_OPT_DONE ? 0 : 2;
}

/* Print @cmd's help (usage lines and every option of its table) to @f. */
void parse_options__usage(FILE *f, const struct parse_cmd *cmd);

/* Print @cmd's long options, "--name " each, on one line. */
void parse_options__list(FILE *f, const struct parse_cmd *cmd);

/**
 * parse_options__u64 - a whole number in [@min, @max] ("0x" hex allowed)
 *
 * Return: 0, or -1 when @s is not a number or out of range.
 */
int parse_options__u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

#endif
