package launch

import (
	"fmt"
	"strings"
)

// LeftRunningMessage tells the user that the command left processes
// running (exes: their executables, sorted, each once), which were ended
// with it: the warning of both recorders and of locate's runs
// (trace.RunResult.LeftRunning, trace.Watch.EndWithRoot).
func LeftRunningMessage(exes []string) string {
	return fmt.Sprintf("the command exited and left processes running (%s): they were ended with it, "+
		"as every run ends them; give --wait-children to wait for them to exit instead", strings.Join(exes, ", "))
}
