#!/bin/sh
# run.sh GO PKG FUZZFUNC FUZZTIME: fuzz one target for FUZZTIME (make fuzz).
#
# Go's fuzzing coordinator before Go 1.27 can end a duration-bounded run
# with "context deadline exceeded" and a failure when -fuzztime expires
# while a worker is still answering (golang/go#75804, fixed in Go 1.27):
# no input failed and nothing was written to testdata/fuzz. Such a run is
# tried once more. Any other failure — a failing input written, a panic, a
# t.Error, a build error — fails at once, as does a second deadline.
set -u
go=$1 pkg=$2 fn=$3 fuzztime=$4
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT

for attempt in 1 2; do
	echo "fuzz $pkg $fn for $fuzztime"
	"$go" test -run '^$' -fuzz="^$fn\$" -fuzztime="$fuzztime" "./$pkg/" >"$log" 2>&1
	status=$?
	cat "$log"
	[ "$status" -eq 0 ] && exit 0
	if [ "$attempt" -eq 1 ] &&
		grep -q 'context deadline exceeded' "$log" &&
		! grep -Eq 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"; then
		echo "make fuzz: $fn ended with Go's fuzztime deadline race (golang/go#75804), no failing input; trying once more"
		continue
	fi
	exit "$status"
done
