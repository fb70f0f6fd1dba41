package sandbox

import (
	"bufio"
	"io"
	"path/filepath"
	"strings"
)

// ParseUnixSockets returns the absolute paths of the bound unix sockets
// that /proc/net/unix lists (abstract and relative names left out),
// each once.
func ParseUnixSockets(r io.Reader) []string {
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for first := true; sc.Scan(); first = false {
		if first {
			continue // the header
		}
		f := strings.Fields(sc.Text())
		if len(f) < 8 {
			continue
		}
		p := strings.Join(f[7:], " ")
		if !filepath.IsAbs(p) || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}
