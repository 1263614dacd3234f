// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_session.c - the whole decode path on arbitrary input: the container
 * reader, the session's routing and carry-over, and every payload decoder the
 * input's AUXTRACE_INFO records select (or a raw probe, for non-perf.data).
 *
 * The input is put in a memfd and read through /proc/self/fd, as a file.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hwtrace/decoder.h"

static void on_record(void *ctx, const struct hwt_record *rec)
{
	const struct hwt_record_type *t = rec->type;
	uint64_t *sum = ctx;

	/* touch every field the way a sink would */
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (!hwt_field__present(f, rec->data) || f->type == HWT_FT_STR)
			continue;
		for (uint32_t j = 0; j < hwt_field__len(f, rec->data); j++)
			*sum += hwt_field__u64(f, rec->data, j);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct hwt_opt opts[] = { { "top", "3" } };
	struct hwt_session_opts so = { .opts = opts, .nopts = 1 };
	struct hwt_diag diag = { .file = "fuzz" };
	uint64_t sum = 0;
	struct hwt_sink sink = { .record = on_record, .ctx = &sum };
	char path[64];
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	hwt_session__run(path, &so, &sink, &diag);
	close(fd);
	return 0;
}
