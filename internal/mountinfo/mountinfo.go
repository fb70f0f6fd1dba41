package mountinfo

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Mount is one line of /proc/self/mountinfo (proc(5)).
type Mount struct {
	ID, Parent int
	Root       string   // the directory of its file system that is mounted
	Point      string   // where, relative to the process's root
	Options    []string // per-mount options: rw or ro, nosuid, nodev, ...
	FSType     string
	Source     string
	Super      []string // per-superblock options
}

// ReadOnly reports whether writes through the mount fail with EROFS:
// the mount or its file system is read-only.
func (m Mount) ReadOnly() bool {
	return hasOption(m.Options, "ro") || hasOption(m.Super, "ro")
}

// Has reports whether the mount's per-mount or per-superblock options
// include name ("noexec", "ro").
func (m Mount) Has(name string) bool {
	return hasOption(m.Options, name) || hasOption(m.Super, name)
}

func hasOption(opts []string, name string) bool {
	for _, o := range opts {
		if o == name {
			return true
		}
	}
	return false
}

// Parse reads the lines of a mountinfo file.
func Parse(r io.Reader) ([]Mount, error) {
	var out []Mount
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		m, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("mountinfo line %d: %w", n, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	return out, nil
}

// ParseLine parses one line, such as
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
func ParseLine(line string) (Mount, error) {
	pre, post, ok := strings.Cut(line, " - ")
	if !ok {
		return Mount{}, fmt.Errorf("no ' - ' separator in %q", line)
	}
	f := strings.Fields(pre)
	g := strings.Fields(post)
	if len(f) < 6 || len(g) < 2 {
		return Mount{}, fmt.Errorf("too few fields in %q", line)
	}
	id, err1 := strconv.Atoi(f[0])
	parent, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return Mount{}, fmt.Errorf("bad mount ids in %q", line)
	}
	m := Mount{ID: id, Parent: parent, Root: unescapeMountinfo(f[3]), Point: unescapeMountinfo(f[4]),
		Options: strings.Split(f[5], ","), FSType: g[0], Source: unescapeMountinfo(g[1])}
	if len(g) > 2 {
		m.Super = strings.Split(g[2], ",")
	}
	return m, nil
}

// unescapeMountinfo undoes the kernel's octal escapes (\040 for a space,
// \011, \012, \134).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
