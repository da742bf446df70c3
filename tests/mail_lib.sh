# mail_lib.sh: helpers of the mail_*.sh tests (sourced after lib.sh).

# json_get FILE EXPR: a field of stablemate's --json output, e.g. "stats.messages".
json_get() {
	python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v=v[int(k)] if isinstance(v,list) else v[k]
print(v)' "$1" "$2"
}

# nm DB ARGS...: the notmuch CLI on database DB (a config file of its own).
nm() {
	local db=$1; shift
	[ -f "$db/.nmcfg" ] || printf '[database]\npath=%s\n[new]\ntags=\n' "$db" > "$db/.nmcfg"
	notmuch --config="$db/.nmcfg" "$@"
}

# pi_from_files GIT_DIR FILE...: a public-inbox epoch (one commit per
# message, blob "m"), as lore's archives are, built with git fast-import.
pi_from_files() {
	local git_dir=$1; shift
	[ -d "$git_dir" ] || git init -q --bare "$git_dir"
	local parent
	parent=$(git --git-dir="$git_dir" rev-parse -q --verify refs/heads/master || true)
	python3 - "$parent" "$@" <<'PY' | git --git-dir="$git_dir" fast-import --quiet
import sys
out = sys.stdout.buffer
parent, files = sys.argv[1], sys.argv[2:]
for i, f in enumerate(files, 1):
    d = open(f, "rb").read()
    out.write(b"blob\nmark :%d\ndata %d\n" % (i, len(d)) + d + b"\n")
for i in range(1, len(files) + 1):
    out.write(b"commit refs/heads/master\ncommitter Archiver <a@example.org> %d +0000\n"
              b"data 2\nm\n" % (1700000000 + i))
    if i == 1 and parent:
        out.write(b"from %s\n" % parent.encode())
    out.write(b"M 100644 :%d m\n\n" % i)
PY
	git --git-dir="$git_dir" symbolic-ref HEAD refs/heads/master
}

# as_mbox FILE...: the files as one mbox on stdout (mboxrd escaping).
as_mbox() {
	local f
	for f in "$@"; do
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		sed -e 's/^\(>*From \)/>\1/' "$f"
		echo
	done
}

# upstream_repo DIR: an empty-history git repository to map patches against.
upstream_repo() {
	git init -q -b master "$1"
	git -C "$1" config user.name "Up Stream"
	git -C "$1" config user.email "up@example.org"
}

# commit_file DIR PATH CONTENT SUBJECT: one commit; prints its id.
commit_file() {
	mkdir -p "$(dirname "$1/$2")"
	printf '%s\n' "$3" > "$1/$2"
	git -C "$1" add "$2"
	git -C "$1" commit -q -m "$4"
	git -C "$1" rev-parse HEAD
}

# commits_from_titles DIR < TITLES: one commit per line of stdin on master,
# the line as its subject (git fast-import: hundreds in a second).
commits_from_titles() {
	python3 -c '
import sys
out = sys.stdout.buffer
for i, t in enumerate(sys.stdin.buffer.read().decode().splitlines(), 1):
    msg = (t + "\n").encode()
    data = b"%d\n" % i
    out.write(b"commit refs/heads/master\ncommitter Up Stream <up@example.org> %d +0000\n" % (1600000000 + i))
    out.write(b"data %d\n%s" % (len(msg), msg))
    if i == 1:
        out.write(b"from refs/heads/master^0\n")
    out.write(b"M 100644 inline t%d\ndata %d\n%s\n" % (i, len(data), data))
' | git -C "$1" fast-import --quiet
}
