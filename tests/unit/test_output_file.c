// SPDX-License-Identifier: GPL-2.0
/*
 * test_output_file.c - outputs appear whole or not at all (hwt_outfile,
 * hwt_writer__discard), the writer's progress callback, and the progress
 * line `synth` draws on a terminal (design.rst 6).
 *
 * Expected contents are what the test itself wrote before; expected text is
 * computed by hand from the numbers given.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "hwtrace/perf_data.h"
#include "../../plugins/perf-hwtrace/output_file.h"

static char dir[] = "/tmp/test_output_file.XXXXXX";

static char *at(const char *name)
{
	static char p[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	fputs(text, f);
	fclose(f);
}

static const char *get(const char *name)
{
	static char buf[256];
	FILE *f = fopen(at(name), "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Files in the directory whose name starts with '.' (temporary files). */
static int dot_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	if (d)
		closedir(d);
	return n;
}

static void write_str(struct hwt_outfile *f, const char *s)
{
	CHECK_EQ(write(hwt_outfile__fd(f), s, strlen(s)), strlen(s));
}

static void test_outfile_commit_and_abandon(void)
{
	struct hwt_outfile *f;
	struct stat st;

	put("a", "old");
	chmod(at("a"), 0640);
	f = hwt_outfile__new(at("a"));
	CHECK(f != NULL);
	write_str(f, "new");
	/* nothing changes until the close */
	CHECK_STR(get("a"), "old");
	CHECK_EQ(dot_files(), 1);
	CHECK_EQ(hwt_outfile__delete(f, false), 0);
	CHECK_STR(get("a"), "old");
	CHECK_EQ(dot_files(), 0);

	f = hwt_outfile__new(at("a"));
	write_str(f, "new");
	CHECK_EQ(hwt_outfile__delete(f, true), 0);
	CHECK_STR(get("a"), "new");
	CHECK_EQ(dot_files(), 0);
	/* the replaced file's permissions are kept */
	CHECK_EQ(stat(at("a"), &st), 0);
	CHECK_EQ(st.st_mode & 0777, 0640);

	/* a new file */
	f = hwt_outfile__new(at("b"));
	write_str(f, "b");
	CHECK(get("b") == NULL);
	CHECK_EQ(hwt_outfile__delete(f, true), 0);
	CHECK_STR(get("b"), "b");

	/* a directory that does not exist: nothing is created */
	errno = 0;
	CHECK(hwt_outfile__new(at("no/such")) == NULL);
	CHECK_EQ(errno, ENOENT);
}

static void test_outfile_symlink_and_device(void)
{
	struct hwt_outfile *f;
	struct stat st;

	put("target", "old");
	CHECK_EQ(symlink("target", at("link")), 0);
	f = hwt_outfile__new(at("link"));
	write_str(f, "new");
	CHECK_EQ(hwt_outfile__delete(f, true), 0);
	/* the file the link points at is replaced; the link stays a link */
	CHECK_EQ(lstat(at("link"), &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	CHECK_STR(get("target"), "new");
	CHECK_EQ(dot_files(), 0);

	/* a device is written in place, never renamed over */
	f = hwt_outfile__new("/dev/null");
	CHECK(f != NULL);
	write_str(f, "x");
	CHECK_EQ(hwt_outfile__delete(f, true), 0);
	CHECK_EQ(stat("/dev/null", &st), 0);
	CHECK(S_ISCHR(st.st_mode));
}

static uint64_t last_bytes;
static int calls;

static void on_progress(void *ctx, uint64_t bytes)
{
	CHECK(bytes >= last_bytes);
	last_bytes = bytes;
	calls++;
}

static void test_writer_discard_and_progress(void)
{
	static uint8_t payload[1 << 20];
	struct hwt_auxtrace at0 = { .offset = 0 };
	struct hwt_writer *w;
	struct stat st;

	put("w.data", "old");
	w = hwt_writer__new(at("w.data"), false);
	CHECK(w != NULL);
	hwt_writer__set_progress(w, on_progress, NULL);
	/* 1 MiB: written through, so the callback runs before the close */
	CHECK_EQ(hwt_writer__write_auxtrace(w, &at0, payload, sizeof(payload)), 0);
	CHECK(calls > 0);
	CHECK(last_bytes >= sizeof(payload));
	hwt_writer__discard(w);
	CHECK_STR(get("w.data"), "old");
	CHECK_EQ(dot_files(), 0);

	calls = 0;
	last_bytes = 0;
	w = hwt_writer__new(at("w.data"), false);
	hwt_writer__set_progress(w, on_progress, NULL);
	CHECK_EQ(hwt_writer__write_auxtrace(w, &at0, payload, sizeof(payload)), 0);
	CHECK_EQ(hwt_writer__delete(w), 0);
	CHECK_EQ(stat(at("w.data"), &st), 0);
	/* the last call saw every byte but the header rewritten in place */
	CHECK_EQ(last_bytes, (uint64_t)st.st_size);
	CHECK_EQ(dot_files(), 0);
}

static void test_progress_line(void)
{
	char buf[160];

	CHECK_STR(output_file__size(buf, sizeof(buf), 0), "0 B");
	CHECK_STR(output_file__size(buf, sizeof(buf), 1023), "1023 B");
	CHECK_STR(output_file__size(buf, sizeof(buf), 1536), "1.5 KiB");
	CHECK_STR(output_file__size(buf, sizeof(buf), 1ULL << 40), "1.0 TiB");
	/* 1.5 GiB of 4 GiB = 37.5 %, shown as 37; 1.5 GiB in 2 s = 768 MiB/s */
	CHECK_STR(output_progress__format(buf, sizeof(buf), "synth", 3ULL << 29, 4ULL << 30, 2.0),
		  "synth: 1.5 GiB of 4.0 GiB (37%), 2 s, 768.0 MiB/s");
	/* past the estimate: never more than 100 % */
	CHECK_STR(output_progress__format(buf, sizeof(buf), "synth", 5ULL << 20, 4ULL << 20, 1.0),
		  "synth: 5.0 MiB of 4.0 MiB (100%), 1 s, 5.0 MiB/s");
	/* no total, no time */
	CHECK_STR(output_progress__format(buf, sizeof(buf), "x", 2048, 0, 0), "x: 2.0 KiB");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_outfile_commit_and_abandon);
	RUN(test_outfile_symlink_and_device);
	RUN(test_writer_discard_and_progress);
	RUN(test_progress_line);
	unlink(at("a"));
	unlink(at("b"));
	unlink(at("target"));
	unlink(at("link"));
	unlink(at("w.data"));
	rmdir(dir);
	return check_done("output_file");
}
