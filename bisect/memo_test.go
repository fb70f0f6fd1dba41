package bisect

import (
	"context"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestDecidedKeepsFailingLiveOnly: every decision stays in the memo to
// the end of the search, so a decision keeps the live calls of its run
// only when the search may read them, when its verdict is Fail. A
// passing run that executed a long loop held a map entry per call.
func TestDecidedKeepsFailingLiveOnly(t *testing.T) {
	live := map[uint64]*trace.Call{1: {Seq: 1}, 2: {Seq: 2}}
	for _, tc := range []struct {
		v        Verdict
		wantLive bool
	}{{Fail, true}, {Pass, false}, {Skip, false}} {
		run := RunnerFunc(func(context.Context, Request) (Outcome, error) {
			return Outcome{Verdict: tc.v, Live: live, Detail: "exit status 1"}, nil
		})
		s := &search{run: run, sp: &space{}, memo: map[string]decided{}}
		req := Request{Prefix: 7}
		d, err := s.decideRequest(context.Background(), 1, req, 0, s.newStep(), "")
		if err != nil {
			t.Fatal(err)
		}
		m, ok := s.memo[req.key()]
		if !ok {
			t.Fatalf("%s: the decision is not in the memo", tc.v)
		}
		for what, got := range map[string]decided{"returned": d, "memo": m} {
			if got.v != tc.v || got.out.Detail != "exit status 1" {
				t.Errorf("%s, %s: verdict %s, detail %q", tc.v, what, got.v, got.out.Detail)
			}
			if has := got.out.Live != nil; has != tc.wantLive {
				t.Errorf("%s, %s: holds live calls %v, want %v", tc.v, what, has, tc.wantLive)
			}
		}
	}
}
