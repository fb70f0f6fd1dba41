package render

import (
	"strconv"
	"strings"
)

// The words of a directory listing that differs (DataDiff.Entries): its
// entries by name, never the records' bytes.

// entriesShort is "50-corp.conf only here", "a.conf only in the good
// run", both joined with "; ", or that the names are the same.
func entriesShort(e *DirEntries) string {
	var parts []string
	if len(e.OnlyHere) > 0 {
		parts = append(parts, nameList(e.OnlyHere)+" only here")
	}
	if len(e.OnlyGood) > 0 {
		parts = append(parts, nameList(e.OnlyGood)+" only in the good run")
	}
	if len(parts) == 0 {
		return "the same entries, in another order or with other inode numbers"
	}
	return strings.Join(parts, "; ")
}

// entriesSentence: "The directory /etc/app.d has an entry here that it
// did not have in the good run: 50-corp.conf." and, for entries gone, "It
// lacks entries it had in the good run: a.conf and b.conf."
func entriesSentence(dir string, e *DirEntries) string {
	var out []string
	if n := len(e.OnlyHere); n > 0 {
		s := "an entry here that it did not have"
		if n > 1 {
			s = "entries here that it did not have"
		}
		out = append(out, "The directory "+dir+" has "+s+" in the good run: "+nameList(e.OnlyHere)+".")
	}
	if n := len(e.OnlyGood); n > 0 {
		s := "an entry"
		if n > 1 {
			s = "entries"
		}
		who := "The directory " + dir
		if len(out) > 0 {
			who = "It"
		}
		out = append(out, who+" lacks "+s+" it had in the good run: "+nameList(e.OnlyGood)+".")
	}
	if len(out) == 0 {
		return "The directory " + dir + " lists the same entries here as in the good run, in another order or with other inode numbers."
	}
	return strings.Join(out, " ")
}

// entriesListed bounds how many names a listing's words give.
const entriesListed = 10

// nameList is "a", "a and b", up to entriesListed names, then "and N
// more".
func nameList(names []string) string {
	if len(names) <= entriesListed {
		return andList(names)
	}
	return strings.Join(names[:entriesListed], ", ") + " and " + strconv.Itoa(len(names)-entriesListed) + " more"
}
