package launch

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNotBound is wrapped by AddressHolder's error when no socket is bound
// to the address: it is free.
var ErrNotBound = errors.New("no socket bound")

// AddressHolder finds the process that holds the IP address ap in the
// network namespace of process netPID (0: this process's), as the kernel
// shows it now: the socket bound to
// ap's port on an address that overlaps ap's (the same address, or
// either unspecified) in /proc/net/tcp, tcp6, udp and udp6 (for TCP, a
// listening socket), its inode, and the first process with an fd on
// socket:[inode] under /proc/*/fd. It returns the pid and the process's
// executable, or an error that says why none was found.
func AddressHolder(ap netip.AddrPort, netPID int) (pid int, exe string, err error) {
	return AddressHolderOf(ap, "", netPID)
}

// AddressHolderOf is AddressHolder for one protocol: "tcp" looks only at
// TCP's listening sockets (/proc/net/tcp and tcp6), "udp" only at UDP's
// (udp, udp6): a UDP socket on a port does not keep a TCP server from
// binding it. "" looks at both.
func AddressHolderOf(ap netip.AddrPort, proto string, netPID int) (pid int, exe string, err error) {
	dir := "/proc/net"
	if netPID > 0 {
		dir = "/proc/" + strconv.Itoa(netPID) + "/net"
	}
	tables := []string{"tcp", "tcp6", "udp", "udp6"}
	switch proto {
	case "tcp":
		tables = tables[:2]
	case "udp":
		tables = tables[2:]
	case "":
	default:
		return 0, "", fmt.Errorf("who holds %s/%s: no such protocol (tcp, udp)", ap, proto)
	}
	inode, table, err := socketInode(ap, dir, tables)
	if err != nil {
		return 0, "", err
	}
	want := "socket:[" + inode + "]"
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, "", fmt.Errorf("list /proc: %w", err)
	}
	for _, p := range procs {
		n, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name())); err == nil && l == want {
				exe, _ := os.Readlink(filepath.Join("/proc", p.Name(), "exe"))
				return n, exe, nil
			}
		}
	}
	return 0, "", fmt.Errorf("socket %s of %s (%s) is held by no process this one can see", inode, ap, table)
}

// socketInode returns the inode of the socket bound to ap's port on an
// overlapping address, and the /proc/net table (of tables, in dir) that
// lists it.
func socketInode(ap netip.AddrPort, dir string, tables []string) (inode, table string, err error) {
	for _, name := range tables {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // the heading
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 {
				continue
			}
			const listen = "0A"
			if strings.HasPrefix(name, "tcp") && fields[3] != listen {
				continue
			}
			local, ok := procNetAddr(fields[1])
			if !ok || local.Port() != ap.Port() {
				continue
			}
			a, b := local.Addr().Unmap(), ap.Addr().Unmap()
			if a == b || a.IsUnspecified() || b.IsUnspecified() {
				f.Close()
				return fields[9], filepath.Join(dir, name), nil
			}
		}
		f.Close()
	}
	return "", "", fmt.Errorf("%w to %s in %s/%s", ErrNotBound, ap, dir, strings.Join(tables, ", "))
}

// procNetAddr reads /proc/net/tcp's "0100007F:1F90": the address as the
// kernel's 32-bit words in host (little-endian) order, the port in hex.
func procNetAddr(s string) (netip.AddrPort, bool) {
	h, p, ok := strings.Cut(s, ":")
	port, err := strconv.ParseUint(p, 16, 16)
	raw, err2 := hex.DecodeString(h)
	if !ok || err != nil || err2 != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, false
	}
	b := make([]byte, len(raw))
	for i := 0; i < len(raw); i += 4 {
		binary.BigEndian.PutUint32(b[i:], binary.LittleEndian.Uint32(raw[i:]))
	}
	addr, _ := netip.AddrFromSlice(b)
	return netip.AddrPortFrom(addr, uint16(port)), true
}
