// Package causes_test locates commands that fail here for more than one
// reason, and one whose only flip is at a call whose results are the
// same in both environments (issue 14): every cause must be named, each
// confirmed by runs of its own, and a suspect that cannot be confirmed
// must never be reported as located. Each test builds both environments
// in a mount namespace of its own (testutil.InWorkNS), records the
// command where it works and locates it where it does not, and reads the
// JSON report (report_test.go). signal_test.go locates causes that are
// signal dispositions the command inherits (SIGHUP under nohup, SIGPIPE
// ignored), named by the signal with the shell's fix.
package causes_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
