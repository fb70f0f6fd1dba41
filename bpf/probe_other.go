//go:build !(linux && amd64)

package bpf

import "time"

// Probe is the loaded recorder; on this system Load always fails.
type Probe struct{}

// Load fails with ErrUnsupported: the programs are built for linux/amd64.
func Load(opts Options) (*Probe, error) { return nil, ErrUnsupported }

func (p *Probe) Track(tgid uint32) error { return ErrUnsupported }
func (p *Probe) Read() (Record, error)   { return Record{}, ErrUnsupported }
func (p *Probe) SetDeadline(t time.Time) {}
func (p *Probe) Lost() (Lost, error)     { return Lost{}, ErrUnsupported }
func (p *Probe) Close() error            { return nil }
