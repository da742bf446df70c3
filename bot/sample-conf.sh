#!/usr/bin/env bash
# sample-conf.sh [-b BRANCH] RANGE [TREE...]: prints the [upstream] and
# [tree] sections of a bot.conf over the repository ./linux (as
# bot/sample-repo.sh builds it): mainline RANGE, on BRANCH when given, and a
# [tree] for each TREE (default: linux-6.1.y linux-5.15.y), each a branch of
# ./linux. The demo and the bot's tests append the rest of their bot.conf.
set -euo pipefail
branch=
if [ "${1:-}" = -b ]; then branch=$2; shift 2; fi
range=$1; shift
[ $# -gt 0 ] || set -- linux-6.1.y linux-5.15.y
printf '[upstream]\n\trepo = linux\n'
[ -z "$branch" ] || printf '\tbranch = %s\n' "$branch"
printf '\trange = %s\n' "$range"
printf '[tree "%s"]\n\trepo = linux\n' "$@"
