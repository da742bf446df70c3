#!/bin/busybox sh
# /init of the stablemate boot initramfs: mounts proc, sys and devtmpfs,
# runs every program listed in /tests/list kselftest-runner style (KTAP on
# the serial console, each program's output prefixed "# "), then reboots,
# which ends QEMU (-no-reboot). The markers "stablemate-init: start" and
# "stablemate-init: done" tell the log parser the boot time and whether the
# run finished.
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
read -r up _ </proc/uptime
echo "stablemate-init: start uptime=$up kernel=$(uname -r)"

limit=$(cat /tests/timeout 2>/dev/null || echo 120)
n=$(grep -c . /tests/list 2>/dev/null || echo 0)
echo "TAP version 13"
echo "1..$n"
i=0
while read -r t; do
	[ -n "$t" ] || continue
	i=$((i + 1))
	dir=${t%%/*}
	name=${t#*/}
	echo "# selftests: $dir: $name"
	rm -f /tmp/rc
	(cd /tests && timeout "$limit" "./$dir/$name" 2>&1; echo $? >/tmp/rc) | sed 's/^/# /'
	rc=$(cat /tmp/rc 2>/dev/null || echo 1)
	case $rc in
	0) echo "ok $i selftests: $dir: $name" ;;
	4) echo "ok $i selftests: $dir: $name # SKIP" ;;
	124|137|143) echo "not ok $i selftests: $dir: $name # TIMEOUT $limit seconds" ;;
	*) echo "not ok $i selftests: $dir: $name # exit=$rc" ;;
	esac
done </tests/list
echo "stablemate-init: done"
reboot -f
sleep 5
echo "stablemate-init: reboot failed" >&2
poweroff -f
