/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exporter_http.h - the HTTP side of `perf hwtrace exporter`: /metrics
 * through libmicrohttpd, one scrape computing at a time.
 */
#ifndef PERF_HWTRACE_EXPORTER_HTTP_H
#define PERF_HWTRACE_EXPORTER_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

struct membuf;
struct exporter_http;

/*
 * Fills @b with the exposition text.  Called under the scrape lock, so never
 * twice at once; requests that arrive while it runs share its result.
 */
typedef void (*exporter_scrape_fn)(void *ctx, struct membuf *b);

/*
 * exporter_http__parse_addr - "HOST:PORT", "[V6]:PORT" or ":PORT" (every
 * address) into @ss; 0, or -1 with the reason in @err.
 */
int exporter_http__parse_addr(const char *text, struct sockaddr_storage *ss, socklen_t *len,
			      char *err, size_t errlen);

/* Listen on @addr and serve; NULL after saying why. */
struct exporter_http *exporter_http__start(const struct sockaddr *addr, socklen_t len,
					   exporter_scrape_fn scrape, void *ctx);
/* "ADDR:PORT" it listens on (the port the kernel chose for port 0). */
const char *exporter_http__where(const struct exporter_http *h);
void exporter_http__stop(struct exporter_http *h);

#endif
