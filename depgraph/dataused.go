package depgraph

import (
	"strings"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// DataUsed returns whether Build reads the bytes of buffer m of call c,
// for tracefile.ReadOptions.KeepData: a reader that wants only the graph
// (deps without --group) can leave the rest in the trace file.
//
// Build reads structs (fd sets, pollfd arrays, fd pairs, socket
// addresses), paths, and the messages of sockets (EchoMems, for DNS and
// the other echo protocols). The one kind of buffer it never reads is a
// plain data buffer (EchoMems' kind: read, write, readv, pread64 ...) of
// a call on a file, one whose Path is absolute; on a socket ("socket:[N]"),
// a pipe or an unknown fd ("") the bytes are kept.
func DataUsed(tab *systable.Table) func(c *trace.Call, m *trace.Mem) bool {
	return func(c *trace.Call, m *trace.Mem) bool {
		row := tab.ByNr(int(c.Nr))
		if row == nil || !strings.HasPrefix(c.Path, "/") {
			return true
		}
		return !IsEchoData(row, m)
	}
}
