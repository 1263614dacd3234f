// SPDX-License-Identifier: GPL-2.0
/* diag.c - hand problems found in the input to the caller's callback. */
#include <stdio.h>
#include <string.h>

#include "hwtrace/diag.h"

void hwt_diag__report(struct hwt_diag *d, enum hwt_severity sev, uint64_t offset,
		      const char *rtype, const char *fmt, ...)
{
	struct hwt_error e = {
		.file = d && d->file ? d->file : "<input>",
		.offset = offset,
		.rtype = rtype ? rtype : "",
		.severity = sev,
	};
	va_list ap;

	if (!d)
		return;
	if (sev == HWT_ERROR)
		d->errors++;
	else
		d->warnings++;
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	if (d->report)
		d->report(d->ctx, &e);
}
