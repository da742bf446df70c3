#!/usr/bin/env bash
# boot_bisect.sh: --compare, --bisect, --kcidb and --mail through the real
# stage on a 16-patch series whose 11th patch breaks a test, with the
# kernel-sized steps stood in for (tests/fixtures/boot-stub/README.md) and a
# qemu-system-x86_64 first on PATH that "boots" the image into a serial log
# of KTAP: a test program passes unless the image says "leak". Checks the
# per-test changes, the first bad patch, that bisection took 4 builds
# (16 patches), the mail naming the patch and the KCIDB document against
# the schema. Also a series that regresses nothing, and one that does not
# build.
set -euo pipefail
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 77; }
. "${SM_SRCDIR:?}/tests/lib.sh"
src=$SM_SRCDIR sm=${STABLEMATE:?} work=$TMP
export STABLEMATE_DATADIR=$src/tests/fixtures/boot-stub STABLEMATE_CACHE=$work/cache

export PATH=$SM_SRCDIR/tests/fixtures/boot-stub/bin:$PATH	# its qemu-system-x86_64

# A series of 16 patches on the stand-in tree's base: 1 adds the test
# program, 11 "leaks", the others touch notes.
repo=$work/repo
git init -q "$repo"
git -C "$repo" config user.name t
git -C "$repo" config user.email t@example.org
mkdir -p "$repo/sound/core"
echo ok >"$repo/sound/core/timer.c"
git -C "$repo" add -A && git -C "$repo" commit -qm base && git -C "$repo" tag base
mkdir -p "$repo/tools/testing/selftests/demo"
printf '#include <stdio.h>\nint main(void)\n{\n\tputs("1..0");\n\treturn 0;\n}\n' \
	>"$repo/tools/testing/selftests/demo/padding.c"
git -C "$repo" add -A && git -C "$repo" commit -qm "selftests: demo: padding"
for i in $(seq 2 16); do
	if [ "$i" -eq "${BAD:-11}" ]; then
		echo leak >"$repo/sound/core/timer.c"
		git -C "$repo" commit -qam "ALSA: timer: patch $i leaks"
	else
		echo "$i" >"$repo/note-$i.txt"
		git -C "$repo" add -A && git -C "$repo" commit -qm "notes: patch $i"
	fi
done
mkseries() {	# mkseries DIR: the repo's commits as a series directory
	rm -rf "$1"
	git -C "$repo" format-patch -q -o "$1" base..HEAD
	echo demo/padding >"$1/tests"
}
mkseries "$work/s16"

rc=0
(cd "$work" && "$sm" boot --series s16 --accel tcg --bisect --run-dir run --kcidb k.json --json) \
	>"$work/out.json" 2>"$work/err" || rc=$?
[ $rc -eq 1 ] || { cat "$work/out.json" "$work/err"; fail "regressed series: exit $rc, expected 1"; }
jq -e '.verdict == "regressed" and .series_verdict == "fail" and .summary == "2 regressions"
	and .bisected == "0011-ALSA-timer-patch-11-leaks.patch"
	and .compare.base_verdict == "pass" and .compare.regressions == 2
	and ([.compare.changes[] | select(.change == "regressed") | .name] ==
	     ["demo:padding", "demo:padding: padding is zero"])
	and ([.compare.changes[] | select(.change == "still passing") | .name] ==
	     ["boot", "demo:padding: event received"])
	and .bisect.first_bad_index == 11 and .bisect.builds == 4
	and ([.bisect.steps[] | [.applied, .bad]] == [[8, false], [12, true], [10, false], [11, true]])' \
	"$work/out.json" >/dev/null || { cat "$work/out.json"; fail "compare/bisect result"; }
# kernel builds: the series, the base, 4 bisection steps
[ "$(wc -l <"$work/cache/build-x86_64/builds.log")" -eq 6 ] ||
	{ cat "$work/cache/build-x86_64/builds.log"; fail "not 6 builds"; }
[ -f "$work/run/base/result.json" ] && [ -f "$work/run/bisect-11/serial.log" ] ||
	fail "no base/ or bisect-11/ in the run directory"
python3 "$src/tests/kcidb_validate.py" "$src/tests/fixtures/kcidb/kcidb-io-v4.0.schema.json" \
	"$work/k.json" >"$work/kcidb.out" || { cat "$work/kcidb.out"; fail "KCIDB document invalid"; }
grep -qx "ok: 2 checkouts, 2 builds, 8 tests" "$work/kcidb.out" || { cat "$work/kcidb.out"; fail "KCIDB counts"; }
jq -e '.checkouts[0].patchset_hash | test("^[0-9a-f]{64}$")' "$work/k.json" >/dev/null ||
	fail "no patchset_hash"
jq -e '[.tests[] | select(.status == "FAIL") | .path] ==
	["kselftest.demo.padding", "kselftest.demo.padding.padding_is_zero"]' "$work/k.json" >/dev/null ||
	{ jq . "$work/k.json"; fail "KCIDB test paths"; }

# the mail names the first bad patch
rc=0
(cd "$work" && "$sm" boot --series s16 --accel tcg --bisect --run-dir run2 --mail) >"$work/mail" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "--mail: exit $rc"
grep -qx "Subject: \[stablemate boot\] REGRESSED: s16 (16 patches) on linux-6.1, first bad: 0011-ALSA-timer-patch-11-leaks.patch" \
	"$work/mail" || { cat "$work/mail"; fail "mail subject"; }
grep -qx "First bad patch (bisected): 0011-ALSA-timer-patch-11-leaks.patch" "$work/mail" || fail "mail body"
grep -qx "  first bad patch: 0011-ALSA-timer-patch-11-leaks.patch (bisection: 4 builds: 8 patches good, 12 patches bad, 10 patches good, 11 patches bad)" \
	"$work/mail" || { cat "$work/mail"; fail "mail bisection line"; }

# without the bad patch: no regression, exit 0, no bisection
BAD=99 && git -C "$repo" reset -q --hard base~0 && git -C "$repo" checkout -q -B main base
mkdir -p "$repo/tools/testing/selftests/demo"
printf '#include <stdio.h>\nint main(void)\n{\n\treturn 0;\n}\n' >"$repo/tools/testing/selftests/demo/padding.c"
git -C "$repo" add -A && git -C "$repo" commit -qm "selftests: demo: padding"
echo 2 >"$repo/note-2.txt" && git -C "$repo" add -A && git -C "$repo" commit -qm "notes: patch 2"
mkseries "$work/good"
"$sm" boot --series "$work/good" --accel tcg --bisect --run-dir "$work/run3" --json >"$work/good.json" ||
	{ cat "$work/good.json"; fail "good series: not exit 0"; }
jq -e '.verdict == "pass" and .compare.regressions == 0 and .bisect == null and .bisected == null
	and .summary == "1/1 tests passed, no regression"' "$work/good.json" >/dev/null ||
	{ cat "$work/good.json"; fail "good series result"; }

# a series that does not build: build-failed, nothing to compare
echo "does not build" >"$repo/sound/core/timer.c" && git -C "$repo" commit -qam "ALSA: timer: patch 3 breaks the build"
echo 4 >"$repo/note-4.txt" && git -C "$repo" add -A && git -C "$repo" commit -qm "notes: patch 4"
mkseries "$work/broken"
rc=0
"$sm" boot --series "$work/broken" --accel tcg --compare --run-dir "$work/run4" --json >"$work/broken.json" || rc=$?
[ $rc -eq 1 ] || fail "build failure: exit $rc"
jq -e '.verdict == "build-failed" and .compare == null
	and (.build_error | test("timer.c:1:1: error: does not build"))' "$work/broken.json" >/dev/null ||
	{ cat "$work/broken.json"; fail "build failure result"; }
# --distcc: the compiles go to a distccd on loopback (Debian's distcc; the
# stand-in kernel build has no compiles, the test program has one) and
# the build directory is the distcc one
if command -v distccd >/dev/null && command -v distcc >/dev/null; then
	mkdir -p "$work/distcc" && chmod 711 "$work" && chmod 777 "$work/distcc"
	user=() && [ "$(id -u)" -ne 0 ] || user=(--user nobody)	# distccd will not run as root
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 --port "$port" \
		--log-file "$work/distcc/log" --log-level info "${user[@]}" &
	dpid=$!
	trap 'kill $dpid 2>/dev/null || true; rm -rf "$work"' EXIT
	for i in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
	DISTCC_FALLBACK=0 "$sm" boot --series "$work/good" --accel tcg --distcc "127.0.0.1:$port/2" \
		--run-dir "$work/run5" --json >"$work/distcc.json" 2>"$work/distcc.err" ||
		{ cat "$work/distcc.json" "$work/distcc.err" "$work/run5/build.log"; fail "--distcc run"; }
	jq -e '.verdict == "pass" and .compiler == "distcc gcc"' "$work/distcc.json" >/dev/null ||
		{ cat "$work/distcc.json"; fail "--distcc result"; }
	grep -q "COMPILE_OK .*selftests/demo/padding.c" "$work/distcc/log" ||
		{ cat "$work/distcc/log"; fail "distccd compiled nothing"; }
	[ -f "$work/cache/build-x86_64-distcc/builds.log" ] || fail "no distcc build directory"
	kill $dpid; wait $dpid 2>/dev/null || true
else
	echo "(no distcc installed: --distcc not tested)"
fi
# --ccache: the second run's compile of the test program is a cache hit
if command -v ccache >/dev/null; then
	export CCACHE_DIR=$work/ccache
	for i in 1 2; do
		"$sm" boot --series "$work/good" --accel tcg --ccache --run-dir "$work/run-cc$i" --json \
			>"$work/cc$i.json" 2>/dev/null || { cat "$work/cc$i.json"; fail "--ccache run $i"; }
	done
	jq -e '.verdict == "pass" and .compiler == "ccache gcc"' "$work/cc2.json" >/dev/null ||
		fail "--ccache result"
	ccache --print-stats | grep -Eq "^(direct|preprocessed)_cache_hit[[:space:]]+[1-9]" ||
		{ ccache --print-stats; fail "no ccache hit on the second run"; }
	[ -f "$work/cache/build-x86_64-ccache/builds.log" ] || fail "no ccache build directory"
fi
echo "ok: compare, bisect (first bad 11/16 in 4 builds), mail, KCIDB, no-regression, build failure, distcc, ccache"
