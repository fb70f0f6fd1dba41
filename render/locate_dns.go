package render

import (
	"encoding/json"
	"fmt"

	"github.com/envbisect/envbisect/dnsmsg"
)

// DNSExchange is, for a culprit in a DNS exchange (a query sent to a
// DNS server and its answer: depgraph's GroupDNS), the answer that
// differs, both sides decoded: "the answer for artifacts.internal A
// differs: good A 10.1.2.3, here NXDOMAIN (server 127.0.0.1:53)".
type DNSExchange struct {
	// Seq is the recorded call that received the good answer.
	Seq uint64 `json:"seq"`
	// Name and Type are what the query asked: "artifacts.internal", "A".
	Name string `json:"name"`
	Type string `json:"type"`
	// Server is the address the query went to ("127.0.0.1:53"), Proto
	// "udp" or "tcp".
	Server string `json:"server"`
	Proto  string `json:"proto"`
	// Good is the recorded answer, Here the answer in the failing run.
	Good DNSAnswer `json:"good"`
	Here DNSAnswer `json:"here"`
}

// DNSAnswer is one decoded DNS answer.
type DNSAnswer struct {
	// Missing: no answer to the question came in that run (the query
	// was not sent, or not answered).
	Missing bool `json:"missing,omitempty"`
	// RCode is the response code: "NOERROR", "NXDOMAIN", "SERVFAIL".
	RCode string `json:"rcode,omitempty"`
	// Answers are the answer section's records: "A 10.1.2.3".
	Answers []string `json:"answers"`
	// Truncated: the server set TC (a resolver asks again over TCP).
	Truncated bool `json:"truncated,omitempty"`
}

// String is the answer as the report prints it: "A 10.1.2.3",
// "NXDOMAIN", "NOERROR, no records", "no answer".
func (a DNSAnswer) String() string {
	if a.Missing {
		return "no answer"
	}
	return dnsmsg.Answer{RCode: a.RCode, Records: a.Answers, Truncated: a.Truncated}.String()
}

// Line is the exchange as one sentence: "the answer for
// artifacts.internal A differs: good A 10.1.2.3, here NXDOMAIN (server
// 127.0.0.1:53)", or "is the same here" when it is.
func (d *DNSExchange) Line() string {
	what := "the answer for " + d.Name + " " + d.Type
	server := d.Server
	if d.Proto == "tcp" {
		server += " over tcp"
	}
	if d.Good.String() == d.Here.String() {
		return fmt.Sprintf("%s is the same here: %s (server %s)", what, d.Good, server)
	}
	return fmt.Sprintf("%s differs: good %s, here %s (server %s)", what, d.Good, d.Here, server)
}

// MarshalJSON writes a missing answer as {"missing": true} alone, and an
// empty answer section as [] (an answer with no records, never an
// unknown one).
func (a DNSAnswer) MarshalJSON() ([]byte, error) {
	if a.Missing {
		return []byte(`{"missing":true}`), nil
	}
	type plain DNSAnswer
	if a.Answers == nil {
		a.Answers = []string{}
	}
	return json.Marshal(plain(a))
}
