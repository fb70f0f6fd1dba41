package recorder

import (
	"bytes"
	"os"
	"testing"
)

// TestFrames: what frame writes, readFrame reads back, frame after frame.
func TestFrames(t *testing.T) {
	var b bytes.Buffer
	b.Write(frame(kindRecord, []byte{1, 0, 0, 0, 42}))
	b.Write(jsonFrame(kindAck, ack{Error: "no", RingSize: 4096}))
	b.Write(frame(kindDrain, nil))
	kind, p, err := readFrame(&b, nil)
	if err != nil || kind != kindRecord || !bytes.Equal(p, []byte{1, 0, 0, 0, 42}) {
		t.Fatalf("first frame: %d %v %v", kind, p, err)
	}
	kind, p, err = readFrame(&b, nil)
	if err != nil || kind != kindAck || string(p) != `{"error":"no","ring_size":4096,"max_capture":0}` {
		t.Fatalf("second frame: %d %s %v", kind, p, err)
	}
	kind, p, err = readFrame(&b, nil)
	if err != nil || kind != kindDrain || len(p) != 0 {
		t.Fatalf("third frame: %d %v %v", kind, p, err)
	}
	if _, _, err := readFrame(bytes.NewReader([]byte{0, 0, 0, 0x10, 1}), nil); err == nil {
		t.Error("a frame of 256 MiB was accepted")
	}
}

// TestQueueDropsPastLimit: a client that does not read loses its own
// records, counted by kind, never the End frame.
func TestQueueDropsPastLimit(t *testing.T) {
	q := newQueue()
	big := make([]byte, 1<<20)
	for range queueLimit >> 20 {
		q.push(big, recChunk)
	}
	q.push(big, recCall)
	q.push(big, recChunk)
	q.push(big, recExit)
	q.push(big, 0) // an End frame is always queued
	d := q.dropped()
	if d.DropCalls != 1 || d.DropChunks != 1 || d.DropOthers != 1 {
		t.Errorf("dropped %+v, want one call, one chunk, one other", d)
	}
	n := 0
	q.close()
	for {
		if _, ok := q.pop(); !ok {
			break
		}
		n++
	}
	if n != queueLimit>>20+1 {
		t.Errorf("%d frames queued, want %d", n, queueLimit>>20+1)
	}
}

// TestReadCreds reads this process's own credentials.
func TestReadCreds(t *testing.T) {
	c, err := readCreds(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if c.ppid != os.Getppid() || c.uids[0] != uint32(os.Getuid()) || c.gids[1] != uint32(os.Getegid()) {
		t.Errorf("creds %+v, want ppid %d uid %d egid %d", c, os.Getppid(), os.Getuid(), os.Getegid())
	}
	p := &peer{pid: os.Getppid(), uid: c.uids[0], gid: c.gids[0], capPrm: c.capPrm}
	if err := p.mayStart(os.Getpid()); err != nil && c.uids == [4]uint32{c.uids[0], c.uids[0], c.uids[0], c.uids[0]} &&
		c.gids == [4]uint32{c.gids[0], c.gids[0], c.gids[0], c.gids[0]} {
		t.Errorf("the parent may not follow its own child: %v", err)
	}
	stranger := &peer{pid: 1, uid: c.uids[0] + 1, gid: c.gids[0]}
	if err := stranger.mayStart(os.Getpid()); err == nil {
		t.Error("a client with another uid, not the parent, may follow this process")
	}
}

// TestQueuePopAll: the writer takes every queued frame at once, in
// order, and then the queue's end.
func TestQueuePopAll(t *testing.T) {
	q := newQueue()
	q.push([]byte{1}, recCall)
	q.push([]byte{2, 2}, recChunk)
	q.push([]byte{3}, 0)
	fs, ok := q.popAll(nil)
	if !ok || len(fs) != 3 || fs[0][0] != 1 || fs[1][0] != 2 || fs[2][0] != 3 {
		t.Fatalf("popAll = %v, %v; want the three frames in order", fs, ok)
	}
	q.push([]byte{4}, recCall)
	q.close()
	if fs, ok = q.popAll(fs[:0]); !ok || len(fs) != 1 || fs[0][0] != 4 {
		t.Fatalf("popAll after close = %v, %v; want what was queued", fs, ok)
	}
	if _, ok = q.popAll(nil); ok {
		t.Error("popAll on a closed, empty queue: ok")
	}
	// What it took no longer counts against the limit.
	big := make([]byte, 1<<20)
	q = newQueue()
	for range queueLimit >> 20 {
		q.push(big, recChunk)
	}
	q.popAll(nil)
	q.push(big, recCall)
	if d := q.dropped(); d.DropCalls != 0 {
		t.Errorf("a call was dropped after the queue was emptied: %+v", d)
	}
}
