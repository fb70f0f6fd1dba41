package dnsmsg

import (
	"encoding/json"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// FuzzParse feeds Parse arbitrary bytes, as a trace's captured datagram
// can hold: it must return a message or an error, never panic, and a
// message it returns must encode as the report's JSON. The seed corpus is
// a query, an answer and an NXDOMAIN built with the library's builder;
// found inputs go to testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	t := &testing.T{}
	f.Add(build(t, 1, "example.org.", dnsmessage.TypeA, false, 0))
	f.Add(build(t, 2, "example.org.", dnsmessage.TypeA, true, dnsmessage.RCodeSuccess, &dnsmessage.AResource{A: [4]byte{127, 0, 0, 1}}))
	f.Add(build(t, 3, "nope.example.", dnsmessage.TypeAAAA, true, dnsmessage.RCodeNameError))
	f.Add(build(t, 4, "txt.example.", dnsmessage.TypeTXT, true, dnsmessage.RCodeSuccess, &dnsmessage.TXTResource{TXT: []string{"a\x1bb"}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			return
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("a parsed message does not encode: %v", err)
		}
	})
}
