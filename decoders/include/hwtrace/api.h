/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api.h - HWT_API marks what libhwtrace.so exports.
 *
 * Only functions and objects marked HWT_API (and listed in
 * decoders/libhwtrace.map) are part of the ABI; everything else in the
 * library is internal and may change.
 */
#ifndef HWTRACE_API_H
#define HWTRACE_API_H

#define HWT_API __attribute__((visibility("default")))

#endif
