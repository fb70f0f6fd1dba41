package align

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// keys turns "a b c" into keys, one letter a call.
func keys(s string) []Key {
	var out []Key
	for _, f := range strings.Fields(s) {
		out = append(out, Key{Nr: 1, Res: f})
	}
	return out
}

// render writes an alignment as "a=a -b +c": pairs, A only, B only.
func renderSteps(steps []Step, a, b []Key) string {
	var out []string
	for _, s := range steps {
		switch s.Kind {
		case Pair:
			out = append(out, a[s.I].Res+"="+b[s.J].Res)
		case OnlyA:
			out = append(out, "-"+a[s.I].Res)
		case OnlyB:
			out = append(out, "+"+b[s.J].Res)
		}
	}
	return strings.Join(out, " ")
}

func TestAlign(t *testing.T) {
	cases := []struct {
		name, a, b string
		window     int
		want       string
	}{
		{"equal", "o r c", "o r c", 0, "o=o r=r c=c"},
		{"empty A", "", "o r", 0, "+o +r"},
		{"extra iterations in B", "x p s p s p r e", "x p s p s p s p s p r e", 0,
			"x=x p=p s=s p=p s=s p=p +s +p +s +p r=r e=e"},
		{"fewer iterations in B", "x p s p s p s p r e", "x p s p r e", 0,
			"x=x p=p s=s p=p -s -p -s -p r=r e=e"},
		{"substitution", "a b X c d e", "a b Y c d e", 0, "a=a b=b -X +Y c=c d=d e=e"},
		// A single matching call (c) does not anchor a resynchronisation;
		// PairGaps pairs it afterwards.
		{"single call does not anchor", "a X c Y Z W e f g", "a c e f g", 0,
			"a=a -X -c -Y -Z -W +c e=e f=f g=g"},
		{"beyond the window", "a 1 2 3 4 5 6 b c d", "a b c d", 3, "a=a -1 -2 -3 -4 -5 -6 b=b c=c d=d"},
		{"diverged to the end", "a b c", "a x y", 0, "a=a -b -c +x +y"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := keys(tc.a), keys(tc.b)
			got := renderSteps(Align(a, b, tc.window), a, b)
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestPairGaps(t *testing.T) {
	cases := []struct {
		name           string
		ra, rb, pa, pb string // result keys and plain keys
		want           string
	}{
		// Result keys say the opens differ; plain keys say they are the same call.
		{"different results", "x open=3 read close e", "x open=-2 write e", "x open read close e", "x open write e",
			"x=x open=open -read -close +write e=e"},
		// A close racing with two waits: paired although out of order.
		{"moved", "r close w wE x y z", "r w wE close x y z", "r close w wE x y z", "r w wE close x y z",
			"r=r close=close w=w wE=wE x=x y=y z=z"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pa, pb := keys(tc.pa), keys(tc.pb)
			steps := PairGaps(Align(keys(tc.ra), keys(tc.rb), 0), pa, pb)
			if got := renderSteps(steps, pa, pb); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestStream(t *testing.T) {
	cases := []struct {
		name     string
		rec      string
		live     string
		window   int
		want     string // per live call: =N matched recorded N, +N matched after skipping, x extra, ! diverged
		diverged bool
	}{
		{"same", "a b c", "a b c", 0, "=0 =1 =2", false},
		{"more iterations live", "x p s p r e", "x p s p s p r e", 0, "=0 =1 =2 =3 x x =4 =5", false},
		{"fewer iterations live", "x p s p s p r e", "x p r e", 0, "=0 =1 +6 =7", false},
		{"divergent", "a b c d", "a q w e r", 2, "=0 x x ! !", true},
		{"past the end", "a", "a b", 0, "=0 x", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStream(keys(tc.rec), tc.window)
			var got []string
			for _, k := range keys(tc.live) {
				f := s.Feed(k)
				switch f.Verdict {
				case Matched:
					if f.Skipped > 0 {
						got = append(got, "+"+itoa(int64(f.Rec)))
					} else {
						got = append(got, "="+itoa(int64(f.Rec)))
					}
				case Extra:
					got = append(got, "x")
				case Diverged:
					got = append(got, "!")
				}
			}
			if g := strings.Join(got, " "); g != tc.want || s.Diverged() != tc.diverged {
				t.Errorf("got %q (diverged %v); want %q (%v)", g, s.Diverged(), tc.want, tc.diverged)
			}
		})
	}
}

func TestTextDiff(t *testing.T) {
	cases := []struct {
		name    string
		a, b    string
		context int
		max     int
		want    []string
	}{
		{"same", "x\ny\n", "x\ny\n", 3, 0, nil},
		{"changed line", "a\nb\nc\nd\n", "a\nB\nc\nd\n", 1, 0, []string{"@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"}},
		{"added line", "a\nc\n", "a\nb\nc\n", 0, 0, []string{"@@ -1,0 +2 @@", "+b"}},
		{"removed line", "a\nb\nc\n", "a\nc\n", 0, 0, []string{"@@ -2 +1,0 @@", "-b"}},
		{"from empty", "", "x\n", 3, 0, []string{"@@ -0,0 +1 @@", "+x"}},
		{"cut", "1\n2\n3\n4\n", "5\n6\n7\n8\n", 0, 3, []string{"@@ -1,4 +1,4 @@", "-1", "-2", "... 6 more lines"}},
		{"no final newline", "a", "a\n", 0, 0, []string{"@@ -1 +1 @@", "-a", `\ No newline at end of file`, "+a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := TextDiff([]byte(tc.a), []byte(tc.b), tc.context, tc.max); !slices.Equal(got, tc.want) {
				t.Errorf("got %q; want %q", got, tc.want)
			}
		})
	}
}

// TestTextDiffFarApart: two lines changed 980 lines apart in a 1,000-line
// file are two small hunks, each with its context, not one change of the
// 981 lines between them (what a diff that gives up on long inputs makes).
func TestTextDiffFarApart(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 1000; i++ {
		line := fmt.Sprintf("line %d\n", i)
		a.WriteString(line)
		switch i {
		case 10:
			line = "line ten changed\n"
		case 990:
			line = "line 990 changed\n"
		}
		b.WriteString(line)
	}
	got := TextDiff([]byte(a.String()), []byte(b.String()), 3, 0)
	want := []string{
		"@@ -7,7 +7,7 @@", " line 7", " line 8", " line 9", "-line 10", "+line ten changed", " line 11", " line 12", " line 13",
		"@@ -987,7 +987,7 @@", " line 987", " line 988", " line 989", "-line 990", "+line 990 changed", " line 991", " line 992", " line 993",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %d lines:\n%s\nwant:\n%s", len(got), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// BenchmarkAlignRandom aligns two unrelated sequences over a small
// alphabet: a mismatch at nearly every call, the worst case of the
// window search.
func BenchmarkAlignRandom(b *testing.B) {
	gen := func(seed uint64, n int) []Key {
		out := make([]Key, n)
		for i := range out {
			seed = seed*6364136223846793005 + 1442695040888963407
			out[i] = Key{Nr: uint32(seed >> 59)}
		}
		return out
	}
	x, y := gen(1, 20000), gen(2, 20000)
	b.ResetTimer()
	for range b.N {
		Align(x, y, 0)
	}
}

// TestStreamAgain: a non-blocking read answered EAGAIN live where the
// recorded one got data: Again makes it expected once more, so the
// poll in between is extra and the retry matches the recorded read.
func TestStreamAgain(t *testing.T) {
	s := NewStream(keys("c p r w"), 0)
	s.Again() // nothing matched yet: no effect
	var got []string
	for i, k := range keys("c p r p r w") {
		f := s.Feed(k)
		switch f.Verdict {
		case Matched:
			got = append(got, "="+itoa(int64(f.Rec)))
		case Extra:
			got = append(got, "x")
		}
		if i == 2 { // the first read: EAGAIN
			s.Again()
		}
	}
	if g, want := strings.Join(got, " "), "=0 =1 =2 x =2 =3"; g != want {
		t.Errorf("got %q, want %q", g, want)
	}
}
