package replay

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

func TestMountDiffs(t *testing.T) {
	m := func(point, flags string) trace.StartEvent {
		return trace.StartEvent{Kind: trace.StartMount, Name: point, Value: flags}
	}
	rec := []trace.StartEvent{m("/", "rw"), m("/proc", "nosuid,nodev,noexec")}
	live := []trace.StartEvent{m("/", "ro"), m("/proc", "rw"), m("/tmp", "noexec,nosuid,nodev")}
	got := mountDiffs(rec, live, []string{"/etc/passwd", "/tmp/x.sh"})
	if len(got) != 2 {
		t.Fatalf("mountDiffs = %+v, want / and /tmp", got)
	}
	if got[0].Name != "/" || got[0].A.Value != "rw" || got[0].B.Value != "ro" {
		t.Errorf("/: %+v %+v", got[0].A, got[0].B)
	}
	if got[1].Name != "/tmp" || got[1].A.Value != "rw" || got[1].B.Value != "noexec,nosuid,nodev" {
		t.Errorf("/tmp: %+v %+v (the recording's / holds /tmp)", got[1].A, got[1].B)
	}
	if d := mountDiffs(rec, rec, []string{"/etc/passwd"}); len(d) != 0 {
		t.Errorf("same mounts: %+v", d)
	}
}
