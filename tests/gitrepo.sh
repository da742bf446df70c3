# gitrepo.sh: sourced by the *_mkrepo.sh scripts, which build the trees and
# lifecycle tests' repositories with the git CLI. With $dir set, it makes a
# new repository DIR/linux (branch master), enters it, fixes the identities
# and the clock, and defines:
#   tick               one hour later, for the next commit's dates
#   record NAME        NAME=<sha of HEAD>, in the shell and in DIR/ids.sh
#   mkfile F N [WORD]  a file of N numbered lines
#   setline F N TEXT   replace line N of F
repo=$dir/linux
mkdir -p "$dir"
rm -rf "$repo"
git init -q -b master "$repo"
cd "$repo"
git config user.name "Test Maintainer"
git config user.email "maint@example.org"
git config commit.gpgsign false
export GIT_AUTHOR_NAME="Kernel Dev" GIT_AUTHOR_EMAIL="dev@example.org"
export GIT_COMMITTER_NAME="Test Maintainer" GIT_COMMITTER_EMAIL="maint@example.org"
t=1500000000
tick() { t=$((t + 3600)); export GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000"; }
ids=$dir/ids.sh
: > "$ids"
record() { echo "$1=$(git rev-parse HEAD)" >> "$ids"; eval "$1=$(git rev-parse HEAD)"; }
mkfile() {
	mkdir -p "$(dirname "$1")"
	for i in $(seq 1 "$2"); do echo "	int ${3:-x}_$i = $i; /* $1 */"; done > "$1"
}
setline() { sed -i "${2}s|.*|$3|" "$1"; }
