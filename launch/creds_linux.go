package launch

import (
	"os"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// CommandCreds returns the credentials start events (uid, gid) of a
// command started now through join: the exec spec's ids, or, without
// one, envbisect's own (the helper keeps them), as /proc/PID/status
// gives them ("real effective saved fs"). The command may change them
// itself later (setpriv, su): a report says so from the calls.
func CommandCreds(join *trace.Join) []trace.StartEvent {
	if join != nil && join.Exec != nil {
		four := func(id uint32) string {
			s := strconv.FormatUint(uint64(id), 10)
			return strings.Join([]string{s, s, s, s}, " ")
		}
		return []trace.StartEvent{
			{Kind: trace.StartCreds, Name: trace.CredsUID, Value: four(join.Exec.UID)},
			{Kind: trace.StartCreds, Name: trace.CredsGID, Value: four(join.Exec.GID)},
		}
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil
	}
	var ev []trace.StartEvent
	for _, line := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.Join(strings.Fields(val), " ")
		switch key {
		case "Uid":
			ev = append(ev, trace.StartEvent{Kind: trace.StartCreds, Name: trace.CredsUID, Value: val})
		case "Gid":
			ev = append(ev, trace.StartEvent{Kind: trace.StartCreds, Name: trace.CredsGID, Value: val})
		}
	}
	return ev
}
