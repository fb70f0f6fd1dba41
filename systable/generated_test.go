package systable

import "testing"

// TestGeneratedIn: the rows say which creations make a fresh name, by
// their flags, and every such rule sits on a row that creates a path.
func TestGeneratedIn(t *testing.T) {
	tab := amd64Table(t)
	const oCreat, oExcl, oRDWR = 0o100, 0o200, 2
	for _, tc := range []struct {
		name    string
		flagArg int
		flags   uint64
		want    NameGen
	}{
		{"openat", 2, oRDWR | oCreat | oExcl, GenRandom | GenPID}, // mkstemp, tempfile, sem_open
		{"open", 1, oRDWR | oCreat | oExcl, GenRandom | GenPID},
		{"openat", 2, oRDWR | oCreat, GenPID}, // sh: > /tmp/out.$$
		{"openat", 2, oRDWR, 0},
		{"openat", 2, oRDWR | oExcl, 0}, // O_EXCL without O_CREAT creates nothing
		{"creat", -1, 0, GenPID},
		{"mkdir", -1, 0, GenRandom | GenPID}, // mkdtemp, mktemp -d
		{"mkdirat", -1, 0, GenRandom | GenPID},
		{"mknodat", -1, 0, GenRandom | GenPID}, // mkfifo /tmp/fifo.$$
		{"unlink", -1, 0, 0},
		{"stat", -1, 0, 0},
	} {
		row, ok := tab.ByName(tc.name)
		if !ok {
			t.Fatalf("no row %s", tc.name)
		}
		var args [6]uint64
		if tc.flagArg >= 0 {
			args[tc.flagArg] = tc.flags
		}
		if got := row.GeneratedIn(args); got != tc.want {
			t.Errorf("%s(flags %#o): generated %b, want %b", tc.name, tc.flags, got, tc.want)
		}
	}
	for _, r := range tab.All() {
		for _, g := range r.Generated {
			var args [6]uint64
			args[g.Arg] = g.Want
			if r.CreatedPathArg(args) < 0 {
				t.Errorf("%s: a generated-name rule on a call that creates no path with it", r.Name)
			}
		}
	}
}

// TestNameGenMatches: names that differ only in what a generator makes
// match, names a program chose do not.
func TestNameGenMatches(t *testing.T) {
	for _, tc := range []struct {
		gen       NameGen
		rec, live string
		want      bool
	}{
		{GenRandom, "/tmp/tmp.Xk3bQzAa9c", "/tmp/tmp.pa9Lw1Qq0Z", true}, // mktemp
		{GenRandom, "/tmp/tmpa_8xk2m9", "/tmp/tmpq1w2e3r_", true},       // Python tempfile
		{GenRandom, "/dev/shm/sem.UjB0sx", "/dev/shm/sem.aaaaaa", true}, // sem_open
		{GenRandom, "/w/out/keyXYZ123.tmp", "/w/out/keyQWE987.tmp", true},
		{GenRandom, "/tmp/tmp.Xk3bQz", "/tmp/tmp.Xk3bQzz", false},      // another length
		{GenRandom, "/tmp/a/tmp.Xk3bQz", "/tmp/b/tmp.pa9Lw1", false},   // another directory
		{GenRandom, "/tmp/file1", "/tmp/file2", false},                 // too short a run
		{GenRandom, "/tmp/tmp.a-b-c", "/tmp/tmp.x+y+z", false},         // not the alphabet
		{GenRandom, "/tmp/tmp.Xk3bQz", "/tmp/tmp.Xk3bQz", false},       // equal: no rule needed
		{GenPID, "/tmp/tmp.Xk3bQz", "/tmp/tmp.pa9Lw1", false},          // random is not a pid
		{GenPID, "/tmp/build.4711.log", "/tmp/build.98.log", true},     // pids of any length
		{GenPID, "/run/app-12", "/run/app-13", true},                   // at the end
		{GenPID, "/run/1234", "/run/1299", true},                       // the whole name
		{GenPID, "/tmp/file1", "/tmp/file2", false},                    // a number in a word
		{GenPID, "/tmp/v12x", "/tmp/v13x", false},                      // inside a word
		{GenPID, "/tmp/out.123456789", "/tmp/out.123456788", false},    // too long for a pid
		{GenPID, "/tmp/out.12.a", "/tmp/out.13.b", false},              // two differences
		{GenRandom | GenPID, "/tmp/out.77", "/tmp/out.1234", true},     // either kind
		{GenRandom | GenPID, "/tmp/tmpXk3bQz", "/tmp/tmppa9Lw1", true}, // either kind
		{0, "/tmp/tmpXk3bQz", "/tmp/tmppa9Lw1", false},
	} {
		if got := tc.gen.Matches(tc.rec, tc.live); got != tc.want {
			t.Errorf("%b.Matches(%q, %q) = %v, want %v", tc.gen, tc.rec, tc.live, got, tc.want)
		}
	}
}
