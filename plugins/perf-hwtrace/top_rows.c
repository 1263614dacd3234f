// SPDX-License-Identifier: GPL-2.0
/*
 * top_rows.c - each client's row of a `top` refresh, rendered as it is read
 * (top_rows.h says why).
 */
#include <stdlib.h>

#include "top_rows.h"

void top_rows__init(struct top_rows *r, const struct drm_clients *c, const struct top_rows_ops *ops)
{
	*r = (struct top_rows){ .ops = ops, .c = c };
}

void top_rows__exit(struct top_rows *r)
{
	membuf__free(&r->arena[0]);
	membuf__free(&r->arena[1]);
	free(r->refs);
	r->refs = NULL;
}

/*
 * Render @cl into the arena of sample @gen (a new sample takes the other
 * arena).  @quick: called as @cl was re-read in a quick sample, where no
 * scan follows to change its pids, so a steady client's last row holds.
 */
static void add(struct top_rows *r, struct drm_client *cl, unsigned int gen, bool quick)
{
	struct membuf *a = &r->arena[gen & 1];
	const struct membuf *last = &r->arena[(gen - 1) & 1];
	size_t off;

	if (r->gen != gen) {
		r->last_ok = r->gen == gen - 1 && !r->failed;
		a->len = 0;
		a->oom = false;	/* memory may be there again */
		out__init_mem(&r->stage, a);
		r->gen = gen;
		r->failed = false;
	}
	/* the clients are read in table order: fetch the next one's old row now */
	if (quick && r->last_ok && cl + 1 < r->c->clients + r->c->nclients &&
	    cl[1].view_gen == gen - 1)
		hwt_prefetch_bytes(last->p + cl[1].view_off,
				   cl[1].steady ? cl[1].view_len : cl[1].view_head);
	off = a->len + r->stage.len;
	if (!quick || !r->last_ok || cl->view_gen != gen - 1 || !cl->view_len) {
		r->ops->head(&r->stage, cl);
		cl->view_head = a->len + r->stage.len - off;
		r->ops->body(&r->stage, cl);
	} else if (cl->steady) {
		out__write(&r->stage, last->p + cl->view_off, cl->view_len);
	} else if (cl->same_strings) {	/* only numbers changed: the head holds */
		out__write(&r->stage, last->p + cl->view_off, cl->view_head);
		r->ops->body(&r->stage, cl);
	} else {
		r->ops->head(&r->stage, cl);
		cl->view_head = a->len + r->stage.len - off;
		r->ops->body(&r->stage, cl);
	}
	if (r->stage.error)
		r->failed = true;
	cl->view_off = off;
	cl->view_len = a->len + r->stage.len - off;
	cl->view_gen = gen;
}

void top_rows__updated(void *ctx, struct drm_client *cl)
{
	struct top_rows *r = ctx;

	add(r, cl, r->c->gen, true);
}

/*
 * Render the clients the sample did not hand over, and list where each
 * one's row lies (r->refs, by table index: the output goes in sort order,
 * which is random in memory, and the list is small); false when memory ran
 * out.
 */
static bool finish(struct top_rows *r, struct drm_clients *c)
{
	if (c->nclients > r->cap_refs) {
		struct top_rows_ref *n = realloc(r->refs, c->nclients * sizeof(*n));

		if (!n) {
			r->failed = true;	/* the arena is not whole: no copy from it next time */
			return false;
		}
		r->refs = n;
		r->cap_refs = c->nclients;
	}
	for (int i = 0; i < c->nclients; i++) {
		struct drm_client *cl = &c->clients[i];

		if (cl->view_gen != c->gen)
			add(r, cl, c->gen, false);
		r->refs[i] = (struct top_rows_ref){ cl->view_off, cl->view_len };
	}
	out__flush(&r->stage);
	return !r->failed && !r->stage.error;
}

void top_rows__write(struct top_rows *r, struct out *o, struct drm_clients *c,
		     struct drm_client *const *v, int n, char sep, char term)
{
	bool staged = finish(r, c);
	const char *a = r->arena[c->gen & 1].p;

	for (int i = 0; i < n; i++) {
		if (i && sep)
			out__putc(o, sep);
		if (staged) {
			const struct top_rows_ref *ref = &r->refs[v[i] - c->clients];

			if (i + 4 < n) {	/* sort order: random in memory */
				const struct top_rows_ref *r4 = &r->refs[v[i + 4] - c->clients];

				hwt_prefetch_bytes(a + r4->off, r4->len);
			}
			out__write(o, a + ref->off, ref->len);
		} else {
			r->ops->head(o, v[i]);
			r->ops->body(o, v[i]);
		}
		if (term)
			out__putc(o, term);
	}
}
