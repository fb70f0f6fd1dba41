package containers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestContainerFDsLikeDockerExec: envbisect's parent holds fds 3, 4 and
// 251 (without close-on-exec); a shell run in a container by record
// --container (with either backend) and replay --container lists the
// descriptors docker exec gives it, 0, 1 and 2; with --keep-fds 251 it
// has 251 too, and the trace's start items name it.
func TestContainerFDsLikeDockerExec(t *testing.T) {
	requireDockerTracing(t)
	c := startWith(t, testutil.ImportImage(t, identityRoot(t), "/"), "fds")
	lister := []string{"sh", "-c", "ls -l /proc/$$/fd"}
	want, _ := testutil.ListedFDs(testutil.RunDocker(t, nil, append([]string{"exec", c}, lister...)...))
	if !slices.Equal(want, []int{0, 1, 2}) {
		t.Fatalf("under docker exec the shell has fds %v, want 0, 1 and 2", want)
	}
	inherited := []int{3, 4, 251}
	list := func(t *testing.T, args ...string) []int {
		t.Helper()
		code, stdout, stderr := testutil.RunWithFDs(t, inherited, append(append([]string{testutil.Envbisect(t)}, args...), lister...)...)
		if code != 0 {
			t.Fatalf("envbisect %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		fds, _ := testutil.ListedFDs(stdout)
		return fds
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.envb")
	if got := list(t, "record", "-q", "--container", c, "-o", trace, "--"); !slices.Equal(got, want) {
		t.Errorf("under envbisect record --container the shell has fds %v, under docker exec %v", got, want)
	}
	if got := list(t, "replay", "-q", "--prefix", "none", "--container", c, trace, "--"); !slices.Equal(got, want) {
		t.Errorf("under envbisect replay --container the shell has fds %v, under docker exec %v", got, want)
	}
	kept := filepath.Join(dir, "kept.envb")
	if got := list(t, "record", "-q", "--container", c, "--keep-fds", "251", "-o", kept, "--"); !slices.Equal(got, []int{0, 1, 2, 251}) {
		t.Errorf("under envbisect record --container --keep-fds 251 the shell has fds %v, want 0, 1, 2 and 251", got)
	}
	r := mustExit(t, 0, "show", kept)
	if !strings.Contains(string(r.Stdout), "# start: fd 251="+os.DevNull+"\n") || strings.Contains(string(r.Stdout), "# start: fd 3=") {
		t.Errorf("show of the --keep-fds 251 trace does not name fd 251 (and only it besides 0, 1, 2):\n%s", r.Stdout)
	}
	t.Run("ebpf", func(t *testing.T) {
		testutil.Require(t, testutil.EBPF)
		if got := list(t, "record", "-q", "--backend", "ebpf", "--container", c, "-o", filepath.Join(dir, "e.envb"), "--"); !slices.Equal(got, want) {
			t.Errorf("under envbisect record --backend ebpf --container the shell has fds %v, under docker exec %v", got, want)
		}
	})
}
