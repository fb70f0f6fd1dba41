//go:build !(linux && amd64)

package bpf

import (
	"errors"
	"time"
)

// Probe is the loaded recorder; on this system Load always fails.
type Probe struct{}

// Load fails with ErrUnsupported: the programs are built for linux/amd64.
func Load(opts Options) (*Probe, error) { return nil, ErrUnsupported }

func (p *Probe) Track(tgid uint32) error            { return ErrUnsupported }
func (p *Probe) Read() (Record, error)              { return Record{}, ErrUnsupported }
func (p *Probe) ReadRaw(buf []byte) ([]byte, error) { return buf, ErrUnsupported }
func (p *Probe) Pending() int                       { return 0 }
func (p *Probe) Untrack(tgid uint32) error          { return ErrUnsupported }
func (p *Probe) ProgramIDs() ([]uint32, error)      { return nil, ErrUnsupported }
func (p *Probe) SetDeadline(t time.Time)            {}
func (p *Probe) Lost() (Lost, error)                { return Lost{}, ErrUnsupported }
func (p *Probe) Close() error                       { return nil }
func (p *Probe) Wake() error                        { return ErrUnsupported }

// ErrWoken is what a read returns after Wake.
var ErrWoken = errors.New("woken")

// RecordSpan is how much of the ring a record of n bytes takes.
func RecordSpan(n int) int { return (n + 8 + 7) &^ 7 }

// ProgramLoaded is false: nothing loads here.
func ProgramLoaded(id uint32) bool { return false }
