#!/usr/bin/env bash
# scan_cache.sh: the diff cache (trees/diff_cache.h) changes nothing in what
# `stablemate scan` prints. On the repository of trees_mkrepo.sh: the JSON of
# a scan that builds every diff and of one that reads them all from the cache
# is byte for byte the same; a damaged cache file (a byte changed, cut short,
# emptied, garbage, a directory in its place) is ignored with no error and the
# same output; the same for the release map; --no-cache and one loading
# thread give the same commits.
. "$(dirname "$0")/lib.sh"
bash "$SM_SRCDIR/tests/trees_mkrepo.sh" "$TMP" > /dev/null 2>&1 || fail "trees_mkrepo.sh"
cd "$TMP/linux"
export XDG_CACHE_HOME=$TMP/xdg
cache=$TMP/cache
scan() { "$STABLEMATE" scan --range "${RANGE:-v4.4..v4.5}" --tree linux-4.1.y --tree linux-4.4.y "$@"; }
# The index caches' states are in the JSON ("new" then "hit"): compare the
# rest when they differ.
no_state() { sed 's/"index_cache":"[a-z]*"/"index_cache":""/g' "$1"; }

scan --cache-dir "$cache" --json > first.json 2> first.err || fail "first scan: $(cat first.err)"
[ -s first.json ] || fail "first scan printed nothing"
[ -d "$cache/diff-cache" ] || fail "no diff-cache directory in $cache"
file=$(echo "$cache"/diff-cache/*.facts)
[ -f "$file" ] || fail "no diff cache file: $(ls -la "$cache/diff-cache")"

# Cold diff cache (the index caches warm), then warm: the same bytes.
rm -rf "$cache/diff-cache"
scan --cache-dir "$cache" > cold.txt || fail "cold scan"
grepq -F "diff cache new: 0 of 14 commits' diffs read from it" cold.txt || fail "cold: $(cat cold.txt)"
rm -rf "$cache/diff-cache"
scan --cache-dir "$cache" --json > cold.json || fail "cold scan --json"
scan --cache-dir "$cache" --json > warm.json 2> warm.err || fail "warm scan: $(cat warm.err)"
cmp cold.json warm.json || fail "cold and warm diff cache: the JSON differs"
[ ! -s warm.err ] || fail "warm scan said: $(cat warm.err)"
scan --cache-dir "$cache" > warm.txt || fail "warm scan (text)"
grepq -F "diff cache hit: 13 of 14 commits' diffs read from it" warm.txt || fail "warm: $(cat warm.txt)"
cmp <(no_state first.json) <(no_state warm.json) || fail "first and warm scans differ"
# Text output too, but for the cache lines.
cmp <(grep -v "cache\|index" cold.txt) <(grep -v "cache\|index" warm.txt) || fail "text output differs"

# One loading thread or two, with the cache: the same.
SM_SCAN_THREADS=1 scan --cache-dir "$cache" --json > one.json || fail "SM_SCAN_THREADS=1"
SM_SCAN_THREADS=2 scan --cache-dir "$cache" --json > two.json || fail "SM_SCAN_THREADS=2"
cmp one.json warm.json && cmp two.json warm.json || fail "threads: the JSON differs"

# flip FILE BIT: flips a bit of the byte in the middle of FILE.
flip() {
	python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[len(b)//2]^=int(sys.argv[2]); open(p,'wb').write(b)" "$1" "$2"
}
# rescanned WHAT GREP-ARGS...: a scan over the damaged cache works, says
# nothing on stderr, prints what grep GREP-ARGS looks for, and its JSON is
# warm.json's.
rescanned() {
	local what=$1; shift
	scan --cache-dir "$cache" > re.txt 2> re.err || fail "$what: exit $?: $(cat re.err)"
	[ ! -s re.err ] || fail "$what: said $(cat re.err)"
	grepq "$@" re.txt || fail "$what: $(cat re.txt)"
	scan --cache-dir "$cache" --json > re.json || fail "$what: scan --json"
	cmp re.json warm.json || fail "$what: the JSON differs"
}

# A damaged cache: ignored, no message, the same JSON, then written anew.
damage() {
	case $1 in
	byte) flip "$file" 4 ;;
	cut) head -c "$(($(wc -c < "$file") / 3))" "$file" > "$TMP/cut" && mv "$TMP/cut" "$file" ;;
	empty) : > "$file" ;;
	garbage) head -c 5000 /dev/urandom > "$file" ;;
	foreign) sed -i '1s/.*/stablemate-diff-cache 999 libgit2 0.0.0/' "$file" ;;
	esac
}
for how in byte cut empty garbage foreign; do
	scan --cache-dir "$cache" > /dev/null || fail "$how: rescan"
	damage "$how"
	rescanned "$how" -F "diff cache rebuilt: 0 of 14"
done
# A directory where the file goes: read fails, write fails: a warning only.
rm -f "$file" && mkdir "$file"
scan --cache-dir "$cache" --json > dir.json 2> dir.err || fail "directory: exit $?: $(cat dir.err)"
cmp dir.json warm.json || fail "directory: the JSON differs"
grepq -F "cannot write the diff cache" dir.err || fail "directory: no warning: $(cat dir.err)"
rmdir "$file"

# The release map (first release of each Fixes: target): kept, and a
# damaged or emptied one is rebuilt with the same output.
map=$(echo "$cache"/release-map/*.map)
[ -f "$map" ] || fail "no release map in $cache"
grepq -Fx "  release map hit" warm.txt || fail "release map: $(cat warm.txt)"
for how in byte empty; do
	if [ $how = byte ]; then flip "$map" 1; else : > "$map"; fi
	rescanned "release map $how" -Fx "  release map rebuilt"
done

# A longer range from the same start adds to the file; the window still hits.
RANGE=v4.4..linux-4.4.y scan --cache-dir "$cache" > long.txt || fail "longer range"
scan --cache-dir "$cache" --json > again.json || fail "scan after the longer range"
cmp again.json warm.json || fail "after the longer range: the JSON differs"
scan --cache-dir "$cache" > again.txt
grepq -F "diff cache hit: 13 of 14" again.txt || fail "after the longer range: $(cat again.txt)"

# --no-cache: no cache read or written, the same commits.
rm -rf "$XDG_CACHE_HOME"
scan --no-cache --json > off.json || fail "--no-cache"
cmp <(no_state off.json) <(no_state warm.json) || fail "--no-cache: the JSON differs"
scan --no-cache > off.txt
grepq -F "diff cache off: 0 of 14" off.txt || fail "--no-cache: $(cat off.txt)"
[ ! -e "$XDG_CACHE_HOME/stablemate" ] || fail "--no-cache wrote a cache: $(ls -R "$XDG_CACHE_HOME")"
# The README's scan example is what scan prints here (its lines; "..." elides).
sed -n '/^    \$ stablemate scan --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --candidates --check-applies$/,/^            applies: cleanly after its prerequisite /p' \
	"$SM_SRCDIR/README.md" | sed '1d' | grep -v '^ *\.\.\.$' | sed 's/^    //' > readme.txt
[ "$(grep -c . readme.txt)" -gt 10 ] || fail "no scan example in README.md"
XDG_CACHE_HOME=$TMP/xdg-readme scan --candidates --check-applies > example.txt || fail "example scan"
while IFS= read -r line; do
	[ -z "$line" ] || grep -qxF -- "$line" example.txt || fail "README.md's scan example says \"$line\"; scan does not"
done < readme.txt
echo "ok - scan_cache.sh"
