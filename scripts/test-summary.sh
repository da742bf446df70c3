#!/usr/bin/env bash
# test-summary.sh BUILD: prints each test's result, Check's own summary
# line for each Check program, the failures' logs, and a closing
# "N passed, N failed" line summed over all Check tests and script tests.
build=$1
passed=0 failed=0 skipped=0
shopt -s nullglob
for trs in "$build"/tests/*.trs; do
	log=${trs%.trs}.log
	name=$(basename "${trs%.trs}")
	res=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
	checkline=$(grep -E '^[0-9]+%: Checks: [0-9]+' "$log" | tail -1)
	if [ -n "$checkline" ]; then
		n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$checkline")
		f=$(sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1+\2/' <<<"$checkline")
		f=$((f))
		passed=$((passed + n - f)); failed=$((failed + f))
		[ "$res" = PASS ] || [ "$f" -gt 0 ] || failed=$((failed + 1))
		printf '%-6s %-28s %s\n' "$res" "$name" "$checkline"
	else
		case $res in
		PASS) passed=$((passed + 1));;
		SKIP) skipped=$((skipped + 1));;
		*) failed=$((failed + 1));;
		esac
		printf '%-6s %s\n' "$res" "$name"
	fi
	if [ "$res" != PASS ] && [ "$res" != SKIP ]; then
		echo "---- $log (last 40 lines) ----"
		tail -40 "$log"
		echo "----"
	fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + failed)) -gt 0 ]
