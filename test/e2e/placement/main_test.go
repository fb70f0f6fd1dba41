// Package placement_test runs commands that count their CPUs (nproc,
// Python's os.sched_getaffinity) under record, replay and locate, and
// checks that envbisect's own CPU pinning is never taken for the
// environment's doing: a command recorded with --cpu any is located
// unpinned by default (it passes here: no failure), an explicit --cpu
// that pins it is warned about and still names no call, a pinned
// recording that failed says so; while a command that really gets fewer
// CPUs here (locate under taskset, neither side pinned) is located at
// sched_getaffinity.
package placement_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
