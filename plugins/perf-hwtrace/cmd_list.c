// SPDX-License-Identifier: GPL-2.0
/* cmd_list.c - placeholder until its issue lands. */
#include "commands.h"

int cmd_list(int argc, char **argv)
{
	return usage_error("list", "not implemented yet");
}
