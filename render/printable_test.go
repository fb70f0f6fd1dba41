package render

import "testing"

func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/etc/app.conf", "/etc/app.conf"},
		{"/srv/données/ü", "/srv/données/ü"},         // printable UTF-8 stays
		{"/tmp/\ufffd", "/tmp/\ufffd"},               // a real U+FFFD is text
		{"/tmp/a\nb", `/tmp/a\nb`},                   // a forged line
		{"/tmp/\x1b[2J", `/tmp/\x1b[2J`},             // a terminal command
		{"/tmp/\xff\xfe", `/tmp/\xff\xfe`},           // invalid UTF-8, byte by byte
		{"/tmp/\u202efdp.exe", `/tmp/\u202efdp.exe`}, // right-to-left override
		{"/tmp/\u0085x", `/tmp/\u0085x`},             // a C1 control (NEL)
		{"tab\there", `tab\there`},
		{"del\x7f", `del\x7f`},
	} {
		if got := Visible(c.in); got != c.want {
			t.Errorf("Visible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestVisibleArgsLeavesPreformatted(t *testing.T) {
	args := visibleArgs([]any{"a\nb", preformatted("line 1\nline 2"), 7})
	if args[0] != `a\nb` || args[1] != preformatted("line 1\nline 2") || args[2] != 7 {
		t.Errorf("visibleArgs = %#v", args)
	}
}
