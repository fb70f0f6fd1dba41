//go:build linux && amd64

package bpf

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/cilium/ebpf/ringbuf"
)

// Read returns the next record, waiting for one. The program does not
// wake the reader for each record (that would cost the traced program a
// wakeup per call): Read looks into the ring every Options.Poll, and is
// woken at once only when the ring is a quarter full.
//
// After Close it returns an error wrapping os.ErrClosed (ringbuf.ErrClosed
// is the same value). With a deadline set (SetDeadline), it returns an
// error wrapping os.ErrDeadlineExceeded once the deadline has passed and
// the ring is empty. A record that does not decode gives an error and is
// skipped; reading can go on.
//
// After Wake, once Read has returned every record the ring held, it
// returns an error wrapping ErrWoken (once per Wake).
//
// Read must not be called from two goroutines at once. The returned
// record is the caller's: nothing in it is reused.
func (p *Probe) Read() (Record, error) {
	if err := p.next(); err != nil {
		return Record{}, err
	}
	r, err := decode(p.rec.RawSample)
	if err != nil {
		return Record{}, fmt.Errorf("eBPF recorder: %w", err)
	}
	return r, nil
}

// ReadRaw is Read without the decoding: it appends the next record's
// bytes, as the program wrote them, to buf and returns the result (for a
// resident recorder that passes records on; Decode reads them). The same
// rules as Read's hold for deadlines and Close.
func (p *Probe) ReadRaw(buf []byte) ([]byte, error) {
	if err := p.next(); err != nil {
		return buf, err
	}
	return append(buf, p.rec.RawSample...), nil
}

// next waits for the next record and leaves it in p.rec.
func (p *Probe) next() error {
	for {
		p.mu.Lock()
		deadline := p.deadline
		p.mu.Unlock()
		wait := time.Now().Add(p.poll)
		if !deadline.IsZero() && deadline.Before(wait) {
			wait = deadline
		}
		p.rd.SetDeadline(wait)
		err := p.rd.ReadInto(&p.rec)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			if !deadline.IsZero() && !time.Now().Before(deadline) {
				return fmt.Errorf("eBPF recorder: read: %w", os.ErrDeadlineExceeded)
			}
			// Only the poll interval passed: look again.
		case errors.Is(err, ringbuf.ErrFlushed):
			return fmt.Errorf("eBPF recorder: read: %w", ErrWoken)
		default:
			return fmt.Errorf("eBPF recorder: read: %w", err)
		}
	}
}

// ReadBatch waits for records as Read does, then hands fn every record
// the ring holds, in order, until it is empty again. It is the
// recorder's loop: the wait and its deadline are set once per batch, not
// per record, and decoding allocates nothing for calls and chunks, the
// records of every call. The *Record given to fn, and its Call (with its
// Bufs) and Chunk (with its Data), are reused for the next record: fn
// copies what it keeps. Fork, exec and exit records are fn's to keep.
//
// It returns the number of records handed to fn, and nil once the poll
// interval passed with the ring empty; the errors are Read's (a deadline
// that passed with the ring empty, Close, a record that does not decode:
// reading can go on after it).
//
// ReadBatch must not be called from two goroutines at once, nor with
// Read.
func (p *Probe) ReadBatch(fn func(*Record)) (int, error) {
	p.mu.Lock()
	deadline := p.deadline
	p.mu.Unlock()
	wait := time.Now().Add(p.poll)
	if !deadline.IsZero() && deadline.Before(wait) {
		wait = deadline
	}
	p.rd.SetDeadline(wait)
	var r Record
	n := 0
	for {
		err := p.rd.ReadInto(&p.rec)
		switch {
		case err == nil:
			p.stats.Records++
			p.stats.Bytes += uint64(len(p.rec.RawSample))
			if fill := uint64(p.rec.Remaining + len(p.rec.RawSample)); fill > p.stats.PeakFill {
				p.stats.PeakFill = fill
			}
			if err := p.scratch.decode(p.rec.RawSample, &r); err != nil {
				return n, fmt.Errorf("eBPF recorder: %w", err)
			}
			fn(&r)
			n++
		case errors.Is(err, os.ErrDeadlineExceeded):
			if !deadline.IsZero() && !time.Now().Before(deadline) {
				return n, fmt.Errorf("eBPF recorder: read: %w", os.ErrDeadlineExceeded)
			}
			return n, nil // only the poll interval passed
		case errors.Is(err, ringbuf.ErrFlushed):
			return n, nil // Wake: as if the poll interval passed
		default:
			return n, fmt.Errorf("eBPF recorder: read: %w", err)
		}
	}
}

// ErrWoken is what Read and ReadRaw return, wrapped, after Wake, once
// they have returned what the ring held.
var ErrWoken = errors.New("woken")

// Wake has the Read, ReadRaw or ReadBatch waiting now (or the next one
// called) return what the ring holds without waiting for the poll
// interval, then ErrWoken (ReadBatch: nil). A resident recorder's loop
// wakes itself this way for its requests instead of looking for them at
// every poll. Safe to call from any goroutine.
func (p *Probe) Wake() error {
	if err := p.rd.Flush(); err != nil {
		return fmt.Errorf("eBPF recorder: wake the reader: %w", err)
	}
	return nil
}

// SetDeadline bounds how long Read waits: once t has passed and the ring
// holds nothing more, Read returns an error wrapping os.ErrDeadlineExceeded.
// The zero time removes the deadline.
//
// To drain, reading everything already in the ring without waiting for
// more (after the traced command exited, before Close):
//
//	p.SetDeadline(time.Now())
//	for {
//		r, err := p.Read()
//		if errors.Is(err, os.ErrDeadlineExceeded) {
//			break
//		}
//		...
//	}
func (p *Probe) SetDeadline(t time.Time) {
	p.mu.Lock()
	p.deadline = t
	p.mu.Unlock()
}

// Pending is how many bytes of records the ring holds that Read has not
// returned yet (with their 8-byte headers, each padded to 8 bytes): a
// reader that wants everything sent before now reads that much.
func (p *Probe) Pending() int {
	return p.rd.AvailableBytes()
}

// RecordSpan is how much of the ring a record of n bytes took (its
// header and padding): what Pending counts for it.
func RecordSpan(n int) int {
	return (n + 8 + 7) &^ 7
}

// ReaderStats says how full the ring got and what went through it, as
// ReadBatch saw it.
type ReaderStats struct {
	// PeakFill is the most bytes found waiting in the ring (a record
	// and those behind it): against the ring's size, how close the
	// reader came to a loss.
	PeakFill uint64
	Records  uint64 // records read
	Bytes    uint64 // their bytes, without the ring's 8-byte headers
}

// Stats returns what ReadBatch saw so far. Call it once reading is over
// (it is not synchronised with ReadBatch).
func (p *Probe) Stats() ReaderStats {
	return p.stats
}
