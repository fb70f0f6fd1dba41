package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// enterHostname gives the calling thread, the one that execs the
// command, a UTS namespace of its own named name (Spec.Hostname): a copy
// of the one it is in, so the domain name stays, and nothing outside the
// run sees the change. Nothing for "".
func enterHostname(name string) error {
	if name == "" {
		return nil
	}
	if err := unix.Unshare(unix.CLONE_NEWUTS); err != nil {
		return fmt.Errorf("sandbox: unshare(CLONE_NEWUTS) for the host name %q: %w (needs CAP_SYS_ADMIN: run as root)", name, err)
	}
	if err := unix.Sethostname([]byte(name)); err != nil {
		return fmt.Errorf("sandbox: set the host name %q: %w", name, err)
	}
	return nil
}
