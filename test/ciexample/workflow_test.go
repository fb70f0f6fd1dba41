package ciexample

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/envbisect/envbisect/internal/testutil"
)

// workflowFile is the example workflow, relative to the repository.
const workflowFile = "docs/examples/envbisect.yml"

// TestDocShowsWorkflow: docs/ci.md's yaml block is the workflow file,
// byte for byte.
func TestDocShowsWorkflow(t *testing.T) {
	root := testutil.RepoRoot(t)
	file, err := os.ReadFile(filepath.Join(root, workflowFile))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n```yaml\n")
	if !ok {
		t.Fatal("docs/ci.md has no ```yaml block")
	}
	block, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatal("docs/ci.md's ```yaml block does not end")
	}
	if block+"\n" != string(file) {
		t.Errorf("docs/ci.md's yaml block differs from %s: copy the file into the page", workflowFile)
	}
}

// workflow is the part of a GitHub Actions workflow the test reads.
type workflow struct {
	Jobs map[string]struct {
		Steps []struct {
			Name  string `yaml:"name"`
			Shell string `yaml:"shell"`
			Run   string `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// locateStep returns the run script of the workflow's locate step and its
// shell.
func locateStep(t *testing.T) (script, shell string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), workflowFile))
	if err != nil {
		t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(b, &w); err != nil {
		t.Fatalf("%s: %v", workflowFile, err)
	}
	for _, s := range w.Jobs["locate"].Steps {
		if strings.Contains(s.Run, "envbisect locate") {
			return s.Run, s.Shell
		}
	}
	t.Fatalf("%s: no step of job locate runs envbisect locate", workflowFile)
	return "", ""
}

// stub is a stand-in envbisect: --version prints a line; locate prints a
// report and exits with $STUB_LOCATE_EXIT.
const stub = `#!/bin/sh
case "$1" in
--version) echo "envbisect (stub)" ;;
locate) echo "# report of a stub locate"; exit "$STUB_LOCATE_EXIT" ;;
*) echo "stub envbisect: unexpected $*" >&2; exit 99 ;;
esac
`

// TestLocateStepStatus runs the locate step's script as GitHub runs a
// step, 'bash --noprofile --norc -e' by default and with '-o pipefail'
// under 'shell: bash', with locate exiting 0 (located), 3 (not located),
// 1 (error) and 2 (usage): the step passes on 0 and 3, fails with
// locate's status otherwise, and the report reaches the step summary and
// locate.md in every case.
func TestLocateStepStatus(t *testing.T) {
	testutil.Require(t, testutil.Binary("bash"))
	script, shell := locateStep(t)
	if shell != "bash" {
		t.Errorf("the locate step's shell is %q; want bash (GitHub runs it with -eo pipefail)", shell)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "envbisect"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{{"-e"}, {"-e", "-o", "pipefail"}} {
		for _, locateExit := range []int{0, 1, 2, 3} {
			name := strings.Join(flags, " ") + "/locate exits " + strconv.Itoa(locateExit)
			t.Run(name, func(t *testing.T) {
				work := t.TempDir()
				stepFile := filepath.Join(work, "step.sh")
				if err := os.WriteFile(stepFile, []byte(script), 0o644); err != nil {
					t.Fatal(err)
				}
				summary := filepath.Join(work, "summary.md")
				args := append(append([]string{"--noprofile", "--norc"}, flags...), stepFile)
				cmd := exec.Command("bash", args...)
				cmd.Dir = work
				cmd.Env = append(os.Environ(),
					"PATH="+bin+":"+os.Getenv("PATH"),
					"GITHUB_STEP_SUMMARY="+summary,
					"STUB_LOCATE_EXIT="+strconv.Itoa(locateExit))
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				err := cmd.Run()
				got := 0
				if ee, ok := err.(*exec.ExitError); ok {
					got = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				want := locateExit
				if locateExit == 3 {
					want = 0
				}
				if got != want {
					t.Errorf("the step exits %d; want %d (stderr %q)", got, want, stderr.String())
				}
				for _, f := range []string{summary, filepath.Join(work, "locate.md")} {
					if b, err := os.ReadFile(f); err != nil || !strings.Contains(string(b), "# report of a stub locate") {
						t.Errorf("%s: %q, %v; want the report", filepath.Base(f), b, err)
					}
				}
			})
		}
	}
}
