package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// nameGroups gives each groups item of items the names of its groups,
// from the group database of the root the command runs in (/etc/group
// there), and says it again with them (Text): the report names a group
// by id and name.
func nameGroups(items []render.StartItem, root string) {
	var names map[string]string
	for i := range items {
		it := &items[i]
		if trace.StartKind(it.Kind) != trace.StartCreds || it.Name != trace.CredsGroups {
			continue
		}
		lost, gained, ok := envobj.GroupsDiff(it.Good, it.Here)
		if !ok || len(lost)+len(gained) == 0 {
			continue
		}
		if names == nil {
			names = groupDatabase(root)
		}
		it.GroupNames = map[string]string{}
		for _, id := range append(lost, gained...) {
			k := idString(id)
			if n := names[k]; n != "" {
				it.GroupNames[k] = n
			}
		}
		it.Text = it.Plain()
	}
}

// groupDatabase reads root's /etc/group: the group names by id; empty
// when it cannot be read.
func groupDatabase(root string) map[string]string {
	out := map[string]string{}
	if root == "" {
		root = "/"
	}
	f, err := os.Open(filepath.Join(root, "etc/group"))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) >= 3 && fields[0] != "" && out[fields[2]] == "" {
			out[fields[2]] = fields[0]
		}
	}
	return out
}

// idString is an id in decimal.
func idString(id uint32) string { return strconv.FormatUint(uint64(id), 10) }
