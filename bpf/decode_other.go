//go:build !amd64

package bpf

// Decode fails with ErrUnsupported: the record layouts are the amd64 program's.
func Decode(raw []byte) (Record, error) { return Record{}, ErrUnsupported }

// Decoder fails with ErrUnsupported: the record layouts are the amd64 program's.
type Decoder struct{}

// Decode fails with ErrUnsupported.
func (d *Decoder) Decode(raw []byte, r *Record) error { return ErrUnsupported }
