package main

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
)

func parse(t *testing.T, js string) *scenarios.LocateReport {
	t.Helper()
	rep, err := scenarios.ParseLocate([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestWriteTable checks the table's rows: a prefix search's report (no
// candidates: "—", the bound over recorded calls), a report with
// space.candidates (their count and their bound), a start item, the work
// directory and port made constant, and a case that could not run.
func TestWriteTable(t *testing.T) {
	w := &scenarios.Work{Dir: "/tmp/envbisect-runs-x", Port: 40123}
	rows := []*row{
		{name: "fig79-config", kind: "scenario", locate: 2345 * time.Millisecond, shorten: shortener(w),
			rep: parse(t, `{"status": "located", "runs": 7, "repeat_runs": 2, "recorded_calls": 29, "replayable_calls": 12,
				"culprit": {"seq": 26, "syscall": "read", "path": "/tmp/envbisect-runs-x/env/app.conf"}}`)},
		{name: "lighttpd", kind: "case study", locate: 6200 * time.Millisecond, shorten: shortener(w),
			rep: parse(t, `{"status": "located", "runs": 4, "repeat_runs": 2, "recorded_calls": 2676, "replayable_calls": 1331,
				"space": {"candidates": 5}, "culprit": {"seq": 81, "syscall": "bind", "path": "socket:[3892749]", "resource": "tcp 127.0.0.1:40123"}}`)},
		{name: "env-var", kind: "scenario", locate: time.Second,
			rep: parse(t, `{"status": "located", "runs": 3, "recorded_calls": 30, "replayable_calls": 10,
				"culprit": {"start": {"kind": "env", "name": "APP_PROFILE"}}}`)},
		{name: "no-failure", kind: "scenario", locate: time.Second,
			rep:   parse(t, `{"status": "no-failure", "runs": 1, "recorded_calls": 20, "replayable_calls": 8}`),
			notes: []string{"status \"no-failure\", want \"located\""}},
		{name: "mpd", kind: "case study", err: errors.New("missing the program mpd")},
	}
	var out bytes.Buffer
	writeTable(&out, rows)
	got := out.String()
	for _, want := range []string{
		"| fig79-config | 29 | 12 | — | 7 | 2 | 0 | 0 | 8 | located | #26 read WORK/env/app.conf | 2.3 s |\n",
		"| lighttpd (case study) | 2,676 | 1,331 | 5 | 4 | 2 | 0 | 0 | 15 (C: 6) | located | #81 bind tcp 127.0.0.1:PORT | 6.2 s |\n",
		"| env-var | 30 | 10 | — | 3 | 0 | 0 | 0 | 8 | located | start env APP_PROFILE | 1.0 s |\n",
		"| no-failure | 20 | 8 | — | 1 | 0 | 0 | 0 | 8 | no-failure | — | 1.0 s |\n",
		"| mpd (case study) | — | — | — | — | — | — | — | — | could not run | — | — |\n",
		"\nmpd could not run: missing the program mpd\n",
		"\nno-failure, not what its test wants:\n- status \"no-failure\", want \"located\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the table lacks %q:\n%s", want, got)
		}
	}
	// every row has the header's number of cells
	lines := strings.Split(got, "\n")
	header := strings.Count(lines[0], "|")
	for _, l := range lines[:len(rows)+2] {
		if n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"); n != header {
			t.Errorf("%d cell separators, the header has %d: %s", n, header, l)
		}
	}
}

// TestPick checks -run against the case list: every scenario and case
// study is there once, in order, and a regular expression picks by name.
func TestPick(t *testing.T) {
	all := allCases()
	var names []string
	for _, c := range all {
		names = append(names, c.name)
	}
	var want []string
	for _, s := range scenarios.All() {
		want = append(want, s.Name)
	}
	for _, c := range scenarios.Thesis() {
		want = append(want, c.Name)
	}
	if !slices.Equal(names, want) {
		t.Errorf("cases %v, want %v", names, want)
	}
	got := pick(all, regexp.MustCompile(`^(fig79-config|vsftpd)$`))
	if len(got) != 2 || got[0].name != "fig79-config" || got[0].kind != "scenario" || got[1].name != "vsftpd" || got[1].thesis == nil || got[1].thesis.Name != "vsftpd" {
		t.Errorf("pick = %+v", got)
	}
}

// TestFlags checks that a bad -run or a stray argument is refused.
func TestFlags(t *testing.T) {
	if _, err := parseFlags([]string{"-run", "("}, io.Discard); err == nil {
		t.Error("a bad -run was accepted")
	}
	if _, err := parseFlags([]string{"mpd"}, io.Discard); err == nil {
		t.Error("an argument was accepted")
	}
	o, err := parseFlags([]string{"-run", "mpd", "-envbisect", "/x/envbisect"}, io.Discard)
	if err != nil || o.pick.String() != "mpd" || o.envbisect != "/x/envbisect" {
		t.Errorf("parseFlags = %+v, %v", o, err)
	}
}
