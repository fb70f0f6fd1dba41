package dnsmsg

import (
	"encoding/binary"
	"slices"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// build makes a message with the library's builder: a query for name
// and typ, or with rcode set a response carrying records.
func build(t *testing.T, id uint16, name string, typ dnsmessage.Type, response bool, rcode dnsmessage.RCode, records ...dnsmessage.ResourceBody) []byte {
	t.Helper()
	n := dnsmessage.MustNewName(name)
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: id, Response: response, RCode: rcode, RecursionDesired: true})
	b.EnableCompression()
	must(t, b.StartQuestions())
	must(t, b.Question(dnsmessage.Question{Name: n, Type: typ, Class: dnsmessage.ClassINET}))
	must(t, b.StartAnswers())
	for _, r := range records {
		h := dnsmessage.ResourceHeader{Name: n, Class: dnsmessage.ClassINET, TTL: 60}
		switch r := r.(type) {
		case *dnsmessage.AResource:
			must(t, b.AResource(h, *r))
		case *dnsmessage.AAAAResource:
			must(t, b.AAAAResource(h, *r))
		case *dnsmessage.CNAMEResource:
			must(t, b.CNAMEResource(h, *r))
		case *dnsmessage.TXTResource:
			must(t, b.TXTResource(h, *r))
		}
	}
	out, err := b.Finish()
	must(t, err)
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestParse: queries and responses decoded to what a report prints.
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name     string
		msg      []byte
		response bool
		question string
		answer   string
	}{
		{"query", build(t, 0x7a29, "artifacts.internal.", dnsmessage.TypeAAAA, false, 0), false, "artifacts.internal AAAA", "NOERROR, no records"},
		{"a", build(t, 1, "artifacts.internal.", dnsmessage.TypeA, true, dnsmessage.RCodeSuccess,
			&dnsmessage.AResource{A: [4]byte{10, 1, 2, 3}}, &dnsmessage.AResource{A: [4]byte{10, 1, 2, 4}}), true, "artifacts.internal A", "A 10.1.2.3, A 10.1.2.4"},
		{"nxdomain", build(t, 2, "artifacts.internal.", dnsmessage.TypeA, true, dnsmessage.RCodeNameError), true, "artifacts.internal A", "NXDOMAIN"},
		{"nodata", build(t, 3, "artifacts.internal.", dnsmessage.TypeAAAA, true, dnsmessage.RCodeSuccess), true, "artifacts.internal AAAA", "NOERROR, no records"},
		{"servfail", build(t, 4, "x.example.", dnsmessage.TypeA, true, dnsmessage.RCodeServerFailure), true, "x.example A", "SERVFAIL"},
		{"cname and aaaa", build(t, 5, "www.example.", dnsmessage.TypeAAAA, true, dnsmessage.RCodeSuccess,
			&dnsmessage.CNAMEResource{CNAME: dnsmessage.MustNewName("cdn.example.")},
			&dnsmessage.AAAAResource{AAAA: [16]byte{0: 0xfd, 15: 1}}), true, "www.example AAAA", "CNAME cdn.example, AAAA fd00::1"},
		{"txt", build(t, 6, "t.example.", dnsmessage.TypeTXT, true, dnsmessage.RCodeSuccess,
			&dnsmessage.TXTResource{TXT: []string{"v=1", "a b"}}), true, "t.example TXT", `TXT "v=1" "a b"`},
		{"unnamed type", build(t, 7, "s.example.", dnsmessage.Type(65), false, 0), false, "s.example TYPE65", "NOERROR, no records"},
	} {
		m, err := Parse(tt.msg)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if m.Response != tt.response || m.Question.String() != tt.question {
			t.Errorf("%s: response %v question %q, want %v %q", tt.name, m.Response, m.Question, tt.response, tt.question)
		}
		if tt.response && m.Answer.String() != tt.answer {
			t.Errorf("%s: answer %q, want %q", tt.name, m.Answer, tt.answer)
		}
	}
}

// TestParseMalformed: every cut of a message and garbage give an error,
// never a panic.
func TestParseMalformed(t *testing.T) {
	msg := build(t, 1, "artifacts.internal.", dnsmessage.TypeA, true, dnsmessage.RCodeSuccess, &dnsmessage.AResource{A: [4]byte{10, 1, 2, 3}})
	for i := range len(msg) {
		if _, err := Parse(msg[:i]); err == nil {
			t.Errorf("a message cut to %d of %d bytes parsed", i, len(msg))
		}
	}
	if _, err := Parse([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err == nil {
		t.Error("an HTTP request parsed as DNS")
	}
}

// TestSame: the same records in another order are the same answer.
func TestSame(t *testing.T) {
	a := Answer{RCode: RCodeNoError, Records: []string{"A 10.1.2.3", "A 10.1.2.4"}}
	b := Answer{RCode: RCodeNoError, Records: []string{"A 10.1.2.4", "A 10.1.2.3"}}
	if !a.Same(b) {
		t.Error("reordered records differ")
	}
	if a.Same(Answer{RCode: RCodeNXDomain}) || a.Same(Answer{RCode: RCodeNoError, Records: []string{"A 10.1.2.3"}}) {
		t.Error("other answers are the same")
	}
	if !slices.Equal(a.Records, []string{"A 10.1.2.3", "A 10.1.2.4"}) {
		t.Error("Same sorted its receiver's records")
	}
}

// TestStream: a TCP connection's bytes cut at each message's length; a
// message cut short is left out.
func TestStream(t *testing.T) {
	q := build(t, 1, "a.example.", dnsmessage.TypeA, false, 0)
	r := build(t, 1, "a.example.", dnsmessage.TypeA, true, dnsmessage.RCodeNameError)
	var b []byte
	for _, m := range [][]byte{q, r} {
		b = binary.BigEndian.AppendUint16(b, uint16(len(m)))
		b = append(b, m...)
	}
	got := Stream(b)
	if len(got) != 2 || !slices.Equal(got[0], q) || !slices.Equal(got[1], r) {
		t.Fatalf("Stream gave %d messages", len(got))
	}
	if got := Stream(b[:len(b)-1]); len(got) != 1 {
		t.Errorf("a cut stream gave %d messages, want 1", len(got))
	}
}
