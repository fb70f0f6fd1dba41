package render

import (
	"fmt"

	"github.com/envbisect/envbisect/trace"
)

// limitFailures are the errors a resource limit makes a call fail with,
// by the limit: too many open files (EMFILE) is RLIMIT_NOFILE, a file
// grown past the file-size limit (EFBIG) RLIMIT_FSIZE, and a process or
// thread the user may not create (EAGAIN from a call that creates one)
// RLIMIT_NPROC.
var limitFailures = []struct {
	errno, limit, what string
	creates            bool // only from a call that creates a process
}{
	{"EMFILE", "RLIMIT_NOFILE", "open-files limit", false},
	{"EFBIG", "RLIMIT_FSIZE", "file-size limit", false},
	{"EAGAIN", "RLIMIT_NPROC", "process limit", true},
}

// limitCause returns the resource limit among unapplied that explains a
// call failing with errno here (f: the call's table facts), and why: the
// limit the error comes from, when its soft value here is below the good
// run's.
func limitCause(errno string, unapplied []StartItem, f CallFacts) (StartItem, string, bool) {
	for _, lf := range limitFailures {
		if lf.errno != errno || lf.creates && !f.CreatesProcess {
			continue
		}
		for _, it := range unapplied {
			if trace.StartKind(it.Kind) != trace.StartRlimit || it.Name != lf.limit || it.Good == nil || it.Here == nil {
				continue
			}
			good, err1 := trace.ParseLimit(it.Name, *it.Good)
			here, err2 := trace.ParseLimit(it.Name, *it.Here)
			if err1 != nil || err2 != nil || here.Cur >= good.Cur {
				continue
			}
			return it, fmt.Sprintf("the command's %s (%s) is %s here, %s in the good run (soft and hard)",
				lf.what, it.Name, *it.Here, *it.Good), true
		}
	}
	return StartItem{}, "", false
}
