#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The e2e tests (tests/e2e/run.sh) on a debug kernel: Debian's linux-source-6.1
# configured from allnoconfig plus tests/e2e/debug.config (lockdep, atomic
# sleep checks, KASAN, per-cpu map checks), built once and cached; our modules
# built against that tree; then the guest's console log is scanned and any
# lockdep, KASAN, WARNING or BUG report fails the run.
#
#   debug-kernel.sh          build (if needed), run the e2e tests, scan
#   debug-kernel.sh kernel   only build (or find) the cached kernel
#   debug-kernel.sh scan LOG only scan a console log
#
# The unpacked tree and the image live in $HWTRACE_CACHE (default
# ~/.cache/hwtrace)/linux-debug-<linux-source-6.1 version>, so `make clean`
# does not throw away a build of several minutes; the image is rebuilt when
# debug.config changes (its hash is stamped in the tree).
#
# Under CI=true a missing linux-source-6.1, flex or bison is an error;
# elsewhere the run is skipped with the reason (exit 0).
#
# Environment: BUILD (default build), HWTRACE_CACHE, QEMU_TIMEOUT (s, 1800),
# INIT (the guest's /init, tests/e2e/init.sh).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
unset MAKEFLAGS MFLAGS MAKELEVEL
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=$BUILD/e2e-debug
FRAG=$ROOT/tests/e2e/debug.config
TARBALL=/usr/src/linux-source-6.1.tar.xz
KMAKE=(make ARCH=x86_64 -j"$(nproc)")

skip() {
	if [ "${CI:-}" = true ]; then
		echo "e2e-debug: FAIL (CI=true, cannot skip): $*" >&2
		exit 1
	fi
	echo "###########################################################" >&2
	echo "e2e-debug: SKIPPED: $*" >&2
	echo "###########################################################" >&2
	exit 0
}

# Reports from the kernel's checkers, and traces of any kind: none is
# expected from a clean run.  Matched case-sensitively on the whole console
# log, which ends with the guest's full dmesg (HWT-DMESG lines).
BAD='WARNING:|BUG:|KASAN|possible circular locking|possible recursive locking'
BAD+='|inconsistent lock state|sleeping function called from invalid context|lockdep'
BAD+='|suspicious RCU usage|turning off the locking correctness validator'
BAD+='|Call Trace|Oops|general protection fault|Kernel panic'

scan() {
	local log=$1 hits
	[ -s "$log" ] || { echo "e2e-debug: FAIL: no console log $log" >&2; return 1; }
	# the one lockdep line of every clean boot is RCU's banner
	hits=$(grep -anE "$BAD" "$log" | grep -v 'RCU lockdep checking is enabled\.' || true)
	if [ -n "$hits" ]; then
		echo "e2e-debug: FAIL: kernel checker reports in $log:" >&2
		echo "$hits" >&2
		return 1
	fi
	echo "e2e-debug: no lockdep, KASAN, WARNING or BUG report in $log"
}

# every line of the fragment must be in the final .config: Kconfig silently
# drops a symbol whose dependencies are not met
check_config() {
	local cfg=$1 line sym missing=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$cfg" ||
				{ echo "e2e-debug: config: wanted $line, got:" \
					"$(grep -E "^(# )?${line%%=*}[= ]" "$cfg" || echo nothing)" >&2
				  missing=1; } ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			! grep -q "^$sym=" "$cfg" ||
				{ echo "e2e-debug: config: wanted $sym off" >&2; missing=1; } ;;
		esac
	done < "$FRAG"
	return $missing
}

build_kernel() {
	[ -s "$TARBALL" ] || skip "no $TARBALL (make deps installs linux-source-6.1)"
	command -v flex >/dev/null && command -v bison >/dev/null ||
		skip "flex and bison are needed to build the kernel (make deps)"
	local ver hash t0
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
	CACHE=${HWTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hwtrace}/linux-debug-$ver
	SRC=$CACHE/src
	hash=$(sha256sum "$FRAG" | cut -c1-16)
	IMAGE=$CACHE/bzImage-$hash
	# one build in the tree at a time (make check and a hand run, two
	# checkouts sharing the cache); the lock is held until the script exits
	mkdir -p "$CACHE"
	exec 9>"$CACHE/lock"
	flock 9
	if [ -s "$IMAGE" ] && [ "$(cat "$SRC/.hwtrace-config" 2>/dev/null)" = "$hash" ]; then
		echo "e2e-debug: cached kernel $IMAGE"
		return
	fi
	if [ ! -f "$SRC/.hwtrace-unpacked" ]; then
		echo "e2e-debug: unpacking linux-source-6.1 $ver into $SRC"
		rm -rf "$SRC"
		mkdir -p "$SRC"
		tar -xJf "$TARBALL" -C "$SRC" --strip-components=1
		touch "$SRC/.hwtrace-unpacked"
	fi
	rm -f "$SRC/.hwtrace-config"
	"${KMAKE[@]}" -s -C "$SRC" KCONFIG_ALLCONFIG="$FRAG" allnoconfig
	"${KMAKE[@]}" -s -C "$SRC" olddefconfig
	check_config "$SRC/.config" ||
		{ echo "e2e-debug: FAIL: debug.config did not land in $SRC/.config" >&2; exit 1; }
	echo "e2e-debug: building the debug kernel in $SRC (nice 19, -j$(nproc))"
	t0=$(date +%s)
	nice -n 19 "${KMAKE[@]}" -s -C "$SRC" bzImage modules
	cp "$SRC/arch/x86/boot/bzImage" "$IMAGE.tmp"
	mv "$IMAGE.tmp" "$IMAGE"
	cp "$SRC/.config" "$CACHE/config-$hash"
	echo "$hash" > "$SRC/.hwtrace-config"
	echo "e2e-debug: kernel built in $(( $(date +%s) - t0 )) s: $IMAGE"
}

if [ "${1:-}" = scan ]; then
	scan "$2"
	exit
fi
build_kernel
[ "${1:-}" = kernel ] && exit 0

# our modules against the debug tree; Kbuild of 6.1 writes objects next to
# the sources, so they are built in a copy and kernel/ keeps the stock ones
# (kernel/Kbuild takes sim_hmu.h from ../decoders: the copy gets a link)
KMOD=$OUT/kernel
rm -rf "$KMOD"
mkdir -p "$OUT"
ln -sfn "$ROOT/decoders" "$OUT/decoders"
cp -r "$ROOT/kernel" "$KMOD"
find "$KMOD" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
	-o -name '.*.cmd' -o -name modules.order -o -name Module.symvers \) -delete
"${KMAKE[@]}" -s -C "$SRC" M="$KMOD" modules

# the guest reboots instead of powering off (the kernel has ACPI tables but
# no PCI, so no ACPI power-off device is certain); -no-reboot turns the
# reboot into QEMU's exit just the same
sed 's/^poweroff -f$/reboot -f/' "${INIT:-$ROOT/tests/e2e/init.sh}" > "$OUT/init.sh"
grep -qx 'reboot -f' "$OUT/init.sh" ||
	{ echo "e2e-debug: FAIL: no 'poweroff -f' line to turn into a reboot in the init" >&2; exit 1; }

rc=0
rm -f "$OUT/console.log"
KERNEL=$IMAGE MODULES=$KMOD E2E_DIR=$OUT INIT=$OUT/init.sh QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800} \
	bash "$ROOT/tests/e2e/run.sh" || rc=$?
# run.sh skipped (no QEMU...): it said why, there is nothing to scan
[ $rc -eq 0 ] && [ ! -e "$OUT/console.log" ] && exit 0
scan "$OUT/console.log" || rc=1
exit $rc
