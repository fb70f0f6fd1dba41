package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

func TestParseMountinfo(t *testing.T) {
	line := `36 35 98:0 /mnt1 /mnt\040two rw,noatime master:1 - ext3 /dev/root rw,errors=continue`
	p, o, ok := parseMountinfo(line)
	if !ok || p != "/mnt two" || trace.MountFlags(o) != trace.MountNone {
		t.Errorf("parseMountinfo = %q %q %v", p, o, ok)
	}
	p, o, ok = parseMountinfo(`50 30 0:45 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,size=65536k`)
	if !ok || p != "/tmp" || trace.MountFlags(o) != "noexec,nosuid,nodev" {
		t.Errorf("parseMountinfo = %q %q %v", p, o, ok)
	}
	if _, _, ok := parseMountinfo("garbage"); ok {
		t.Error("a bad line parsed")
	}
}

func TestCgroupLimitsAt(t *testing.T) {
	root := t.TempDir()
	write := func(rel, v string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// v1: one hierarchy per controller.
	write("pids/docker/c1/pids.max", "20")
	write("memory/docker/c1/memory.limit_in_bytes", "9223372036854771712")
	write("cpu/docker/c1/cpu.cfs_quota_us", "50000")
	write("cpu/docker/c1/cpu.cfs_period_us", "100000")
	got := cgroupLimitsAt(root, "", map[string]string{"pids": "/docker/c1", "memory": "/docker/c1", "cpu": "/docker/c1"})
	want := []trace.StartEvent{
		{Kind: trace.StartCgroup, Name: trace.CgroupPidsMax, Value: "20"},
		{Kind: trace.StartCgroup, Name: trace.CgroupMemoryMax, Value: "max"},
		{Kind: trace.StartCgroup, Name: trace.CgroupCPUMax, Value: "50000 100000"},
	}
	if len(got) != len(want) {
		t.Fatalf("v1: %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("v1: %v, want %v", got[i], want[i])
		}
	}
	// v2: the unified hierarchy.
	write("system.slice/c2/pids.max", "max")
	write("system.slice/c2/memory.max", "1048576")
	write("system.slice/c2/cpu.max", "max 100000")
	got = cgroupLimitsAt(root, "/system.slice/c2", nil)
	if len(got) != 3 || got[0].Value != "max" || got[1].Value != "1048576" || got[2].Value != "max 100000" {
		t.Errorf("v2: %v", got)
	}
}

func TestFilterBehaviour(t *testing.T) {
	const (
		ldNr  = 0x20 // BPF_LD|BPF_W|BPF_ABS
		jeqK  = 0x15 // BPF_JMP|BPF_JEQ|BPF_K
		retK  = 0x06
		allow = 0x7fff0000
		deny  = 0x00050001 // SECCOMP_RET_ERRNO|EPERM
	)
	denies90 := trace.BPFProgram{{Code: ldNr}, {Code: jeqK, Jt: 0, Jf: 1, K: 90}, {Code: retK, K: deny}, {Code: retK, K: allow}}
	sameLaidOut := trace.BPFProgram{{Code: ldNr}, {Code: jeqK, Jt: 1, Jf: 0, K: 90}, {Code: retK, K: allow}, {Code: retK, K: deny}}
	denies91 := trace.BPFProgram{{Code: ldNr}, {Code: jeqK, Jt: 0, Jf: 1, K: 91}, {Code: retK, K: deny}, {Code: retK, K: allow}}
	if trace.FilterHash(denies90) == trace.FilterHash(sameLaidOut) {
		t.Fatal("the two layouts have the same instructions")
	}
	if filterBehaviour(denies90) != filterBehaviour(sameLaidOut) {
		t.Errorf("one behaviour, two layouts: %s and %s", filterBehaviour(denies90), filterBehaviour(sameLaidOut))
	}
	if filterBehaviour(denies90) == filterBehaviour(denies91) {
		t.Errorf("filters denying different calls hash alike")
	}
}

func TestFilterDenies(t *testing.T) {
	denies90 := trace.BPFProgram{{Code: 0x20}, {Code: 0x15, Jt: 0, Jf: 1, K: 90}, {Code: 0x06, K: 0x00050001}, {Code: 0x06, K: 0x7fff0000}}
	if e := FilterDenies([]trace.BPFProgram{denies90})(90, [6]uint64{}); e != 1 {
		t.Errorf("call 90: errno %d, want 1", e)
	}
	if e := FilterDenies([]trace.BPFProgram{denies90})(91, [6]uint64{}); e != 0 {
		t.Errorf("call 91: errno %d, want 0", e)
	}
}

// TestPlacementStart: the StartCPUs event says pinned with the CPU the
// helper pins the command to, or inherited with the CPUs the process may
// run on (this test's own process here).
func TestPlacementStart(t *testing.T) {
	got := placementStart(&Config{CPU: 3}, os.Getpid())
	if got != (trace.StartEvent{Kind: trace.StartCPUs, Name: trace.CPUsPinned, Value: "3"}) {
		t.Errorf("pinned to 3: %+v", got)
	}
	got = placementStart(&Config{CPU: -1}, os.Getpid())
	if got.Kind != trace.StartCPUs || got.Name != trace.CPUsInherited || got.Value == "" || got.Value != affinityList(os.Getpid()) {
		t.Errorf("unpinned: %+v, want inherited=%s", got, affinityList(os.Getpid()))
	}
	if p := trace.PlacementOf([]trace.StartEvent{got}); !p.Unpinned() {
		t.Errorf("PlacementOf(%+v) = %+v: not unpinned", got, p)
	}
}
