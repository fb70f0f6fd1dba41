package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

var update = flag.Bool("update", false, "rewrite render/testdata/*.md from the reports of the golden tests")

func ptr(s string) *string { return &s }

// markdownReports are the reports of the golden tests, by the name of
// their file in testdata: each status, and the culprits of each kind.
func markdownReports() map[string]*LocateReport {
	ret := func(n int64) *int64 { return &n }
	steps := []LocateStep{
		{Step: 1, Verdict: verdict.Fail, Detail: "exit status 1", Seconds: 0.41},
		{Step: 1, Verdict: verdict.Fail, Detail: "exit status 1", Seconds: 0.39, Note: "repeatability check"},
		{Step: 2, All: true, Prefix: AllCalls, Verdict: verdict.Pass, Detail: "exit status 0", Seconds: 0.52},
		{Step: 3, Resources: 1, Verdict: verdict.Skip, Detail: "exit status 1", Seconds: 0.47, Taken: verdict.Fail,
			Taint: "a live read met a stand-in", Divergences: divergences("[1] at #12: expected openat(\"/a|b\"), got read(3)",
				"[2] at #40: <extra> poll", "[2] at #41: extra poll", "[2] at #42: extra poll")},
		{Step: 4, Resources: 2, Verdict: verdict.Pass, Detail: "exit status 0", Seconds: 0.50, Round: 2},
	}
	conf := "/srv/app|v2/<conf>`x`.conf"
	return map[string]*LocateReport{
		"located_content": {Status: Located, Command: []string{"./app", "--config", conf}, RecordedCalls: 212, ReplayableCalls: 80,
			Runs: 5, RepeatRuns: 1, Seconds: 2.29, Isolation: "a throwaway copy of the file system each",
			Space: &SearchSpace{Over: SpaceDiffering, Candidates: 2, Resources: []SpaceResource{
				{Title: "file " + conf, First: 40, Differs: 42, Calls: 4}, {Title: "file /etc/hosts", First: 60, Calls: 3}}},
			Culprit: &Culprit{Seq: 40, Proc: 1, Thread: 1, Who: "[1]", Exe: "/usr/bin/app", Syscall: "openat",
				Call: `openat(AT_FDCWD, "/srv/app|v2/<conf>` + "`x`" + `.conf", O_RDONLY) = 3`, Path: conf, Resource: "file " + conf,
				Good: CallResult{Ret: ret(3), Return: "3"}, Here: CallResult{Ret: ret(3), Return: "3"}, Differs: DiffersContent,
				Flip: &Flip{Unit: FlipResource, Resource: "file " + conf, Calls: 4, FirstDiffers: true},
				Content: &Culprit{Seq: 42, Who: "[1]", Syscall: "read", Call: `read(3, "mode=fast\n# <b>bold</b> | x\n", 4096) = 29`,
					Good: CallResult{Return: "29"}, Here: CallResult{Return: "29"},
					DataDiff: &DataDiff{Buffer: "buf", Text: true, GoodSize: 29, HereSize: 29, FirstDifference: 5,
						Diff: []string{"--- good", "+++ here", "@@ line 1 @@", "-mode=fast", "+mode=slow", " # <b>bold</b> | x", "+```"}}}},
			Group: &CulpritGroup{Kind: "file", Title: "file " + conf, Calls: []GroupCall{{40, "openat"}, {41, "fstat"}, {42, "read"}, {44, "close"}}},
			Steps: steps, TracePath: "good.envb",
		},
		"located_start": {Status: Located, Command: []string{"make", "test"}, RecordedCalls: 1038, ReplayableCalls: 700, StartItems: 2,
			Runs: 4, Seconds: 1.5, Space: &SearchSpace{Over: SpaceDiffering, Candidates: 3},
			Culprit: &Culprit{Start: &StartItem{Kind: "rlimit", Name: "RLIMIT_NOFILE", Good: ptr("1024 524288"), Here: ptr("20 20")}},
			Steps:   steps[:3],
		},
		"inconclusive": {Status: Inconclusive, Message: "runs skipped between call 12 and call 15", Command: []string{"sh", "-c", "./t | grep ok"},
			RecordedCalls: 90, ReplayableCalls: 40, Runs: 9, Seconds: 3.2, Candidates: []uint64{12, 13, 15},
			CandidateLines: []string{`#12 [1] openat(AT_FDCWD, "a|b", O_RDONLY) = 3`, "#13 [1] read(3, \"``\", 10) = 2", `#15 [2] close(3) = 0`},
			RunFlags:       []string{"--timeout", "10s"}, TracePath: "t.envb", Steps: steps[:3],
		},
		"replay_still_fails": {Status: ReplayStillFails, Message: "the command fails with every recorded call replayed", Command: []string{"./srv"},
			RecordedCalls: 300, ReplayableCalls: 120, Runs: 2, Seconds: 0.9,
			Divergences: divergences("[1] at #77: expected read(5), got write(5) <diverged>"),
			NotServed:   []NotServed{{Seq: 9, Path: "/opt/*secret*/key", Why: "content excluded from the trace (record it without an --exclude-content GLOB matching it)"}},
			Unapplied:   []StartItem{{Kind: "caps", Name: "bounding", Good: ptr("00000000a80425fb"), Here: ptr("00000000a80425fa"), Docker: "--cap-drop CHOWN", Why: "envbisect's own bounding set lacks it"}},
			Steps:       steps[:2],
		},
		"located_dns": dnsReport(DNSAnswer{RCode: "NXDOMAIN"}),
		"located_binary": {Status: Located, Command: []string{"./loader"}, RecordedCalls: 50, ReplayableCalls: 20, Runs: 6, Seconds: 0.8,
			Culprit: &Culprit{Seq: 31, Who: "[1:2]", Exe: "/opt/loader", Syscall: "pread64",
				Call: `pread64(4, "\x7fELF\x02"..., 64, 0) = 64`, Path: "/opt/lib\nnew/*lib*_x.so",
				Good: CallResult{Return: "64", Data: map[string]CallBuffer{"buf": {Len: 64}}}, Here: CallResult{Return: "64", Data: map[string]CallBuffer{"buf": {Len: 64}}},
				DataDiff: &DataDiff{Buffer: "buf", GoodSize: 64, HereSize: 64, FirstDifference: 18, GoodBytes: `"\x3e\x00"...`, HereBytes: `"\xb7\x00"...`}},
			Lost:  &trace.Losses{Calls: 3, Incomplete: 1},
			Cause: &Cause{Item: StartItem{Kind: "mount", Name: "/opt", Docker: "--read-only"}, Seq: 31, Text: "pread64(/opt/lib) = EROFS here: the mount at /opt is read-only here"},
			Steps: []LocateStep{{Step: 1, Prefix: 12, Start: 1, Verdict: verdict.Fail, Detail: "killed by SIGSEGV", Seconds: 0.1}},
		},
	}
}

// TestMarkdownGolden: each report prints as its golden file
// (testdata/locate_NAME.md; go test ./render -run Markdown -update
// rewrites them).
func TestMarkdownGolden(t *testing.T) {
	for name, r := range markdownReports() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := r.WriteMarkdown(&b); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "locate_"+name+".md", b.Bytes())
			checkMarkdown(t, b.String())
		})
	}
}

// TestMarkdownFutureFields: members of the report's JSON that
// WriteMarkdown does not lay out itself still print, and "causes" (each
// shaped like culprit) print as causes: a field added to the report later
// (an explanation, a witness of the search) cannot go missing from the
// Markdown. The members are added to the JSON here, as such a field
// would add them.
func TestMarkdownFutureFields(t *testing.T) {
	for _, status := range []string{"located", "unconfirmed"} {
		t.Run(status, func(t *testing.T) {
			md := futureFieldsMarkdown(t, status)
			checkGolden(t, "locate_future_fields_"+status+".md", []byte(md))
			checkMarkdown(t, md)
			wants := []string{
				"### envbisect locate: " + status + "\n",
				"- **Explanation** the file's content differs: line 1 is mode=slow here, mode=fast in the good run",
				"#### More in the report",
				"  - **Note** a member added later, with members of its own",
				"| exit status 0 (round 2) \\[Role: confirm\\] |",
			}
			if status == "located" {
				wants = append(wants, "#### Cause 1 of 2: file /srv/app\\|v2/&lt;conf&gt;\\`x\\`.conf",
					"#### Cause 2 of 2: file /etc/hosts", "- **Explanation** /etc is there, /etc/hosts is missing here", "  - **Missing** /etc/hosts", "(and 1 more cause)")
			} else {
				wants = append(wants, "#### Culprit, unconfirmed: file /srv/app\\|v2/&lt;conf&gt;\\`x\\`.conf",
					"**Culprit, unconfirmed** `openat`", "Steps that did not confirm it: 3, 4 (below).", unconfirmedAdvice[:40])
			}
			for _, want := range wants {
				if !strings.Contains(md, want) {
					t.Errorf("the Markdown lacks %q:\n%s", want, md)
				}
			}
		})
	}
}

// futureFieldsMarkdown is the Markdown of the located_content report
// with status, whose JSON has members no field of LocateReport has
// today: located, "causes" (two, the first the culprit); otherwise a
// "suspect" in place of the culprit and the "disagreeing" steps; an
// "explanation" of each cause, a "witness", a step's "role".
func futureFieldsMarkdown(t *testing.T, status string) string {
	r := markdownReports()["located_content"]
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // the steps' prefixes are uint64
	if err := dec.Decode(&obj); err != nil {
		t.Fatal(err)
	}
	first := obj["culprit"].(map[string]any)
	first["explanation"] = "the file's content differs: line 1 is mode=slow here, mode=fast in the good run"
	second := map[string]any{"seq": 61, "who": "[1]", "syscall": "openat", "call": `openat(AT_FDCWD, "/etc/hosts", O_RDONLY) = -1 ENOENT`,
		"path": "/etc/hosts", "resource": "file /etc/hosts", "good": map[string]any{"return": "3"}, "here": map[string]any{"return": "-1 ENOENT (No such file or directory)"},
		"explanation": "/etc is there, /etc/hosts is missing here", "lookup": map[string]any{"missing": "/etc/hosts", "diff": []string{"-a", "+b"}}}
	obj["status"] = status
	obj["witness"] = map[string]any{"seq": 44, "note": "a member added later, with members of its own"}
	steps := obj["steps"].([]any)
	steps[len(steps)-1].(map[string]any)["role"] = "confirm"
	if status == "located" {
		obj["causes"] = []any{first, second}
	} else {
		// What the search ended at, not named: no culprit.
		delete(obj, "culprit")
		obj["suspect"] = first
		obj["disagreeing"] = []int{3, 4}
	}
	raw, err = json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var back LocateReport
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeMarkdown(&b, &back, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkGolden compares got with testdata/name, or writes it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -run Markdown -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the Markdown differs from %s (go test ./render -run Markdown -update rewrites it):\n%s", path, got)
	}
}

// htmlTag matches what GitHub would read as an HTML tag.
var htmlTag = regexp.MustCompile(`</?[A-Za-z][^>]*>`)

// checkMarkdown checks what escaping must give whatever the report
// holds: every table row has the table's columns (no "|" of the data
// splits a cell), the only HTML tags are the report's own, and every
// fenced block is closed by its own fence.
func checkMarkdown(t *testing.T, md string) {
	t.Helper()
	inFence := ""
	for i, l := range strings.Split(md, "\n") {
		if inFence != "" {
			if strings.TrimLeft(l, " ") == inFence {
				inFence = ""
			}
			continue
		}
		if strings.HasPrefix(l, "```") || strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
			inFence = strings.TrimLeft(strings.TrimRight(l, "abcdefghijklmnopqrstuvwxyz"), " ")
			continue
		}
		if strings.HasPrefix(l, "|") {
			if n := strings.Count(l, "|") - strings.Count(l, `\|`); n != 6 {
				t.Errorf("line %d: a table row with %d cell borders: %s", i+1, n-1, l)
			}
		}
		for _, tag := range htmlTag.FindAllString(stripCodeSpans(l), -1) {
			switch tag {
			case "<details>", "</details>", "<summary>", "</summary>", "<br>":
			default:
				t.Errorf("line %d: an HTML tag %s from the data: %s", i+1, tag, l)
			}
		}
	}
	if inFence != "" {
		t.Errorf("a fenced block %s is not closed", inFence)
	}
}

// stripCodeSpans removes the code spans of a line (where "<" is shown as
// it is, never read as a tag).
func stripCodeSpans(l string) string {
	var b strings.Builder
	for len(l) > 0 {
		i := strings.IndexByte(l, '`')
		if i < 0 || i > 0 && l[i-1] == '\\' {
			if i < 0 {
				b.WriteString(l)
				break
			}
			b.WriteString(l[:i+1])
			l = l[i+1:]
			continue
		}
		b.WriteString(l[:i])
		n := 1
		for i+n < len(l) && l[i+n] == '`' {
			n++
		}
		fence := strings.Repeat("`", n)
		end := strings.Index(l[i+n:], fence)
		if end < 0 {
			b.WriteString(l[i:])
			break
		}
		l = l[i+n+end+n:]
	}
	return b.String()
}

// divergences makes divergences of kind extra whose text is each line.
func divergences(lines ...string) []Divergence {
	out := make([]Divergence, len(lines))
	for i, l := range lines {
		out[i] = Divergence{Kind: "extra", Proc: 1, Thread: 1, LiveCall: l, Text: l}
	}
	return out
}
