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
		"${DF:-32}" "${TH:-1024}"
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

# every refusal
run access_type_0 -e "$(AT=0 terms)"
run access_type_7 -e "$(AT=7 terms)"
run epoch_scale_0 -e "$(ES=0 terms)"
run epoch_scale_6 -e "$(ES=6 terms)"
run epoch_type_2 -e "$(ET=2 terms)"
run epoch_multiplier_0 -e "$(EM=0 terms)"
run granual_7 -e "$(GR=7 terms)"
run granual_41 -e "$(GR=41 terms)"
run downsampling_3 -e "$(DF=3 terms)"
run downsampling_0 -e "$(DF=0 terms)"
run threshold_0 -e "$(TH=0 terms)"
run threshold_65536 -e "$(TH=65536 terms)"
run range_size_0 -e "$(RS=0 terms)"
run range_beyond -e "$(RB=3500 RS=1024 terms)"
run reserved_bits -e "$(EXTRA=,config=0x800000000 terms)"
run cpu_not_in_mask -C 1 -e "$(terms)"
run per_task -T -e "$(terms)"
run overwrite -R -e "$(terms)"
echo 2 > /proc/sys/kernel/perf_event_paranoid
run unprivileged -u 1000 -e "$(terms)"

# leak/oops hunting: 1000 short recordings on a 100 us epoch
run cycles -n 1000 -m 1 -t 200 -e "$(EM=1 terms)"

rmmod cxl_hmu_sim
echo "HWT-RMMOD rc=$?"
dmesg | sed 's/^/HWT-DMESG /'
echo "HWT-END"
poweroff -f
