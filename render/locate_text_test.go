package render

import "testing"

func TestWrap(t *testing.T) {
	if got := wrap("aa bb cc dd", 5); got != "aa bb\ncc dd" {
		t.Errorf("%q", got)
	}
	if got := wrap("a verylongword b", 4); got != "a\nverylongword\nb" {
		t.Errorf("%q", got)
	}
}
