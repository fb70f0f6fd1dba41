package bisect

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestLocateWarningsOnce: the runs' warnings are in the report once
// each, in the order first said, however many runs give them.
func TestLocateWarningsOnce(t *testing.T) {
	b := standard(t)
	g := b.graph()
	f := &fake{g: g, culprit: b.l("conf.read")}
	runs := 0
	warn := RunnerFunc(func(ctx context.Context, r Request) (Outcome, error) {
		out, err := f.Run(ctx, r)
		runs++
		out.Warnings = []string{"/usr/bin/chage is set-group-ID gid 42 but runs as gid 65534 under envbisect"}
		if runs == 3 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("run %d left a process running", runs))
		}
		return out, err
	})
	rep, err := Locate(context.Background(), g, warn, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/usr/bin/chage is set-group-ID gid 42 but runs as gid 65534 under envbisect", "run 3 left a process running"}
	if runs < 4 || !slices.Equal(rep.Warnings, want) {
		t.Errorf("%d runs, warnings %q; want %q", runs, rep.Warnings, want)
	}
}
