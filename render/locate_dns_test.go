package render

import (
	"encoding/json"
	"strings"
	"testing"
)

// dnsReport is a report located on the answer for artifacts.internal A.
func dnsReport(here DNSAnswer) *LocateReport {
	return &LocateReport{Status: Located, RecordedCalls: 162, Runs: 4,
		Space: &SearchSpace{Over: SpaceDiffering, Candidates: 2, Resources: []SpaceResource{
			{Title: "the answer for artifacts.internal AAAA"}, {Title: "the answer for artifacts.internal A"}}},
		Culprit: &Culprit{Seq: 159, Who: "[1]", Syscall: "recvfrom", Resource: "the answer for artifacts.internal A",
			Call: `recvfrom(3, "T\xbc\x85\x00..."..., 1024, 0, {...}, [16]) = 52`,
			Good: CallResult{Return: "52"}, Here: CallResult{Return: "36"},
			DNS: &DNSExchange{Name: "artifacts.internal", Type: "A", Server: "127.0.0.1:53", Proto: "udp",
				Good: DNSAnswer{RCode: "NOERROR", Answers: []string{"A 10.1.2.3"}}, Here: here}},
		Group: &CulpritGroup{Kind: "dns", Title: "the answer for artifacts.internal A", Calls: []GroupCall{{Seq: 151, Syscall: "socket"}, {Seq: 159, Syscall: "recvfrom"}}},
	}
}

// TestDNSText: a culprit in a DNS exchange prints the answer both sides
// decoded, in one line, and the group by what it asks.
func TestDNSText(t *testing.T) {
	for _, tt := range []struct {
		name string
		here DNSAnswer
		want string
	}{
		{"nxdomain", DNSAnswer{RCode: "NXDOMAIN"},
			"dns       the answer for artifacts.internal A differs: good A 10.1.2.3, here NXDOMAIN (server 127.0.0.1:53)\n"},
		{"other address", DNSAnswer{RCode: "NOERROR", Answers: []string{"A 10.9.9.9", "A 10.9.9.8"}},
			"dns       the answer for artifacts.internal A differs: good A 10.1.2.3, here A 10.9.9.9, A 10.9.9.8 (server 127.0.0.1:53)\n"},
		{"no answer", DNSAnswer{Missing: true},
			"dns       the answer for artifacts.internal A differs: good A 10.1.2.3, here no answer (server 127.0.0.1:53)\n"},
		{"nodata", DNSAnswer{RCode: "NOERROR"},
			"here NOERROR, no records (server 127.0.0.1:53)\n"},
	} {
		var b strings.Builder
		if err := dnsReport(tt.here).WriteText(&b); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{tt.want, "group     the answer for artifacts.internal A: 151 socket, 159 recvfrom",
			"With the answer for artifacts.internal A as recorded (its 2 calls replayed"} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the report lacks %q:\n%s", tt.name, want, b.String())
			}
		}
	}
}

// TestDNSJSON: culprit.dns carries the question, the server and both
// answers as fields; a report read back prints the same line.
func TestDNSJSON(t *testing.T) {
	r := dnsReport(DNSAnswer{RCode: "NXDOMAIN"})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Culprit struct {
			DNS struct {
				Name, Type, Server, Proto string
				Good, Here                struct {
					RCode   string   `json:"rcode"`
					Answers []string `json:"answers"`
					Missing bool     `json:"missing"`
				}
			} `json:"dns"`
		} `json:"culprit"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	d := got.Culprit.DNS
	if d.Name != "artifacts.internal" || d.Type != "A" || d.Server != "127.0.0.1:53" || d.Proto != "udp" ||
		d.Good.RCode != "NOERROR" || len(d.Good.Answers) != 1 || d.Good.Answers[0] != "A 10.1.2.3" ||
		d.Here.RCode != "NXDOMAIN" || d.Here.Answers == nil || len(d.Here.Answers) != 0 || d.Here.Missing {
		t.Errorf("culprit.dns = %+v\n%s", d, b)
	}
	if !strings.Contains(string(b), `"here":{"rcode":"NXDOMAIN","answers":[]}`) {
		t.Errorf("an empty answer section is not [] in JSON: %s", b)
	}
	var back LocateReport
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Culprit.DNS == nil || back.Culprit.DNS.Line() != r.Culprit.DNS.Line() {
		t.Errorf("read back: %+v", back.Culprit.DNS)
	}
}
