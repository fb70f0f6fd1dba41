package ptrace

import (
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// StandInObserver is implemented by a Replayer that wants to know when a
// call whose live results the program sees (Execute) met a stand-in: it
// returned 0 or failed on an fd that is a memfd the tracer put in place
// of a replayed call's object. Such a result can be an artifact of the
// replay (a read of the empty stand-in where the file had data, recvmsg
// on a stand-in for a socket failing with ENOTSOCK), not the
// environment's doing. MetStandIn runs on the tracer thread, before the
// Replayer's Exit for the call, and must not block.
type StandInObserver interface {
	MetStandIn(c *trace.Call, d Decision, s StandIn)
}

// StandIn is a stand-in fd a call used.
type StandIn struct {
	FD int32
	// For is the path of the object it stands for, when the stand-in is
	// named after it ("" when the path was too long to name it).
	For string
	// Size is the stand-in's size when the call returned: 0 for an empty
	// stand-in, the file's size for one served (Config.Serve).
	Size int64
}

// standInLink reports whether link, what /proc says an fd refers to, is
// a stand-in memfd (see standInName), and the path it stands for.
// believed is what the tracer's fd table says the program believes the
// fd is (a replayed open's recorded path): a stand-in is named after the
// path the call gave, which may be relative ("run.sh" for
// /w/good/run.sh), or standInNameText; a memfd of the program's own has
// another name.
func standInLink(link, believed string) (standsFor string, ok bool) {
	name, ok := strings.CutPrefix(link, "/memfd:")
	if !ok {
		return "", false
	}
	name = strings.TrimSuffix(name, " (deleted)")
	switch {
	case name+"\x00" == standInNameText:
		return believed, true
	case believed == name || strings.HasPrefix(name, "/") && believed == "":
		return name, true
	case name != "" && strings.HasSuffix(believed, "/"+name):
		return believed, true
	}
	return "", false // the program's own memfd
}
