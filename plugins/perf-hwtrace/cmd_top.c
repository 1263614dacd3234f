// SPDX-License-Identifier: GPL-2.0
/* cmd_top.c - placeholder until its issue lands. */
#include "commands.h"

int cmd_top(int argc, char **argv)
{
	return usage_error("top", "not implemented yet");
}
