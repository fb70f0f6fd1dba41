// Package containers holds the end-to-end tests of record, replay and
// locate run inside containers (--container, through a real Docker
// daemon) and inside another process's namespaces (--pid, with
// util-linux's unshare). It has no code of its own: see the _test files.
//
// No registry is reachable from the tests: images are made with docker
// import from a root filesystem the test writes as a tar stream (Debian's
// static busybox and a static victim program built by the test), and
// containers run with --network none.
package containers
