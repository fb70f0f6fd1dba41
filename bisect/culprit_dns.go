package bisect

import (
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/dnsmsg"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// dnsExchange is, for a group of a DNS exchange (depgraph's GroupDNS),
// the answer the report shows, decoded on both sides: the first
// recorded answer whose question got another answer, or none, in the
// failing run (live, by recorded seq); the first recorded answer when
// every one is the same. Answers are matched by question, not by
// position: a resolver that asks two questions at once takes the
// answers in whatever order they come. nil for another group, or when
// the recording holds no answer the library can read.
func (s *search) dnsExchange(gr *depgraph.Group, live map[uint64]*trace.Call) *render.DNSExchange {
	d, _ := s.dnsAnswers(gr, live)
	return d
}

// dnsAnswers is dnsExchange, and whether its answer differs here.
func (s *search) dnsAnswers(gr *depgraph.Group, live map[uint64]*trace.Call) (*render.DNSExchange, bool) {
	if gr == nil || gr.Kind != depgraph.GroupDNS {
		return nil, false
	}
	rec := s.g.DNSMessages(gr.Calls, func(seq uint64) *trace.Call {
		c, _ := s.g.Call(seq)
		return c
	})
	here := s.g.DNSMessages(gr.Calls, func(seq uint64) *trace.Call { return live[seq] })
	var same *render.DNSExchange
	for _, m := range rec {
		if !m.Response {
			continue
		}
		d := &render.DNSExchange{Seq: m.Seq, Name: m.Question.Name, Type: m.Question.Type, Server: m.Server, Proto: m.Proto,
			Good: dnsAnswer(m.Answer), Here: render.DNSAnswer{Missing: true}}
		for _, l := range here {
			if l.Response && l.Question == m.Question {
				d.Here, d.Server, d.Proto = dnsAnswer(l.Answer), l.Server, l.Proto
				if l.Answer.Same(m.Answer) {
					break
				}
			}
		}
		if d.Here.Missing || d.Here.String() != d.Good.String() {
			return d, true
		}
		if same == nil {
			same = d
		}
	}
	return same, false
}

// dnsAnswer is a decoded answer as the report holds it.
func dnsAnswer(a dnsmsg.Answer) render.DNSAnswer {
	return render.DNSAnswer{RCode: a.RCode, Answers: append([]string{}, a.Records...), Truncated: a.Truncated}
}
