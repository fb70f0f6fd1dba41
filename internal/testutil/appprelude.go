package testutil

// AppPrelude is the start of an InWorkNS script for the e2e tests that
// record in good/ and locate in bad/ at the same paths: it makes $W/app,
// on which a test bind-mounts good/ for the recording and bad/ for
// locate, and defines locate_bad ARGS..., which runs one locate of
// ../t.envb in app and leaves its JSON report in $OUT/report.json, its
// text report in $OUT/report.txt and its exit status in $OUT/code;
// $LOCATE_FLAGS (unquoted) go before the trace (--materialize=false in
// a test of the call-level search).
const AppPrelude = `
mkdir app
echo "$W" > "$OUT/w"
locate_bad() {
	code=0
	(cd app && "$EB" locate -q --report "$OUT/report.json" $LOCATE_FLAGS ../t.envb -- "$@" > "$OUT/report.txt") || code=$?
	echo $code > "$OUT/code"
}
`
