package replay

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/sandbox"
)

// BenchmarkUnameAnswered measures a materialized run that puts the
// kernel release in place (traced at uname only: an Answering run of
// the ptrace engine) against the same run without it (untraced), on
// cloop (open, read, close: about a second of calls none of which
// stops), a shell loop of 200 execs of /bin/true (each fork, exec and
// exit is a ptrace event, a stop), and /bin/true (the fixed cost: the
// seize, the filter). Each workload calls uname once (uname -r) so the
// answer is used. The runs are interleaved, 7 of each, whatever b.N; the
// medians' ratio is logged and reported per workload. Run it with
// go test -run '^$' -bench UnameAnswered -benchtime 1x ./replay/
// (docs/performance.md).
func BenchmarkUnameAnswered(b *testing.B) {
	testutil.Require(b, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.File("/bin/sh"), testutil.Binary("uname"))
	cloop := testutil.BuildC(b, "cloop.c", false)
	iters := calibrate(b, cloop)
	for _, w := range []struct{ name, script string }{
		{fmt.Sprintf("cloop %d", iters), cloop + " " + strconv.Itoa(iters) + " /etc/hostname; uname -r"},
		{"200 execs of /bin/true", "i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done; uname -r"},
		{"uname -r (the fixed cost)", "uname -r"},
	} {
		spec := Spec{Argv: []string{"/bin/sh", "-c", w.script}, CPU: -1, Sandbox: sandbox.Spec{}}
		answered := spec
		answered.Uname = map[string]string{"release": "2.6.32-754.el6.x86_64"}
		var plain, traced []time.Duration
		for i := 0; i < 7; i++ {
			order := []func(){
				func() { plain = append(plain, timeExecute(b, spec, nil).wall) },
				func() { traced = append(traced, timeExecute(b, answered, nil).wall) },
			}
			if i%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for _, f := range order {
				f()
			}
		}
		p, t := median(plain), median(traced)
		b.Logf("%s: untraced %v, traced at uname %v: %.2f×", w.name, p.Round(100*time.Microsecond), t.Round(100*time.Microsecond), float64(t)/float64(p))
		b.ReportMetric(float64(t)/float64(p), "x-untraced:"+strings.NewReplacer(" ", "_", "/", "_", "(", "", ")", "").Replace(w.name))
	}
}
