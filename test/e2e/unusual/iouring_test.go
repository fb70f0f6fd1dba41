package unusual_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestIOURingReported: a program that opens and reads its configuration
// through io_uring only (IORING_OP_OPENAT, IORING_OP_READ). record warns
// once, naming the process; the trace keeps io_uring_setup as such; when
// the configuration then differs, locate cannot see the difference (it is
// in the ring), and its report says why: "unseen" in the JSON, a line in
// the text.
func TestIOURingReported(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	eb := testutil.Envbisect(t)
	prog := testutil.BuildC(t, "uringconf.c", true)
	dir := t.TempDir()
	conf, tr := filepath.Join(dir, "app.conf"), filepath.Join(dir, "good.envb")
	if err := os.WriteFile(conf, []byte("good\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, eb, "record", "-o", tr, "--", prog, conf)
	if code != 0 || !strings.Contains(stdout, "config: good") {
		t.Fatalf("record: exit %d, stdout %q: the program must pass", code, stdout)
	}
	warning := regexp.MustCompile(`warning: pid \d+ \(` + regexp.QuoteMeta(prog) + `\) uses io_uring \(io_uring_setup, call #\d+\): ` +
		`its file I/O through the ring is not visible to envbisect`)
	if n := len(warning.FindAllString(stderr, -1)); n != 1 {
		t.Errorf("record warned %d times of io_uring, want once matching %q", n, warning)
	}
	if _, shown, _ := run(t, eb, "show", tr); !strings.Contains(shown, "io_uring_setup(") || !strings.Contains(shown, "io_uring_enter(") {
		t.Errorf("the trace does not keep io_uring_setup and io_uring_enter as such")
	}

	if err := os.WriteFile(conf, []byte("bad\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = run(t, eb, "locate", "--json", tr, "--", prog, conf)
	if code == 0 {
		t.Errorf("locate exit 0: nothing it can see differs, it cannot have located a culprit")
	}
	var rep struct {
		Status string `json:"status"`
		Unseen []struct {
			Kind    string `json:"kind"`
			Exe     string `json:"exe"`
			Message string `json:"message"`
		} `json:"unseen"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("locate --json: %v", err)
	}
	if len(rep.Unseen) != 1 || rep.Unseen[0].Kind != "io_uring" || rep.Unseen[0].Exe != prog {
		t.Errorf("report's unseen = %+v, want one io_uring use by %s", rep.Unseen, prog)
	}
	_, text, _ := run(t, eb, "locate", tr, "--", prog, conf)
	if !strings.Contains(text, "Not visible to envbisect in the recorded run:") ||
		!regexp.MustCompile(`(?m)^  pid \d+ \(`+regexp.QuoteMeta(prog)+`\) uses io_uring`).MatchString(text) {
		t.Errorf("the text report does not list the io_uring use")
	}
}
