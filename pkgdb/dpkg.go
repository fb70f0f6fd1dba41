package pkgdb

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

const (
	dpkgStatus = "/var/lib/dpkg/status"
	dpkgInfo   = "/var/lib/dpkg/info"
)

// maxListBytes bounds the .list files one index reads: ten times a
// desktop Debian's (about 30 MB for 3,000 packages).
const maxListBytes = 256 << 20

// loadDpkg indexes the paths of the .list files of info that keep
// accepts (nil: all) and the versions status gives, reading at most max
// bytes of .list files.
func loadDpkg(info, status string, max int64, keep func(string) bool) (*index, error) {
	f, err := os.Open(status)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	versions, err := readDpkgStatus(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", status, err)
	}
	ents, err := os.ReadDir(info)
	if err != nil {
		return nil, err
	}
	size := 1 << 16
	if keep != nil {
		size = 1 << 12
	}
	idx := &index{manager: trace.PackageDpkg, owners: make(map[string]int32, size)}
	var read int64
	for _, e := range ents {
		key, ok := strings.CutSuffix(e.Name(), ".list")
		if !ok || e.IsDir() {
			continue
		}
		pk, ok := versions[key]
		if !ok {
			name, arch, _ := strings.Cut(key, ":")
			pk = trace.Package{Name: name, Arch: arch} // listed, but not installed per status
		}
		pk.Manager = trace.PackageDpkg
		n, err := readDpkgList(filepath.Join(info, e.Name()), idx, pk, max-read, keep)
		read += n
		if err != nil {
			return nil, err
		}
	}
	return idx, nil
}

// readDpkgList adds the paths of one .list file that keep accepts (nil:
// all), owned by pk, to idx;
// it fails when the file is longer than left bytes. A line followed by
// a path under it is a directory, shared by many packages, and left out.
func readDpkgList(name string, idx *index, pk trace.Package, left int64, keep func(string) bool) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("stat %s: %w", name, err)
	}
	if fi.Size() > left {
		return fi.Size(), fmt.Errorf("the .list files exceed %d MiB (at %s): not indexed", maxListBytes>>20, name)
	}
	var b strings.Builder
	b.Grow(int(fi.Size()))
	n, err := io.Copy(&b, io.LimitReader(f, left+1))
	if err != nil {
		return n, fmt.Errorf("read %s: %w", name, err)
	}
	if n > left {
		return n, fmt.Errorf("the .list files exceed %d MiB (at %s): not indexed", maxListBytes>>20, name)
	}
	i := int32(len(idx.pkgs))
	idx.pkgs = append(idx.pkgs, pk)
	data := b.String()
	for data != "" {
		line, rest, _ := strings.Cut(data, "\n")
		data = rest
		if line == "" || line == "/." {
			continue
		}
		if len(rest) > len(line) && rest[len(line)] == '/' && strings.HasPrefix(rest, line) {
			continue // a directory: the next line is under it
		}
		if keep == nil || keep(line) {
			idx.owners[line] = i
		}
	}
	return n, nil
}

// readDpkgStatus reads dpkg's status file: for each installed package,
// its version and architecture, keyed by its .list name ("name" and
// "name:arch", both).
func readDpkgStatus(r io.Reader) (map[string]trace.Package, error) {
	out := map[string]trace.Package{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var name, version, arch, status string
	flush := func() {
		if name != "" && strings.HasSuffix(status, " installed") {
			pk := trace.Package{Name: name, Version: version, Arch: arch}
			out[name] = pk
			if arch != "" {
				out[name+":"+arch] = pk
			}
		}
		name, version, arch, status = "", "", "", ""
	}
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			flush()
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue // a continuation line
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "Package":
			name = v
		case "Version":
			version = v
		case "Architecture":
			arch = v
		case "Status":
			status = v
		}
	}
	flush()
	return out, sc.Err()
}
