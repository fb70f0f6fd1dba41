package launch

import (
	"errors"
	"fmt"
	"testing"
)

func TestExecRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{helperError("126 exec /bin/capprog: operation not permitted: the file carries cap_net_raw+ep", 126), true},
		{fmt.Errorf("run: %w", helperError("127 exec /bin/gone: no such file or directory", 127)), true},
		{helperError("126 set capabilities (effective 0, permitted 0, inheritable 0): operation not permitted", 126), false},
		{helperError("", 1), false},
		{errors.New("exec /bin/x: not an ExecError"), false},
	} {
		if _, got := ExecRefused(tc.err); got != tc.want {
			t.Errorf("ExecRefused(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
