package render

import (
	"strings"
	"testing"
)

// TestNamesNotBytes: a directory listing that differs is said by its
// entries in the text and Markdown reports, its bytes only under -v; an
// unapplied capability set by its capabilities' names.
func TestNamesNotBytes(t *testing.T) {
	s := func(v string) *string { return &v }
	c := &Culprit{Seq: 51, Who: "[1]", Syscall: "getdents64", Call: `getdents64(3, [...], 32768) = 80`, Path: "/etc/app.d",
		Resource: "directory /etc/app.d", Differs: DiffersData, Good: CallResult{Return: "80"}, Here: CallResult{Return: "112"},
		DataDiff: &DataDiff{Buffer: "dirp", GoodSize: 80, HereSize: 112, GoodBytes: `"\x06\x00"...`, HereBytes: `"\t\x00"...`,
			GoodSHA256: "aa", HereSHA256: "bb", Entries: &DirEntries{OnlyHere: []string{"50-corp.conf"}}}}
	c.Explanation = Explain(c)
	r := &LocateReport{Status: Located, RecordedCalls: 80, Runs: 4, Culprit: c, Causes: []*Culprit{c},
		Unapplied: []StartItem{{Kind: "caps", Name: "bounding", Good: s("00000000a80425fb"), Here: s("00000000a80425fa"), Docker: "--cap-drop CHOWN"}}}
	write := func(verbose bool, md bool) string {
		r.Verbose = verbose
		var b strings.Builder
		var err error
		if md {
			err = r.WriteMarkdown(&b)
		} else {
			err = r.WriteText(&b)
		}
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	text, md, verbose := write(false, false), write(false, true), write(true, false)
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{
		"cause directory /etc/app.d (entries differ: 50-corp.conf only here)",
		"here = 112 entries differ: 50-corp.conf only here",
		"The directory /etc/app.d has an entry here that it did not have in the good run: 50-corp.conf.",
		"CAP_CHOWN: in the good run's bounding set, not here (here: --cap-drop CHOWN)",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text)
		}
	}
	for _, report := range []string{text, md} {
		if strings.Contains(report, `\x06`) || strings.Contains(report, "a80425f") || strings.Contains(report, "SHA-256") {
			t.Errorf("the report shows bytes or a hex set:\n%s", report)
		}
	}
	if !strings.Contains(md, "entries differ: 50-corp.conf only here") || !strings.Contains(md, `CAP\_CHOWN: in the good run's bounding set, not here`) {
		t.Errorf("the Markdown report lacks the entry or the capability:\n%s", md)
	}
	if !strings.Contains(verbose, `good: "\x06\x00"...`) {
		t.Errorf("-v: the text report lacks the listing's bytes:\n%s", verbose)
	}
}
