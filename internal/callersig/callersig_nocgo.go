//go:build !cgo || !linux

package callersig

// Original returns the signals envbisect ignores and blocks now, as /proc
// says (bit N-1 for signal N): without cgo nothing reads them before the
// Go runtime changes them, so exact is false.
func Original() (ignored, blocked uint64, exact bool) {
	ignored, blocked = fromProc()
	return ignored, blocked, false
}
