package tracefile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// contentFile is a file object to store and the content to store it from.
type contentFile struct {
	obj     trace.FileObject
	content []byte
	keep    bool
}

// sampleFiles are file objects of every kind: a library of three chunks
// whose first two are alike (stored once), a small config file, an empty
// file, an excluded key and a file over the budget, which share no chunk.
func sampleFiles() []contentFile {
	lib := bytes.Repeat(randomBytes(7, 1<<20), 8)          // 8 MiB: two equal 4 MiB chunks
	lib = append(lib, randomBytes(8, 100_000)...)          // and a third one
	conf := []byte("# /etc/app.conf\nlisten = 8080\n")     // one small chunk
	key := []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n") // excluded: hashed only
	big := randomBytes(9, 5000)
	return []contentFile{
		{trace.FileObject{ID: 1, Path: "/usr/lib/x86_64-linux-gnu/libapp.so.1", Resolved: "/usr/lib/x86_64-linux-gnu/libapp.so.1.2.3",
			Mode: 0o100644, Mtime: 1700000000123456789, Dev: 2049, Ino: 1234,
			Package: &trace.Package{Manager: trace.PackageDpkg, Name: "libapp1", Version: "1:1.2.3-1", Arch: "amd64"}}, lib, true},
		{trace.FileObject{ID: 2, Path: "/etc/app.conf", Mode: 0o100600, UID: 1000, GID: 1000, Mtime: 1, Dev: 2049, Ino: 99}, conf, true},
		{trace.FileObject{ID: 3, Path: "/etc/empty", Mode: 0o100644}, nil, true},
		{trace.FileObject{ID: 4, Path: "/home/u/.ssh/id_ed25519", Mode: 0o100600, Why: trace.ContentExcluded}, key, false},
		{trace.FileObject{ID: 5, Path: "/var/big", Mode: 0o100644, Why: trace.ContentOverBudget}, big, false},
	}
}

// writeContentTrace writes the sample trace with the sample files stored
// by a ContentWriter: the first two before the events, the others after
// them (as a recorder's content goroutine may lag).
func writeContentTrace(t testing.TB, opts Options, files []contentFile) ([]byte, Stats) {
	t.Helper()
	var buf bytes.Buffer
	w, err := opts.NewWriter(&buf, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	cw, err := w.NewContentWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Close()
	store := func(fs []contentFile) {
		for i := range fs {
			if err := cw.StoreFile(&fs[i].obj, bytes.NewReader(fs[i].content), fs[i].keep); err != nil {
				t.Fatal(err)
			}
		}
	}
	store(files[:2])
	if err := w.WriteStart(sampleStart()); err != nil {
		t.Fatal(err)
	}
	evs := sampleEvents()
	evs[1].Call.Obj = 1
	evs[1].Call.Dirs = []trace.DirStat{{Path: "/usr", Mode: 0o40755}, {Path: "/usr/lib", Mode: 0o40755, UID: 1, GID: 2}}
	if err := w.WriteEvents(evs); err != nil {
		t.Fatal(err)
	}
	store(files[2:])
	if err := w.Close(sampleEnd()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.Stats()
}

// wantObjects is what the reader must give for files: the identity as
// given, with size, hash and chunks as StoreFile fills them in.
func wantObjects(files []contentFile) []trace.FileObject {
	var out []trace.FileObject
	for _, f := range files {
		o := f.obj
		o.Size = int64(len(f.content))
		o.SHA256 = sha256.Sum256(f.content)
		o.Chunks = nil
		if f.keep {
			for c := f.content; len(c) > 0; {
				n := min(len(c), MaxChunkSize)
				o.Chunks = append(o.Chunks, sha256.Sum256(c[:n]))
				c = c[n:]
			}
		}
		out = append(out, o)
	}
	return out
}

// checkContents reads every stored object's content back through open.
func checkContents(t *testing.T, files []contentFile, file func(uint32) *trace.FileObject, open func(*trace.FileObject) (io.ReadCloser, error)) {
	t.Helper()
	for _, f := range files {
		obj := file(f.obj.ID)
		if obj == nil {
			t.Fatalf("file object %d is missing", f.obj.ID)
		}
		rc, err := open(obj)
		if !f.keep {
			if !errors.Is(err, ErrNoContent) || !strings.Contains(err.Error(), obj.Why) {
				t.Errorf("%s: OpenContent: %v, want ErrNoContent saying %s", obj.Path, err, obj.Why)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", obj.Path, err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", obj.Path, err)
		}
		if !bytes.Equal(got, f.content) {
			t.Errorf("%s: content of %d bytes differs from the %d stored", obj.Path, len(got), len(f.content))
		}
	}
}

// Content round trip: every file object reads back with its identity,
// hash and chunks, and its content, through ReadFile's Trace, through a
// Reader over an io.ReaderAt and through one over a plain io.Reader.
// Equal chunks are stored once.
func TestContentRoundTrip(t *testing.T) {
	for _, opts := range []Options{{}, {Compression: Uncompressed}} {
		t.Run(opts.Compression.String(), func(t *testing.T) {
			files := sampleFiles()
			data, st := writeContentTrace(t, opts, files)
			want := wantObjects(files)
			if st.Files != 5 || st.Chunks != 3 || st.ChunksDeduplicated != 1 {
				t.Errorf("stats: %d files, %d chunks, %d deduplicated; want 5, 3, 1", st.Files, st.Chunks, st.ChunksDeduplicated)
			}
			if opts.Compression != Uncompressed && st.ChunkStored >= st.ChunkBytes/2 {
				t.Errorf("chunks stored in %d bytes for %d: the repeated library did not compress", st.ChunkStored, st.ChunkBytes)
			}
			path := filepath.Join(t.TempDir(), "content.envb")
			os.WriteFile(path, data, 0o600)
			tr, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			requireEqual(t, "files", tr.Files, want)
			if tr.Events[1].Call.Obj != 1 {
				t.Errorf("Obj of the open is %d, want 1", tr.Events[1].Call.Obj)
			}
			requireEqual(t, "the open's parent directories", tr.Events[1].Call.Dirs,
				[]trace.DirStat{{Path: "/usr", Mode: 0o40755}, {Path: "/usr/lib", Mode: 0o40755, UID: 1, GID: 2}})
			checkContents(t, files, tr.File, tr.OpenContent)
			if err := tr.VerifyContent(); err != nil {
				t.Error(err)
			}

			r, err := NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			for {
				if _, err := r.Next(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
			}
			requireEqual(t, "reader's files", r.Files(), want)
			checkContents(t, files, r.File, r.OpenContent)

			plain, err := NewReader(io.MultiReader(bytes.NewReader(data))) // no io.ReaderAt
			if err != nil {
				t.Fatal(err)
			}
			tr2, err := readAll(plain)
			if err != nil {
				t.Fatal(err)
			}
			checkContents(t, files, tr2.File, tr2.OpenContent)
		})
	}
}

// chunkFrames lists the offsets of the chunk frames of data.
func chunkFrames(data []byte) []int {
	var offs []int
	for _, off := range frameOffsets(data) {
		if data[off] == byte(frameChunk) {
			offs = append(offs, off)
		}
	}
	return offs
}

// A damaged chunk is found: by its frame checksum when the trace is read,
// and, when the checksum was made to match, by its address when the
// content is read (OpenContent, VerifyContent), naming the file.
func TestCorruptChunk(t *testing.T) {
	files := sampleFiles()
	data, _ := writeContentTrace(t, Options{Compression: Uncompressed}, files)
	off := chunkFrames(data)[1] // the library's third chunk
	damaged := bytes.Clone(data)
	damaged[off+frameHeaderSize+hashSize+1000] ^= 0x01
	if _, err := readBytes(damaged, defaultLimits); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("a chunk with a flipped bit read as %v, want a checksum mismatch", err)
	}

	fixed := fixCRCs(damaged)
	path := filepath.Join(t.TempDir(), "damaged.envb")
	os.WriteFile(path, fixed, 0o600)
	tr, err := ReadFile(path)
	if err != nil {
		t.Fatalf("the frames are sound, the chunk's bytes are not: %v", err)
	}
	lib := tr.File(1)
	rc, err := tr.OpenContent(lib)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(io.Discard, rc)
	rc.Close()
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "content of "+lib.Path) || !strings.Contains(err.Error(), "does not match its address") {
		t.Errorf("reading the damaged library: %v, want ErrCorrupt naming it", err)
	}
	err = tr.VerifyContent()
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), lib.Path) || strings.Contains(err.Error(), "/etc/app.conf") {
		t.Errorf("VerifyContent: %v, want the library's damage only", err)
	}

	// The trace file changed after it was read: the chunk's frame is no
	// longer what the reader saw.
	os.WriteFile(path, data[:off+10], 0o600)
	rc, _ = tr.OpenContent(lib)
	if _, err := io.Copy(io.Discard, rc); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a trace cut after reading: %v, want ErrCorrupt", err)
	}
	rc.Close()
}

// File frames that break the rules are refused when the trace is read.
func TestFileFrameInvariants(t *testing.T) {
	em, _ := newEncMode()
	hdr, _ := em.Marshal(sampleHeader())
	end, _ := em.Marshal(sampleEnd())
	chunk := []byte("hello")
	addr := sha256.Sum256(chunk)
	chunkPayload := append(addr[:], chunk...)
	file := func(f trace.FileObject) []byte { b, _ := em.Marshal(f); return b }
	good := trace.FileObject{ID: 1, Path: "/a", Size: 5, SHA256: addr, Chunks: []trace.Hash{addr}}
	cases := []struct {
		name   string
		frames [][2][]byte // type, payload
		msg    string
	}{
		{"good", [][2][]byte{{{6}, chunkPayload}, {{7}, file(good)}}, ""},
		{"chunk after its file", [][2][]byte{{{7}, file(good)}, {{6}, chunkPayload}}, "names chunk"},
		{"id 0", [][2][]byte{{{6}, chunkPayload}, {{7}, file(trace.FileObject{Path: "/a"})}}, "has ID 0"},
		{"id twice", [][2][]byte{{{6}, chunkPayload}, {{7}, file(good)}, {{7}, file(good)}}, "a second file object with ID 1"},
		{"why and chunks", [][2][]byte{{{6}, chunkPayload}, {{7}, file(trace.FileObject{ID: 1, Path: "/a", Size: 5, Chunks: []trace.Hash{addr}, Why: "excluded"})}}, "marked excluded but names 1 chunks"},
		{"too many chunks", [][2][]byte{{{6}, chunkPayload}, {{7}, file(trace.FileObject{ID: 1, Path: "/a", Size: 1, Chunks: []trace.Hash{addr, addr}})}}, "names 2 chunks for 1 bytes"},
		{"short chunk", [][2][]byte{{{6}, addr[:20]}}, "shorter than its 32-byte address"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := appendRawFrame(appendPreamble(nil), 1, 0, hdr)
			for _, f := range c.frames {
				b = appendRawFrame(b, f[0][0], 0, f[1])
			}
			b = appendRawFrame(b, 5, 0, end)
			_, err := readBytes(b, defaultLimits)
			if c.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want ErrCorrupt saying %q", err, c.msg)
			}
		})
	}
}

// The writer refuses file objects a reader would, and writes nothing.
func TestWriterRefusesBadFiles(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, sampleHeader())
	cw, _ := w.NewContentWriter()
	defer cw.Close()
	if err := cw.StoreFile(&trace.FileObject{ID: 1, Path: "/a"}, strings.NewReader("x"), false); err == nil {
		t.Error("content not kept without a reason was accepted")
	}
	if err := cw.StoreFile(&trace.FileObject{ID: 1, Path: "/a"}, strings.NewReader("x"), true); err != nil {
		t.Fatal(err)
	}
	n := buf.Len()
	if err := cw.StoreFile(&trace.FileObject{ID: 1, Path: "/b"}, strings.NewReader("x"), true); err == nil {
		t.Error("a second object with ID 1 was accepted")
	}
	if buf.Len() != n {
		t.Error("a refused object left frames in the trace")
	}
	if err := cw.StoreFile(&trace.FileObject{ID: 2, Path: "/b"}, iotestErr{}, true); err != nil {
		t.Fatal(err)
	}
	w.Close(nil)
	tr, err := readBytes(buf.Bytes(), defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if f := tr.File(2); f == nil || f.Why != trace.ContentUnreadable || f.SHA256 != (trace.Hash{}) {
		t.Errorf("an unreadable file: %+v, want Why unreadable and no hash", f)
	}
}

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errors.New("EIO") }

// The bytes a call read and the content of the file it read them from are
// stored once, whichever comes first: a read's buffer may name a chunk,
// and a file's chunk a blob.
func TestReadAndContentStoredOnce(t *testing.T) {
	data := randomBytes(11, 20000)
	readOf := func(seq uint64) trace.Event {
		return trace.Event{Call: &trace.Call{Seq: seq, Proc: 1, Thread: 1, TSeq: seq, Nr: 0, Ret: int64(len(data)),
			Mem: []trace.Mem{{Arg: 1, Dir: trace.Out, Addr: 0x1000, Len: uint64(len(data)), Data: data}}}}
	}
	for _, contentFirst := range []bool{true, false} {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, sampleHeader())
		cw, _ := w.NewContentWriter()
		obj := trace.FileObject{ID: 1, Path: "/usr/lib/python3.11/__pycache__/json.cpython-311.pyc"}
		store := func() {
			if err := cw.StoreFile(&obj, bytes.NewReader(data), true); err != nil {
				t.Fatal(err)
			}
		}
		if contentFirst {
			store()
		}
		if err := w.WriteEvents([]trace.Event{readOf(1)}); err != nil {
			t.Fatal(err)
		}
		if !contentFirst {
			store()
		}
		cw.Close()
		w.Close(nil)
		st := w.Stats()
		if st.Blobs+st.Chunks != 1 {
			t.Errorf("content first %v: %d blobs and %d chunks, want the bytes once", contentFirst, st.Blobs, st.Chunks)
		}
		for name, rd := range map[string]io.Reader{"ReaderAt": bytes.NewReader(buf.Bytes()), "plain": io.MultiReader(bytes.NewReader(buf.Bytes()))} {
			r, err := NewReader(rd)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := readAll(r)
			if err != nil {
				t.Fatalf("content first %v, %s: %v", contentFirst, name, err)
			}
			if !bytes.Equal(tr.Events[0].Call.Mem[0].Data, data) {
				t.Errorf("content first %v, %s: the read's bytes differ", contentFirst, name)
			}
			checkContents(t, []contentFile{{obj, data, true}}, tr.File, tr.OpenContent)
		}
	}
}
