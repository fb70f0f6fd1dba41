package envdiff

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// Kernel tunables (issue 27): a file under /proc/sys or /sys the
// recorded command read is an object of its own (envobj's AspectValue):
// its good state is the bytes its reads got in the recording (record
// keeps what a read returns, while a file object of a kernel file holds
// nothing: its size is 0), its state here what reading it here gives.
// Files whose value changes by itself (volatileFiles) are never
// candidates.

// maxValue bounds the bytes read here of one tunable: values are a line.
const maxValue = 64 << 10

// goodValue is what the recording read of one tunable: the bytes of the
// reads of the first open file description that read it, in order.
type goodValue struct {
	path  string
	value []byte
	// whole: the reads went on to the end of the file (a read returned
	// 0), none filling its buffer; else value is what was read of its
	// start (a shell's read stops at the newline). A sysctl file read in
	// pieces answers the end of the file after the first: dash's read
	// builtin, one byte at a time, gets "3" of "32768\t60999\n".
	whole bool
	// filled: a read filled its buffer, and could have got more.
	filled bool
	// lost: a read's bytes are not in the trace (cut, excluded, lost).
	lost bool
	seq  uint64 // the first read
	done bool   // the first sequence ended: later reads are not its
}

// readKey is an fd of a process of the recording.
type readKey struct {
	proc uint32
	fd   uint64
}

// goodTunables returns, by path, what the recording's read calls
// (systable's ReadsData) got from files under /proc/sys and /sys: for
// each path, the reads of the first fd that read it, from its open until
// a read returned 0 or the fd was opened anew.
func goodTunables(tr *tracefile.Trace, table *systable.Table) map[string]*goodValue {
	r := newTunableReads(table)
	for i := range tr.Events {
		r.add(&tr.Events[i])
	}
	return r.values()
}

// tunableReads gathers goodTunables' values one event at a time, so that
// a streaming Inspector reads them as the trace goes by.
type tunableReads struct {
	table *systable.Table
	out   map[string]*goodValue
	seqs  map[readKey]*goodValue // the sequence an fd's reads add to; nil: none yet
}

func newTunableReads(table *systable.Table) *tunableReads {
	return &tunableReads{table: table, out: map[string]*goodValue{}, seqs: map[readKey]*goodValue{}}
}

// add takes the recorded event ev.
func (r *tunableReads) add(ev *trace.Event) {
	c := ev.Call
	if c == nil || !envobj.TunablePath(c.Path) {
		return
	}
	row := r.table.ByNr(int(c.Nr))
	if row == nil || row.Unknown || c.Denied || c.NoReturn || c.Restarted() || c.Ret < 0 {
		return
	}
	if row.EffectsFor(c.Args)&systable.CreatesFD != 0 {
		delete(r.seqs, readKey{c.Proc, uint64(c.Ret)}) // a new open file description
		return
	}
	if !row.ReadsData {
		return
	}
	k := readKey{c.Proc, c.Args[0]}
	g, ok := r.seqs[k]
	if !ok || g == nil || g.path != c.Path {
		g = nil
		if r.out[c.Path] == nil {
			g = &goodValue{path: c.Path, seq: c.Seq}
			r.out[c.Path] = g
		}
		r.seqs[k] = g
	}
	if g == nil || g.done {
		return
	}
	if c.Ret == 0 {
		g.whole, g.done = !g.filled, true
		return
	}
	g.filled = g.filled || fills(row, c)
	data, ok := readData(c)
	if !ok {
		g.lost, g.done = true, true
		return
	}
	g.value = append(g.value, data...)
}

// values returns the values gathered, by path.
func (r *tunableReads) values() map[string]*goodValue {
	for _, g := range r.out {
		if !g.whole && !g.lost && g.value == nil {
			delete(r.out, g.path)
		}
	}
	return r.out
}

// readData is the bytes successful read c returned, whole.
func readData(c *trace.Call) ([]byte, bool) {
	for i := range c.Mem {
		m := &c.Mem[i]
		if m.Dir != trace.Out || (m.Part != trace.PartWhole && m.Part != trace.PartIovData) {
			continue
		}
		if m.Flag&(trace.Fault|trace.Lost|trace.Excluded|trace.Truncated) != 0 || int64(len(m.Data)) < c.Ret {
			return nil, false
		}
		return m.Data[:c.Ret], true
	}
	return nil, false
}

// fills reports whether read c filled its buffer: it returned as many
// bytes as the buffer holds (its row's bounded length). A call whose
// capacity the row does not give (readv) is taken not to.
func fills(row *systable.Syscall, c *trace.Call) bool {
	for _, a := range row.Args {
		if a.Kind == systable.OutBuf && a.Len.From == systable.LenRet && a.Len.Bounded && int(a.Len.Arg) < len(c.Args) {
			size := uint64(max(a.Len.Size, 1))
			return uint64(c.Ret) >= c.Args[a.Len.Arg]*size
		}
	}
	return false
}

// volatileFile is a file of /proc/sys or /sys whose value changes by
// itself, run to run (a random id, a counter, a measure): that it reads
// otherwise here says nothing of the environment.
type volatileFile struct {
	// pattern is a path whose parts are path.Match patterns; a part "**"
	// matches any number of parts.
	pattern string
	why     string
}

// volatileFiles are the files whose differences are never candidates.
// A file here is not a tunable: it is what the kernel counts or draws,
// and a run that put the good run's value in place would tell the
// command something false about this machine.
func volatileFiles() []volatileFile {
	return []volatileFile{
		{"/proc/sys/kernel/random/uuid", "a new random UUID at each read"},
		{"/proc/sys/kernel/random/boot_id", "this boot's random id"},
		{"/proc/sys/kernel/random/entropy_avail", "a measure of the entropy pool"},
		{"/proc/sys/kernel/ns_last_pid", "the last process id given"},
		{"/proc/sys/kernel/pty/nr", "a count of open pseudo-terminals"},
		{"/proc/sys/fs/file-nr", "a count of open files"},
		{"/proc/sys/fs/inode-nr", "a count of inodes"},
		{"/proc/sys/fs/inode-state", "a count of inodes"},
		{"/proc/sys/fs/dentry-state", "a count of directory entries"},
		{"/proc/sys/fs/aio-nr", "a count of asynchronous I/O requests"},
		{"/proc/sys/fs/quota/*", "quota statistics"},
		{"/proc/sys/net/netfilter/nf_conntrack_count", "a count of tracked connections"},
		{"/sys/**/statistics/*", "a network device's counters"},
		{"/sys/**/stat", "a device's or a CPU's counters"},
		{"/sys/**/uevent", "a device's event variables"},
		{"/sys/**/scaling_cur_freq", "a CPU's current frequency"},
		{"/sys/**/cpuinfo_cur_freq", "a CPU's current frequency"},
		{"/sys/**/temp*_input", "a temperature"},
		{"/sys/class/thermal/**", "temperatures"},
		{"/sys/class/power_supply/**", "a battery's or a supply's state"},
		{"/sys/kernel/debug/**", "debugging state"},
		{"/sys/kernel/tracing/**", "tracing state"},
		{"/sys/fs/cgroup/**/*.current", "a cgroup's use of a resource"},
		{"/sys/fs/cgroup/**/*.peak", "a cgroup's highest use of a resource"},
		{"/sys/fs/cgroup/**/*.stat", "a cgroup's statistics"},
		{"/sys/fs/cgroup/**/*.events", "a cgroup's event counts"},
		{"/sys/fs/cgroup/**/*.events.local", "a cgroup's event counts"},
		{"/sys/fs/cgroup/**/*.pressure", "a cgroup's pressure measures"},
		{"/sys/fs/cgroup/**/cgroup.procs", "the processes of a cgroup"},
		{"/sys/fs/cgroup/**/cgroup.threads", "the threads of a cgroup"},
	}
}

// volatile returns why p's value changes by itself, or "".
func volatile(p string) string {
	for _, v := range volatileFiles() {
		if matchParts(strings.Split(v.pattern, "/"), strings.Split(p, "/")) {
			return v.why
		}
	}
	return ""
}

// matchParts matches a path's parts against a pattern's: each a
// path.Match pattern, "**" any number of parts.
func matchParts(pat, parts []string) bool {
	if len(pat) == 0 {
		return len(parts) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if matchParts(pat[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	ok, err := path.Match(pat[0], parts[0])
	return ok && err == nil && matchParts(pat[1:], parts[1:])
}

// compareTunables compares the value of every tunable the recording
// read with what reading it here gives, and makes an object of each
// that differs. A tunable the command wrote itself is its own work; one
// missing here cannot be made by a run, and is listed in Skipped.
func (c *comparer) compareTunables() {
	var paths []string
	for p := range c.values {
		if !c.own[p] && !c.ignored(p) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var read []string
	for _, p := range paths {
		g := c.values[p]
		switch why := volatile(p); {
		case why != "":
			c.skip(p, "a kernel file whose value changes by itself ("+why+"): never a candidate")
		case g.lost:
			c.skip(p, "a kernel tunable whose value the recording did not keep (a read's bytes are not in the trace)")
		default:
			read = append(read, p)
		}
	}
	here, errs := c.fs.values(read, maxValue)
	for _, p := range read {
		c.counted++
		if err := errs[p]; err != nil {
			c.skip(p, "a kernel tunable not read here: "+err.Error())
			continue
		}
		h, ok := here[p]
		if !ok {
			c.skip(p, "a kernel tunable missing here: a run puts in place only the value of one that is there")
			continue
		}
		g := c.values[p]
		if g.whole && bytes.Equal(g.value, h.value) || !g.whole && bytes.HasPrefix(h.value, g.value) {
			continue
		}
		first := g.seq
		if r := c.recs[p]; r != nil && r.first != 0 && r.first < first {
			first = r.first
		}
		c.emit(envobj.Object{
			Path: p, Good: envobj.TunableState(h.st, string(g.value)), Here: envobj.TunableState(h.st, string(h.value)),
			Differs: envobj.Aspects{envobj.AspectValue}, FirstSeq: first,
		})
	}
}

// hereValue is a tunable's value here, with its stat (the kernel's
// mode and owner).
type hereValue struct {
	value []byte
	st    envobj.State
}

// errValueTooLong is a value here past maxValue.
func errValueTooLong(p string, max int) error {
	return fmt.Errorf("%s: more than %d bytes: not a tunable's value", p, max)
}
