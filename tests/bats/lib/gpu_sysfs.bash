# shellcheck shell=bash
# Shared by top.bats and exporter.bats.
# mksys ROOT: a sysfs tree shaped like the kernel's (class/drm/cardN links
# into devices/, device/uevent, the drivers' frequency, hwmon and VRAM files
# and the i915 and xe PMUs) with three GPUs: integrated i915, amdgpu, xe.
mkcard() { # ROOT CARD PDEV DRIVER
	local dev="$1/devices/pci0000:00/$3"
	mkdir -p "$dev/drm/$2" "$dev/drm/$2-DP-1" "$dev/drm/renderD12${2#card}" "$1/class/drm"
	printf 'DRIVER=%s\nPCI_CLASS=30000\nPCI_SLOT_NAME=%s\nMODALIAS=pci:v0\n' "$4" "$3" >"$dev/uevent"
	ln -sfn "../../../$3" "$dev/drm/$2/device"
	ln -sfn "../../devices/pci0000:00/$3/drm/$2" "$1/class/drm/$2"
	ln -sfn "../../devices/pci0000:00/$3/drm/$2-DP-1" "$1/class/drm/$2-DP-1"
	ln -sfn "../../devices/pci0000:00/$3/drm/renderD12${2#card}" "$1/class/drm/renderD12${2#card}"
	echo "$dev"
}

mksys() {
	local r=$1 d
	d=$(mkcard "$r" card0 0000:00:02.0 i915)
	echo 350 >"$d/drm/card0/gt_cur_freq_mhz"
	echo 1300 >"$d/drm/card0/gt_max_freq_mhz"
	mkdir -p "$d/hwmon/hwmon3"
	echo 1000000 >"$d/hwmon/hwmon3/energy1_input"
	local pmu="$r/bus/event_source/devices/i915"
	mkdir -p "$pmu/events" "$pmu/format"
	echo 4242 >"$pmu/type"
	echo 0 >"$pmu/cpumask"
	echo 'config:0-20' >"$pmu/format/i915_eventid"
	echo 'config=0x0' >"$pmu/events/rcs0-busy"
	echo 'config=0x10000' >"$pmu/events/bcs0-busy"
	echo 'config=0x100002' >"$pmu/events/actual-frequency"
	echo 'Hz' >"$pmu/events/actual-frequency.unit"
	d=$(mkcard "$r" card1 0000:63:00.0 amdgpu)
	printf '0: 500Mhz \n1: 1200Mhz *\n2: 2100Mhz \n' >"$d/pp_dpm_sclk"
	echo 17163091968 >"$d/mem_info_vram_total"
	echo 1073741824 >"$d/mem_info_vram_used"
	mkdir -p "$d/hwmon/hwmon5"
	echo 45000 >"$d/hwmon/hwmon5/temp1_input"
	echo 35000000 >"$d/hwmon/hwmon5/power1_average"
	d=$(mkcard "$r" card2 0000:03:00.0 xe)
	mkdir -p "$d/tile0/gt0/freq0" "$d/hwmon/hwmon4"
	echo 1500 >"$d/tile0/gt0/freq0/cur_freq"
	echo 2400 >"$d/tile0/gt0/freq0/max_freq"
	echo 8589934592 >"$d/tile0/physical_vram_size_bytes"
	# as xe_hwmon.c: no temp1_input; temp2 ("pkg") and temp3 ("vram") have inputs
	echo pkg >"$d/hwmon/hwmon4/temp2_label"
	echo 52500 >"$d/hwmon/hwmon4/temp2_input"
	echo vram >"$d/hwmon/hwmon4/temp3_label"
	echo 61000 >"$d/hwmon/hwmon4/temp3_input"
	echo 7000000 >"$d/hwmon/hwmon4/energy1_input"
	# xe's PMU (xe_pmu.c, 6.15+): per engine tick events chosen by format terms
	pmu="$r/bus/event_source/devices/xe_0000_03_00.0"
	mkdir -p "$pmu/events" "$pmu/format"
	echo 4343 >"$pmu/type"
	echo 0 >"$pmu/cpumask"
	echo 'config:0-11' >"$pmu/format/event"
	echo 'config:12-19' >"$pmu/format/engine_instance"
	echo 'config:20-27' >"$pmu/format/engine_class"
	echo 'config:60-63' >"$pmu/format/gt"
	echo 'event=0x02' >"$pmu/events/engine-active-ticks"
	echo 'event=0x03' >"$pmu/events/engine-total-ticks"
}
