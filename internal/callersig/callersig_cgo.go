//go:build cgo && linux

package callersig

/*
#include <signal.h>
#include <stdint.h>

// The sets are written once, by the constructor, before any Go code
// runs, and only read after.
static uint64_t callersig_ignored, callersig_blocked;
static int callersig_read;

__attribute__((constructor)) static void callersig_save(void) {
	sigset_t set;
	if (sigprocmask(SIG_BLOCK, NULL, &set) != 0) {
		return;
	}
	for (int s = 1; s <= 64; s++) {
		struct sigaction sa;
		if (sigismember(&set, s) == 1) {
			callersig_blocked |= 1ULL << (s - 1);
		}
		if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) {
			callersig_ignored |= 1ULL << (s - 1);
		}
	}
	callersig_read = 1;
}

static uint64_t callersig_get_ignored(void) { return callersig_ignored; }
static uint64_t callersig_get_blocked(void) { return callersig_blocked; }
static int callersig_get_read(void) { return callersig_read; }
*/
import "C"

// Original returns the signals envbisect started with ignored and
// blocked, as bit sets (bit N-1 for signal N), read before the Go
// runtime changed them; exact is false when the constructor could not
// read them (then both are what /proc says now).
func Original() (ignored, blocked uint64, exact bool) {
	if C.callersig_get_read() != 1 {
		ignored, blocked = fromProc()
		return ignored, blocked, false
	}
	return uint64(C.callersig_get_ignored()), uint64(C.callersig_get_blocked()), true
}
