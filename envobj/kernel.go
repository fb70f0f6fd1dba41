package envobj

import (
	"fmt"
	"strconv"
	"strings"
)

// KindKernel is the kind of the start item (StartValue.Kind) that holds
// one of the kernel's names as uname(2) answers it, when the good run's
// differs from this machine's: Name "release" (uname -r) or "version"
// (uname -v). No namespace gives another release, and no start item
// does (the personality UNAME26 that setarch --uname-2.6 sets is one
// way a release differs, but a run does not replay the personality): a
// run puts the good value in place by stopping the command at uname,
// and only there, and rewriting the answer (package replay's
// Spec.Uname). The host and domain names are not of this kind: a UTS
// namespace gives them (trace.StartHostname).
const KindKernel = "kernel"

// The names of the KindKernel items, as trace.StartUname's items and the
// fields of systable's struct new_utsname name them.
const (
	KernelRelease = "release"
	KernelVersion = "version"
)

// KernelFields are the names of the KindKernel items, in the order a
// report lists them.
var KernelFields = []string{KernelRelease, KernelVersion}

// kernelFlag is uname(1)'s option that prints each field.
var kernelFlag = map[string]string{KernelRelease: "-r", KernelVersion: "-v"}

// kernelSays is how a KindKernel item differs: `kernel release (uname
// -r) is "6.1.0-18-amd64" here, "2.6.61-18-amd64" in the good run`, and
// when the good release is what this kernel answers under personality
// UNAME26, that it is.
func (s StartValue) kernelSays() string {
	out := fmt.Sprintf("kernel %s (uname %s) is %s here, %s in the good run", s.Name, kernelFlag[s.Name], startWords(s.Here), startWords(s.Good))
	if s.uname26() {
		out += " (what this kernel answers under setarch --uname-2.6, personality UNAME26)"
	}
	return out
}

// kernelFix is what a user does here to give the command the good
// kernel name: start it under setarch --uname-2.6 when that is what
// the good release is, else run it on a kernel of the good release or
// version; the run that validated it rewrote uname's answer instead
// (KernelNote).
func (s StartValue) kernelFix() []FixStep {
	good, here := startWords(s.Good), startWords(s.Here)
	if s.uname26() {
		return []FixStep{{Text: fmt.Sprintf("start the command under setarch --uname-2.6 (personality UNAME26), as the good run was: "+
			"setarch \"$(uname -m)\" --uname-2.6 COMMAND; uname then reports release %s here, as in the good run, instead of %s", good, here)}}
	}
	return []FixStep{{Text: fmt.Sprintf("run the command on a kernel whose %s (uname %s) is %s, as the good run's; here it is %s "+
		"(or make the program accept this kernel's)", s.Name, kernelFlag[s.Name], good, here)}}
}

// uname26 reports whether s is the release item and its good value is
// the release this kernel reports under personality UNAME26.
func (s StartValue) uname26() bool {
	if s.Name != KernelRelease || s.Good == nil || s.Here == nil {
		return false
	}
	r, ok := Uname26Release(*s.Here)
	return ok && r == *s.Good
}

// Uname26Release returns the release a kernel whose release is here
// reports to a process with personality UNAME26 (linux's
// override_release): "2.6." and the patch level plus 60, then what
// follows the version's digits ("6.1.0-18-amd64" gives
// "2.6.61-18-amd64"). ok is false for a release that is not of that
// form or not 3.0 or later (a 2.6 kernel reports its own).
func Uname26Release(here string) (string, bool) {
	rest, dots := here, 0
	i := 0
	for ; i < len(rest); i++ {
		c := rest[i]
		if c == '.' {
			dots++
			if dots >= 3 {
				break
			}
			continue
		}
		if c < '0' || c > '9' {
			break
		}
	}
	parts := strings.Split(here[:i], ".")
	if len(parts) < 2 {
		return "", false
	}
	major, err1 := strconv.Atoi(parts[0])
	patch, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || major < 3 {
		return "", false
	}
	return fmt.Sprintf("2.6.%d%s", patch+60, here[i:]), true
}

// KernelNote is what a fix of a kernel name says the validating run did
// differently from its steps.
const KernelNote = "the run that validated it did not change the kernel or the personality: it stopped the command at uname(2), " +
	"and only there (a seccomp filter let every other call run untraced), and wrote the good run's value into the answer"
