/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_proto.h - the field numbers of Perfetto's trace protos that
 * convert --to-perfetto writes (protos/perfetto/trace/..., listed in
 * Documentation/perfetto.rst).
 */
#ifndef PERF_HWTRACE_PERFETTO_PROTO_H
#define PERF_HWTRACE_PERFETTO_PROTO_H

enum {
	PF_TRACE_PACKET = 1,			/* Trace.packet */

	PF_PKT_CLOCK_SNAPSHOT = 6,		/* TracePacket */
	PF_PKT_TIMESTAMP = 8,
	PF_PKT_SEQUENCE_ID = 10,		/* trusted_packet_sequence_id */
	PF_PKT_TRACK_EVENT = 11,
	PF_PKT_INTERNED_DATA = 12,
	PF_PKT_SEQUENCE_FLAGS = 13,
	PF_PKT_TIMESTAMP_CLOCK_ID = 58,
	PF_PKT_TRACK_DESCRIPTOR = 60,

	PF_SEQ_INCREMENTAL_STATE_CLEARED = 1,	/* TracePacket.SequenceFlags */
	PF_SEQ_NEEDS_INCREMENTAL_STATE = 2,

	PF_CS_CLOCKS = 1,			/* ClockSnapshot */
	PF_CS_PRIMARY_TRACE_CLOCK = 2,
	PF_CLOCK_ID = 1,			/* ClockSnapshot.Clock */
	PF_CLOCK_TIMESTAMP = 2,

	PF_TD_UUID = 1,				/* TrackDescriptor */
	PF_TD_NAME = 2,
	PF_TD_PROCESS = 3,
	PF_TD_THREAD = 4,
	PF_TD_PARENT_UUID = 5,
	PF_TD_COUNTER = 8,
	PF_CD_UNIT = 3,				/* CounterDescriptor */
	PF_PD_PID = 1,				/* ProcessDescriptor */
	PF_PD_PROCESS_NAME = 6,
	PF_THD_PID = 1,				/* ThreadDescriptor */
	PF_THD_TID = 2,
	PF_THD_THREAD_NAME = 5,

	PF_TE_CATEGORY_IIDS = 3,		/* TrackEvent */
	PF_TE_TYPE = 9,
	PF_TE_NAME_IID = 10,
	PF_TE_TRACK_UUID = 11,
	PF_TE_COUNTER_VALUE = 30,
	PF_TE_DOUBLE_COUNTER_VALUE = 44,
	PF_TYPE_INSTANT = 3,			/* TrackEvent.Type */
	PF_TYPE_COUNTER = 4,

	PF_ID_EVENT_CATEGORIES = 1,		/* InternedData */
	PF_ID_EVENT_NAMES = 2,
	PF_IID = 1,				/* EventCategory, EventName */
	PF_IID_NAME = 2,

	/* BuiltinClock */
	PF_CLOCK_REALTIME = 1,
	PF_CLOCK_MONOTONIC = 3,
	PF_CLOCK_MONOTONIC_RAW = 5,
	PF_CLOCK_BOOTTIME = 6,
};

#endif
