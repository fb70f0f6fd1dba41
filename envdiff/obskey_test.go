package envdiff

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Observations that say the same as an earlier one of their view are
// dropped (pathRec.add), and the folded states are those of every
// observation kept: for each view, both together, and after untimely,
// over random sequences drawn from a few observations of each kind,
// calls mostly in order (ties and a few out of order included), long
// enough that add indexes them.
func TestAddKeepsFold(t *testing.T) {
	files := []*trace.FileObject{
		{ID: 1, Path: "/p", Mode: sIFREG | 0o644, Size: 10, SHA256: trace.Hash{1}},
		{ID: 2, Path: "/p", Mode: sIFREG | 0o600, Size: 12, SHA256: trace.Hash{2}, Package: &trace.Package{Name: "p"}},
	}
	stat := func(mode uint32, size int64) obs {
		return statObs(0, systable.FileStat{Valid: systable.StatType | systable.StatPerm | systable.StatSize, Mode: mode, Size: size})
	}
	pool := []obs{
		existsObs(0, true, false), existsObs(0, true, true), existsObs(0, false, false),
		stat(sIFREG|0o644, 10), stat(sIFREG|0o644, 12), stat(sIFDIR|0o755, 4096),
		fileObs(0, files[0]), fileObs(0, files[1]),
		{st: envobj.State{Exists: true, Type: envobj.TypeSymlink, Target: "t", Known: envobj.Aspects{envobj.AspectExists, envobj.AspectType, envobj.AspectTarget}}},
	}
	rng := rand.New(rand.NewPCG(29, 27))
	dropped, indexed := 0, 0
	for round := range 500 {
		var all [views][]obs
		var r pathRec
		seq := uint64(100)
		for range 1 + rng.IntN(60) {
			switch k := rng.IntN(10); {
			case k < 6:
				seq += 1 + uint64(rng.IntN(3))
			case k < 9: // the same call
			default:
				seq -= min(seq-1, uint64(rng.IntN(20)))
			}
			o := pool[rng.IntN(len(pool))]
			o.seq = seq
			v := view(rng.IntN(int(views)))
			all[v] = append(all[v], o)
			r.add(v, o)
		}
		kept := len(r.obs[viewSelf]) + len(r.obs[viewFollow])
		dropped += len(all[viewSelf]) + len(all[viewFollow]) - kept
		if r.seen[viewSelf] != nil || r.seen[viewFollow] != nil {
			indexed++
		}
		for _, c := range []struct {
			name      string
			got, want good
		}{
			{"self", fold(r.obs[viewSelf]), fold(all[viewSelf])},
			{"follow", fold(r.obs[viewFollow]), fold(all[viewFollow])},
			{"both", fold(r.obs[viewSelf], r.obs[viewFollow]), fold(all[viewSelf], all[viewFollow])},
			{"untimely", fold(untimelyAll(r.obs)), fold(untimelyAll(all))},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Fatalf("round %d, %s (%d of %d observations kept): folded %+v, want %+v", round, c.name, kept,
					len(all[viewSelf])+len(all[viewFollow]), c.got, c.want)
			}
		}
	}
	if dropped == 0 || indexed == 0 {
		t.Fatalf("%d observations dropped, %d rounds indexed: the rounds test nothing", dropped, indexed)
	}
}

// untimelyAll is what finish makes of a changed path's observations.
func untimelyAll(os [views][]obs) []obs {
	all := slices.Concat(os[viewFollow], os[viewSelf])
	var out []obs
	for _, o := range os[viewFollow] {
		if o.file != nil {
			o = untimely(o, all)
		}
		out = append(out, o)
	}
	return append(out, os[viewSelf]...)
}
