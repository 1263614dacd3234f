// SPDX-License-Identifier: GPL-2.0
/* cmd_stat.c - placeholder until its issue lands. */
#include "commands.h"

int cmd_stat(int argc, char **argv)
{
	return usage_error("stat", "not implemented yet");
}
