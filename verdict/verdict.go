package verdict

import "fmt"

// Verdict is the outcome of one run.
type Verdict uint8

const (
	Pass Verdict = iota + 1
	Fail
	Skip // the run cannot tell: exit status 125, or an unusable run
)

var names = [...]string{Pass: "pass", Fail: "fail", Skip: "skip"}

func (v Verdict) String() string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return "unknown"
}

// MarshalText makes a Verdict print by name in JSON.
func (v Verdict) MarshalText() ([]byte, error) {
	if int(v) >= len(names) || names[v] == "" {
		return nil, fmt.Errorf("invalid verdict %d", uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText reads a Verdict's name.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range names {
		if n != "" && n == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verdict %q", b)
}

// SkipStatus is the exit status that means "cannot tell", as in git
// bisect run.
const SkipStatus = 125

// OfStatus is the verdict of an exit status: a status of 128 or more
// (Abortive) fails too; the caller decides whether it aborts.
func OfStatus(status int) Verdict {
	switch status {
	case 0:
		return Pass
	case SkipStatus:
		return Skip
	}
	return Fail
}

// AbortStatus is the lowest exit status at which `git bisect run` stops
// the bisection instead of counting the run as bad: a shell's 128+N for
// a command killed by signal N.
const AbortStatus = 128

// Abortive reports whether status is one at which `git bisect run`
// aborts (128 or more, or negative).
func Abortive(status int) bool { return status >= AbortStatus || status < 0 }
