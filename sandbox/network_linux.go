package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// enterNetwork gives the calling thread, the one that execs the command,
// a network namespace of its own (Spec.OwnNetwork) with its loopback
// interface up and no other: every address is free there, so a bind that
// fails here because another process holds the address succeeds, and the
// command's own processes reach each other on 127.0.0.1 and ::1. Nothing
// outside the run is reachable from it, and nothing outside sees what it
// binds. Nothing when own is false.
func enterNetwork(own bool, join string) error {
	if join != "" {
		return joinNetwork(join)
	}
	if !own {
		return nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("sandbox: unshare(CLONE_NEWNET) for a network namespace of the run's own: %w (needs CAP_SYS_ADMIN: run as root)", err)
	}
	if err := LoopbackUp(); err != nil {
		return fmt.Errorf("sandbox: bring up lo in the run's network namespace: %w", err)
	}
	return nil
}

// joinNetwork moves the calling thread into the network namespace whose
// nsfs file is at path (Spec.NetNS).
func joinNetwork(path string) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sandbox: open the run's network namespace %s: %w", path, err)
	}
	defer unix.Close(fd)
	if err := unix.Setns(fd, unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("sandbox: setns(%s, CLONE_NEWNET): %w (needs CAP_SYS_ADMIN: run as root)", path, err)
	}
	return nil
}

// LoopbackUp sets IFF_UP on lo, in the calling thread's network
// namespace (a socket is made in its creator's), as `ip link set lo up`.
func LoopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("SIOCGIFFLAGS: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("SIOCSIFFLAGS: %w", err)
	}
	return nil
}
