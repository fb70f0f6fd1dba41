package launch

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// TestLimitReach: what LimitReach says a run can set is what the kernel
// lets this process set for a child (prlimit on a sleeping child, the
// rule the helper's setrlimit follows): a lower limit in full; a hard
// limit above the child's in full only with CAP_SYS_RESOURCE, otherwise
// the soft limit up to the hard one and a reason naming the capability;
// an open-files hard limit above fs.nr_open never.
func TestLimitReach(t *testing.T) {
	testutil.Require(t, testutil.Binary("sleep"))
	nrOpen, err := readUint(nrOpenFile)
	if err != nil {
		t.Skipf("no %s: %v", nrOpenFile, err)
	}
	here := trace.Limit{Resource: unix.RLIMIT_NOFILE, Cur: 40, Max: 64}
	cases := []struct {
		name string
		good trace.Limit
	}{
		{"lower", trace.Limit{Resource: unix.RLIMIT_NOFILE, Cur: 20, Max: 32}},
		{"soft up to the hard", trace.Limit{Resource: unix.RLIMIT_NOFILE, Cur: 64, Max: 64}},
		{"hard above", trace.Limit{Resource: unix.RLIMIT_NOFILE, Cur: 1024, Max: 1024}},
		{"above fs.nr_open", trace.Limit{Resource: unix.RLIMIT_NOFILE, Cur: 1024, Max: nrOpen + 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			child := exec.Command("sleep", "60")
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { child.Process.Kill(); child.Wait() }()
			pid := child.Process.Pid
			start := unix.Rlimit{Cur: here.Cur, Max: here.Max}
			if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, &start, nil); err != nil {
				t.Fatalf("lower the child's limit: %v", err)
			}
			reach := LimitReach(tc.good, here, SelfBound())
			err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: tc.good.Cur, Max: tc.good.Max}, nil)
			if reach.Full != (err == nil) {
				t.Fatalf("LimitReach says full %v (%s); the kernel answers %v", reach.Full, reach.Why, err)
			}
			if reach.Full {
				if reach.Limit != tc.good {
					t.Errorf("full, but sets %+v, not %+v", reach.Limit, tc.good)
				}
				return
			}
			if !errors.Is(err, unix.EPERM) || reach.Why == "" || reach.Remedy == "" {
				t.Errorf("kernel %v; reason %q, remedy %q", err, reach.Why, reach.Remedy)
			}
			if !strings.Contains(reach.Why, "CAP_SYS_RESOURCE") && !strings.Contains(reach.Why, "fs.nr_open") {
				t.Errorf("reason %q names neither CAP_SYS_RESOURCE nor fs.nr_open", reach.Why)
			}
			// What it sets instead the kernel takes.
			if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: reach.Limit.Cur, Max: reach.Limit.Max}, nil); err != nil {
				t.Errorf("the kernel refuses what LimitReach sets instead, %+v: %v", reach.Limit, err)
			}
			if reach.Limit.Cur > reach.Limit.Max || reach.Limit.Max > max(here.Max, nrOpen) {
				t.Errorf("sets %+v instead", reach.Limit)
			}
		})
	}
}

// TestLimitReachContainer: in a container whose command lacks
// CAP_SYS_RESOURCE a run may not raise the container's hard limit, even
// though envbisect could: the reason names the container, and the
// remedy is docker run's flag with the good value. A container whose
// command holds CAP_SYS_RESOURCE may.
func TestLimitReachContainer(t *testing.T) {
	here := trace.Limit{Resource: unix.RLIMIT_NOFILE, Cur: 64, Max: 64}
	good := trace.Limit{Resource: unix.RLIMIT_NOFILE, Cur: 1024, Max: 4096}
	dockerDefault := uint64(0xa80425fb) // without CAP_SYS_RESOURCE
	spec := trace.ExecSpec{Caps: trace.CapSets{Bounding: dockerDefault, Permitted: dockerDefault, Effective: dockerDefault}}
	b := BoundFor(&trace.Join{PID: 1, Name: "container bad (0844870a481a)", Exec: &spec})
	reach := LimitReach(good, here, b)
	if reach.Full || reach.Limit != here {
		t.Errorf("without CAP_SYS_RESOURCE: full %v, sets %+v; want the container's %+v", reach.Full, reach.Limit, here)
	}
	if !strings.Contains(reach.Why, "container bad") || !strings.Contains(reach.Remedy, "docker run --ulimit nofile=1024:4096") {
		t.Errorf("reason %q, remedy %q: want the container named and docker run --ulimit nofile=1024:4096", reach.Why, reach.Remedy)
	}
	spec.Caps.Bounding |= 1 << capSysResource
	b = BoundFor(&trace.Join{PID: 1, Name: "container big", Exec: &spec})
	if reach := LimitReach(good, here, b); !reach.Full || reach.Limit != good {
		t.Errorf("with CAP_SYS_RESOURCE in the container: full %v, sets %+v; want %+v", reach.Full, reach.Limit, good)
	}
}
