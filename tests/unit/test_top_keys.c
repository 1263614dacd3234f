// SPDX-License-Identifier: GPL-2.0
/*
 * test_top_keys.c - top's keys as the terminal sends them (top_keys()):
 * every escape sequence is one key, so a function key top has no use for
 * (F2 = ESC O Q, F3 = ESC O R, ESC [ 1 3 ~) neither quits nor reverses the
 * order; htop's and nvtop's keys do what they do there.
 */
#include "check.h"
#include "../../plugins/perf-hwtrace/top_text.h"

static enum top_wait keys(const char *s, struct top_order *o, struct top_view *v)
{
	return top_keys(s, strlen(s), o, v);
}

static void test_unused_function_keys(void)
{
	static const char *const unused[] = {
		"\033OQ", "\033OR", "\033OP", "\033OS",		/* F1-F4, SS3 form */
		"\033[12~", "\033[13~", "\033[15~", "\033[24~",	/* F2, F3, F5, F12 */
		"\033[1;5A", "\033q", "\033",			/* Ctrl-Up, Alt-q, a lone ESC */
		"\033[", "\033[2",				/* cut by the end of the read */
	};

	for (size_t i = 0; i < sizeof(unused) / sizeof(unused[0]); i++) {
		struct top_order o = { .col = COL_BUSY };
		struct top_view v = { .page = 10 };

		CHECK_EQ(keys(unused[i], &o, &v), WAIT_TIMEOUT);
		CHECK_EQ(o.col, COL_BUSY);
		CHECK_EQ(o.reverse, false);
		CHECK_EQ(v.scroll, 0);
	}
}

static void test_keys(void)
{
	struct top_order o = { .col = COL_BUSY };
	struct top_view v = { .page = 10 };

	CHECK_EQ(keys("\033[21~", &o, &v), WAIT_QUIT);	/* F10 */
	CHECK_EQ(keys("q", &o, &v), WAIT_QUIT);
	CHECK_EQ(keys("\033OQ" "q", &o, &v), WAIT_QUIT);	/* a key after a sequence */
	CHECK_EQ(keys("\033[17~", &o, &v), WAIT_REDRAW);	/* F6: the next column */
	CHECK_EQ(o.col, COL_MEM);
	CHECK_EQ(keys("<<", &o, &v), WAIT_REDRAW);
	CHECK_EQ(o.col, COL_ID);
	CHECK_EQ(keys("I", &o, &v), WAIT_REDRAW);		/* htop: invert */
	CHECK_EQ(o.reverse, true);
	CHECK_EQ(keys("r", &o, &v), WAIT_REDRAW);
	CHECK_EQ(o.reverse, false);
	/* nvtop: '+' ascending, '-' descending, numbers or names alike */
	CHECK_EQ(keys("+", &o, &v), WAIT_REDRAW);
	CHECK_EQ(o.reverse, false);			/* ids: smallest first */
	CHECK_EQ(keys("-", &o, &v), WAIT_REDRAW);
	CHECK_EQ(o.reverse, true);
	CHECK_EQ(keys("M", &o, &v), WAIT_REDRAW);		/* htop: memory, largest first */
	CHECK_EQ(o.col, COL_MEM);
	CHECK_EQ(o.reverse, false);
	CHECK_EQ(keys("+", &o, &v), WAIT_REDRAW);
	CHECK_EQ(o.reverse, true);			/* memory: smallest first */
	CHECK_EQ(keys("P", &o, &v), WAIT_REDRAW);		/* htop: CPU%, here busy */
	CHECK_EQ(o.col, COL_BUSY);
	CHECK_EQ(o.reverse, false);
	CHECK_EQ(keys("N", &o, &v), WAIT_REDRAW);
	CHECK_EQ(o.col, COL_PID);
	/* scrolling, in both cursor modes */
	CHECK_EQ(keys("\033[B\033OB\033[6~", &o, &v), WAIT_REDRAW);
	CHECK_EQ(v.scroll, 12);
	CHECK_EQ(keys("\033OA\033[5~", &o, &v), WAIT_REDRAW);
	CHECK_EQ(v.scroll, 1);
	CHECK_EQ(keys("\033[F", &o, &v), WAIT_REDRAW);
	CHECK_EQ(v.scroll, 1 << 30);
	CHECK_EQ(keys("\033[H", &o, &v), WAIT_REDRAW);
	CHECK_EQ(v.scroll, 0);
	CHECK_EQ(keys("x", &o, &v), WAIT_TIMEOUT);
}

int main(void)
{
	RUN(test_unused_function_keys);
	RUN(test_keys);
	return check_done("top_keys");
}
