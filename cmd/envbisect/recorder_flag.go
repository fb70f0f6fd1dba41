package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/ebpfrec"
	"github.com/envbisect/envbisect/recorder"
)

// recorderEnv names the resident recorder's socket when --recorder is
// left at auto.
const recorderEnv = "ENVBISECT_RECORDER"

// recorderUse is how an eBPF recording reaches a resident recorder
// (record --recorder): "auto" tries $ENVBISECT_RECORDER or the default
// socket and loads a probe of its own, silently, when nothing answers
// there; a path tries that socket and says so when it falls back; "off"
// never asks.
type recorderUse struct {
	flag      string
	ringGiven bool // --ring-size given: the recorder's ring is not that one
}

// socket is the socket to try, "" for none, and whether the user named it.
func (u recorderUse) socket() (string, bool) {
	switch u.flag {
	case "off":
		return "", false
	case "", "auto":
		if u.ringGiven {
			return "", false
		}
		if p := os.Getenv(recorderEnv); p != "" {
			return p, true
		}
		return recorder.DefaultSocket, false
	}
	return u.flag, true
}

// recorderUsed is what record learns of the recorder it went through.
type recorderUsed struct {
	socket  string            // "" when the recording loaded its own probe
	session *recorder.Session // the session, when it went through one
}

// hidden is how many processes the recorder did not pass on (they gained
// privileges at exec).
func (u *recorderUsed) hidden() uint64 {
	if u.socket == "" || u.session == nil {
		return 0
	}
	return u.session.Hidden()
}

// opener is record's ebpfrec.Options.Open: the recording goes through the
// recorder when one answers and agrees, and loads its own probe
// otherwise. used hears the recorder a recording went through.
func (u recorderUse) opener(s streams, used *recorderUsed) func(bpf.Options) (ebpfrec.Source, error) {
	path, named := u.socket()
	if path == "" {
		return nil
	}
	return func(po bpf.Options) (ebpfrec.Source, error) {
		max := po.MaxCapture
		if max == 0 {
			max = bpf.DefaultMaxCapture
		}
		sess, err := recorder.Dial(path, max)
		if err == nil {
			used.socket, used.session = path, sess
			return &refusable{Session: sess, fallback: func(err error) (ebpfrec.Source, error) {
				used.socket = ""
				s.warn(fmt.Sprintf("%v; loading the probe here", err))
				return loadProbe(po)
			}}, nil
		}
		if named || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED)) {
			s.warn(fmt.Sprintf("no resident recorder answers (%v); loading the probe here", err))
		}
		return loadProbe(po)
	}
}

func loadProbe(po bpf.Options) (ebpfrec.Source, error) {
	p, err := bpf.Load(po)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// refusable is a recorder session that turns into a probe of its own
// when the recorder refuses the first process or does not answer: every
// later call goes to that probe.
type refusable struct {
	*recorder.Session
	fallback func(error) (ebpfrec.Source, error)
	own      ebpfrec.Source
}

func (r *refusable) Track(tgid uint32) error {
	if r.own != nil {
		return r.own.Track(tgid)
	}
	err := r.Session.Track(tgid)
	// Refused, or not answering: the process has not run yet, so a probe
	// of our own still records all of it.
	if err == nil || r.fallback == nil {
		r.fallback = nil // from now on, the session it is
		return err
	}
	r.Session.Close()
	own, ferr := r.fallback(err)
	if ferr != nil {
		return ferr
	}
	r.own = own
	return own.Track(tgid)
}

func (r *refusable) source() ebpfrec.Source {
	if r.own != nil {
		return r.own
	}
	return r.Session
}

func (r *refusable) ReadBatch(fn func(*bpf.Record)) (int, error) { return r.source().ReadBatch(fn) }
func (r *refusable) Lost() (bpf.Lost, error)                     { return r.source().Lost() }
func (r *refusable) Close() error                                { return r.source().Close() }
func (r *refusable) SetDeadline(t time.Time)                     { r.source().SetDeadline(t) }

// Wake ends the wait of a probe of its own (ebpfrec drains it so at the
// end); a session is drained by its SetDeadline.
func (r *refusable) Wake() error {
	if w, ok := r.source().(interface{ Wake() error }); ok {
		return w.Wake()
	}
	return nil
}
