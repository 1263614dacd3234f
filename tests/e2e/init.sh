#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the e2e guest (tests/e2e/run.sh substitutes @SEED@).  Prints HWT-*
# lines and base64 dumps for check.py; decides nothing itself.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
# keep printk off the console while data is dumped; full dmesg comes at the end
dmesg -n 1
echo "HWT-INIT $(uname -r)"

# module parameters out of range must fail the load (rc != 0), never oops
param() {
	name=$1
	shift
	insmod "$@" >/dev/null 2>&1
	rc=$?
	echo "HWT-PARAM $name rc=$rc"
	m=${1##*/}
	[ $rc = 0 ] && rmmod "${m%.ko}"
}
param hmu_cpu_neg /cxl_hmu_sim.ko cpu=-1
param hmu_cpu_nr /cxl_hmu_sim.ko cpu=$(nproc)
param hmu_cpu_big /cxl_hmu_sim.ko cpu=100000
param hmu_memdev_neg /cxl_hmu_sim.ko memdev=-1
param hmu_fill_0 /cxl_hmu_sim.ko fill_threshold=0
param hmu_fill_1025 /cxl_hmu_sim.ko fill_threshold=1025
param hmu_always_on_99 /cxl_hmu_sim.ko always_on_us=99
param pt_cpu_neg /panthor_perf_sim.ko cpu=-1
param pt_layout_3 /panthor_perf_sim.ko layout=3
param pt_instance_neg /panthor_perf_sim.ko instance=-1
param oa_cpu_neg /i915_oa_sim.ko cpu=-1
param oa_cpu_nr /i915_oa_sim.ko cpu=$(nproc)
echo 0 > /sys/devices/system/cpu/cpu1/online
param hmu_cpu_offline /cxl_hmu_sim.ko cpu=1
echo 1 > /sys/devices/system/cpu/cpu1/online
# in range: loads, and a writable parameter keeps refusing bad values
insmod /cxl_hmu_sim.ko cpu=1 fill_threshold=1024 always_on_us=100000000
echo "HWT-PARAM hmu_edges rc=$? cpumask=$(cat /sys/bus/event_source/devices/cxl_hmu_mem0.0.0/cpumask)"
echo 0 > /sys/module/cxl_hmu_sim/parameters/fill_threshold
echo "HWT-PARAM hmu_write_fill_0 rc=$? value=$(cat /sys/module/cxl_hmu_sim/parameters/fill_threshold)"
rmmod cxl_hmu_sim

# LOC (local timer) interrupts on CPU 0 over one second
loc0() { awk '/LOC:/ { print $2 }' /proc/interrupts; }

insmod /cxl_hmu_sim.ko seed=@SEED@ dyndbg=+p || echo "HWT-FAIL insmod"
P=cxl_hmu_mem0.0.0
D=/sys/bus/event_source/devices/$P
for f in "$D"/format/*; do echo "HWT-FORMAT ${f##*/} $(cat "$f")"; done
echo "HWT-CPUMASK $(cat "$D/cpumask")"

# terms: a 1 ms epoch, everything else as in the RFC's example
terms() {
	printf '%s/epoch_type=%s,access_type=%s,epoch_scale=%s,epoch_multiplier=%s,' \
		"$P" "${ET:-0}" "${AT:-6}" "${ES:-1}" "${EM:-10}"
	printf 'randomized_downsampling=0,downsampling_factor=%s,hotness_threshold=%s,' \
		"${DF:-5}" "${TH:-1024}"
	printf 'hotness_granual=%s,range_base=%s,range_size=%s%s/\n' \
		"${GR:-12}" "${RB:-0}" "${RS:-1024}" "${EXTRA:-}"
}
run() {
	name=$1
	shift
	/aux_capture "$@" 2>&1 | sed "s/^/HWT-OUT $name /"
}
dump() {
	echo "HWT-DATA-BEGIN $1"
	base64 "/tmp/$1.bin"
	echo "HWT-DATA-END $1"
}

# recordings checked against the model (parameters must match check.py RUNS)
run normal -e "$(terms)" -m 256 -b 65536 -t 20000 -o /tmp/normal.bin
dump normal
run wrap -e "$(TH=4096 GR=16 RS=64 terms)" -m 4 -b 100000 -t 20000 -o /tmp/wrap.bin
dump wrap
run overrun -e "$(terms)" -m 2 -s 40 -b 40000 -t 20000 -o /tmp/overrun.bin
dump overrun
run always_on -e "$(ET=1 terms)" -m 16 -b 4096 -t 5000
# 0 = the device's default, as in the RFC: log2 downsampling, unit size, epoch, range
run defaults -e "$(DF=0 GR=0 ES=0 EM=0 RS=0 terms)" -m 16 -b 4096 -t 5000
run downsampling_15 -e "$(DF=15 terms)" -m 16 -b 4096 -t 5000
# PERIOD ioctls stop and start the event: no TRUNCATED from that
run periods -e "$(terms)" -m 4 -P 50 -t 2000
# one page holds two packets
run pages_1 -e "$(terms)" -m 1 -b 20000 -t 5000
run freq -F -e "$(terms)"
# DISABLE/ENABLE during a capture, AUX munmap under a running event, 100 opens
run toggles -e "$(ES=3 EM=5 terms)" -m 16 -D 50 -t 2000 -o /tmp/toggles.bin
dump toggles
run unmap -U -e "$(terms)" -m 16 -t 1000
run many -c 100 -e "$(terms)"
# rmmod while only the mappings of a closed event are left: refused, no oops
run hold -H 3000 -e "$(terms)" -m 16 -t 300 &
sleep 2
rmmod cxl_hmu_sim 2>/dev/null
echo "HWT-RMMOD-MAPPED rc=$?"
wait

# every refusal
run access_type_0 -e "$(AT=0 terms)"
run access_type_7 -e "$(AT=7 terms)"
run epoch_scale_0 -e "$(ES=0 terms)"
run epoch_scale_6 -e "$(ES=6 terms)"
run epoch_type_2 -e "$(ET=2 terms)"
run epoch_multiplier_0 -e "$(EM=0 terms)"
run granual_7 -e "$(GR=7 terms)"
run granual_41 -e "$(GR=41 terms)"
run downsampling_16 -e "$(DF=16 terms)"
run downsampling_255 -e "$(DF=255 terms)"
run threshold_0 -e "$(TH=0 terms)"
run threshold_65536 -e "$(TH=65536 terms)"
run range_size_0 -e "$(RB=4096 RS=0 terms)"
run range_beyond -e "$(RB=3500 RS=1024 terms)"
run reserved_bits -e "$(EXTRA=,config=0x800000000 terms)"
run cpu_not_in_mask -C 1 -e "$(terms)"
run per_task -T -e "$(terms)"
run overwrite -R -e "$(terms)"
echo 2 > /proc/sys/kernel/perf_event_paranoid
run unprivileged -u 1000 -e "$(terms)"

# leak/oops hunting: 1000 short recordings on a 100 us epoch
run cycles -n 1000 -m 1 -t 200 -e "$(EM=1 terms)"

# the recorder (when run.sh could build it): files come out base64 as well
REC=/perf-hwtrace-static
record() {
	name=$1
	shift
	if [ -x $REC ]; then
		$REC record "$@" -o "/tmp/$name.bin" -- sleep 0.3 >"/tmp/$name.log" 2>&1
		echo "HWT-OUT $name RECORD rc=$?"
		sed "s/^/HWT-OUT $name /" "/tmp/$name.log"
		dump "$name"
	fi
}
# the modules as the guest has them: the recording's MMAPs must say the same
sed 's/^/HWT-MODULES /' /proc/modules
record rec_hmu -e "$(terms)" -a -m 8,64

rmmod cxl_hmu_sim
echo "HWT-RMMOD rc=$?"

# the same recording with the PMU on CPU 1
insmod /cxl_hmu_sim.ko seed=@SEED@ cpu=1 || echo "HWT-FAIL insmod cpu=1"
run normal_cpu1 -C 1 -e "$(terms)" -m 256 -b 65536 -t 20000 -o /tmp/normal_cpu1.bin
dump normal_cpu1
rmmod cxl_hmu_sim

# CPU hotplug during a capture: the event moves to CPU 0 and goes on
insmod /cxl_hmu_sim.ko seed=@SEED@ cpu=1 || echo "HWT-FAIL insmod cpu=1"
run hotplug -V -C 1 -e "$(ES=3 EM=10 terms)" -m 256 -t 5000 -o /tmp/hotplug.bin &
sleep 2
echo 0 > /sys/devices/system/cpu/cpu1/online
echo "HWT-HP offline rc=$? up=$(cut -d' ' -f1 /proc/uptime) cpumask=$(cat "$D/cpumask")"
wait
dump hotplug
run hotplug_new -e "$(terms)" -m 16 -b 4096 -t 5000
echo 1 > /sys/devices/system/cpu/cpu1/online
echo "HWT-HP online rc=$? cpumask=$(cat "$D/cpumask")"
rmmod cxl_hmu_sim
echo "HWT-HP rmmod rc=$?"

# --- simulated panthor perf PMU (parameters must match check.py) ---------------
caps() {
	for f in "$1"/format/* "$1"/caps/*; do echo "HWT-ATTR ${1##*/} ${f#$1/} $(cat "$f")"; done
}
insmod /panthor_perf_sim.ko seed=@SEED@ dyndbg=+p || echo "HWT-FAIL insmod panthor"
caps /sys/bus/event_source/devices/panthor_perf0
PT=panthor_perf0
run pt_normal -e "$PT/period_us=2000/" -m 64 -b 300000 -t 20000 -o /tmp/pt_normal.bin
dump pt_normal
run pt_overflow -e "$PT/period_us=1000/" -m 4 -s 30 -b 120000 -t 20000 -o /tmp/pt_overflow.bin
dump pt_overflow
run pt_period_0 -e "$PT/period_us=0/"
run pt_period_99 -e "$PT/period_us=99/"
run pt_period_big -e "$PT/period_us=1000001/"
run pt_reserved -e "$PT/period_us=1000,config1=1/"
run pt_cpu_not_in_mask -C 1 -e "$PT/period_us=1000/"
run pt_per_task -T -e "$PT/period_us=1000/"
run pt_overwrite -R -e "$PT/period_us=1000/"
run pt_cycles -n 300 -m 4 -t 200 -e "$PT/period_us=100/"
# a buffer must hold two ~6 KiB samples: 1 and 2 pages refused, 4 work
run pt_pages_1 -e "$PT/period_us=1000/" -m 1
run pt_pages_2 -e "$PT/period_us=1000/" -m 2
run pt_pages_4 -e "$PT/period_us=1000/" -m 4 -b 120000 -t 20000 -o /tmp/pt_pages_4.bin
dump pt_pages_4
run pt_periods -e "$PT/period_us=1000/" -m 4 -P 50 -t 2000
run pt_freq -F -e "$PT/period_us=1000/"
# enabled without an AUX mmap: the device stays off (10 kHz timer otherwise)
a=$(loc0); sleep 1; b=$(loc0)
echo "HWT-LOC idle $((b - a))"
a=$(loc0); run pt_noaux -N -t 1000 -e "$PT/period_us=100/"; b=$(loc0)
echo "HWT-LOC noaux $((b - a))"
a=$(loc0); run pt_withaux -m 64 -t 1000 -e "$PT/period_us=100/"; b=$(loc0)
echo "HWT-LOC withaux $((b - a))"
record rec_panthor -e "$PT/period_us=5000/" -a -m 8,64
rmmod panthor_perf_sim
echo "HWT-RMMOD-PT rc=$?"
insmod /panthor_perf_sim.ko seed=@SEED@ layout=2 || echo "HWT-FAIL insmod panthor layout=2"
caps /sys/bus/event_source/devices/panthor_perf0 | sed 's/HWT-ATTR/HWT-ATTR2/'
run pt_v2 -e "$PT/period_us=2000/" -m 64 -b 150000 -t 20000 -o /tmp/pt_v2.bin
dump pt_v2
rmmod panthor_perf_sim
echo "HWT-RMMOD-PT2 rc=$?"
# forced sample-ring overflow every 20 periods (check_gpu.PT_LOSE_EVERY): TRUNCATED, re-enable
insmod /panthor_perf_sim.ko seed=@SEED@ lose_every=20 || echo "HWT-FAIL insmod panthor lose"
run pt_lost -e "$PT/period_us=2000/" -m 64 -b 200000 -t 20000 -o /tmp/pt_lost.bin
dump pt_lost
rmmod panthor_perf_sim
# CPU hotplug during a panthor capture on CPU 1
insmod /panthor_perf_sim.ko seed=@SEED@ cpu=1 || echo "HWT-FAIL insmod panthor cpu=1"
run pt_hotplug -V -C 1 -e "$PT/period_us=50000/" -m 64 -t 4000 -o /tmp/pt_hotplug.bin &
sleep 2
echo 0 > /sys/devices/system/cpu/cpu1/online
echo "HWT-HP pt_offline rc=$? up=$(cut -d' ' -f1 /proc/uptime)" \
	"cpumask=$(cat /sys/bus/event_source/devices/$PT/cpumask)"
wait
dump pt_hotplug
echo 1 > /sys/devices/system/cpu/cpu1/online
rmmod panthor_perf_sim
echo "HWT-HP pt_rmmod rc=$?"

# --- simulated i915 OA PMU ------------------------------------------------------
insmod /i915_oa_sim.ko seed=@SEED@ dyndbg=+p || echo "HWT-FAIL insmod i915"
caps /sys/bus/event_source/devices/i915_oa0
OA=i915_oa0
run oa_normal -e "$OA/oa_format=10,oa_exponent=12/" -m 64 -b 132000 -t 20000 -o /tmp/oa_normal.bin
dump oa_normal
run oa_c4b8 -e "$OA/oa_format=7,oa_exponent=11/" -m 16 -b 36000 -t 20000 -o /tmp/oa_c4b8.bin
dump oa_c4b8
run oa_lost -e "$OA/oa_format=10,oa_exponent=10/" -m 2 -s 20 -b 60000 -t 20000 -o /tmp/oa_lost.bin
dump oa_lost
run oa_fill -e "$OA/oa_format=10,oa_exponent=12,fill_threshold=8/" -m 64 -b 132000 -t 20000 \
	-o /tmp/oa_fill.bin
dump oa_fill
run oa_fill_17 -e "$OA/oa_format=10,oa_exponent=12,fill_threshold=17/"
run oa_format_0 -e "$OA/oa_format=0,oa_exponent=12/"
run oa_format_9 -e "$OA/oa_format=9,oa_exponent=12/"
run oa_exponent_9 -e "$OA/oa_format=10,oa_exponent=9/"
run oa_exponent_32 -e "$OA/oa_format=10,oa_exponent=32/"
run oa_reserved -e "$OA/oa_format=10,oa_exponent=12,config2=1/"
run oa_per_task -T -e "$OA/oa_format=10,oa_exponent=12/"
run oa_overwrite -R -e "$OA/oa_format=10,oa_exponent=12/"
run oa_cycles -n 300 -m 1 -t 200 -e "$OA/oa_format=10,oa_exponent=10/"
run oa_freq -F -e "$OA/oa_format=10,oa_exponent=12/"
record rec_i915 -e "$OA/oa_format=10,oa_exponent=13/" -a -m 8,64
# OA reports beside the CPU's samples: after inject, stock perf orders them by time
record rec_i915_cpu -e "$OA/oa_format=10,oa_exponent=13/" -e cpu-clock -a -m 8,64
rmmod i915_oa_sim
echo "HWT-RMMOD-OA rc=$?"
# real loss on CPU 1: TRUNCATED, the PMU stops, the reader re-enables it
insmod /i915_oa_sim.ko seed=@SEED@ cpu=1 || echo "HWT-FAIL insmod i915 cpu=1"
run oa_lost_cpu1 -C 1 -e "$OA/oa_format=10,oa_exponent=10/" -m 2 -s 20 -b 60000 -t 20000 \
	-o /tmp/oa_lost_cpu1.bin
dump oa_lost_cpu1
rmmod i915_oa_sim
dmesg | sed 's/^/HWT-DMESG /'
echo "HWT-END"
poweroff -f
