#!/bin/bash
# Builds the VM lane's base system (root only): a Debian 12 minbase tree
# with systemd, the packages in tests/vm/packages, Debian's stock 6.1
# kernel and the 6.12 kernel of bookworm-backports (the Debian 13 one),
# each with the initrd that initramfs-tools makes inside the tree, and an
# unprivileged lingering user "gxuser" (uid 1000).
#
#   mkbase.sh PACKAGES DEST
#
# DEST/root is the tree, DEST/kernels/<release>/{vmlinuz,initrd.img} the
# kernels.  The caller (vm.sh) caches DEST by the hash of this script and
# PACKAGES.  Environment: GX_VM_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail
pkgs=$1
dest=$2
mirror=${GX_VM_MIRROR:-http://deb.debian.org/debian}

say() { echo "vm: $*"; }
[ "$(id -u)" = 0 ] || { echo "vm: building the image needs root (debootstrap)" >&2; exit 1; }

# An interrupted build may have left /proc, /sys or /dev mounted below.
if findmnt -rn -o TARGET | grep -q "^$dest/"; then
	echo "vm: mounts below $dest (an interrupted build?): unmount them" >&2
	exit 1
fi
rm -rf "$dest"
mkdir -p "$dest/kernels"
root=$dest/root
include=$(grep -v '^#' "$pkgs" | grep -v '^$' | paste -sd, -)

say "debootstrap --variant=minbase bookworm ($mirror)"
# The downloaded packages are kept across builds (GX_VM_DEBS).
debs=${GX_VM_DEBS:-$(dirname "$dest")/debs}
mkdir -p "$debs"
debootstrap --variant=minbase --cache-dir="$debs" --include="$include" \
	bookworm "$root" "$mirror" \
	> "$dest/debootstrap.log" 2>&1 ||
	{ tail -n 40 "$dest/debootstrap.log" >&2; exit 1; }

# Everything that runs in the tree sees /proc, /sys and /dev; they are
# unmounted however this script ends.
mounted=""
cleanup() {
	for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
for m in proc sys dev; do
	mount --bind "/$m" "$root/$m"
	mounted="$root/$m $mounted"
done
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }

# The initrds only need to find a virtio disk with ext4: a short module
# list builds (and boots) much faster than initramfs-tools' "most".
sed -i 's/^MODULES=.*/MODULES=list/' "$root/etc/initramfs-tools/initramfs.conf"
printf 'virtio_pci\nvirtio_blk\next4\n' >> "$root/etc/initramfs-tools/modules"

say "the kernels: bookworm's 6.1, and 6.12 from bookworm-backports"
echo "deb $mirror bookworm-backports main" \
	> "$root/etc/apt/sources.list.d/backports.list"
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends -t bookworm \
	linux-image-amd64 > "$dest/k61.log" 2>&1 ||
	{ tail -n 40 "$dest/k61.log" >&2; exit 1; }
# linux-image-amd64 of bookworm-backports depends on the versioned 6.12
# package: install that one, next to bookworm's own 6.1.
k612=$(in_root apt-cache show -a linux-image-amd64 |
	awk '/^Version:/ { v = $2 } /^Depends:/ && v ~ /bpo/ {
		if (match($0, /linux-image-6\.12[^ ,]*-amd64/)) {
			print substr($0, RSTART, RLENGTH); exit } }')
[ -n "$k612" ] || { echo "vm: no linux-image-6.12 in bookworm-backports" >&2; exit 1; }
say "installing $k612"
in_root apt-get install -y -qq --no-install-recommends -t bookworm-backports \
	"$k612" > "$dest/k612.log" 2>&1 ||
	{ tail -n 40 "$dest/k612.log" >&2; exit 1; }
rm -f "$root/etc/apt/sources.list.d/backports.list"
in_root apt-get clean
rm -rf "$root"/var/lib/apt/lists/*

say "system configuration"
echo gxvm > "$root/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 gxvm\n' > "$root/etc/hosts"
printf '/dev/vda / ext4 defaults 0 1\n' > "$root/etc/fstab"
: > "$root/etc/machine-id"
# A quiet boot: no login prompt on the serial console, no timers.
for u in serial-getty@ttyS0.service getty@tty1.service apt-daily.timer \
	apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
	systemd-timesyncd.service; do
	ln -sf /dev/null "$root/etc/systemd/system/$u"
done
# The unprivileged user: a lingering account, so user@1000.service and
# its delegated cgroup exist from boot, as on a desktop or CI runner.
in_root useradd -m -u 1000 -s /bin/bash gxuser
mkdir -p "$root/var/lib/systemd/linger"
: > "$root/var/lib/systemd/linger/gxuser"

for v in "$root"/boot/vmlinuz-*; do
	rel=${v##*/vmlinuz-}
	[ -f "$root/boot/initrd.img-$rel" ] ||
		in_root update-initramfs -c -k "$rel" > /dev/null
	mkdir -p "$dest/kernels/$rel"
	cp "$v" "$dest/kernels/$rel/vmlinuz"
	cp "$root/boot/initrd.img-$rel" "$dest/kernels/$rel/initrd.img"
	say "kernel $rel"
done
