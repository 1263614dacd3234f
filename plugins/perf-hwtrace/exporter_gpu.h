/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exporter_gpu.h - the hwtrace_gpu_* device series of `perf hwtrace
 * exporter`, from the GPU state top shows (gpu_devices.c).
 */
#ifndef PERF_HWTRACE_EXPORTER_GPU_H
#define PERF_HWTRACE_EXPORTER_GPU_H

struct membuf;
struct gpu_devices;

/*
 * One family per value a device exposes; a device that lacks a value has
 * no series in that family (absent, never 0).
 */
void exporter_gpu__render(struct membuf *b, const struct gpu_devices *g);

#endif
