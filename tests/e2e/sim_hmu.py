# SPDX-License-Identifier: GPL-2.0
"""Independent Python model of decoders/cxl_hmu/sim_hmu.h.

Written from the header's arithmetic (xorshift64*, product-of-uniforms unit
choice, threshold..2^w-1 counts) so the end-to-end test can check a kernel
recording without trusting any C code of this project.
"""

M64 = (1 << 64) - 1


class SimHmu:
    def __init__(self, seed, nunits, width, threshold):
        width = min(max(width, 1), 32)
        maxc = (1 << width) - 1
        nunits = min(max(nunits, 1), 1 << (64 - width))
        self.rng = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & M64 or 1
        self.nunits = nunits
        self.width = width
        self.threshold = min(threshold, maxc)

    def rand(self):
        x = self.rng
        x ^= x >> 12
        x ^= (x << 25) & M64
        x ^= x >> 27
        self.rng = x
        return (x * 0x2545F4914F6CDD1D) & M64

    def entry(self):
        r = self.rand()
        x = ((r >> 32) * (r & 0xFFFFFFFF)) >> 32
        unit = (x * self.nunits) >> 32
        span = (1 << self.width) - self.threshold
        r = self.rand()
        count = self.threshold + (((r >> 32) * span) >> 32)
        return ((unit << self.width) | count) & M64

    def packet_units(self, maxn):
        return 1 + (((self.rand() >> 32) * maxn) >> 32)

    def packets(self):
        """Yield (units, [entries]) forever: one drained batch each."""
        while True:
            n = self.packet_units(512)
            yield n, [self.entry() for _ in range(n)]
