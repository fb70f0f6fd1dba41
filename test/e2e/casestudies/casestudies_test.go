package casestudies_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

// badSays is what each case's program (or its check client) says in the
// bad environment: the failure the thesis describes.
var badSays = map[string]string{
	"mpd":            `Failed to create pid file "/run/mpd/pid": No such file or directory`,
	"vsftpd":         "530",                                           // curl: (67) Access denied: 530
	"vsftpd-literal": "500 ftp-server response when 220 was expected", // 500 OOPS: both local and anonymous access disabled!
	"lighttpd":       "Address already in use",
}

// recordTimeout bounds one recording.
const recordTimeout = 2 * time.Minute

// programs are the daemons of the cases: none may outlive a test.
func programs() []string {
	var out []string
	for _, c := range scenarios.Thesis() {
		out = append(out, c.Program)
	}
	return out
}

// atStart are the daemons that ran before any test (a system service);
// TestNoDaemonLeftBehind compares with it.
var atStart = scenarios.ProgramPids(programs()...)

var installOnce struct {
	sync.Once
	err error
}

// require installs the case's Debian packages if they are missing (once
// for all cases, as root, without starting their services), then gates
// the test on everything the case needs.
func require(t *testing.T, c *scenarios.Case) {
	t.Helper()
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp,
		testutil.Binary("unshare"), testutil.Binary("mount"), testutil.File("/bin/sh"))
	installOnce.Do(func() { installOnce.err = scenarios.Install(context.Background(), scenarios.Thesis()...) })
	if installOnce.err != nil {
		t.Logf("installing the packages failed: %v", installOnce.err)
	}
	needs := []testutil.Need{testutil.Binary(c.Program)}
	for _, tool := range c.Tools {
		needs = append(needs, testutil.Binary(tool))
	}
	for _, f := range c.HostFiles {
		needs = append(needs, testutil.File(f))
	}
	testutil.Require(t, needs...)
}

// checkLeftovers fails t if a process of the case's program started
// during the test is still there (and kills it).
func checkLeftovers(t *testing.T, c *scenarios.Case) {
	t.Helper()
	before := scenarios.ProgramPids(c.Program)
	t.Cleanup(func() {
		for _, l := range scenarios.StopNew(before, c.Program) {
			t.Errorf("%s", l)
		}
	})
}

// TestEnvironments checks each case's premises without locate: the
// recording passes in the good environment and fails in the bad one with
// the failure the thesis describes, and both traces hold the expected
// culprit call, successful in the good one and failing (or, for a read,
// returning other data) in the bad one.
func TestEnvironments(t *testing.T) {
	for _, c := range scenarios.Thesis() {
		t.Run(c.Name, func(t *testing.T) {
			require(t, &c)
			checkLeftovers(t, &c)
			bin := testutil.Envbisect(t)
			ctx := context.Background()
			w, err := c.Prepare(testutil.RepoRoot(t), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}

			goodTrace := w.Trace("good.envb")
			r := scenarios.Run(ctx, recordTimeout, c.Environ(scenarios.Good), c.RecordArgv(w, bin, goodTrace)...)
			if r.Err != nil || r.Code != 0 {
				t.Fatalf("recording in the good environment must pass:\n%s", r)
			}
			badTrace := w.Trace("bad.envb")
			r, err = c.RunIn(ctx, scenarios.Bad, w, recordTimeout, c.RecordIn(scenarios.Bad, w, bin, badTrace))
			if err != nil {
				t.Fatal(err)
			}
			if r.Err != nil || r.Code == 0 || !strings.Contains(string(r.Stderr)+string(r.Stdout), badSays[c.Name]) {
				t.Fatalf("recording in the bad environment must fail, saying %q:\n%s", badSays[c.Name], r)
			}

			cu := c.Want.Culprit
			var found [2]scenarios.TraceCall
			for i, trace := range []string{goodTrace, badTrace} {
				tr, err := scenarios.ReadTrace(ctx, bin, trace)
				if err != nil {
					t.Fatal(err)
				}
				var ok bool
				if found[i], ok = cu.Find(w, tr); !ok {
					t.Fatalf("%s has no %s", trace, cu.Describe(w))
				}
				if i == 0 {
					t.Logf("good trace: %d calls", tr.MaxSeq())
				} else {
					t.Logf("bad trace: %d calls", tr.MaxSeq())
				}
			}
			good, bad := found[0], found[1]
			t.Logf("expected culprit: good %v, bad %v", good, bad)
			if good.Errno != "" || good.Ret == nil || *good.Ret < 0 {
				t.Errorf("the expected culprit failed in the good environment: %v", good)
			}
			if bad.Errno != cu.BadErrno || (cu.BadErrno == "" && (bad.Ret == nil || *bad.Ret < 0)) {
				t.Errorf("the expected culprit in the bad environment is %v; want errno %q", bad, cu.BadErrno)
			}
		})
	}
}

// TestCaseStudies records every case in its good environment and locates
// it in its bad one: locate must name the expected call (the pid file's
// open with ENOENT, the read of /etc/vsftpd.conf, the bind with
// EADDRINUSE) in at most ⌈log2 N⌉+3 runs, within the time and trace-size
// targets, and leave no daemon behind. The cases run one after the other:
// each passing run waits for the daemon to stay up, and a busy machine
// would make that flaky.
func TestCaseStudies(t *testing.T) {
	all := scenarios.Thesis()
	outs := make([]*scenarios.Outcome, len(all))
	errs := map[string]error{}
	for i := range all {
		c := &all[i]
		t.Run(c.Name, func(t *testing.T) {
			require(t, c)
			checkLeftovers(t, c)
			bin := testutil.Envbisect(t)
			o, err := c.Study(context.Background(), testutil.RepoRoot(t), t.TempDir(), bin)
			outs[i], errs[c.Name] = o, err
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s in %d runs (bound %d) for %d recorded calls, locate %v, record %v, trace %d bytes",
				c.Name, o.Report.Status, o.Report.Runs, scenarios.RunBound(o.Report.RecordedCalls), o.Report.RecordedCalls,
				o.Locate.Elapsed, o.Record.Elapsed, o.TraceBytes)
			if p := o.Problems(); len(p) > 0 {
				t.Errorf("%s:\n- %s\n%s", c.Name, strings.Join(p, "\n- "), o.Locate)
			}
		})
	}
	if testing.Verbose() {
		// the table of the cases that ran (not skipped, not filtered out)
		var ran []scenarios.Case
		var ranOuts []*scenarios.Outcome
		for i, c := range all {
			if _, ok := errs[c.Name]; ok {
				ran, ranOuts = append(ran, c), append(ranOuts, outs[i])
			}
		}
		scenarios.WriteTable(os.Stdout, ran, ranOuts, errs)
	}
}

// TestNoDaemonLeftBehind runs last: no mpd, vsftpd or lighttpd that the
// tests started may still run.
func TestNoDaemonLeftBehind(t *testing.T) {
	for _, l := range scenarios.StopNew(atStart, programs()...) {
		t.Error(l)
	}
}
