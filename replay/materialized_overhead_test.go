package replay

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/verdict"
)

// BenchmarkMaterializedOverhead measures one materialized run (Execute: the
// sandbox with an object in place, the helper, the untraced command, the
// wait) against the same command run natively, on syscall-heavy
// commands: cloop (open, read, close of a small file: the benchmark's
// workload, tools/bench) calibrated to about a second, reading a file of
// the lower layer and then the object itself, and a walk of /usr; and
// /bin/true, for what a run costs whatever the command. The
// runs are interleaved, 7 of each, whatever b.N; the medians' ratio is
// logged and reported as a metric per workload. Run it with
// go test -run '^$' -bench MaterializedOverhead -benchtime 1x ./replay/
// (docs/performance.md): speed is measured in benchmarks, never in tests.
func BenchmarkMaterializedOverhead(b *testing.B) {
	testutil.Require(b, testutil.Root, testutil.File("/bin/sh"))
	cloop := testutil.BuildC(b, "cloop.c", false)
	c := sandbox.MemContents{}
	conf := fmt.Sprintf("/etc/envbisect-measure-%d.conf", os.Getpid())
	ops := []envobj.Op{{Kind: envobj.OpWrite, Path: conf, Mode: 0o644, Content: c.Add("good\n")}}
	// The native runs read a real file of the same size as the object.
	real := b.TempDir() + "/real.conf"
	if err := os.WriteFile(real, []byte("good\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	iters := calibrate(b, cloop)
	bundle, err := sandbox.NewBundle(sandbox.ContentHashes(ops), c)
	if err != nil {
		b.Fatal(err)
	}
	defer bundle.Close()
	for _, w := range []struct {
		name           string
		native, inside []string
	}{
		{fmt.Sprintf("cloop %d /etc/hostname", iters), []string{cloop, strconv.Itoa(iters), "/etc/hostname"}, nil},
		{fmt.Sprintf("cloop %d (the object)", iters), []string{cloop, strconv.Itoa(iters), real}, []string{cloop, strconv.Itoa(iters), conf}},
		{"find /usr -type f | head -100000", []string{"/bin/sh", "-c", "find /usr -type f | head -100000 > /dev/null"}, nil},
		{"/bin/true (the fixed cost)", []string{"/bin/true"}, nil},
	} {
		inside := w.inside
		if inside == nil {
			inside = w.native
		}
		spec := Spec{Argv: inside, CPU: -1, Sandbox: sandbox.Spec{Objects: ops}}
		var native, mat []time.Duration
		for i := 0; i < 7; i++ {
			order := []func(){
				func() { native = append(native, timeNative(b, w.native)) },
				func() { mat = append(mat, timeExecute(b, spec, bundle)) },
			}
			if i%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for _, f := range order {
				f()
			}
		}
		n, m := median(native), median(mat)
		b.Logf("%s: native %v, materialized %v: %.2f×", w.name, n.Round(100*time.Microsecond), m.Round(100*time.Microsecond), float64(m)/float64(n))
		b.ReportMetric(float64(m)/float64(n), "x-native:"+strings.NewReplacer(" ", "_", "|", "", "/", "_").Replace(w.name))
	}
}

// calibrate returns cloop's iteration count for about a second natively.
func calibrate(t testing.TB, cloop string) int {
	const probe = 100000
	d := timeNative(t, []string{cloop, strconv.Itoa(probe), "/etc/hostname"})
	return max(int(float64(probe)*float64(time.Second)/float64(d))/1000*1000, 1000)
}

func timeNative(t testing.TB, argv []string) time.Duration {
	t.Helper()
	begin := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out)
	}
	return time.Since(begin)
}

func timeExecute(t testing.TB, spec Spec, contents sandbox.Contents) time.Duration {
	t.Helper()
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	begin := time.Now()
	out, err := Execute(context.Background(), spec, contents, Attach{Stdout: devnull})
	d := time.Since(begin)
	if err != nil || out.Verdict != verdict.Pass {
		t.Fatalf("%v: %v %+v", spec.Argv, err, out)
	}
	return d
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
