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

# gen_mails N PREFIX [BODY_KB]: N ordinary mails as an mboxrd on stdout,
# Message-IDs <PREFIX-1@example.org>...; each body has a ">From " line and a
# Tested-by: trailer as its last line, and BODY_KB KB of text (default 0).
gen_mails() {
	python3 - "$1" "$2" "${3:-0}" <<'PY'
import sys
n, pre, kb = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
filler = ("The driver keeps its queue in order while the device resets.".ljust(63) + "\n") * 16 * kb
out = sys.stdout
for i in range(1, n + 1):
    out.write(f"From {pre}-{i}@example.org Mon Jul  1 09:00:00 2024\n"
              f"From: Tester {i} <t{i}@example.org>\nTo: stable@vger.kernel.org\n"
              f"Subject: [PATCH] {pre}: fix number {i}\nDate: Mon, 01 Jul 2024 09:00:00 +0000\n"
              f"Message-ID: <{pre}-{i}@example.org>\n\n"
              f"Mail {i} of {n}.\n>From the user's view it matters.\n\n{filler}"
              f"Tested-by: Tester <t{i}@example.org>\n\n")
PY
}

# big_mail ID BYTES: one mbox message of about BYTES bytes, Message-ID <ID>.
big_mail() {
	python3 - "$1" "$2" <<'PY'
import sys
mid, size = sys.argv[1], int(sys.argv[2])
out = sys.stdout
out.write(f"From {mid} Mon Jul  1 09:00:00 2024\nFrom: Big <big@example.org>\n"
          f"Subject: a very big mail\nMessage-ID: <{mid}>\n\n")
line = "x" * 75 + "\n"
out.write(line * (size // 76))
out.write("\n")
PY
}

# gz_with_big_mail FILE MB: a gzip file (concatenated members, as gzip(1)
# and pigz write them) of an ordinary mail, one mail of MB megabytes
# (Message-ID <huge@example.org>) and another ordinary mail. Fast: the 1 MB
# member of the big body is compressed once and repeated.
gz_with_big_mail() {
	python3 - "$1" "$2" <<'PY'
import gzip, sys
path, mb = sys.argv[1], int(sys.argv[2])
mail = lambda i: (f"From m-{i}@example.org Mon Jul  1 09:00:00 2024\nFrom: T <t@example.org>\n"
                  f"Subject: [PATCH] mail {i}\nMessage-ID: <m-{i}@example.org>\n\nBody {i}.\n\n").encode()
body = gzip.compress((b"x" * 75 + b"\n") * 13797, 1)   # 1,048,572 bytes
with open(path, "wb") as f:
    f.write(gzip.compress(mail(1) + b"From huge@example.org Mon Jul  1 09:00:00 2024\n"
                          b"From: Big <big@example.org>\nSubject: big\nMessage-ID: <huge@example.org>\n\n"))
    for _ in range(mb):
        f.write(body)
    f.write(gzip.compress(b"\n" + mail(2)))
PY
}

# peak_rss FILE CMD...: runs CMD; writes its peak RSS in KB to FILE;
# returns CMD's exit status (128 + N for signal N).
peak_rss() {
	local f=$1; shift
	python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(128 - rc if rc < 0 else rc)' "$f" "$@"
}
