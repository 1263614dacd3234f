#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end test of the kernel PMU drivers in a real Debian kernel under QEMU.
#
# Builds kernel/ against the installed Debian headers, fetches the matching
# stock kernel image (cached in $BUILD/e2e), boots it with a busybox initramfs
# holding the modules and aux_capture, records the simulated CXL HMU in the
# guest, brings the AUX bytes out over the serial console and checks them on
# the host (check.py) against an independent model of the seeded device.
#
# Under CI=true every failure to get QEMU, the headers or the kernel image is
# an error; elsewhere the test is skipped with the reason (exit 0).
#
# Environment: BUILD (default build), SEED (default 7), QEMU_TIMEOUT (s, 400).
# Another kernel (tests/e2e/debug-kernel.sh): KERNEL, the image to boot, and
# MODULES, the folder holding our *.ko built against it; both or neither.
# E2E_DIR is where the image cache, initramfs and console log go ($BUILD/e2e).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Run from `make test` this is a nested make: its flags (and -w's "Entering
# directory" lines, which would land in $KVER) must not leak into ours.
unset MAKEFLAGS MFLAGS MAKELEVEL
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
E2E=${E2E_DIR:-$BUILD/e2e}
KERNEL=${KERNEL:-}
MODULES=${MODULES:-}
if [ -n "$KERNEL$MODULES" ] && { [ ! -s "$KERNEL" ] || [ ! -d "$MODULES" ]; }; then
	echo "e2e: KERNEL ('$KERNEL') and MODULES ('$MODULES') go together and must exist" >&2
	exit 2
fi
SEED=${SEED:-7}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-400}
T0=$(date +%s)

skip() {
	if [ "${CI:-}" = true ]; then
		echo "e2e: FAIL (CI=true, cannot skip): $*" >&2
		exit 1
	fi
	echo "###########################################################" >&2
	echo "e2e: SKIPPED: $*" >&2
	echo "###########################################################" >&2
	exit 0
}

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

# --- host requirements -------------------------------------------------------
need=()
[ -n "$KERNEL" ] ||
	dpkg-query -W -f='${Status}' linux-headers-amd64 2>/dev/null | grep -q 'ok installed' ||
	need+=(linux-headers-amd64)
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || need+=(busybox-static)
command -v cpio >/dev/null || need+=(cpio)
if [ ${#need[@]} -gt 0 ]; then
	echo "e2e: installing ${need[*]}"
	{ sudo_ apt-get update -qq &&
	  DEBIAN_FRONTEND=noninteractive sudo_ apt-get install -y -qq --no-install-recommends \
		"${need[@]}"; } || skip "cannot install ${need[*]}"
fi

# --- kernel image: $KERNEL, or Debian's stock one (cached) ------------------
mkdir -p "$E2E"
if [ -n "$KERNEL" ]; then
	VMLINUZ=$KERNEL
	echo "e2e: kernel $KERNEL, modules from $MODULES"
else
	KVER=$(make -s --no-print-directory -C "$ROOT/kernel" kver)
	[ -n "$KVER" ] && [ -d "/lib/modules/$KVER/build" ] || skip "no kernel headers for '$KVER'"
	echo "e2e: kernel ABI $KVER"

	# the stock image, cached
	VMLINUZ=$E2E/vmlinuz-$KVER
	if [ ! -s "$VMLINUZ" ]; then
		dl=$(mktemp -d "$E2E/dl.XXXXXX")
		fetch() {
			( cd "$dl" && { apt-get download -q "linux-image-$KVER" 2>/dev/null ||
					apt-get download -q "linux-image-$KVER-unsigned"; } )
		}
		# stale package lists on a fresh machine: refresh them once and retry
		fetch || { sudo_ apt-get update -qq && fetch; } ||
			{ rm -rf "$dl"; skip "cannot download linux-image-$KVER"; }
		dpkg-deb --fsys-tarfile "$dl"/linux-image-*.deb |
			tar -x -O "./boot/vmlinuz-$KVER" > "$VMLINUZ.tmp"
		mv "$VMLINUZ.tmp" "$VMLINUZ"
		rm -rf "$dl"
	fi
fi

# --- modules, test program, initramfs ---------------------------------------
if [ -z "$KERNEL" ]; then
	make -s -C "$ROOT/kernel" KVER="$KVER" >/dev/null
	MODULES=$ROOT/kernel
fi
# the recorder for the guest and the host tool that checks its files
make -s -C "$ROOT" BUILD="$BUILD" static all >/dev/null ||
	echo "e2e: WARNING: make static all failed" >&2
gcc -O2 -static -Wall -Wextra -o "$E2E/aux_capture" "$ROOT/tests/e2e/aux_capture.c"

R=$E2E/root
rm -rf "$R"
mkdir -p "$R/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp"
cp /bin/busybox "$R/bin/"
cp "$MODULES"/{cxl_hmu_sim,panthor_perf_sim,i915_oa_sim}.ko "$E2E/aux_capture" "$R/"
if [ -x "$BUILD/perf-hwtrace-static" ]; then
	cp "$BUILD/perf-hwtrace-static" "$R/"
elif [ "${CI:-}" = true ]; then
	echo "e2e: FAIL (CI=true): no $BUILD/perf-hwtrace-static for the guest" >&2
	exit 1
else
	echo "e2e: WARNING: no $BUILD/perf-hwtrace-static: the recorder is not tested" >&2
fi
sed "s/@SEED@/$SEED/g" "${INIT:-$ROOT/tests/e2e/init.sh}" > "$R/init"
chmod 755 "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$E2E/initrd.gz"

# --- boot --------------------------------------------------------------------
ACCEL=(-accel tcg)
# KVM only on real VMX/SVM hosts (nested PVM exposes /dev/kvm but cannot boot)
if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
	ACCEL=(-accel kvm -cpu host)
fi
echo "e2e: booting (${ACCEL[*]}), timeout ${QEMU_TIMEOUT}s"
rc=0
timeout "$QEMU_TIMEOUT" qemu-system-x86_64 "${ACCEL[@]}" -m 512 -smp 4 -nographic \
	-no-reboot -kernel "$VMLINUZ" -initrd "$E2E/initrd.gz" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=4" \
	</dev/null >"$E2E/console.log" 2>&1 || rc=$?
[ $rc -eq 0 ] || echo "e2e: qemu exited $rc (124 = timeout)"
echo "e2e: console log $E2E/console.log"

rc=0
python3 "$ROOT/tests/e2e/check.py" "$E2E/console.log" "$SEED" "$E2E" || rc=$?
echo "e2e: $(( $(date +%s) - T0 )) s"
exit $rc
