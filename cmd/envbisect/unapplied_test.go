package main

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

func TestDockerWords(t *testing.T) {
	cases := []struct {
		name             string
		kind             trace.StartKind
		item, good, here string
		want             string
	}{
		{"cap dropped", trace.StartCaps, "bounding", "00000000a80425fb", "00000000a80425fa", "--cap-drop CHOWN"},
		{"cap added", trace.StartCaps, "bounding", "00000000a80425fb", "00000000a80435fb", "--cap-add NET_ADMIN"},
		{"no_new_privs", trace.StartNoNewPrivs, "", "0", "1", "--security-opt no-new-privileges"},
		{"no mapping", trace.StartCaps, "ambient", "0", "1", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := dockerWords(tc.kind, tc.item, tc.good, tc.here); got != tc.want {
				t.Errorf("dockerWords = %q, want %q", got, tc.want)
			}
		})
	}
}
