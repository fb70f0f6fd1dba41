package resources_test

// buildPrelude follows InWorkNS's prelude in every test: $W/out holds
// the artifact a build writes (shared with locate's runs by --persist, so
// that the check, which runs after the command, reads it), and three
// shell functions run the build:
//
//   - record_good ART CMD...: records CMD as the good run ($W/t.envb);
//     the hash of the artifact $W/out/ART it wrote is good.sum;
//   - run_bad ART CMD...: runs CMD here without envbisect; its artifact's
//     hash is bad.sum (both sums are copied to $OUT);
//   - locate_bad ART CMD...: locates CMD here against the recording,
//     judged by --check comparing the artifact's hash with good.sum
//     (--reset removes the last run's artifact): the JSON report is
//     $OUT/report.json, the exit code $OUT/code.
//
// $OUT/w is $W, for the paths the tests expect.
const buildPrelude = `mkdir out
echo "$W" > "$OUT/w"
record_good() {
	art=$1; shift
	"$EB" record -q -o "$W/t.envb" -- "$@"
	sha256sum < "$W/out/$art" > "$W/good.sum"; rm "$W/out/$art"
}
run_bad() {
	art=$1; shift
	"$@"
	sha256sum < "$W/out/$art" > "$W/bad.sum"; rm "$W/out/$art"
	cp "$W/good.sum" "$W/bad.sum" "$OUT/"
}
locate_bad() {
	art=$1; shift
	check='test "$(sha256sum < '"$W/out/$art"')" = "$(cat '"$W"'/good.sum)"'
	code=0; "$EB" locate -q --json $LOCATE_FLAGS --persist "$W/out" --reset "rm -f $W/out/$art" --check "$check" "$W/t.envb" -- "$@" > "$OUT/report.json" || code=$?
	echo $code > "$OUT/code"
}
`
