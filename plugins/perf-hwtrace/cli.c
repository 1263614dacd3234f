// SPDX-License-Identifier: GPL-2.0
/* cli.c - shared command-line plumbing for the decoding commands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/device.h"

#include "cli.h"
#include "commands.h"

static void print_error(void *ctx, const struct hwt_error *e)
{
	struct cli *c = ctx;

	if (c->shown++ >= c->max_shown) {
		if (c->shown == c->max_shown + 1)
			fprintf(stderr, "perf hwtrace %s: %s: further problems are counted, "
				"not shown\n", c->cmd, e->file);
		return;
	}
	fprintf(stderr, "%s: %s: offset %#llx: %s: %s\n",
		e->severity == HWT_ERROR ? "error" : "warning", e->file,
		(unsigned long long)e->offset, e->rtype, e->msg);
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
}

/* "--name value" or "--name=value" at argv[*i]; advances *i past the value. */
const char *cli__opt_value(int argc, char **argv, int *i, const char *name)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

/* The first device's option named @key, or NULL. */
static const struct hwt_dev_opt *find_key(const char *key, size_t len)
{
	for (const struct hwt_device *const *d = hwt_devices; *d; d++) {
		const struct hwt_dev_opt *o = hwt_device__opt(*d, key, len);

		if (o)
			return o;
	}
	return NULL;
}

static char *slurp(const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, max, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

int cli__decoder_opt(struct cli *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *eq, *val;
	const struct hwt_dev_opt *key;
	size_t len;

	if (strncmp(a, "--", 2) || !a[2])
		return 0;
	a += 2;
	eq = strchr(a, '=');
	len = eq ? (size_t)(eq - a) : strlen(a);
	key = find_key(a, len);
	if (!key)
		return 0;
	if (eq) {
		val = eq + 1;
	} else if (*i + 1 < argc) {
		val = argv[++*i];
	} else {
		usage_error(c->cmd, "option --%s needs a value", a);
		return -1;
	}
	if (c->nopts == CLI_MAX_OPTS) {
		usage_error(c->cmd, "too many decoder options");
		return -1;
	}
	if (key->file) {
		char *text = slurp(val, 16 << 20);

		if (!text) {
			usage_error(c->cmd, "--%s %s: %s", key->key, val, strerror(errno));
			return -1;
		}
		c->loaded[c->nopts] = text;
		val = text;
	}
	c->opts[c->nopts].key = key->key;
	c->opts[c->nopts].val = val;
	c->nopts++;
	return 1;
}

int cli__common_opt(struct cli *c, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *v;

	if (!strncmp(arg, "-i", 2) && arg[2]) {
		c->input = arg + 2;
		return 1;
	}
	if ((v = cli__opt_value(argc, argv, i, "-i")) ||
	    (v = cli__opt_value(argc, argv, i, "--input"))) {
		c->input = v;
		return 1;
	}
	return cli__decoder_opt(c, argc, argv, i);
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
