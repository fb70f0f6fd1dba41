package render

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

func TestWrap(t *testing.T) {
	if got := wrap("aa bb cc dd", 5); got != "aa bb\ncc dd" {
		t.Errorf("%q", got)
	}
	if got := wrap("a verylongword b", 4); got != "a\nverylongword\nb" {
		t.Errorf("%q", got)
	}
}

// An exec culprit that ran an image the trace holds says which, by where
// its path led (a #! script's interpreter), and that the image ran in its
// place.
func TestLocatedExecImage(t *testing.T) {
	r := &LocateReport{Status: Located, RecordedCalls: 80, Runs: 7, Culprit: &Culprit{
		Seq: 51, Who: "[2]", Syscall: "execve", Call: `execve("./tool.sh", ["/opt/sh", "./tool.sh"], 0 /* 3 vars */) = 0`,
		Path: "/w/tool.sh", Good: CallResult{Return: "0"}, Here: CallResult{Return: "0"},
		Image: &trace.FileObject{Path: "/w/tool.sh", Resolved: "/opt/sh", Size: 1234, SHA256: trace.Hash{0xab, 0xcd}},
	}}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"image     the recording ran /opt/sh (1234 bytes, sha256 abcd000000000000), which the trace holds",
		"With the image recorded at call 51 run in its place",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}
