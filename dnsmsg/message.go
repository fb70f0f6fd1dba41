package dnsmsg

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/dns/dnsmessage"
)

// Question is what a query asks: a name and a record type.
type Question struct {
	// Name is the name asked, without the root's trailing dot:
	// "artifacts.internal".
	Name string
	// Type is the record type's mnemonic: "A", "AAAA", "TYPE65".
	Type string
}

// String is "artifacts.internal A".
func (q Question) String() string { return q.Name + " " + q.Type }

// Answer is what a response says about its question.
type Answer struct {
	// RCode is the response code's mnemonic: "NOERROR", "NXDOMAIN".
	RCode string
	// Records are the answer section's records, each as its type and
	// data: "A 10.1.2.3", "CNAME cdn.example.com".
	Records []string
	// Truncated: the server set TC (the answer did not fit a datagram;
	// a resolver asks again over TCP).
	Truncated bool
}

// String is the answer as a report prints it: "A 10.1.2.3, A
// 10.1.2.4", "NXDOMAIN", "NOERROR, no records", "SERVFAIL".
func (a Answer) String() string {
	s := strings.Join(a.Records, ", ")
	switch {
	case a.RCode != RCodeNoError && s != "":
		s = a.RCode + ": " + s
	case a.RCode != RCodeNoError:
		s = a.RCode
	case s == "":
		s = a.RCode + ", no records"
	}
	if a.Truncated {
		s += " (truncated)"
	}
	return s
}

// Same reports whether a and b say the same: the same response code,
// the same records in any order, both truncated or neither.
func (a Answer) Same(b Answer) bool {
	if a.RCode != b.RCode || a.Truncated != b.Truncated || len(a.Records) != len(b.Records) {
		return false
	}
	x, y := slices.Clone(a.Records), slices.Clone(b.Records)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// The response codes a report names most.
const (
	RCodeNoError  = "NOERROR"
	RCodeNXDomain = "NXDOMAIN"
)

// Message is one decoded DNS message.
type Message struct {
	// ID is the query id the response echoes.
	ID uint16
	// Response: a response (QR set); else a query.
	Response bool
	// Question is its first question (a resolver asks one per message).
	Question Question
	// Answer is set for a response.
	Answer Answer
}

// Parse decodes one message (without TCP's length prefix).
func Parse(b []byte) (Message, error) {
	var p dnsmessage.Parser
	h, err := p.Start(b)
	if err != nil {
		return Message{}, fmt.Errorf("dns message: %w", err)
	}
	q, err := p.Question()
	if err != nil {
		return Message{}, fmt.Errorf("dns message: question: %w", err)
	}
	m := Message{ID: h.ID, Response: h.Response, Question: Question{Name: nameText(q.Name), Type: TypeName(q.Type)}}
	if !h.Response {
		return m, nil
	}
	m.Answer = Answer{RCode: RCodeName(h.RCode), Truncated: h.Truncated}
	if err := p.SkipAllQuestions(); err != nil {
		return Message{}, fmt.Errorf("dns message: questions: %w", err)
	}
	rrs, err := p.AllAnswers()
	if err != nil && !h.Truncated {
		return Message{}, fmt.Errorf("dns message: answers: %w", err)
	}
	for _, rr := range rrs {
		m.Answer.Records = append(m.Answer.Records, recordText(rr))
	}
	return m, nil
}

// Stream cuts the bytes sent or received on a TCP connection to a DNS
// server into its messages: each follows its 2-byte length. A last
// message cut short (the trace kept part of it) is left out.
func Stream(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 2 {
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			break
		}
		out = append(out, b[2:2+n])
		b = b[2+n:]
	}
	return out
}

// nameText is a name without the root's trailing dot ("." for the root).
func nameText(n dnsmessage.Name) string {
	s := n.String()
	if s == "." {
		return s
	}
	return strings.TrimSuffix(s, ".")
}

// TypeName is a record type's mnemonic: "A", "AAAA", or "TYPE65" for a
// type the library does not name (RFC 3597's form).
func TypeName(t dnsmessage.Type) string {
	s := t.String()
	if n, ok := strings.CutPrefix(s, "Type"); ok {
		return n
	}
	return "TYPE" + strconv.FormatUint(uint64(t), 10)
}

// rcodeNames are the IANA mnemonics of the library's response codes.
var rcodeNames = map[dnsmessage.RCode]string{
	dnsmessage.RCodeSuccess:        RCodeNoError,
	dnsmessage.RCodeFormatError:    "FORMERR",
	dnsmessage.RCodeServerFailure:  "SERVFAIL",
	dnsmessage.RCodeNameError:      RCodeNXDomain,
	dnsmessage.RCodeNotImplemented: "NOTIMP",
	dnsmessage.RCodeRefused:        "REFUSED",
}

// RCodeName is a response code's mnemonic: "NOERROR", "NXDOMAIN", or
// "RCODE9" for one the library does not name.
func RCodeName(r dnsmessage.RCode) string {
	if n, ok := rcodeNames[r]; ok {
		return n
	}
	return "RCODE" + strconv.FormatUint(uint64(r), 10)
}

// recordText is a record as its type and data: "A 10.1.2.3".
func recordText(rr dnsmessage.Resource) string {
	t := TypeName(rr.Header.Type)
	switch b := rr.Body.(type) {
	case *dnsmessage.AResource:
		return t + " " + netip.AddrFrom4(b.A).String()
	case *dnsmessage.AAAAResource:
		return t + " " + netip.AddrFrom16(b.AAAA).String()
	case *dnsmessage.CNAMEResource:
		return t + " " + nameText(b.CNAME)
	case *dnsmessage.NSResource:
		return t + " " + nameText(b.NS)
	case *dnsmessage.PTRResource:
		return t + " " + nameText(b.PTR)
	case *dnsmessage.MXResource:
		return fmt.Sprintf("%s %d %s", t, b.Pref, nameText(b.MX))
	case *dnsmessage.SRVResource:
		return fmt.Sprintf("%s %d %d %d %s", t, b.Priority, b.Weight, b.Port, nameText(b.Target))
	case *dnsmessage.TXTResource:
		q := make([]string, len(b.TXT))
		for i, s := range b.TXT {
			q[i] = strconv.Quote(s)
		}
		return t + " " + strings.Join(q, " ")
	case *dnsmessage.SOAResource:
		return fmt.Sprintf("%s %s %s %d", t, nameText(b.NS), nameText(b.MBox), b.Serial)
	case *dnsmessage.UnknownResource:
		return fmt.Sprintf("%s (%d bytes)", t, len(b.Data))
	}
	return t
}
