package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Facts are what envbisect observed, beyond the culprit's own results,
// that say how its resource differs here: package bisect gathers them
// from the recording and the failing run, Explain turns them into the
// culprit's explanation.
type Facts struct {
	// Missing is, for a call that failed with ENOENT here only, the
	// component of its path that is missing here.
	Missing *MissingComponent `json:"missing,omitempty"`
	// Paths are the path and its parent directories as stat calls of
	// either run showed them (mode, owner, group), deepest first: for a
	// call denied here (EACCES, EPERM).
	Paths []PathStat `json:"paths,omitempty"`
	// RanAs is who the command ran as, from the start items (real,
	// effective, saved and file-system ids, as /proc/PID/status gives
	// them): for a call denied here.
	RanAs *Creds `json:"ran_as,omitempty"`
	// Umask is the umask start item when it differs and the call creates
	// what it names (a mode the umask decides).
	Umask *StartItem `json:"umask,omitempty"`
	// Holder is, for a bind that failed with EADDRINUSE here, the process
	// that holds the address here.
	Holder *AddressHolder `json:"holder,omitempty"`
	// Package is, for a library or executable whose content differs
	// here or that is missing here, the package that owns it on each
	// side.
	Package *PackageOwners `json:"package,omitempty"`
	// Link is, for a path that is a symbolic link (or passes through
	// one) and leads to another file here than in the good run, where
	// it leads on each side.
	Link *LinkTargets `json:"link,omitempty"`
	// Programs are, for the start item env PATH, the programs the
	// command looked up along PATH that the PATH here hides (found
	// nowhere) or finds elsewhere.
	Programs []ProgramLookup `json:"programs,omitempty"`
	// Hides is, for a file found here where the good run found nothing
	// (ENOENT), the program of its name the good run then ran from
	// another path: the file comes first where the command looks for
	// the program (a directory earlier on PATH) and hides it here.
	Hides *ProgramLookup `json:"hides,omitempty"`
}

// ProgramLookup is one program the command looked up along PATH by its
// name, and where the lookup found it on each side.
type ProgramLookup struct {
	// Name is the name looked up: "mytool".
	Name string `json:"name"`
	// Good is where the good run found it, "" when it found it nowhere;
	// Here where the PATH here finds it, "" when nowhere.
	Good string `json:"good"`
	Here string `json:"here"`
	// From says who looked here and when: "locate after the runs".
	From string `json:"from,omitempty"`
}

// PackageOwners is the package that owns one file in the good
// environment (record's lookup, stored in the trace) and here (locate's,
// in the database of the environment its runs saw).
type PackageOwners struct {
	Path string `json:"path"`
	// Good and Here are the owners; nil where no package database was
	// read (none there, or a trace recorded before record looked owners
	// up); Name "" where the database holds no owner of the path.
	Good *trace.Package `json:"good,omitempty"`
	Here *trace.Package `json:"here,omitempty"`
	// HereWhy says why Here is nil when the database could not be read.
	HereWhy string `json:"here_why,omitempty"`
}

// MissingComponent is the component of a path that does not exist here.
type MissingComponent struct {
	// Path is the missing component, as a path: "/var/run/mpd" for a
	// call on /var/run/mpd/mpd.pid whose parent is missing.
	Path string `json:"path"`
	// Known: a call of the failing run showed Path missing (or its
	// parent present); without one the trace has no call on the path's
	// parents and Path is the call's whole path.
	Known bool `json:"known"`
	// Seq is the recorded call whose live result showed it (0: none).
	Seq uint64 `json:"seq,omitempty"`
	// AfterRuns: no call of the failing run showed it; locate found it
	// missing (and its parent present) in the environment the runs saw,
	// after them.
	AfterRuns bool `json:"after_runs,omitempty"`
	// ExistedInGood: a call of the recording found Path (or a path under
	// it).
	ExistedInGood bool `json:"existed_in_good"`
}

// LinkTargets is where a path leads, its symbolic links followed: in
// the good run (as record resolved it, FileObject.Resolved) and here (in
// the environment the runs saw, after them).
type LinkTargets struct {
	Path string `json:"path"`
	Good string `json:"good"`
	Here string `json:"here"`
}

// PathStat is one path as stat calls showed it in each run.
type PathStat struct {
	Path string    `json:"path"`
	Good *FileStat `json:"good,omitempty"`
	Here *FileStat `json:"here,omitempty"`
}

// FileStat is what one stat call showed of a path.
type FileStat struct {
	// Seq is the recorded call (the live one matched to it, here); 0
	// when From says where the stat comes from instead.
	Seq uint64 `json:"seq"`
	// From is, for a stat no call of the run made, who made it: "record"
	// (the parent directories record stats, Call.Dirs) or "locate after
	// the runs" (in the environment the runs saw).
	From string `json:"from,omitempty"`
	// Missing: the stat failed with ENOENT.
	Missing bool `json:"missing,omitempty"`
	// Mode is st_mode; UID and GID the owner and group.
	Mode uint32 `json:"mode"`
	UID  uint32 `json:"uid"`
	GID  uint32 `json:"gid"`
}

// String is "drwxr-xr-x 0:0" (mode, uid:gid), or "missing".
func (f *FileStat) String() string {
	if f == nil {
		return "not seen"
	}
	if f.Missing {
		return "missing"
	}
	return fmt.Sprintf("%s %d:%d", ModeText(f.Mode), f.UID, f.GID)
}

// ModeText is st_mode as ls prints it: "drwxr-xr-x", "drwxrwxrwt".
func ModeText(m uint32) string {
	types := map[uint32]byte{0o040000: 'd', 0o120000: 'l', 0o140000: 's', 0o010000: 'p', 0o020000: 'c', 0o060000: 'b'}
	b := []byte("----------")
	if t, ok := types[m&0o170000]; ok {
		b[0] = t
	}
	const rwx = "rwxrwxrwx"
	for i := range 9 {
		if m&(1<<(8-i)) != 0 {
			b[1+i] = rwx[i]
		}
	}
	special := func(bit uint32, at int, set byte) {
		if m&bit == 0 {
			return
		}
		if b[at] == 'x' {
			b[at] = set
		} else {
			b[at] = set - 'a' + 'A'
		}
	}
	special(0o4000, 3, 's')
	special(0o2000, 6, 's')
	special(0o1000, 9, 't')
	return string(b)
}

// Creds are the ids a command ran as, in each run.
type Creds struct {
	UID     string `json:"uid"`
	GID     string `json:"gid"`
	GoodUID string `json:"good_uid,omitempty"`
	GoodGID string `json:"good_gid,omitempty"`
	// Changed are the calls before the culprit by which its process, or
	// an ancestor before the fork on the way down to it, changed its ids
	// or capabilities ("call 12 setresuid(65534, 65534,
	// 65534) = 0"), in order: the culprit ran with what they set, not
	// with the ids the command started with.
	Changed []string `json:"changed,omitempty"`
}

// AddressHolder is the process that holds an address here.
type AddressHolder struct {
	Address string `json:"address"`
	PID     int    `json:"pid,omitempty"`
	Exe     string `json:"exe,omitempty"`
	// FoundBy says who looked and when: "locate, after the runs" (the
	// holder may have changed since the failing run).
	FoundBy string `json:"found_by"`
	// Why says why no holder is named, when PID is 0.
	Why string `json:"why,omitempty"`
}

// signalState says a signal item's value for a sentence: "ignored",
// "blocked", "at its default action".
func signalState(v *string) string {
	if w := trace.SignalWords(v); w != "default" {
		return w
	}
	return "at its default action"
}

// Explain is the explanation of c: one or two sentences built from its
// results, its data diff, its start item and its Facts; where those say
// nothing more, its results in a sentence (resultSentence): a cause is
// never left unexplained. "" only for a nil c.
func Explain(c *Culprit) string {
	if c == nil {
		return ""
	}
	if s := explainFacts(c); s != "" {
		return s
	}
	return resultSentence(c)
}

// resultSentence says what c's call did here and in the good run:
// "chdir(/src/wt) did not happen here: the program took another path
// before it; in the good run it returned 0.", "read(/etc/a.conf) returned
// 3 here, 5 in the good run."
func resultSentence(c *Culprit) string {
	call := c.Syscall
	if c.Path != "" {
		call += "(" + c.Path + ")"
	} else if c.Resource != "" {
		call += " on " + c.Resource
	}
	if call == "" {
		call = "call " + strconv.FormatUint(c.Seq, 10)
	}
	good := "in the good run it returned " + c.Good.Return
	if c.Good.Missing {
		good = "the good run did not make it"
	}
	if c.Here.Missing {
		return call + " did not happen here: the program took another path before it; " + good + "."
	}
	if c.Here.Return == c.Good.Return {
		return call + " returned " + c.Here.Return + " here and in the good run; replaying it made the difference."
	}
	return call + " returned " + c.Here.Return + " here; " + good + "."
}

// explainFacts is Explain from the facts alone: "" when they say
// nothing more than the results.
func explainFacts(c *Culprit) string {
	if it := c.Start; it != nil && it.Kind == string(trace.StartSignal) {
		return fmt.Sprintf("The command started here with %s %s; in the good run it started with it %s.",
			it.Name, signalState(it.Here), signalState(it.Good))
	}
	if it := c.Start; it != nil {
		s := fmt.Sprintf("The command started here with %s %s; in the good run it started with %s.",
			it.Label(), it.ValueWords(it.Here), it.ValueWords(it.Good))
		if text := it.Plain(); text != "" {
			s = upper(text) + "."
		}
		if c.Facts != nil {
			s = joinSentences(s, programsSentence(c.Facts.Programs))
		}
		return s
	}
	if c.Here.Missing {
		return ""
	}
	f := c.Facts
	if f == nil {
		f = &Facts{}
	}
	what := c.Path
	if what == "" {
		what = c.Resource
	}
	switch errno := c.Here.Errno; {
	case errno == "" && f.Hides != nil:
		return HidesSentence(*f.Hides)
	case errno == c.Good.Errno && errno == "":
		if len(f.Paths) > 0 && f.Paths[0].Path == c.Path && f.Paths[0].Good != nil && f.Paths[0].Here != nil {
			return fmt.Sprintf("%s is %s here, %s in the good run (mode, owner:group).", c.Path, f.Paths[0].Here, f.Paths[0].Good)
		}
		s := ""
		if c.DataDiff != nil {
			s = dataSentence(what, c.DataDiff)
		} else if c.Content != nil && c.Content.DataDiff != nil {
			s = contentSentence(what, c.Content.DataDiff)
		}
		return joinSentences(linkSentence(f.Link), s, packageSentence(f.Package))
	case errno == "ENOENT" && c.Good.Errno != "ENOENT":
		return joinSentences(missingSentence(c, f.Missing), packageSentence(f.Package))
	case errno == "EACCES" || errno == "EPERM":
		if c.Good.Errno == errno {
			return ""
		}
		return accessSentence(c, f)
	case errno == "EADDRINUSE":
		return addressSentence(f.Holder)
	}
	return ""
}

// HidesSentence says that the program p.Here, found here where the good
// run found nothing, hides the one it ran (p.Good): "/w/bin/find exists
// here but not in the good run, and comes first where the command looks
// for find: it runs /w/bin/find here, where the good run ran
// /usr/bin/find."
func HidesSentence(p ProgramLookup) string {
	return fmt.Sprintf("%s exists here but not in the good run, and comes first where the command looks for %s: "+
		"it runs %s here, where the good run ran %s.", p.Here, p.Name, p.Here, p.Good)
}

// missingSentence: "/var/run/mpd does not exist here (call 7 found it
// missing); in the good run it existed."
func missingSentence(c *Culprit, m *MissingComponent) string {
	good := "in the good run the call succeeded"
	if c.Good.Errno != "" {
		good = "in the good run the call failed with " + c.Good.Errno
	}
	if m == nil || !m.Known {
		return fmt.Sprintf("%s does not exist here; the trace has no call on its parent directories, so which component "+
			"of the path is missing is not known (%s).", c.Path, good)
	}
	s := m.Path + " does not exist here"
	switch {
	case m.Seq != 0 && m.Seq != c.Seq:
		s += " (call " + strconv.FormatUint(m.Seq, 10) + " shows it)"
	case m.AfterRuns:
		s += " (locate found it missing after the runs)"
	}
	if m.Path != c.Path {
		s += ", so " + c.Path + " cannot be reached"
	}
	if m.ExistedInGood {
		return s + "; in the good run it existed."
	}
	return s + "; " + good + "."
}

// accessSentence: "openat(/srv/out/x) is denied here (EACCES) to uid
// 65534 gid 65534 (good: uid 0 gid 0). /srv/out is drwxr-xr-x 0:0 here,
// drwxrwxrwx 0:0 in the good run."
func accessSentence(c *Culprit, f *Facts) string {
	s := fmt.Sprintf("%s(%s) is denied here (%s)", c.Syscall, c.Path, c.Here.Errno)
	if r := f.RanAs; r != nil && len(r.Changed) > 0 {
		short := make([]string, len(r.Changed))
		for i, c := range r.Changed {
			short[i] = changeText(c)
		}
		s += ", after its ids were changed (" + strings.Join(short, ", ") + ")"
	} else if r != nil && r.UID != "" {
		s += " to uid " + firstID(r.UID) + " gid " + firstID(r.GID)
		if r.GoodUID != "" && (firstID(r.GoodUID) != firstID(r.UID) || firstID(r.GoodGID) != firstID(r.GID)) {
			s += " (good: uid " + firstID(r.GoodUID) + " gid " + firstID(r.GoodGID) + ")"
		}
	}
	s += "."
	// The paths that differ; the nearest one known when none does.
	var seen []string
	same := ""
	for _, p := range f.Paths {
		if p.Good == nil && p.Here == nil {
			continue
		}
		if p.Good != nil && p.Here != nil && p.Good.String() == p.Here.String() {
			if same == "" {
				same = fmt.Sprintf("%s is %s in both", p.Path, p.Here)
			}
			continue
		}
		seen = append(seen, fmt.Sprintf("%s is %s here, %s in the good run", p.Path, p.Here, p.Good))
	}
	if len(seen) == 0 && same != "" {
		seen = append(seen, same)
	}
	if len(seen) == 0 {
		s += " The trace holds no stat of the path or its parent directories, so their modes are not known."
	} else {
		s += " " + upper(strings.Join(seen, "; ")) + "."
	}
	if u := f.Umask; u != nil {
		s += fmt.Sprintf(" The umask is %s here, %s in the good run.", valueOr(u.Here, "?"), valueOr(u.Good, "?"))
	}
	return s
}

// changeText is a call that changed ids, "call 4 setresuid(65534,
// 65534, 65534) = 0", as an access sentence gives it: without its
// result, and without its arguments when they are structures
// ("call 3 capset").
func changeText(c string) string {
	c = strings.TrimSuffix(c, " = 0")
	if name, args, ok := strings.Cut(c, "("); ok && (strings.Contains(args, "{") || len(args) > 60) {
		return name
	}
	return c
}

// firstID is the first of /proc's "real effective saved fs" ids: the
// real one. When they differ, all four are kept.
func firstID(ids string) string {
	f := strings.Fields(ids)
	if len(f) == 0 {
		return "?"
	}
	for _, x := range f[1:] {
		if x != f[0] {
			return "(" + strings.Join(f, " ") + ")"
		}
	}
	return f[0]
}

// dataSentence says how the data a call got differs: the entries of a
// directory it listed, the members of a struct it filled in (a stat's
// st_mtime), or the content it read.
func dataSentence(what string, d *DataDiff) string {
	if d.Entries != nil {
		return entriesSentence(what, d.Entries)
	}
	if d.Struct != "" {
		return fieldsSentence(what, d)
	}
	return contentSentence(what, d)
}

// fieldsSentence: "/src/out.txt's st_mtime differs here: here
// 2026-11-25 10:00:00 UTC, good 2026-11-25 10:05:00 UTC." for a struct
// (stat, statx, ...) the call filled in: the members that differ, both
// values, never the struct's raw bytes.
func fieldsSentence(what string, d *DataDiff) string {
	ctype := strings.TrimPrefix(d.Struct, "struct ")
	if len(d.Fields) == 0 {
		return fmt.Sprintf("The %s of %s differs here only in members that differ between any two runs by nature "+
			"(such as device and inode numbers), which no program decides by.", ctype, what)
	}
	names := make([]string, len(d.Fields))
	values := make([]string, len(d.Fields))
	for i, f := range d.Fields {
		names[i] = f.Field
		values[i] = fmt.Sprintf("here %s, good %s", f.Here, f.Good)
		if len(d.Fields) > 1 {
			values[i] = f.Field + " " + values[i]
		}
	}
	verb := "differs"
	if len(names) > 1 {
		verb = "differ"
	}
	return fmt.Sprintf("%s's %s %s here (its %s): %s.", what, andList(names), verb, ctype, strings.Join(values, "; "))
}

// andList is "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// contentSentence: "The content of /etc/app.conf differs here (the diff
// below)." or, for binary data, sizes, the first differing offset and
// both SHA-256.
func contentSentence(what string, d *DataDiff) string {
	if d.Text {
		return fmt.Sprintf("The content of %s differs here: %s (the diff below).", what, sizes(d))
	}
	s := fmt.Sprintf("The content of %s differs here: %s", what, sizes(d))
	if d.GoodSHA256 != "" {
		s += fmt.Sprintf("; SHA-256 good %s, here %s", d.GoodSHA256, d.HereSHA256)
	}
	return s + "."
}

// addressSentence: "127.0.0.1:8080 is held here by pid 412
// (/usr/sbin/nginx), found by locate after the runs."
func addressSentence(h *AddressHolder) string {
	if h == nil {
		return ""
	}
	if h.PID == 0 {
		return fmt.Sprintf("%s is in use here; the process that holds it was not found (%s).", h.Address, h.Why)
	}
	exe := ""
	if h.Exe != "" {
		exe = " (" + h.Exe + ")"
	}
	return fmt.Sprintf("%s is held here by pid %d%s, found by %s.", h.Address, h.PID, exe, h.FoundBy)
}

// packageSentence: "/usr/lib/libz.so.1 belongs to zlib1g 1:1.2.13.dfsg-1
// (dpkg) in the good run and to zlib1g 1:1.3 (dpkg) here." "" when no
// owner was looked up on either side.
func packageSentence(p *PackageOwners) string {
	if p == nil || p.Good == nil && p.Here == nil {
		return ""
	}
	owned := func(k *trace.Package, where string) string {
		if k.Name == "" {
			return "is owned by no " + k.Manager + " package " + where
		}
		return "belongs to " + k.String() + " " + where
	}
	if p.Good == nil {
		return p.Path + " " + owned(p.Here, "here") + " (the trace holds no owner from the good run)."
	}
	good := owned(p.Good, "in the good run")
	switch {
	case p.Here == nil && p.HereWhy != "":
		return p.Path + " " + good + "; here the package database could not be read (" + p.HereWhy + ")."
	case p.Here == nil:
		return p.Path + " " + good + "; here there is no package database."
	case *p.Good == *p.Here && p.Good.Name != "":
		return p.Path + " belongs to " + p.Good.String() + " in both runs, the same version."
	case p.Good.Name == "" && p.Here.Name == "" && p.Good.Manager == p.Here.Manager:
		return p.Path + " belongs to no " + p.Good.Manager + " package, here or in the good run (installed by hand or built)."
	}
	return p.Path + " " + good + " and " + strings.TrimPrefix(owned(p.Here, "here"), "belongs ") + "."
}

// joinSentences joins the sentences that are not "".
func joinSentences(s ...string) string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return strings.Join(out, " ")
}

// upper is s with its first letter in upper case.
func upper(s string) string { return Upper(s) }

// Upper is s with its first letter upper-case, to start a sentence.
func Upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// linkSentence: "/opt/app/bin/tool leads to /opt/app/bin/tool-v1 here
// and to /opt/app/bin/tool-v2 in the good run (a symbolic link)."
func linkSentence(l *LinkTargets) string {
	if l == nil {
		return ""
	}
	return l.Path + " leads to " + l.Here + " here and to " + l.Good + " in the good run (a symbolic link)."
}

// programsSentence: "The command looked up mytool along PATH: the good
// run found /opt/app/bin/mytool; here it is found nowhere on PATH." for
// each program a PATH that differs hides or reveals.
func programsSentence(ps []ProgramLookup) string {
	var out []string
	for _, p := range ps {
		good := "the good run found it nowhere on PATH"
		if p.Good != "" {
			good = "the good run found " + p.Good
		}
		here := "here it is found nowhere on PATH"
		if p.Here != "" {
			here = "here it is " + p.Here
		}
		out = append(out, "The command looked up "+p.Name+" along PATH: "+good+"; "+here+".")
	}
	return strings.Join(out, " ")
}
