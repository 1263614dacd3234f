// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_reader.c - the perf.data reader on arbitrary bytes.
 *
 * The input is served from a memfd (a seekable file, so file mode works too)
 * through the smallest window, so records and payloads straddle refills.
 * Every other payload is pulled; the accounting must add up afterwards.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_data/perf_data_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwt_diag diag = { 0 };
	struct hwt_reader *r;
	struct hwt_event ev;
	uint64_t pulled = 0;
	unsigned int n = 0;
	int fd = memfd_create("fuzz_reader", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return 0;
	}
	r = hwt_reader__new_fd_window(fd, "fuzz", &diag, HWT_WINDOW_MIN);
	if (r) {
		while (hwt_reader__next(r, &ev) > 0) {
			const void *p;
			ssize_t got;

			/* touch what the reader hands out */
			if (ev.hdr->size < 8)
				abort();
			if (ev.payload_size && (n++ & 1)) {
				while ((got = hwt_reader__payload(r, &p)) > 0) {
					/* inflated bytes are not input bytes */
					if (!ev.compressed)
						pulled += (uint64_t)got;
					if (((const volatile uint8_t *)p)[got - 1] == 0x5a)
						n++;
				}
			}
		}
		(void)hwt_reader__feature_string(r, HWT_FEAT_CMDLINE);
		(void)hwt_reader__pmu_name(r, 8);
		/* every input byte was decoded, skipped or pulled, exactly once */
		if (diag.bytes.decoded + diag.bytes.skipped + pulled != size)
			abort();
		hwt_reader__delete(r);
	}
	close(fd);
	return 0;
}
