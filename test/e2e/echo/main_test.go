// Package echo_test locates regressions in programs whose requests carry
// an id the program made up and their replies echo (issue 18, deliver 2:
// echo fields): a netlink dump (getifaddrs, with nlmsg_seq from time()),
// located many times in a row, each run's id another than the
// recording's, with the same right culprit every time.
package echo_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
