// SPDX-License-Identifier: GPL-2.0
/* cmd_inject.c - placeholder until its issue lands. */
#include "commands.h"

int cmd_inject(int argc, char **argv)
{
	return usage_error("inject", "not implemented yet");
}
