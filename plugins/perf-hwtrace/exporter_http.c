// SPDX-License-Identifier: GPL-2.0
/*
 * exporter_http.c - serve /metrics through libmicrohttpd.
 *
 * A thread pool polls the connections, so a slow or stuck client holds one
 * connection slot until its timeout and nothing else; libmicrohttpd answers
 * an oversized request line itself (414/431) from its per-connection
 * memory limit.  Scrapes are serialised: one computes while the others wait
 * for the lock, and a request that arrived before the scrape in hand began
 * is answered with that scrape's text (shared, reference-counted) instead of
 * computing another: any number of concurrent scrapes costs one.
 *
 * libmicrohttpd is dlopen()ed here, by soname, when the exporter starts: it
 * links gnutls and eight more libraries, whose loading and relocation would
 * otherwise cost every other verb several milliseconds of start-up.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/lazy_lib.h"
#include "exporter_http.h"
#include "exporter_metrics.h"

#ifdef HWTRACE_STATIC
/* the static recorder for guests links no HTTP library */
struct exporter_http {
	int unused;
};

struct exporter_http *exporter_http__start(const struct sockaddr *addr, socklen_t len,
					   exporter_scrape_fn scrape, void *ctx)
{
	fprintf(stderr, "perf hwtrace exporter: this static perf-hwtrace has no HTTP server\n");
	return NULL;
}

const char *exporter_http__where(const struct exporter_http *h)
{
	return "";
}

void exporter_http__stop(struct exporter_http *h)
{
}
#else
#include <microhttpd.h>

#define THREADS 4		/* poll threads; a scrape holds one while it computes */
#define MAX_CONNECTIONS 512
#define CONN_TIMEOUT_S 10	/* an idle or slow connection is closed after this */
#define CONN_MEMORY (64 << 10)	/* request line and headers must fit */
#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define MHD_SONAME "libmicrohttpd.so.12"	/* the ABI <microhttpd.h> describes */

/* The functions used, resolved from MHD_SONAME at start (typed by the header). */
static struct {
	typeof(&MHD_start_daemon) start_daemon;
	typeof(&MHD_stop_daemon) stop_daemon;
	typeof(&MHD_queue_response) queue_response;
	typeof(&MHD_create_response_from_buffer) response_from_buffer;
	typeof(&MHD_create_response_from_buffer_with_free_callback_cls) response_from_buffer_cls;
	typeof(&MHD_add_response_header) add_response_header;
	typeof(&MHD_destroy_response) destroy_response;
} mhd;

static const struct hwt_lazy_sym mhd_syms[] = {
	HWT_LAZY_SYM(mhd.start_daemon, MHD_start_daemon),
	HWT_LAZY_SYM(mhd.stop_daemon, MHD_stop_daemon),
	HWT_LAZY_SYM(mhd.queue_response, MHD_queue_response),
	HWT_LAZY_SYM(mhd.response_from_buffer, MHD_create_response_from_buffer),
	HWT_LAZY_SYM(mhd.response_from_buffer_cls,
		     MHD_create_response_from_buffer_with_free_callback_cls),
	HWT_LAZY_SYM(mhd.add_response_header, MHD_add_response_header),
	HWT_LAZY_SYM(mhd.destroy_response, MHD_destroy_response),
};

static struct hwt_lazy_lib mhd_lib = HWT_LAZY_LIB(MHD_SONAME, RTLD_NOW, "libmicrohttpd12",
						  mhd_syms);

/* libmicrohttpd's functions, or false having said why not */
static bool mhd_load(void)
{
	if (hwt_lazy_lib__load(&mhd_lib))
		return true;
	fprintf(stderr, "perf hwtrace exporter: %s\n", mhd_lib.why);
	return false;
}

/* One scrape's text, shared by the responses that send it. */
struct body {
	atomic_int refs;
	uint64_t started;	/* monotonic ns the scrape began */
	size_t len;
	char *text;
};

struct exporter_http {
	struct MHD_Daemon *d;
	int fd;
	exporter_scrape_fn scrape;
	void *ctx;
	pthread_mutex_t lock;	/* one scrape at a time; guards @last */
	struct body *last;
	size_t last_len;	/* of the last text, to size the next one's buffer */
	struct MHD_Response *not_found, *bad_method;
	char where[INET6_ADDRSTRLEN + 16];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void body_put(void *p)
{
	struct body *b = p;

	if (b && atomic_fetch_sub(&b->refs, 1) == 1) {
		free(b->text);
		free(b);
	}
}

/* The text of a scrape that began after @arrived: the last one, or a new one. */
static struct body *body_get(struct exporter_http *h, uint64_t arrived)
{
	struct body *b;

	pthread_mutex_lock(&h->lock);
	b = h->last;
	if (!b || b->started < arrived) {
		struct membuf buf = { 0 };

		b = calloc(1, sizeof(*b));
		if (b) {
			b->started = mono_ns();
			/* sized as the last text: no doubling and copying of megabytes */
			membuf__grow(&buf, h->last_len + h->last_len / 8);
			h->scrape(h->ctx, &buf);
			b->text = buf.oom ? NULL : membuf__steal(&buf, &b->len);
			if (b->text)
				h->last_len = b->len;
			membuf__free(&buf);
			if (!b->text) {
				free(b);
				b = NULL;
			}
		}
		if (b) {
			atomic_init(&b->refs, 1);	/* @last's */
			body_put(h->last);
			h->last = b;
		}
	}
	if (b)
		atomic_fetch_add(&b->refs, 1);	/* the response's */
	pthread_mutex_unlock(&h->lock);
	return b;
}

/*
 * The URL as sent, escapes and all: only /metrics is served, and decoding
 * would make "/metrics%00" a NUL-terminated "/metrics".
 */
static size_t keep_escapes(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	return strlen(s);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct exporter_http *h = cls;
	struct MHD_Response *r;
	struct body *b;
	enum MHD_Result ret;
	uint64_t arrived = mono_ns();

	if (strcmp(url, "/metrics"))
		return mhd.queue_response(conn, MHD_HTTP_NOT_FOUND, h->not_found);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return mhd.queue_response(conn, MHD_HTTP_METHOD_NOT_ALLOWED, h->bad_method);
	b = body_get(h, arrived);
	if (!b)
		return MHD_NO;	/* out of memory: the connection is closed */
	r = mhd.response_from_buffer_cls(b->len, b->text, body_put, b);
	if (!r) {
		body_put(b);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, CONTENT_TYPE);
	ret = mhd.queue_response(conn, MHD_HTTP_OK, r);
	mhd.destroy_response(r);
	return ret;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	fprintf(stderr, "perf hwtrace exporter: http: ");
	vfprintf(stderr, fmt, ap);
}

static struct MHD_Response *fixed(const char *text, const char *allow)
{
	struct MHD_Response *r = mhd.response_from_buffer(strlen(text), (void *)text,
							   MHD_RESPMEM_PERSISTENT);

	if (r) {
		mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
		if (allow)
			mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	}
	return r;
}

static void describe(struct exporter_http *h, const struct sockaddr *sa)
{
	char host[INET6_ADDRSTRLEN] = "?";
	int port = 0;

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		port = ntohs(s6->sin6_port);
		snprintf(h->where, sizeof(h->where), "[%s]:%d", host, port);
	} else {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		port = ntohs(s4->sin_port);
		snprintf(h->where, sizeof(h->where), "%s:%d", host, port);
	}
}

/* Our own listening socket: errors are ours to word, and port 0 can be read back. */
static int listen_on(struct exporter_http *h, const struct sockaddr *addr, socklen_t len)
{
	struct sockaddr_storage got;
	socklen_t glen = sizeof(got);
	int one = 1, fd;

	describe(h, addr);
	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (addr->sa_family == AF_INET6) {
		int zero = 0;	/* [::] takes IPv4 too */

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	}
	if (bind(fd, addr, len) || listen(fd, 128))
		goto fail;
	if (!getsockname(fd, (struct sockaddr *)&got, &glen))
		describe(h, (struct sockaddr *)&got);
	return fd;
fail:
	fprintf(stderr, "perf hwtrace exporter: cannot listen on %s: %s\n", h->where,
		strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

struct exporter_http *exporter_http__start(const struct sockaddr *addr, socklen_t len,
					   exporter_scrape_fn scrape, void *ctx)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	struct exporter_http *h;

	if (!mhd_load())
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->scrape = scrape;
	h->ctx = ctx;
	pthread_mutex_init(&h->lock, NULL);
	h->not_found = fixed("not found: the metrics are at /metrics\n", NULL);
	h->bad_method = fixed("method not allowed\n", "GET, HEAD");
	h->fd = listen_on(h, addr, len);
	if (h->fd < 0 || !h->not_found || !h->bad_method)
		goto fail;
	if (addr->sa_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	h->d = mhd.start_daemon(flags, 0, NULL, NULL, answer, h,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,	/* first, or unused */
				MHD_OPTION_LISTEN_SOCKET, h->fd,
				MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)THREADS,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONN_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
				MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL,
				MHD_OPTION_END);
	if (!h->d) {
		fprintf(stderr, "perf hwtrace exporter: cannot start the HTTP server on %s\n",
			h->where);
		goto fail;
	}
	return h;
fail:
	exporter_http__stop(h);
	return NULL;
}

const char *exporter_http__where(const struct exporter_http *h)
{
	return h->where;
}

void exporter_http__stop(struct exporter_http *h)
{
	if (!h)
		return;
	if (h->d)
		mhd.stop_daemon(h->d);
	if (h->fd >= 0)
		close(h->fd);
	if (h->not_found)
		mhd.destroy_response(h->not_found);
	if (h->bad_method)
		mhd.destroy_response(h->bad_method);
	body_put(h->last);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
#endif

int exporter_http__parse_addr(const char *text, struct sockaddr_storage *ss, socklen_t *len,
			      char *err, size_t errlen)
{
	const char *colon = strrchr(text, ':'), *rb = strrchr(text, ']');
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | AI_PASSIVE }, *res = NULL;
	char host[256];
	size_t hlen;
	char *end;
	long port;
	int r;

	/* in "[::1]" the last colon is the address's: no port */
	if (!colon || (text[0] == '[' && rb && colon < rb)) {
		snprintf(err, errlen, "'%s': not HOST:PORT (an IPv6 address: [ADDR]:PORT)", text);
		return -1;
	}
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port < 0 || port > 65535) {
		snprintf(err, errlen, "'%s': bad port '%s' (0 to 65535)", text, colon + 1);
		return -1;
	}
	hlen = colon - text;
	if (hlen && text[0] == '[') {
		if (hlen < 2 || text[hlen - 1] != ']') {
			snprintf(err, errlen, "'%s': an IPv6 address goes in brackets: [::1]:PORT",
				 text);
			return -1;
		}
		text++;
		hlen -= 2;
		hints.ai_flags |= AI_NUMERICHOST;
		hints.ai_family = AF_INET6;
	} else if (memchr(text, ':', hlen)) {
		snprintf(err, errlen, "'%s': an IPv6 address goes in brackets: [::1]:PORT",
			 text);
		return -1;
	}
	if (hlen >= sizeof(host)) {
		snprintf(err, errlen, "host name too long");
		return -1;
	}
	memcpy(host, text, hlen);
	host[hlen] = 0;
	if (!hlen) {	/* every address, IPv6 and IPv4 */
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		memset(ss, 0, sizeof(*ss));
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*s6);
		return 0;
	}
	r = getaddrinfo(host, colon + 1, &hints, &res);
	if (r || !res) {
		snprintf(err, errlen, "'%s': %s", host, r ? gai_strerror(r) : "no address");
		return -1;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}
