// Package dnsmsg reads DNS messages as envbisect's reports show them:
// what a query asks ("artifacts.internal A") and what its answer says
// (the response code and the records: "A 10.1.2.3", "NXDOMAIN"). The
// dependency tracker titles a DNS exchange by its questions, and
// locate's report puts the good and the live answer side by side.
//
// # Mechanism
//
// Decoding is golang.org/x/net/dns/dnsmessage's, the Go team's
// maintained parser (the one net's pure-Go resolver uses), which never
// panics on malformed input and reports an error instead; this package
// only names what it returns: a type by its mnemonic (A, AAAA, CNAME),
// a response code by its IANA mnemonic (NOERROR, NXDOMAIN, SERVFAIL), a
// record by its type and data. Over UDP each datagram is one message;
// over TCP every message follows its 2-byte length (RFC 1035 4.2.2), and
// Stream cuts a connection's bytes at those lengths. Nothing here
// parses DNS wire format by hand beyond those two bytes.
//
// Plain data: it imports no package of envbisect's and touches no kernel.
package dnsmsg
