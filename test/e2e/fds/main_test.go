// Package fds_test runs record, replay and locate from a parent that
// holds descriptors besides 0, 1 and 2 without close-on-exec (fds 3, 4
// and 251 on /dev/null, as a shell's `exec 251</dev/null` or a CI runner
// leaves them) and checks what the command gets: 0, 1 and 2 only, like
// under docker exec, with either backend; a descriptor given to
// --keep-fds at its number, named by the trace's start items; and under
// a low open-files limit, the first file the command cannot open is the
// one it cannot open with 0, 1 and 2 only.
package fds_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
