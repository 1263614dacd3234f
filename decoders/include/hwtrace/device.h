/* SPDX-License-Identifier: GPL-2.0 */
/*
 * device.h - one device, one place.
 *
 * Everything hwtrace knows about a device is one struct hwt_device, defined
 * in the device's folder (decoders/<device>/device.c) and listed once in the
 * device table (decoders/core/devices.c).  record, synth, decode, inject,
 * report, script and the Python module walk that table; none of them names
 * a device.
 */
#ifndef HWTRACE_DEVICE_H
#define HWTRACE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "decoder.h"

/**
 * struct hwt_dev_opt - a decoder option a device takes (`--KEY VALUE`)
 * @key:	the option's name without the dashes ("hdm", "top")
 * @arg:	what the value looks like, for help ("N", "FILE")
 * @help:	one line for help
 * @file:	the value names a file whose contents are the option's value
 * @check:	optional: validate @val before any input is read; return 0, or
 *		-1 with the reason (without the option's name) in @err
 */
struct hwt_dev_opt {
	const char *key;
	const char *arg;
	const char *help;
	bool file;
	int (*check)(const char *val, char *err, size_t errlen);
};

/**
 * struct hwt_device - one device
 * @name:	its name for `--type` ("cxl-hmu", "panthor", "i915-oa")
 * @summary:	one line for lists and help
 * @decoder:	its payload decoder
 * @options:	decoder options, terminated by an entry with @key NULL
 */
struct hwt_device {
	const char *name;
	const char *summary;
	const struct hwt_decoder_ops *decoder;
	const struct hwt_dev_opt *options;
};

/* The device table, NULL-terminated (decoders/core/devices.c). */
HWT_API extern const struct hwt_device *const hwt_devices[];

/**
 * hwt_device__find - the device named @name, or NULL
 */
HWT_API const struct hwt_device *hwt_device__find(const char *name);

/**
 * hwt_device__opt - @dev's option @key (@len bytes, not NUL-terminated), or NULL
 */
HWT_API const struct hwt_dev_opt *hwt_device__opt(const struct hwt_device *dev, const char *key,
					  size_t len);

#endif
