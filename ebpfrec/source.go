package ebpfrec

import (
	"time"

	"github.com/envbisect/envbisect/bpf"
)

// Source is where a recording's records come from: a probe loaded for it
// (bpf.Load, the default), or a session of a resident recorder (package
// recorder) that loaded the programs once and passes on the records of
// the processes it was asked to follow. Its methods mean what
// bpf.Probe's do; SetDeadline is only called with the zero time or the
// present (to drain what is in the ring).
type Source interface {
	Track(tgid uint32) error
	ReadBatch(fn func(*bpf.Record)) (int, error)
	SetDeadline(t time.Time)
	Lost() (bpf.Lost, error)
	Close() error
}

// open gives the recording its source: o.Open's when set, else a probe
// of its own.
func open(o Options, po bpf.Options) (Source, error) {
	if o.Open != nil {
		return o.Open(po)
	}
	p, err := bpf.Load(po)
	if err != nil {
		return nil, err
	}
	return p, nil
}
