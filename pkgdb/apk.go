package pkgdb

import (
	"bufio"
	"io"

	"github.com/envbisect/envbisect/trace"
)

const apkInstalled = "/lib/apk/db/installed"

// readApk indexes apk's installed database: records separated by blank
// lines, each "X:value" line a field; P: the package, V: its version, A:
// its architecture, F: a directory (relative to /) and the R: lines
// after it the files in that directory.
func readApk(r io.Reader) (*index, error) {
	idx := &index{manager: trace.PackageApk, owners: map[string]int32{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var pk trace.Package
	var files []string
	dir := ""
	flush := func() {
		if pk.Name != "" {
			i := int32(len(idx.pkgs))
			pk.Manager = trace.PackageApk
			idx.pkgs = append(idx.pkgs, pk)
			for _, f := range files {
				idx.owners[f] = i
			}
		}
		pk, files, dir = trace.Package{}, nil, ""
	}
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			flush()
			continue
		}
		if len(line) < 2 || line[1] != ':' {
			continue
		}
		v := line[2:]
		switch line[0] {
		case 'P':
			pk.Name = v
		case 'V':
			pk.Version = v
		case 'A':
			pk.Arch = v
		case 'F':
			dir = "/" + v
		case 'R':
			if dir == "/" {
				files = append(files, "/"+v)
			} else {
				files = append(files, dir+"/"+v)
			}
		}
	}
	flush()
	return idx, sc.Err()
}
