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
	return fmt.Sprintf(leftRunningStart+"%s): they were ended with it, "+
		"as every run ends them; give --wait-children to wait for them to exit instead", strings.Join(exes, ", "))
}

// leftRunningStart begins LeftRunningMessage.
const leftRunningStart = "the command exited and left processes running ("

// WarningKey is what makes two warnings one for a user who reads each
// once: the left-running warning is one whatever processes it names
// (which of them were still there at the command's exit, a daemon or
// the setsid that was starting it, varies from run to run); any other
// warning is its text.
func WarningKey(msg string) string {
	if strings.HasPrefix(msg, leftRunningStart) {
		return leftRunningStart
	}
	return msg
}
