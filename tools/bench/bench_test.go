package main

import (
	"slices"
	"testing"
	"time"
)

func TestSummaryCalls(t *testing.T) {
	for _, tc := range []struct {
		name string
		out  string
		want int64
		ok   bool
	}{
		{"total object", `{"calls": 1234, "procs": 3}`, 1234, true},
		{"total wins over rows", `{"total": 7, "syscalls": [{"syscall": "read", "count": 3}]}`, 7, true},
		{"rows as lines", "{\"syscall\":\"read\",\"count\":10}\n{\"syscall\":\"openat\",\"count\":5}\n", 15, true},
		{"rows as array", `[{"name": "read", "calls": 2}, {"name": "close", "calls": 1}]`, 3, true},
		{"nested rows", `{"syscalls": [{"syscall": "read", "count": 4}]}`, 4, true},
		{"pretty printed", "{\n  \"calls\": 9\n}\n", 9, true},
		{"no count", `{"version": 1}`, 0, false},
		{"not json", "read 10\nopenat 5\n", 0, false},
		{"empty", "", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := summaryCalls([]byte(tc.out))
			if got != tc.want || ok != tc.ok {
				t.Errorf("summaryCalls(%q) = %d, %v; want %d, %v", tc.out, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestJSONCalls(t *testing.T) {
	out := `{"seq":1,"proc":1,"tid":10,"syscall":"openat","ret":3,"path":"/etc/hosts"}
{"event":"argv","value":["cat"]}
not json
{"seq":2,"proc":1,"tid":10,"syscall":"read","ret":-1,"errno":"EBADF"}
`
	if got := jsonCalls([]byte(out)); got != 2 {
		t.Errorf("jsonCalls = %d, want 2", got)
	}
}

func TestMedian(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{3 * s}, 3 * s},
		{[]time.Duration{5 * s, 1 * s, 3 * s}, 3 * s},
		{[]time.Duration{4 * s, 1 * s, 2 * s, 3 * s}, 2500 * time.Millisecond},
	} {
		in := slices.Clone(tc.in)
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("median reordered its input")
		}
	}
}

func TestPick(t *testing.T) {
	got, err := pick("python, cloop", workloadNames)
	if err != nil || !slices.Equal(got, []string{"cloop", "python"}) {
		t.Errorf("pick = %v, %v; want [cloop python] in the known order", got, err)
	}
	if _, err := pick("cloop,nope", workloadNames); err == nil {
		t.Error("pick accepted an unknown name")
	}
	if _, err := pick(",", workloadNames); err == nil {
		t.Error("pick accepted an empty selection")
	}
}

func TestFormat(t *testing.T) {
	for in, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(in); got != want {
			t.Errorf("thousands(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[int64]string{512: "512 B", 2048: "2.0 KiB", 3 << 20: "3.0 MiB"} {
		if got := size(in); got != want {
			t.Errorf("size(%d) = %q, want %q", in, got, want)
		}
	}
}
