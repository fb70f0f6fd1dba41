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

	"golang.org/x/sys/unix"

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
// /bin/true, for what a run costs whatever the command; the cloop runs
// again with the object replacing a file that is there (/etc/
// debian_version) rather than adding one. Each materialized run is made
// twice: isolated in full (every writable mount overlaid) and narrowed
// (sandbox.Spec.Narrow: writable mounts bound read-only, an overlay only
// on the directory an added object goes in, a replacing object bound over
// its file). The runs are interleaved, 7 of each, whatever b.N; the medians' ratio is
// logged and reported as a metric per workload. Run it with
// go test -run '^$' -bench MaterializedOverhead -benchtime 1x ./replay/
// (docs/performance.md): speed is measured in benchmarks, never in tests.
// ENVBISECT_BENCH_ONLY=TEXT runs only the rows whose name has TEXT.
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
	// The object replaces a file that is there in the second setting:
	// a narrowed run binds it over the file rather than overlaying /etc.
	const replaced = "/etc/debian_version"
	testutil.Require(b, testutil.File(replaced))
	opsReplaced := []envobj.Op{{Kind: envobj.OpWrite, Path: replaced, Mode: 0o644, Content: c.Add("good\n")}}
	iters := calibrate(b, cloop)
	bundle, err := sandbox.NewBundle(sandbox.ContentHashes(append(ops, opsReplaced...)), c)
	if err != nil {
		b.Fatal(err)
	}
	defer bundle.Close()
	n := strconv.Itoa(iters)
	for _, w := range []struct {
		name           string
		ops            []envobj.Op
		native, inside []string
	}{
		{fmt.Sprintf("cloop %d /etc/hostname", iters), ops, []string{cloop, n, "/etc/hostname"}, nil},
		{fmt.Sprintf("cloop %d (the object)", iters), ops, []string{cloop, n, real}, []string{cloop, n, conf}},
		{fmt.Sprintf("cloop %d /etc/hostname, object replaces a file", iters), opsReplaced, []string{cloop, n, "/etc/hostname"}, nil},
		{fmt.Sprintf("cloop %d (the object replacing a file)", iters), opsReplaced, []string{cloop, n, real}, []string{cloop, n, replaced}},
		{"find /usr -type f | head -100000", ops, []string{"/bin/sh", "-c", "find /usr -type f | head -100000 > /dev/null"}, nil},
		{"/bin/true (the fixed cost)", ops, []string{"/bin/true"}, nil},
	} {
		inside := w.inside
		if inside == nil {
			inside = w.native
		}
		full := Spec{Argv: inside, CPU: -1, Sandbox: sandbox.Spec{Objects: w.ops}}
		narrow := full
		narrow.Sandbox.Narrow = true
		if only := os.Getenv("ENVBISECT_BENCH_ONLY"); only != "" && !strings.Contains(w.name, only) {
			continue
		}
		var native, mat, nar []measure
		for i := 0; i < 7; i++ {
			order := []func(){
				func() { native = append(native, timeNative(b, w.native)) },
				func() { mat = append(mat, timeExecute(b, full, bundle)) },
				func() { nar = append(nar, timeExecute(b, narrow, bundle)) },
			}
			// Each kind of run goes first, second and third in turn.
			order = append(order[i%3:], order[:i%3]...)
			for _, f := range order {
				f()
			}
		}
		nm, m, r := medians(native), medians(mat), medians(nar)
		b.Logf("%s: native %v, materialized %v (%.2f×), narrowed %v (%.2f×); CPU %v, %v (%.2f×), %v (%.2f×)", w.name,
			round(nm.wall), round(m.wall), ratio(m.wall, nm.wall), round(r.wall), ratio(r.wall, nm.wall),
			round(nm.cpu), round(m.cpu), ratio(m.cpu, nm.cpu), round(r.cpu), ratio(r.cpu, nm.cpu))
		metric := strings.NewReplacer(" ", "_", "|", "", "/", "_", ",", "").Replace(w.name)
		b.ReportMetric(ratio(m.wall, nm.wall), "x-native:"+metric)
		b.ReportMetric(ratio(r.wall, nm.wall), "x-native-narrowed:"+metric)
		b.ReportMetric(ratio(r.cpu, nm.cpu), "x-native-cpu-narrowed:"+metric)
	}
}

// measure is what one run took: wall time, and the CPU time (user and
// system) of the processes it waited for, the command's (and, for a
// materialized run, its helper's before the exec): a figure a machine
// shared with other work disturbs less than the wall time.
type measure struct{ wall, cpu time.Duration }

func round(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// childrenCPU is the CPU time of the waited-for children so far.
func childrenCPU(t testing.TB) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_CHILDREN, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// calibrate returns cloop's iteration count for about a second natively.
func calibrate(t testing.TB, cloop string) int {
	const probe = 100000
	d := timeNative(t, []string{cloop, strconv.Itoa(probe), "/etc/hostname"}).wall
	return max(int(float64(probe)*float64(time.Second)/float64(d))/1000*1000, 1000)
}

func timeNative(t testing.TB, argv []string) measure {
	t.Helper()
	cpu, begin := childrenCPU(t), time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out)
	}
	return measure{time.Since(begin), childrenCPU(t) - cpu}
}

func timeExecute(t testing.TB, spec Spec, contents sandbox.Contents) measure {
	t.Helper()
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	cpu, begin := childrenCPU(t), time.Now()
	out, err := Execute(context.Background(), spec, contents, Attach{Stdout: devnull})
	d := time.Since(begin)
	if err != nil || out.Verdict != verdict.Pass {
		t.Fatalf("%v: %v %+v", spec.Argv, err, out)
	}
	return measure{d, childrenCPU(t) - cpu}
}

// medians are the median wall and the median CPU time of ms.
func medians(ms []measure) measure {
	var wall, cpu []time.Duration
	for _, m := range ms {
		wall, cpu = append(wall, m.wall), append(cpu, m.cpu)
	}
	return measure{median(wall), median(cpu)}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
