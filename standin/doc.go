// Package standin puts a command's peers in place for a materialized run
// (issue 27): a network namespace of the run's own in which a stand-in
// listens at the address of each peer the good run talked to
// (envobj.Peer) and answers as the recording says it did, while every
// other recorded peer is relayed to the real one, so that the run differs
// from this machine in the chosen peers only.
//
// # Mechanism
//
// Start makes the namespace on a locked OS thread of envbisect's that
// then ends (unshare(CLONE_NEWNET), lo up: 127.0.0.0/8 and ::1 are
// there), opens each peer's listening socket in it (a socket stays in
// the namespace it was made in, whoever uses it), and keeps the
// namespace's nsfs file open; the run's sandbox joins it
// (sandbox.Spec.NetNS) before the command starts. The stand-ins are
// goroutines of envbisect: the run itself stays untraced.
//
//   - A TCP peer in place answers each connection the command makes with
//     the recorded connection whose first request it sends (in the
//     recorded order when the peer spoke first, as a banner): it reads
//     what the command sends and
//     compares it with what the good run sent, byte by byte, and writes
//     the peer's recorded reply once the command's turn is complete, turn
//     after turn; after its last reply it closes the connection.
//   - A DNS peer in place (UDP) answers each query with the recorded
//     answer to the same question (name, type, class), the live query id
//     written over the recorded one.
//   - A peer not in place is relayed: a connection (or a datagram)
//     accepted in the run's namespace is forwarded through a socket made
//     in envbisect's own namespace to the real address, and its replies
//     back.
//
// A stand-in never answers what the good run was not asked: a request
// whose bytes differ from the recorded one (or a question the good run
// did not ask, or more connections than it made) gets no answer, the
// connection is closed, and Close reports it, so that the run is "cannot
// tell" rather than a pass for the wrong reason. A destination the good
// run never reached is not reachable from the namespace at all.
package standin
