// SPDX-License-Identifier: GPL-2.0
/* cmd_record.c - placeholder until its issue lands. */
#include "commands.h"

int cmd_record(int argc, char **argv)
{
	return usage_error("record", "not implemented yet");
}
