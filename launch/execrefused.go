package launch

import (
	"errors"
	"strings"
)

// execRefusedPrefix begins the helper's report of an exec the kernel
// refused ("exec /bin/x: operation not permitted"), as opposed to one of
// the steps before it that the helper could not take (joining, setting
// the identity, finding the command).
const execRefusedPrefix = "exec "

// ExecRefused returns the ExecError in err when it says the kernel
// refused the command's exec itself: the environment here does not let
// the command start (a file capability outside the bounding set, a
// noexec mount, a missing interpreter), as `docker exec` would find too.
// A search counts such a run as failing, since a run that gives the
// command a start item's good value may let it start.
func ExecRefused(err error) (*ExecError, bool) {
	var ee *ExecError
	if errors.As(err, &ee) && strings.HasPrefix(ee.Msg, execRefusedPrefix) {
		return ee, true
	}
	return nil, false
}
