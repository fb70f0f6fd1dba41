package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestFlipAndCauseTitle: the flip kept as evidence and the line that
// leads a cause, for each kind of flip and of difference.
func TestFlipAndCauseTitle(t *testing.T) {
	conf := "file /etc/app.conf"
	tests := []struct {
		name        string
		c           Culprit
		flip, title string
	}{
		{"call flip, first differing open", Culprit{Seq: 5, Resource: conf, Differs: DiffersErrno,
			Good: CallResult{Errno: ""}, Here: CallResult{Errno: "EACCES"},
			Flip: &Flip{Unit: FlipCall, Seq: 9, Resource: conf, FirstDiffers: true}},
			"replaying up to #9 flips the verdict; file /etc/app.conf first differs at #5",
			"file /etc/app.conf (EACCES here)"},
		{"call flip, nothing seen to differ", Culprit{Seq: 9, Resource: conf, Differs: DiffersMissing,
			Flip: &Flip{Unit: FlipCall, Seq: 9, Resource: conf}},
			"replaying up to #9 flips the verdict; no call of file /etc/app.conf was seen to answer otherwise here, so #9 itself is named",
			"file /etc/app.conf (not reached here)"},
		{"resource flip, content", Culprit{Seq: 4, Resource: conf, Differs: DiffersContent, Content: &Culprit{Seq: 6},
			Flip: &Flip{Unit: FlipResource, Resource: conf, Calls: 5, FirstDiffers: true}},
			"replaying file /etc/app.conf (5 calls, with the resources before it) flips the verdict; it first differs at #6 (its content, read through #4)",
			"file /etc/app.conf (content differs)"},
		{"errno on the good side", Culprit{Seq: 3, Path: "/srv/x", Differs: DiffersErrno,
			Good: CallResult{Errno: "ENOENT"}, Here: CallResult{}}, "", "/srv/x (succeeds here, ENOENT in the good run)"},
		{"start item", Culprit{Start: &StartItem{Kind: "env", Name: "LANG", Good: ptr("C")}}, "",
			`start item env LANG (here (not set), good "C")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FlipText(&tt.c); got != tt.flip {
				t.Errorf("FlipText = %q, want %q", got, tt.flip)
			}
			if got := CauseTitle(&tt.c); got != tt.title {
				t.Errorf("CauseTitle = %q, want %q", got, tt.title)
			}
		})
	}
}

// TestSeveralCausesConclusion: with several causes, the first cause's
// conclusion says it is one of them (replayed alone it does not pass),
// in the text and the Markdown alike, never the one-cause sentence that
// replaying it makes the command pass.
func TestSeveralCausesConclusion(t *testing.T) {
	r := markdownReports()["located_content"]
	second := &Culprit{Seq: 61, Who: "[1]", Syscall: "openat", Call: "openat(AT_FDCWD, \"/etc/hosts\", O_RDONLY) = -1 ENOENT",
		Path: "/etc/hosts", Resource: "file /etc/hosts", Differs: DiffersErrno, Good: CallResult{Return: "3"},
		Here: CallResult{Errno: "ENOENT", Return: "-1 ENOENT (No such file or directory)"}}
	r.Causes = []*Culprit{r.Culprit, second}
	var text, md bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	want := "is one of 2 causes: replaying it alone does not make the command pass here; replaying both together does"
	for name, out := range map[string]string{"text": strings.Join(strings.Fields(text.String()), " "), "markdown": md.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("the %s lacks %q:\n%s", name, want, out)
		}
		if strings.Contains(out, "the command passes here; with this environment's answers, it fails") {
			t.Errorf("the %s says the first of two causes alone makes the command pass:\n%s", name, out)
		}
	}
	if !strings.Contains(text.String(), "\ncause     file /srv/app|v2/<conf>`x`.conf (content differs)\n") {
		t.Errorf("the text does not lead with the resource and how it differs:\n%s", text.String())
	}
}
