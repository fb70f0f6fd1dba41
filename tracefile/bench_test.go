package tracefile

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// benchWorkload makes batches of calls shaped like a program starting up:
// in every 10 calls an openat (path inline), three 100-byte reads of text,
// one 4 KiB read (a quarter of them the same 4 KiB read again, like a
// library opened by two processes), three stat structs, a close and an
// mmap. Contents differ from batch to batch, as they would.
type benchWorkload struct {
	rng   *rand.Rand
	text  []byte // a few MiB of word-like text to cut reads from
	same  []byte // the 4 KiB read that recurs
	seq   uint64
	batch []trace.Event
	calls []trace.Call
	mems  []trace.Mem
	bufs  [][]byte
}

func newBenchWorkload(batch int) *benchWorkload {
	w := &benchWorkload{rng: rand.New(rand.NewPCG(7, 7))}
	words := strings.Fields("the of and to in is for on that with as by it this be are from at or an import def return self if else none true false class value config path lib usr share error warning debug info user home etc local python module version data file name size type")
	var sb strings.Builder
	for sb.Len() < 4<<20 {
		sb.WriteString(words[w.rng.IntN(len(words))])
		if w.rng.IntN(9) == 0 {
			sb.WriteByte('\n')
		} else {
			sb.WriteByte(' ')
		}
	}
	w.text = []byte(sb.String())
	w.same = w.text[100000:104096]
	w.batch = make([]trace.Event, batch)
	w.calls = make([]trace.Call, batch)
	w.mems = make([]trace.Mem, batch)
	w.bufs = make([][]byte, batch)
	for i := range w.bufs {
		w.bufs[i] = make([]byte, 4096)
	}
	return w
}

// next fills and returns the next batch. It reuses its memory, as a
// recorder would.
func (w *benchWorkload) next() []trace.Event {
	for i := range w.batch {
		w.seq++
		c := &w.calls[i]
		*c = trace.Call{Seq: w.seq, Proc: 1, Thread: 1, TSeq: w.seq, PID: 1000, TID: 1000,
			Args: [6]uint64{3, 0x7ffd12340000, 4096}, Enter: int64(w.seq) * 20000, Exit: int64(w.seq)*20000 + 3000}
		m := &w.mems[i]
		*m = trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x7ffd12340000}
		buf := w.bufs[i]
		switch w.seq % 10 {
		case 0: // openat
			c.Nr, c.Ret = 257, 3
			c.Path = fmt.Sprintf("/usr/lib/python3.11/site-packages/pkg%d/module%d.py", w.seq/100, w.seq%97)
			*m = trace.Mem{Arg: 1, Dir: trace.In, Addr: 0x55550000, Data: append(buf[:0], c.Path+"\x00"...)}
		case 1, 2, 3: // 100-byte read
			c.Nr, c.Ret, c.Path = 0, 100, "/etc/python3.11/sitecustomize.py"
			off := w.rng.IntN(len(w.text) - 100)
			m.Data = append(buf[:0], w.text[off:off+100]...)
		case 4: // 4 KiB read
			c.Nr, c.Ret, c.Path = 0, 4096, "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0"
			if w.seq%40 == 4 {
				m.Data = append(buf[:0], w.same...)
			} else {
				off := w.rng.IntN(len(w.text) - 4096)
				m.Data = append(buf[:0], w.text[off:off+4096]...)
			}
		case 5, 6, 7: // newfstatat: a struct stat
			c.Nr, c.Ret, c.Path = 262, 0, fmt.Sprintf("/usr/lib/python3.11/lib%d", w.seq%300)
			st := buf[:144]
			clear(st)
			le := binary.LittleEndian
			le.PutUint64(st[0:], 0x803)                      // st_dev
			le.PutUint64(st[8:], 1<<20+w.seq)                // st_ino
			le.PutUint64(st[16:], 1)                         // st_nlink
			le.PutUint32(st[24:], 0o100644)                  // st_mode
			le.PutUint64(st[48:], uint64(w.rng.IntN(1<<20))) // st_size
			le.PutUint64(st[56:], 4096)                      // st_blksize
			le.PutUint64(st[64:], uint64(w.rng.IntN(2048)))  // st_blocks
			le.PutUint64(st[72:], 1700000000+w.seq%1000)     // st_atime
			le.PutUint64(st[80:], uint64(w.rng.IntN(1e9)))   // st_atime_nsec
			le.PutUint64(st[88:], 1690000000)                // st_mtime
			le.PutUint64(st[104:], 1690000000)               // st_ctime
			m.Data = st
		case 8: // close
			c.Nr = 3
			m = nil
		case 9: // mmap
			c.Nr, c.Ret = 9, 0x7f0000000000+int64(w.seq)<<12
			m = nil
		}
		if m != nil {
			m.Len = uint64(len(m.Data))
			c.Mem = w.mems[i : i+1 : i+1]
		}
		w.batch[i] = trace.Event{Call: c}
	}
	return w.batch
}

// BenchmarkWriteEvents measures the recording path: out-of-line blobs,
// CBOR, zstd and the write to a file, per event. The first case is the
// default; the others vary one thing each: the zstd level, the blob
// threshold, the batch size.
func BenchmarkWriteEvents(b *testing.B) {
	cases := []struct {
		opts  Options
		batch int
	}{
		{Options{}, 64},
		{Options{Compression: ZstdDefault}, 64},
		{Options{Compression: Uncompressed}, 64},
		{Options{BlobThreshold: 64}, 64},
		{Options{BlobThreshold: 4096}, 64},
		{Options{Compression: ZstdDefault, BlobThreshold: 64}, 64},
		{Options{}, 1},
		{Options{}, 1024},
	}
	for _, c := range cases {
		th, _ := c.opts.threshold()
		b.Run(fmt.Sprintf("%s/blob>=%d/batch=%d", c.opts.Compression, th, c.batch), func(b *testing.B) {
			work := newBenchWorkload(c.batch)
			w, err := c.opts.Create(filepath.Join(b.TempDir(), "bench.envb"), sampleHeader())
			if err != nil {
				b.Fatal(err)
			}
			raw := uint64(0)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				evs := work.next()
				for _, ev := range evs {
					if ev.Call.Mem != nil {
						raw += uint64(len(ev.Call.Mem[0].Data))
					}
				}
				if err := w.WriteEvents(evs); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			st := w.Stats()
			if err := w.Close(nil); err != nil {
				b.Fatal(err)
			}
			n := float64(b.N * c.batch)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/event")
			b.ReportMetric(float64(st.Bytes)/n, "B/event")
			b.ReportMetric(float64(raw)/n, "captured-B/event")
			b.ReportMetric(float64(st.Blobs)/n, "blobs/event")
		})
	}
}

// BenchmarkReadEvents measures Next over a trace of the same workload,
// written with the default options.
func BenchmarkReadEvents(b *testing.B) {
	const batch, batches = 64, 200
	path := filepath.Join(b.TempDir(), "bench.envb")
	w, err := Create(path, sampleHeader())
	if err != nil {
		b.Fatal(err)
	}
	work := newBenchWorkload(batch)
	for range batches {
		if err := w.WriteEvents(work.next()); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		tr, err := ReadFile(path)
		if err != nil || len(tr.Events) != batch*batches {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch*batches), "ns/event")
}
