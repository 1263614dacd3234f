// SPDX-License-Identifier: GPL-2.0
/*
 * dump_branch.c - a sample's branch stack in `report -D`.
 *
 * An entry is {from, to, flags}; the flags word holds, from bit 0:
 * mispred, predicted, in_tx, abort (1 bit each), cycles (16), type (4),
 * spec (2), new_type (4), priv (3) and 31 reserved bits.  perf prints the
 * four single bits as M, P, A, T (blank when clear), the reserved bits in
 * hex, and the type by name: none for 0, the extended name of new_type for
 * type 15 (PERF_BR_EXTEND_ABI).
 */
#include <stdint.h>

#include "dump_branch.h"

#define BR_TYPE_EXTEND	15

static const char *const br_type[BR_TYPE_EXTEND] = {
	"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
	"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
};

/* perf's names for new_type on a non-arm64 build */
static const char *const br_new_type[] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};

static const char *type_name(uint64_t flags)
{
	unsigned int type = (flags >> 20) & 0xf, new_type = (flags >> 26) & 0xf;

	if (type != BR_TYPE_EXTEND)
		return br_type[type];
	/* perf passes a NULL name to printf for an unknown new type */
	return new_type < sizeof(br_new_type) / sizeof(br_new_type[0]) ?
	       br_new_type[new_type] : "(null)";
}

void dump_branch_stack(struct out *o, const struct hwt_sample_view *sv, bool callstack)
{
	uint64_t from, to, flags;

	/* a call stack of n branches unwinds to n + 1 addresses */
	out__printf(o, "\n... branch %s: nr:%llu", callstack ? "callstack" : "stack",
		    (unsigned long long)(sv->branch_nr + callstack));
	for (uint64_t i = 0; i < sv->branch_nr; i++) {
		hwt_sample_view__branch(sv, i, &from, &to, &flags);
		if (callstack) {
			if (!i)
				out__printf(o, "\n..... %2d: %016llx", 0, (unsigned long long)to);
			out__printf(o, "\n..... %2llu: %016llx", (unsigned long long)i + 1,
				    (unsigned long long)from);
			continue;
		}
		out__printf(o, "\n..... %2llu: %016llx -> %016llx %u cycles %c%c%c%c %x %s",
			    (unsigned long long)i, (unsigned long long)from,
			    (unsigned long long)to, (unsigned int)((flags >> 4) & 0xffff),
			    flags & 1 ? 'M' : ' ', flags & 2 ? 'P' : ' ', flags & 8 ? 'A' : ' ',
			    flags & 4 ? 'T' : ' ', (unsigned int)(flags >> 33), type_name(flags));
	}
}
