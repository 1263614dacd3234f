// SPDX-License-Identifier: GPL-2.0
/*
 * test_abi.c - libhwtrace.so.0 exports exactly the documented API.
 *
 * Three lists must be the same set: the literal block of "Exported symbols"
 * in Documentation/libhwtrace.rst, the global: names of the version script
 * decoders/libhwtrace.map, and what `nm -D --defined-only` finds in the
 * built library next to this test ($(BUILD)/libhwtrace.so.0).  Each
 * documented name must also be declared with HWT_API in an installed header,
 * and an installed header declares nothing else: every function prototype
 * and extern object at file scope is exported (a program that uses one links).
 */
#include <ctype.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#define MAX_SYMS 1024

struct symset {
	char *name[MAX_SYMS];
	int n;
};

static char srcdir[PATH_MAX];

static void add(struct symset *s, const char *name, size_t len)
{
	if (s->n < MAX_SYMS)
		s->name[s->n++] = strndup(name, len);
}

static bool has(const struct symset *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return true;
	return false;
}

static void clear(struct symset *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->name[i]);
	s->n = 0;
}

/* Every name of @a in @b and back; names the strays. */
static void check_same(const struct symset *a, const char *an, const struct symset *b,
		       const char *bn)
{
	for (int i = 0; i < a->n; i++)
		if (!has(b, a->name[i])) {
			fprintf(stderr, "%s has %s, %s does not\n", an, a->name[i], bn);
			check_failures++;
		}
	for (int i = 0; i < b->n; i++)
		if (!has(a, b->name[i])) {
			fprintf(stderr, "%s has %s, %s does not\n", bn, b->name[i], an);
			check_failures++;
		}
}

static FILE *open_src(const char *rel)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", srcdir, rel);
	f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "cannot open %s\n", path);
	return f;
}

/* The indented lines of the literal block that follows "Exported symbols". */
static void read_doc(struct symset *s)
{
	FILE *f = open_src("Documentation/libhwtrace.rst");
	char line[512];
	int state = 0;	/* 0: before the section, 1: before "::", 2: in the block */

	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");

		if (state == 0 && !strncmp(line, "Exported symbols", 16))
			state = 1;
		else if (state == 1 && len >= 2 && !strncmp(line + len - 2, "::", 2))
			state = 2;
		else if (state == 2 && line[0] == ' ')
			add(s, line + strspn(line, " "), len - strspn(line, " "));
		else if (state == 2 && len)
			break;	/* the first unindented text ends the block */
	}
	fclose(f);
}

/* "name;" lines between "global:" and "local:". */
static void read_map(struct symset *s)
{
	FILE *f = open_src("decoders/libhwtrace.map");
	char line[512];
	bool global = false;

	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");
		size_t len = strcspn(p, ";\n");

		if (!strncmp(p, "global:", 7))
			global = true;
		else if (!strncmp(p, "local:", 6))
			global = false;
		else if (global && len && p[len] == ';')
			add(s, p, len);
	}
	fclose(f);
}

/* Defined dynamic symbols of the built library, version suffixes dropped. */
static void read_so(struct symset *s)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 128], line[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *p;

	CHECK(n > 0);
	if (n <= 0)
		return;
	exe[n] = 0;
	*strrchr(exe, '/') = 0;	/* $(BUILD)/tests */
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s/../libhwtrace.so.0'", exe);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char type, name[256];

		/* "ADDR TYPE NAME"; type A is the version node LIBHWTRACE_0.1 itself */
		if (sscanf(line, "%*s %c %255s", &type, name) != 2 || type == 'A')
			continue;
		add(s, name, strcspn(name, "@"));
	}
	CHECK_EQ(pclose(p), 0);
}

static void test_exports_are_documented(void)
{
	struct symset doc = { 0 }, map = { 0 }, so = { 0 };

	read_doc(&doc);
	read_map(&map);
	read_so(&so);
	/* the documented API is not empty, and the library is found */
	CHECK(doc.n >= 50);
	CHECK(so.n > 0);
	CHECK(has(&doc, "hwt_reader__new") && has(&doc, "hwt_session__run"));
	check_same(&doc, "Documentation/libhwtrace.rst", &so, "libhwtrace.so.0");
	check_same(&doc, "Documentation/libhwtrace.rst", &map, "decoders/libhwtrace.map");
	/* internals stay inside: a sample of what 8698d05 leaked */
	CHECK(!has(&so, "blob_put"));
	CHECK(!has(&so, "hwt_src__fill"));
	CHECK(!has(&so, "hwt_zstream__fill"));
	CHECK(!has(&so, "hwt_rt_cxl_hmu_unit"));
	CHECK(!has(&so, "hwt_pmu__add_format"));
	clear(&doc);
	clear(&map);
	clear(&so);
}

/* The installed headers: what `make install` copies to include/hwtrace/. */
static void glob_headers(glob_t *g)
{
	static const char *const pat[] = {
		"decoders/include/hwtrace/*.h", "decoders/*/include/hwtrace/*.h",
	};
	char path[PATH_MAX + 64];

	for (size_t i = 0; i < sizeof(pat) / sizeof(pat[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", srcdir, pat[i]);
		glob(path, i ? GLOB_APPEND : 0, NULL, g);
	}
	CHECK(g->gl_pathc >= 8);
}

/* The identifier that ends just before @end (blanks skipped), into @s. */
static void add_ident_before(struct symset *s, const char *stmt, const char *end)
{
	const char *start;

	while (end > stmt && isspace((unsigned char)end[-1]))
		end--;
	start = end;
	while (start > stmt && (start[-1] == '_' || isalnum((unsigned char)start[-1])))
		start--;
	if (start < end)
		add(s, start, end - start);
}

/*
 * A file-scope statement of a header (comments, preprocessor lines and
 * brace contents removed): a function prototype ("... name(...)") or an
 * extern object ("extern ... name[...]"); typedefs, struct/enum definitions
 * and forward declarations declare no symbol.
 */
static void parse_stmt(struct symset *s, const char *stmt)
{
	const char *p = stmt + strspn(stmt, " \t\n"), *paren, *end;

	if (!strncmp(p, "HWT_API", 7))
		p += 7 + strspn(p + 7, " \t\n");
	paren = strchr(p, '(');
	if (!strncmp(p, "typedef", 7) || !strncmp(p, "static", 6))
		return;
	if (paren) {
		add_ident_before(s, p, paren);
	} else if (!strncmp(p, "extern", 6)) {
		end = p + strcspn(p, "[=");
		add_ident_before(s, p, end);
	}
}

/* Every function and extern object the installed header @path declares. */
static void read_header_decls(struct symset *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char stmt[4096];
	size_t n = 0;
	int c, prev = 0, depth = 0;
	bool comment = false, cpp = false, bol = true;

	CHECK(f != NULL);
	if (!f)
		return;
	stmt[0] = 0;
	while ((c = getc(f)) != EOF) {
		if (comment) {
			if (prev == '*' && c == '/')
				comment = false, c = 0;
		} else if (cpp) {
			if (c == '\n' && prev != '\\')
				cpp = false;
		} else if (prev == '/' && c == '*') {
			comment = true, c = 0;
			if (depth == 0 && n)
				stmt[--n] = 0;	/* the '/' */
		} else if (bol && c == '#') {
			cpp = true;
		} else if (c == '{') {
			depth++;
		} else if (c == '}') {
			/* a static inline body ends its statement without ';' */
			if (--depth == 0 && !strncmp(stmt + strspn(stmt, " \t\n"), "static", 6))
				n = 0, stmt[0] = 0;
		} else if (depth == 0 && c == ';') {
			parse_stmt(s, stmt);
			n = 0, stmt[0] = 0;
		} else if (depth == 0 && n < sizeof(stmt) - 1) {
			stmt[n++] = (char)c;
			stmt[n] = 0;
		}
		if (c == '\n')
			bol = !comment;
		else if (!isspace(c))
			bol = false;
		prev = c;
	}
	fclose(f);
}

/* Declared in an installed header means exported: a program that uses it links. */
static void test_declared_are_exported(void)
{
	struct symset decl = { 0 }, so = { 0 };
	glob_t g = { 0 };

	glob_headers(&g);
	for (size_t i = 0; i < g.gl_pathc; i++)
		read_header_decls(&decl, g.gl_pathv[i]);
	globfree(&g);
	read_so(&so);
	/* the parser finds the API: a function, an extern object, a multi-line one */
	CHECK(has(&decl, "hwt_reader__new"));
	CHECK(has(&decl, "hwt_devices"));
	CHECK(has(&decl, "hwt_session__run"));
	CHECK(decl.n >= 50);
	CHECK(so.n > 0);
	for (int i = 0; i < decl.n; i++)
		if (!has(&so, decl.name[i])) {
			fprintf(stderr, "an installed header declares %s, libhwtrace.so.0 does not export it\n",
				decl.name[i]);
			check_failures++;
		}
	clear(&decl);
	clear(&so);
}

/* "HWT_API ... name(" or "HWT_API ... name[" in an installed header */
static void test_exports_are_declared(void)
{
	struct symset doc = { 0 }, decl = { 0 };
	glob_t g = { 0 };

	glob_headers(&g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		char line[512];

		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char *end = line + strcspn(line, "([;"), *start = end;

			if (strncmp(line, "HWT_API ", 8) || !*end)
				continue;
			while (start > line && (start[-1] == '_' || isalnum((unsigned char)start[-1])))
				start--;
			add(&decl, start, end - start);
		}
		fclose(f);
	}
	globfree(&g);
	read_doc(&doc);
	check_same(&doc, "Documentation/libhwtrace.rst", &decl, "HWT_API declarations");
	clear(&doc);
	clear(&decl);
}

int main(void)
{
	const char *tail = "tests/unit/test_abi.c";
	size_t n = strlen(__FILE__) - strlen(tail);

	/* the sources are where this file was compiled from */
	snprintf(srcdir, sizeof(srcdir), "%.*s", (int)n, __FILE__);
	RUN(test_exports_are_documented);
	RUN(test_exports_are_declared);
	RUN(test_declared_are_exported);
	return check_done("abi");
}
