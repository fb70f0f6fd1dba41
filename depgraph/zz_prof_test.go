package depgraph

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

func TestZZProf(t *testing.T) {
	path := os.Getenv("ZZTRACE")
	if path == "" {
		t.Skip()
	}
	tab, _ := systable.New("amd64")
	sp := NewSpawns(tab)
	each := func(keep func(*trace.Call, *trace.Mem) bool, f func(*trace.Event)) {
		r, err := tracefile.ReadOptions{KeepData: keep}.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for {
			ev, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f(&ev)
		}
	}
	each(func(*trace.Call, *trace.Mem) bool { return false }, sp.Add)
	b, _ := NewBuilder(tab, nil, sp, BuildOptions{Lean: true, CountEdges: os.Getenv("ZZEDGES") == ""})
	each(DataUsed(tab), func(ev *trace.Event) { b.Add(ev) })
	g := b.Graph()
	runtime.GC()
	f, _ := os.Create("/tmp/memidx/heap.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	t.Log(g.NumCalls())
}
