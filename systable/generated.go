package systable

import (
	pathpkg "path"
	"strings"
)

// Generated names: a call that creates a fresh name (mkstemp's and
// tempfile's O_CREAT|O_EXCL open, mktemp -d's and mkdtemp's mkdir, a
// shell's "> /tmp/out.$$") is given another name in every run. The rows
// say which calls create such names and which kinds of generated part
// their last path component may hold (Syscall.Generated); NameGen.Matches
// says whether a live name and a recorded one differ only there. align
// matches such a live call to its recorded counterpart with it, and keys
// every later call on the live name as the recorded one.

// NameGen is a set of kinds of generated part in a created name.
type NameGen uint8

const (
	// GenRandom: a run of random characters (glibc's mkstemp, mkdtemp and
	// mktemp: letters and digits; Python's tempfile: lower-case letters,
	// digits and '_'), as long in both names: "tmp.Xk3bQz" and
	// "tmp.pa9Lw1", "sem.UjB0sx", "tmpa_8xk2m9".
	GenRandom NameGen = 1 << iota
	// GenPID: a process id, a token of digits between separators or the
	// name's ends ("build.4711.log", "out-12"), of any length, since pids
	// have as many digits as they need.
	GenPID
)

// MinRandomRun is the fewest characters in which two names must differ
// for GenRandom: glibc generates at least 6, Python 8, mktemp at least 3.
// Two names that differ in fewer (file1 and file2) are different names.
const MinRandomRun = 3

// maxPIDDigits bounds a GenPID token: Linux's largest pid (4194304) has 7.
const maxPIDDigits = 7

// GeneratedName is a rule of a row: the path the call creates may hold a
// generated part of the kinds Gen when the call's argument Arg, masked
// with Mask, equals Want (an open with O_CREAT|O_EXCL); a rule with Mask
// 0 always holds (mkdir).
type GeneratedName struct {
	Arg        uint8
	Mask, Want uint64
	Gen        NameGen
}

// GeneratedIn returns the kinds of generated part the path a call with
// these argument registers creates may hold (its CreatedPathArg), 0 when
// it creates no fresh name.
func (s *Syscall) GeneratedIn(args [6]uint64) NameGen {
	var g NameGen
	for _, r := range s.Generated {
		v := args[r.Arg]
		if int(r.Arg) < len(s.Args) && s.Args[r.Arg].Int32 {
			v = uint64(uint32(v))
		}
		if v&r.Mask == r.Want {
			g |= r.Gen
		}
	}
	return g
}

// generates adds rules to a row (Syscall.Generated).
func (s Syscall) generates(r ...GeneratedName) Syscall {
	s.Generated = append(append([]GeneratedName(nil), s.Generated...), r...)
	return s
}

// genAlways is a rule that always holds; genIfFlags one that holds when
// argument arg has every bit of want set.
func genAlways(g NameGen) GeneratedName { return GeneratedName{Gen: g} }
func genIfFlags(arg uint8, want uint64, g NameGen) GeneratedName {
	return GeneratedName{Arg: arg, Mask: want, Want: want, Gen: g}
}

// Matches reports whether live, an absolute path a live call creates,
// differs from rec, the path its recorded counterpart created, only in a
// generated part of a kind in g: the same directory, and last components
// that differ only in one run of random characters of the same length
// (GenRandom) or in one pid token (GenPID). Equal paths do not match:
// they need no rule.
func (g NameGen) Matches(rec, live string) bool {
	if g == 0 || rec == live || pathpkg.Dir(rec) != pathpkg.Dir(live) {
		return false
	}
	a, b := pathpkg.Base(rec), pathpkg.Base(live)
	return g&GenRandom != 0 && randomRun(a, b) || g&GenPID != 0 && pidToken(a, b)
}

// commonEnds returns the lengths of the common prefix and the common
// suffix of a and b, the suffix not overlapping the prefix in either.
func commonEnds(a, b string) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// randomRun reports whether names a and b, of one length, differ in a
// run of at least MinRandomRun characters of the generators' alphabets.
func randomRun(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	pre, suf := commonEnds(a, b)
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	return len(ma) >= MinRandomRun && allOf(ma, isTempChar) && allOf(mb, isTempChar)
}

// pidToken reports whether names a and b differ in one token of digits,
// the whole token (the digits around the difference included) bounded
// by a character that is neither a letter nor a digit, or by the name's
// ends.
func pidToken(a, b string) bool {
	pre, suf := commonEnds(a, b)
	for pre > 0 && isDigit(a[pre-1]) {
		pre--
	}
	for suf > 0 && isDigit(a[len(a)-suf]) {
		suf--
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if ma == "" || mb == "" || len(ma) > maxPIDDigits || len(mb) > maxPIDDigits ||
		!allOf(ma, isDigit) || !allOf(mb, isDigit) {
		return false
	}
	before := pre == 0 || !isAlnum(a[pre-1])
	after := suf == 0 || !isAlnum(a[len(a)-suf])
	return before && after
}

func allOf(s string, f func(byte) bool) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r > 0x7f || !f(byte(r)) }) < 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isTempChar: the characters glibc's and Python's name generators use.
func isTempChar(c byte) bool { return isAlnum(c) || c == '_' }
