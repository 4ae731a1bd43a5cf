#!/bin/bash
# make check-vm: the integration tests in a Debian 12 VM under systemd
# and cgroup v2, on Debian's stock 6.1 kernel and the 6.12 kernel of
# bookworm-backports (Debian 13's), as root from a system service and as
# a lingering user from its systemd user manager.  Needs root (to build
# the image), debootstrap, e2fsprogs and qemu-system-x86_64 (TCG).
#
# Environment (make check-vm sets the first ones):
#   TOP_SRCDIR, TOP_BUILDDIR  the tree; it must be built (make check's
#                             programs included) and is copied into the
#                             image at the same absolute path
#   VM_TESTS                  every integration test (tests/integ/*.sh)
#   VM_GUARANTEE_TESTS        the guarantee tests
#   GX_VM_FULL                which kernel:user pairs run VM_TESTS, the
#                             others run VM_GUARANTEE_TESTS: "all"
#                             (default) or e.g. "6.1:root"
#   GX_VM_CACHE               the base system cache (default
#                             /var/cache/guardexec-vm), keyed by the hash
#                             of tests/vm/mkbase.sh and tests/vm/packages
#   GX_VM_WORK                image, serial logs, results (default
#                             $TOP_BUILDDIR/_vm)
#   GX_VM_ONLY                run only these tests (debugging)
#   GX_VM_KERNELS             which kernels (default "6.1 6.12")
#   GX_VM_USERS               who runs them (default "root user")
#   GX_VM_PARALLEL            1: boot the kernels at once (default 0: one
#                             VM at a time; the host has 2 cores)
#   GX_VM_TEST_TIMEOUT        seconds per test script inside the guest
#                             (default 900): a script still running then
#                             is stopped and counts as failed (TIMEOUT)
#   GX_VM_TIMEOUT             seconds per boot (default 5400)
# The guest prints one "GXVM: TEST ..." line per script as it ends on the
# serial console (tests/vm/guest-run.sh); the results are read from the
# serial log, so a boot cut short still reports what ran, and every
# script that did not report counts as failed.
# Prints "vm: KERNEL USER: N passed, N failed, N skipped" per run and,
# last, the lane's total; exits 1 if anything failed or could not run
# (a kernel that cannot be had is a failure, not a skip).
set -uo pipefail
: "${TOP_SRCDIR:?}" "${TOP_BUILDDIR:?}" "${VM_TESTS:?}" "${VM_GUARANTEE_TESTS:?}"
vmdir=$TOP_SRCDIR/tests/vm
cache=${GX_VM_CACHE:-/var/cache/guardexec-vm}
work=${GX_VM_WORK:-$TOP_BUILDDIR/_vm}
full=${GX_VM_FULL:-all}
tmo=${GX_VM_TIMEOUT:-5400}
ttmo=${GX_VM_TEST_TIMEOUT:-900}
kernels=${GX_VM_KERNELS:-6.1 6.12}
users=${GX_VM_USERS:-root user}
say() { echo "vm: $*"; }
die() { echo "vm: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "make check-vm needs root (debootstrap, the image's ownership)"
for c in debootstrap mkfs.ext4 debugfs qemu-system-x86_64 timeout; do
	command -v "$c" > /dev/null || die "$c is not installed"
done
[ -x "$TOP_BUILDDIR/src/guardexec" ] || die "build the tree first (make && make check's programs)"

# ---- the base system, cached by content hash ----------------------------
key=$(cat "$vmdir/mkbase.sh" "$vmdir/packages" | sha256sum | cut -c1-16)
base=$cache/base-$key
mkdir -p "$cache"
exec 9> "$cache/lock"
flock 9
if [ ! -f "$base/done" ]; then
	say "building the base system $base (a few minutes)"
	rm -rf "$base.tmp"
	if ! bash "$vmdir/mkbase.sh" "$vmdir/packages" "$base.tmp"; then
		rm -rf "$base.tmp"
		die "the base system could not be built"
	fi
	rm -rf "$base" && mv "$base.tmp" "$base" && : > "$base/done"
	# Older bases are of no use any more.
	for old in "$cache"/base-*; do
		[ "$old" = "$base" ] && continue
		# Never below a mount (an interrupted build's /proc, /dev).
		findmnt -rn -o TARGET | grep -q "^$old/" || rm -rf "$old"
	done
fi
flock -u 9
kdir() {  # kdir 6.1: the cached kernel of that series
	local k
	for k in "$base"/kernels/"$1".*; do
		case ${k##*/} in "$1".[0-9]*) echo "$k"; return 0;; esac
	done
	return 1
}

# ---- the image: base + the build tree + the runner ------------------------
rm -rf "$work"
mkdir -p "$work/results"
stage=$work/stage
trap 'rm -rf "$stage" "$work"/disk*.img' EXIT
say "staging the image"
# Hard links: nothing below writes to a file of the base, only new files.
cp -al "$base/root" "$stage" 2>/dev/null || cp -a "$base/root" "$stage" ||
	die "cannot copy the base system"
copy_tree() {
	mkdir -p "$stage$1"
	# Nanosecond times (posix format), so make finds the build current;
	# no test logs of a run here.
	tar -C "$1" --format=posix --exclude='./_vm*' --exclude=./.git \
		--exclude='./_ci_*' --exclude='./test-suite.log' \
		--exclude='./tests/*/*.log' --exclude='./tests/*/*.trs' \
		-cf - . | tar -C "$stage$1" -xf - || die "cannot copy $1"
}
copy_tree "$TOP_BUILDDIR"
[ "$(cd "$TOP_SRCDIR" && pwd -P)" = "$(cd "$TOP_BUILDDIR" && pwd -P)" ] ||
	copy_tree "$TOP_SRCDIR"
install -D -m 755 "$vmdir/guest-run.sh" "$stage/usr/local/libexec/gxvm-run"
install -D -m 644 "$vmdir/gxvm.service" "$stage/etc/systemd/system/gxvm.service"
mkdir -p "$stage/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/gxvm.service \
	"$stage/etc/systemd/system/multi-user.target.wants/gxvm.service"
# A persistent journal: a user's own syslog lines land in a journal file
# that user can read (audit.sh checks the record arrives there).
mkdir -p "$stage/var/log/journal"
# GX_VM_ONLY="tests/integ/a.sh ...": run just these everywhere (debugging).
if [ -n "${GX_VM_ONLY:-}" ]; then
	VM_TESTS=$GX_VM_ONLY
	VM_GUARANTEE_TESTS=$GX_VM_ONLY
fi
{
	echo "TREE='$TOP_BUILDDIR'"
	echo "TEST_TIMEOUT=$ttmo"
	for k in $kernels; do
		for u in $users; do
			if [ "$full" = all ] || [[ " $full " == *" $k:$u "* ]]; then
				t=$VM_TESTS
			else
				t=$VM_GUARANTEE_TESTS
			fi
			echo "TESTS_${k/./_}_$u='$(echo $t)'"
		done
	done
} > "$work/conf"
install -D -m 644 "$work/conf" "$stage/etc/gxvm/conf"
mb=$(du -sm "$stage" | cut -f1)
mkfs.ext4 -q -F -L gxvm -d "$stage" "$work/disk.img" "$(( mb + 1536 ))M" ||
	die "mkfs.ext4 -d failed"
rm -rf "$stage"

# ---- boot each kernel, in parallel, each on its own copy ------------------
boot() {  # boot SERIES KDIR: one VM run, its results into $work/results
	local k=$1 kd=$2 rel=${2##*/} img=$work/disk-$1.img qrc
	cp --sparse=always "$work/disk.img" "$img" || return 1
	timeout -k 20 "$tmo" qemu-system-x86_64 -accel tcg -smp 2 -m 2048 \
		-nographic -no-reboot -nic none -monitor none \
		-device virtio-rng-pci \
		-kernel "$kd/vmlinuz" -initrd "$kd/initrd.img" \
		-drive "file=$img,if=virtio,format=raw" \
		-append "console=ttyS0 root=/dev/vda rw panic=-1" \
		< /dev/null > "$work/serial-$k.log" 2>&1
	qrc=$?
	[ "$qrc" = 0 ] ||
		say "qemu for $rel ended with status $qrc (124: the $tmo s timeout)"
	debugfs -R "rdump /var/lib/gxvm/results/$rel $work/results" "$img" \
		> /dev/null 2>&1
	rm -f "$img"
}
lane_failed=0
pids=""
for k in $kernels; do
	kd=$(kdir "$k") || { say "FAIL: no $k kernel in $base/kernels"; continue; }
	say "booting ${kd##*/} (TCG; the serial console: $work/serial-$k.log)"
	if [ "${GX_VM_PARALLEL:-0}" = 1 ]; then
		boot "$k" "$kd" &
		pids="$pids $!"
	else
		boot "$k" "$kd"
	fi
done
# shellcheck disable=SC2086
[ -z "$pids" ] || wait $pids
: > "$work/results/summary"
for k in $kernels; do
	kd=$(kdir "$k") || {
		for u in $users; do echo "$k none $u 0 1 0" >> "$work/results/summary"; done
		lane_failed=1
		continue
	}
	rel=${kd##*/}
	serial=$work/serial-$k.log
	for u in $users; do
		p=0 f=0 s=0 missing=""
		want=$(sed -n "s/^TESTS_${k/./_}_$u='\(.*\)'/\1/p" "$work/conf")
		for t in $want; do
			name=${t##*/}
			line=$(tr -d '\r' < "$serial" 2>/dev/null |
				grep -a "^GXVM: TEST kernel=$rel user=$u test=$name " | tail -n 1)
			if [ -z "$line" ]; then
				missing="$missing $name"
				f=$(( f + 1 ))
				continue
			fi
			tp=$(echo "$line" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')
			tf=$(echo "$line" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
			ts=$(echo "$line" | sed -n 's/.* skip=\([0-9]*\).*/\1/p')
			tres=$(echo "$line" | sed -n 's/.* result=\([A-Z]*\).*/\1/p')
			p=$(( p + ${tp:-0} )) f=$(( f + ${tf:-1} )) s=$(( s + ${ts:-0} ))
			case $tres in
			PASS|SKIP) ;;
			*) say "  $k $u $name: $tres (${tf:-?} failed)";;
			esac
		done
		[ -z "$missing" ] ||
			say "FAIL: $k $u: did not report (counted as failed):$missing"
		echo "$k $rel $u $p $f $s" >> "$work/results/summary"
		say "$k ($rel) $u: $p passed, $f failed, $s skipped"
		[ "$f" = 0 ] || lane_failed=1
		tr -d '\r' < "$serial" 2>/dev/null | grep -a "^GXVM: $u [^ ]*: not ok" |
			sed "s|^GXVM: |vm:   $k |"
	done
done
rm -f "$work/disk.img"
# The README's "Where it runs" rows, from the TAP logs read off the image.
if ls -d "$work"/results/*/*/ > /dev/null 2>&1; then
	python3 "$vmdir/table.py" "$work"/results/*/*/ > "$work/table.md" 2>&1 &&
		say "the Where it runs rows: $work/table.md"
fi
awk '{ p += $4; f += $5; s += $6 } END {
	printf "vm: lane total: %d passed, %d failed, %d skipped\n", p, f, s }' \
	"$work/results/summary"
exit "$lane_failed"
