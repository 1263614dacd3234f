// SPDX-License-Identifier: GPL-2.0
/* test_record_views.c - typed views of record bodies (hwt_event__comm). */
#include <string.h>

#include "hwtrace/perf_data.h"
#include "check.h"

/* A COMM record laid out by hand: header, pid, tid, name padded to 8, trailer. */
static void test_comm(void)
{
	uint8_t rec[48] = { 0 };
	struct perf_event_header *h = (void *)rec;
	struct hwt_attr attr = { .sample_id_size = 16 };
	struct hwt_event ev = { .hdr = h };
	uint32_t pid = 0, tid = 0, v;
	const char *comm = NULL;
	size_t len = 0;

	h->type = PERF_RECORD_COMM;
	h->size = 16 + 16 + 16;		/* name area 16 bytes, 16-byte trailer */
	v = 4242;
	memcpy(rec + 8, &v, 4);
	v = 4243;
	memcpy(rec + 12, &v, 4);
	memcpy(rec + 16, "kworker/0:1", 11);
	memset(rec + 32, 'X', 16);	/* trailer bytes: never part of the name */
	CHECK(hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	CHECK_EQ(pid, 4242);
	CHECK_EQ(tid, 4243);
	CHECK_EQ(len, 11);
	CHECK(!memcmp(comm, "kworker/0:1", 11));

	/* a name filling its area with no NUL stops at the trailer, not past it */
	memset(rec + 16, 'a', 16);
	attr.attr.sample_id_all = 1;
	ev.attr = &attr;
	CHECK(hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	CHECK_EQ(len, 16);
	/* without sample_id_all the whole body may be name */
	attr.attr.sample_id_all = 0;
	CHECK(hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	CHECK_EQ(len, 32);

	h->size = 12;			/* too short to hold pid and tid */
	CHECK(!hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	h->size = 48;
	h->type = PERF_RECORD_EXIT;
	CHECK(!hwt_event__comm(&ev, &pid, &tid, &comm, &len));
}

int main(void)
{
	RUN(test_comm);
	return check_done("record_views");
}
