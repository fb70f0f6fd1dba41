package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/internal/testutil"
)

func TestResidentArgv(t *testing.T) {
	got := residentArgv("envbisect", options{pin: true}, "/tmp/r.sock", "t.envb", []string{"git", "status"})
	want := []string{"envbisect", "record", "--backend", "ebpf", "--recorder", "/tmp/r.sock", "--cpu", "auto", "-o", "t.envb", "--", "git", "status"}
	if !slices.Equal(got, want) {
		t.Errorf("residentArgv = %q\nwant %q", got, want)
	}
}

// Without a recorder the variant is n/a with the reason setup gave.
func TestResidentVariantSkip(t *testing.T) {
	o := options{variants: []string{"ebpf-resident"}}
	e := &env{envbisect: "/bin/true", residentSkip: "needs root"}
	vs := e.variants(o)
	if len(vs) != 2 || vs[1].name != "ebpf-resident" || vs[1].skip != "needs root" || !vs[1].recorder {
		t.Errorf("variants = %+v; want native and ebpf-resident, skipped as needing root", vs)
	}
}

// The harness's recorder answers, records a real program through its
// socket, and once stopped is gone: no process, no socket, no program of
// its own left loaded, and its VmHWM read.
func TestResidentStartStop(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	bin := testutil.Envbisect(t)
	dir := t.TempDir()
	r, err := startResident(context.Background(), bin, dir)
	if err != nil {
		t.Fatal(err)
	}
	pid := r.cmd.Process.Pid
	stopped := false
	defer func() {
		if !stopped {
			r.kill()
		}
	}()
	if _, err := os.Stat(r.socket); err != nil {
		t.Fatalf("socket: %v", err)
	}
	// "listening on SOCKET (programs 12 13 loaded)"
	log := r.stderr.String()
	_, ids, ok := strings.Cut(log, "(programs ")
	ids, _, ok2 := strings.Cut(ids, " loaded)")
	if !ok || !ok2 || ids == "" {
		t.Fatalf("recorder's log names no programs: %q", log)
	}
	var progs []uint32
	for _, f := range strings.Fields(ids) {
		id, err := strconv.ParseUint(f, 10, 32)
		if err != nil {
			t.Fatalf("program id %q in %q", f, log)
		}
		progs = append(progs, uint32(id))
	}

	rn := runner{dir: dir, timeout: time.Minute, env: benchEnv()}
	trace := filepath.Join(dir, "ls.envb")
	res := rn.run(context.Background(), residentArgv(bin, options{}, r.socket, trace, []string{"/bin/ls", "/"}), false)
	if res.err != nil || res.status != 0 {
		t.Fatalf("record through the recorder: %s", describe(res))
	}
	if strings.Contains(res.stderr, "loading the probe here") {
		t.Errorf("the recording loaded its own probe: %s", res.stderr)
	}
	if _, err := os.Stat(trace); err != nil {
		t.Errorf("no trace: %v", err)
	}

	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if r.hwm <= 0 {
		t.Errorf("recorder VmHWM = %d, want it read before the stop", r.hwm)
	}
	if _, err := os.Stat(r.socket); !os.IsNotExist(err) {
		t.Errorf("socket %s still there after the stop (%v)", r.socket, err)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); !os.IsNotExist(err) {
		t.Errorf("recorder process %d still there after the stop", pid)
	}
	for _, id := range progs {
		if bpf.ProgramLoaded(id) {
			t.Errorf("BPF program %d still loaded after the recorder stopped", id)
		}
	}
}
