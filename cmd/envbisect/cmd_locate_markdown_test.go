package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestLocateMarkdown: `locate --format markdown` on the smallest real
// case (fig79, whose config is well formed where it was recorded and not
// here) prints the report as Markdown on stdout, alone (the command's
// own output goes to stderr), with the culprit in the summary line, its
// path escaped where Markdown would read it (the config's name has "|"
// and "<" in it), the content diff in a diff block and the steps in a
// collapsed table; exit status 0, as for the text report. (The
// call-level search's report, --materialize=false; render's tests hold
// the object search's Markdown.)
func TestLocateMarkdown(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	fig79 := testutil.BuildC(t, "fig79.c", false)
	out := testutil.InWorkNS(t, `
cp `+fig79+` fig79
echo "$W" > "$OUT/w"
printf 'key=value\n' > 'cfg|<x>.txt'
"$EB" record -q -o good.envb -- ./fig79 'cfg|<x>.txt' >/dev/null
printf 'key value\n' > 'cfg|<x>.txt'
code=0
start=$(date +%s)
"$EB" locate --materialize=false -q --format markdown good.envb -- ./fig79 'cfg|<x>.txt' > "$OUT/report.md" 2> "$OUT/stderr" || code=$?
echo $code > "$OUT/code"
echo "locate took $(( $(date +%s) - start )) s"
`)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	w := strings.TrimSpace(read("w"))
	md, code := read("report.md"), strings.TrimSpace(read("code"))
	if code != "0" {
		t.Fatalf("locate --format markdown: exit %s; want 0\n%s\nstderr:\n%s", code, md, read("stderr"))
	}
	t.Logf("the Markdown report:\n%s", md)
	path := w + "/cfg|<x>.txt"
	for _, want := range []string{
		"### envbisect locate: located\n\n**Command** `./fig79 'cfg|<x>.txt'` · **Culprit** `openat` of `" + path + "` (call ",
		"\n#### Cause: file " + w + "/cfg\\|&lt;x&gt;.txt (content differs)\n",
		"\n```diff\n--- good\n+++ here\n",
		"\n-key=value\n+key value\n```\n",
		"\n<details>\n<summary>Steps: ",
		"| step | replayed | verdict | seconds | detail |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "fig79:") {
		t.Errorf("the command's own output is in the report on stdout:\n%s", md)
	}
}
