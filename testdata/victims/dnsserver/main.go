// Command dnsserver is a fixture of envbisect's DNS tests: a small
// authoritative DNS server (UDP and TCP on one address) that answers the
// names it is given and NXDOMAIN for every other name, and optionally a
// tiny HTTP server, so that a test can build a good environment (the name
// resolves, the service answers) and a bad one (the name is unknown).
//
// Usage: dnsserver -dns 127.0.0.1:53 [-a NAME=IPv4]... [-http ADDR] [-ready FILE]
//
// A question for NAME of type A gets the address given with -a; one of
// another type (AAAA ...) for a known NAME gets no answer (NOERROR,
// "no data"); a question for any other name gets NXDOMAIN. With -http it
// also serves "ok\n" at every path on ADDR. It writes FILE once it
// listens and runs until killed.
//
// It lives under testdata, so `go build ./...` skips it; testutil.BuildGo
// builds it. Messages are built and parsed with
// golang.org/x/net/dns/dnsmessage, the library envbisect decodes them
// with.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"

	"golang.org/x/net/dns/dnsmessage"
)

// names maps a fully qualified name ("artifacts.internal.") to its address.
type names map[string]netip.Addr

func (n names) String() string { return fmt.Sprint(map[string]netip.Addr(n)) }

func (n names) Set(s string) error {
	name, addr, ok := strings.Cut(s, "=")
	a, err := netip.ParseAddr(addr)
	if !ok || err != nil || !a.Is4() {
		return fmt.Errorf("want NAME=IPv4, got %q", s)
	}
	n[strings.ToLower(strings.TrimSuffix(name, "."))+"."] = a
	return nil
}

func main() {
	known := names{}
	dnsAddr := flag.String("dns", "127.0.0.1:53", "the address to answer DNS on (UDP and TCP)")
	httpAddr := flag.String("http", "", "an address to serve HTTP on")
	ready := flag.String("ready", "", "a file to write once listening")
	flag.Var(known, "a", "NAME=IPv4: answer A questions for NAME with the address (repeatable)")
	flag.Parse()
	log.SetPrefix("dnsserver: ")

	pc, err := net.ListenPacket("udp", *dnsAddr)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *dnsAddr)
	if err != nil {
		log.Fatal(err)
	}
	if *httpAddr != "" {
		hl, err := net.Listen("tcp", *httpAddr)
		if err != nil {
			log.Fatal(err)
		}
		go http.Serve(hl, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") }))
	}
	go serveTCP(ln, known)
	if *ready != "" {
		if err := os.WriteFile(*ready, []byte("ready\n"), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	buf := make([]byte, 65535)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			log.Fatal(err)
		}
		if out, ok := answer(buf[:n], known); ok {
			pc.WriteTo(out, from)
		}
	}
}

// serveTCP answers DNS over TCP: each message follows its 2-byte length.
func serveTCP(ln net.Listener, known names) {
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go func() {
			defer c.Close()
			for {
				var l [2]byte
				if _, err := io.ReadFull(c, l[:]); err != nil {
					return
				}
				q := make([]byte, binary.BigEndian.Uint16(l[:]))
				if _, err := io.ReadFull(c, q); err != nil {
					return
				}
				out, ok := answer(q, known)
				if !ok {
					return
				}
				c.Write(binary.BigEndian.AppendUint16(nil, uint16(len(out))))
				c.Write(out)
			}
		}()
	}
}

// answer builds the response to query q.
func answer(q []byte, known names) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(q)
	if err != nil || h.Response {
		return nil, false
	}
	question, err := p.Question()
	if err != nil {
		return nil, false
	}
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired}
	addr, ok := known[strings.ToLower(question.Name.String())]
	if !ok {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if b.StartQuestions() != nil || b.Question(question) != nil || b.StartAnswers() != nil {
		return nil, false
	}
	if ok && question.Type == dnsmessage.TypeA {
		rr := dnsmessage.ResourceHeader{Name: question.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET, TTL: 60}
		if b.AResource(rr, dnsmessage.AResource{A: addr.As4()}) != nil {
			return nil, false
		}
	}
	out, err := b.Finish()
	return out, err == nil
}
