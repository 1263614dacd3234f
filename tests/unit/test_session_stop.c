// SPDX-License-Identifier: GPL-2.0
/*
 * test_session_stop.c - hwt_session_opts.stop ends a session early.
 *
 * A generated CXL HMU file is decoded once to the end (the reference: every
 * record, the summary records, one end call) and then with the flag set by
 * the sink after the first data record: the session must stop within the
 * payload piece it holds, skip the summary records and still call end once.
 * A flag set before the run reads no record at all.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "hwtrace/device.h"
#include "hwtrace/synth.h"

struct count {
	volatile int stop;
	uint64_t stop_after;	/* data records before setting stop; 0: never */
	uint64_t events, data, summary, ends;
};

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	((struct count *)ctx)->events++;
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct count *c = ctx;

	if (rec->type->kind == HWT_RK_SUMMARY) {
		c->summary++;
		return;
	}
	if (rec->type->kind != HWT_RK_DATA)
		return;
	if (++c->data == c->stop_after)
		__atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
}

static void on_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		   const struct hwt_reader *r)
{
	((struct count *)ctx)->ends++;
}

static int run(const char *path, struct count *c)
{
	struct hwt_session_opts o = { .stop = &c->stop };
	struct hwt_sink sink = {
		.event = on_event, .record = on_record, .end = on_end, .ctx = c,
	};
	struct hwt_diag diag = { 0 };

	return hwt_session__run(path, &o, &sink, &diag);
}

static void test_stop(void)
{
	const struct hwt_device *dev = hwt_device__find("cxl-hmu");
	char path[] = "/tmp/hwt-stop-XXXXXX";
	struct hwt_synth_opts so = { .seed = 1, .size = 4 << 20 };
	struct hwt_diag diag = { 0 };
	struct count all = { 0 }, one = { .stop_after = 1 }, none = { .stop = 1 };
	struct hwt_writer *w;
	int fd;

	CHECK(dev != NULL);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (!dev || fd < 0)
		return;
	close(fd);
	w = hwt_writer__new(path, false);
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_EQ(hwt_synth__write(dev, w, &so, &diag), 0);
	CHECK_EQ(hwt_writer__delete(w), 0);

	CHECK_EQ(run(path, &all), 0);
	CHECK(all.data > 100000);	/* 4 MiB of 8-byte entries, many packets */
	CHECK(all.summary > 0);
	CHECK_EQ(all.ends, 1);

	CHECK_EQ(run(path, &one), 0);
	CHECK(one.data >= 1);
	CHECK(one.data < all.data / 2);	/* at most the piece it held */
	CHECK(one.events < all.events);
	CHECK_EQ(one.summary, 0);
	CHECK_EQ(one.ends, 1);

	CHECK_EQ(run(path, &none), 0);
	CHECK_EQ(none.events, 0);
	CHECK_EQ(none.data, 0);
	CHECK_EQ(none.summary, 0);
	CHECK_EQ(none.ends, 1);
	unlink(path);
}

int main(void)
{
	RUN(test_stop);
	return check_done("session_stop");
}
