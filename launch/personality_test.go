package launch

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// uname26 is personality(2)'s UNAME26, what setarch --uname-2.6 sets.
const uname26 = 0x0020000

// TestHelperKeepsPersonality: a command started under setarch
// --uname-2.6 keeps UNAME26 through the helper, which turns address
// randomisation off on top of the persona it inherited rather than in
// its place, so uname -r says 2.6 as it would without envbisect.
func TestHelperKeepsPersonality(t *testing.T) {
	runtime.LockOSThread() // personality(2) is the thread's; the helper is forked by this one
	defer runtime.UnlockOSThread()
	old, _, e := unix.RawSyscall(unix.SYS_PERSONALITY, personalityQuery, 0, 0)
	if e != 0 {
		t.Fatalf("personality: %v", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_PERSONALITY, old|uname26, 0, 0); e != 0 {
		t.Skipf("personality(UNAME26) refused here: %v", e)
	}
	defer unix.RawSyscall(unix.SYS_PERSONALITY, old, 0, 0)
	r, out, err := runShellWith(t, Config{}, "cat /proc/self/personality; uname -r", false)
	if err != nil || r.ExitCode != 0 {
		t.Fatalf("run: %v %+v %q", err, r, out)
	}
	lines := strings.Fields(out)
	if len(lines) != 2 {
		t.Fatalf("output %q", out)
	}
	p, err := strconv.ParseUint(lines[0], 16, 64)
	if err != nil {
		t.Fatalf("personality %q: %v", lines[0], err)
	}
	if p&uname26 == 0 || p&addrNoRandomize == 0 {
		t.Errorf("the command's personality is %#x, want UNAME26 and ADDR_NO_RANDOMIZE", p)
	}
	if !strings.HasPrefix(lines[1], "2.6.") {
		t.Errorf("uname -r under UNAME26 gave %q, want 2.6.*", lines[1])
	}
}
