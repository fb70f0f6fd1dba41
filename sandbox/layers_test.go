package sandbox

import (
	"io"
	"strings"
	"testing"
)

// Layers give a content from the first layer that has it, and say why
// none had one.
func TestLayers(t *testing.T) {
	files, values := MemContents{}, MemContents{}
	a := files.Add("a file of the trace\n")
	v := values.Add("4096\n")
	ls := Layers{files, nil, values}
	for h, want := range map[[32]byte]string{a: "a file of the trace\n", v: "4096\n"} {
		rc, err := ls.OpenHash(h)
		if err != nil {
			t.Fatalf("OpenHash %x: %v", h[:4], err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if string(b) != want {
			t.Errorf("OpenHash %x = %q, want %q", h[:4], b, want)
		}
	}
	missing := MemContents{}.Add("nowhere")
	if _, err := ls.OpenHash(missing); err == nil || !strings.Contains(err.Error(), "no content") {
		t.Errorf("OpenHash of a content no layer has: %v", err)
	}
	if _, err := (Layers{}).OpenHash(missing); err == nil {
		t.Errorf("OpenHash of empty layers: no error")
	}
}
