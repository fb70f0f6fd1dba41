package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestTextContainer: the header says where a trace recorded in a
// container ran, and says nothing of it for one recorded on the host.
func TestTextContainer(t *testing.T) {
	for _, tc := range []struct{ container, want string }{
		{"container web (3f2a9c1b7d4e)", "# ran in: container web (3f2a9c1b7d4e)\n"},
		{"", ""},
	} {
		var buf bytes.Buffer
		r := NewText(&buf, testRows, Options{NoStart: true})
		if err := r.Begin(&trace.Header{Arch: "amd64", Command: []string{"app"}, Container: tc.container}, nil); err != nil {
			t.Fatal(err)
		}
		got := buf.String()
		if tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("header %q does not say %q", got, tc.want)
		}
		if tc.want == "" && strings.Contains(got, "ran in") {
			t.Errorf("header of a host trace says where it ran: %q", got)
		}
	}
}
