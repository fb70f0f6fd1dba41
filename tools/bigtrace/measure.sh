#!/bin/sh
# Peak memory of the commands that read a whole trace (show, deps in
# each of its forms, diff), on a synthetic trace of N calls
# (docs/performance.md, "Reading large traces").
#   sh tools/bigtrace/measure.sh [CALLS] [ENVBISECT] [DIR]
# Writes DIR/a.envb and DIR/b.envb (b: one openat fails, so diff has a
# difference), then prints one line per command: its wall time, CPU time
# and peak RSS (GNU time's %M, KiB), and the exit status. Without DIR the
# traces go to a temporary directory, removed at the end.
set -eu
calls=${1:-4000000}
eb=${2:-bin/envbisect}
if [ $# -ge 3 ]; then
	dir=$3
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT INT TERM # the traces are ours: 124 MB at 4M calls
fi
command -v /usr/bin/time >/dev/null || { echo "measure.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
GO=${GO:-go}
"$GO" run ./tools/bigtrace -calls "$calls" -o "$dir/a.envb"
"$GO" run ./tools/bigtrace -calls "$calls" -differ-at $((calls / 8)) -o "$dir/b.envb"
ls -l "$dir/a.envb" "$dir/b.envb"
for cmd in "show $dir/a.envb" "show --summary $dir/a.envb" "deps $dir/a.envb" "deps --json $dir/a.envb" \
	"deps --dot $dir/a.envb" "deps --group 2 $dir/a.envb" "diff $dir/a.envb $dir/b.envb"; do
	# shellcheck disable=SC2086 # $cmd is the command and its arguments
	/usr/bin/time -f "$cmd: %e s wall, %U s user, %M KiB peak RSS, exit %x" "$eb" $cmd >/dev/null || true
done
