package envdiff_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
)

// TestInspectKernel: the kernel's names the recorded command's uname got
// are compared with the caller's: a release that differs is a start
// item of KindKernel with both values (the version, the same, is none),
// found alike by Inspect and by an Inspector given the trace as a
// stream that keeps only DataUsed's buffers; a command that never asked
// has none.
func TestInspectKernel(t *testing.T) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		t.Fatal(err)
	}
	release, version := unix.ByteSliceToString(u.Release[:]), unix.ByteSliceToString(u.Version[:])
	tr := recordIn(t, t.TempDir(), "uname -r >/dev/null")
	tab, err := systable.New(tr.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	here := map[string]string{"release": "2.6.32-754.el6.x86_64", "version": version}
	d, err := envdiff.Inspect(tr, tab, "/", envdiff.Options{KernelHere: here, MaxHash: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Kernel) != 1 || d.Kernel[0].Kind != envobj.KindKernel || d.Kernel[0].Name != "release" ||
		*d.Kernel[0].Good != release || *d.Kernel[0].Here != here["release"] {
		t.Fatalf("Kernel = %+v; want the release, %q in the good run", d.Kernel, release)
	}

	// The same trace given an Inspector event by event, as a stream
	// whose reader keeps the buffers DataUsed asks for: uname's answer
	// is one.
	in := envdiff.NewInspector(tab, tr.Header.Arch)
	used := envdiff.DataUsed(tab)
	for i := range tr.Events {
		c := tr.Events[i].Call
		if c != nil && tab.ByNr(int(c.Nr)).KernelNames {
			for k := range c.Mem {
				if !used(c, &c.Mem[k]) {
					t.Errorf("DataUsed leaves uname's answer out")
				}
			}
		}
		in.Add(&tr.Events[i])
	}
	ds, err := in.Compare(tr.Files, "/", envdiff.Options{KernelHere: here, MaxHash: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Kernel) != 1 || *ds.Kernel[0].Good != release {
		t.Errorf("streamed: Kernel = %+v", ds.Kernel)
	}

	none := recordIn(t, t.TempDir(), "true")
	if d, _ := envdiff.Inspect(none, tab, "/", envdiff.Options{KernelHere: here, MaxHash: -1}); d == nil || len(d.Kernel) != 0 {
		t.Errorf("a command that never called uname: Kernel %+v", d)
	}
}
