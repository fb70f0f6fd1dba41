package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/systable"
)

// syscallsOptions are the flags of envbisect syscalls.
type syscallsOptions struct {
	json bool
	all  bool
	arch string
}

func newSyscallsCommand(s streams) *cobra.Command {
	var o syscallsOptions
	cmd := &cobra.Command{
		Use:   "syscalls [--json] [--all]",
		Short: "print the syscall table every stage works from",
		Long: `syscalls prints envbisect's syscall table: for each system call its number,
name and arguments with their kinds (FD, Path, Flags with the flag set's name,
out-buffers with where their length comes from), the kind of its return
value, its effects on the resources envbisect tracks (with the effects that
depend on an argument's value), and how replay treats it:

  0 read(fd FD, buf OutBuf[ret], count Int) Int
      effects  UsesFD
      policy   Replayable

Buffer lengths: [144] fixed, [ret] the return value, [arg2] argument 2,
[arg1*8] argument 1 times 8, [*arg5] the socklen_t argument 5 points to,
[min(arg2,ret)] the smaller of both, [fdset(arg0)] an fd_set of argument 0
bits, [ioctl(arg1)] [fcntl(arg1)] [prctl(arg0)] decided by the request.

Calls marked nostop are let through by the seccomp filter and never appear in
a trace; the line says why that is safe. Only the calls the table describes
are printed; --all adds the rows known by name and number only, which are
recorded with raw arguments and always executed. --json prints one JSON array
of rows instead.

Exit status:
  0  the table was printed
  1  there is no table for the architecture
  2  bad usage`,
		Example: `  envbisect syscalls
  envbisect syscalls --json --all | jq '.[] | select(.nostop)'`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("syscalls takes no arguments, got %q (see 'envbisect syscalls --help')", strings.Join(args, " "))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return runSyscalls(s, o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print the table as a JSON array")
	f.BoolVar(&o.all, "all", false, "include the calls known by name and number only")
	f.StringVar(&o.arch, "arch", runtime.GOARCH, "architecture whose table to print")
	return cmd
}

func runSyscalls(s streams, o syscallsOptions) error {
	tab, err := systable.New(o.arch)
	if err != nil {
		return withCode(exitError, err)
	}
	var rows []*systable.Syscall
	unknown := 0
	for _, r := range tab.All() {
		if r.Unknown {
			unknown++
			if !o.all {
				continue
			}
		}
		rows = append(rows, r)
	}
	if o.json {
		out := make([]jsonSyscall, len(rows))
		for i, r := range rows {
			out[i] = toJSONSyscall(r)
		}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, r := range rows {
		if err := writeSyscall(s.out, r); err != nil {
			return err
		}
	}
	detailed := len(tab.All()) - unknown
	note := ""
	if !o.all {
		note = " (not shown; --all shows them)"
	}
	_, err = fmt.Fprintf(s.out, "# %s: %d calls described, %d known by name and number only%s, %d never stop the tracee\n",
		tab.Arch, detailed, unknown, note, len(tab.NoStop()))
	return err
}

// writeSyscall prints one row as a block: the call as a prototype, then
// its effects, policy and, for NoStop rows, why.
func writeSyscall(w io.Writer, r *systable.Syscall) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%3d %s", r.Nr, r.Name)
	if r.Unknown {
		b.WriteString(" (arguments not described; recorded raw)\n      policy   AlwaysExecute\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteByte('(')
	for i, a := range r.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(argString(a))
	}
	fmt.Fprintf(&b, ") %s\n", r.Ret)
	eff := "none"
	if r.Effects != 0 {
		eff = r.Effects.String()
	}
	fmt.Fprintf(&b, "      effects  %s\n", eff)
	for _, c := range r.Cond {
		fmt.Fprintf(&b, "               +%s when %s\n", c.Effect, condString(r, c))
	}
	fmt.Fprintf(&b, "      policy   %s\n", r.Policy)
	if r.ServesImage {
		fmt.Fprintf(&b, "      serves   its image: replayed by running the recorded image where the trace stores it\n")
	}
	if r.NoStop {
		fmt.Fprintf(&b, "      nostop   %s\n", r.Why)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// argString renders an argument as "name Kind", with the flag set's name
// and the buffer's length and C type: "flags Flags(open_flags)",
// "statbuf OutBuf[144] struct stat".
func argString(a systable.Arg) string {
	s := a.Name + " " + a.Kind.String()
	if a.Flags != nil {
		s += "(" + a.Flags.Name + ")"
	}
	if l := a.Len.String(); l != "" {
		s += "[" + l + "]"
	}
	if a.Struct != "" {
		s += " " + a.Struct
	}
	return s
}

// condString says when a conditional effect holds: "flags has O_CREAT",
// "cmd is F_DUPFD or F_DUPFD_CLOEXEC", "new_limit is not 0".
func condString(r *systable.Syscall, c systable.CondEffect) string {
	name := "arg" + strconv.Itoa(int(c.Arg))
	var fs *systable.FlagSet
	if int(c.Arg) < len(r.Args) {
		name, fs = r.Args[c.Arg].Name, r.Args[c.Arg].Flags
	}
	format := func(v uint64) string {
		if fs != nil {
			return fs.Format(v)
		}
		return "0x" + strconv.FormatUint(v, 16)
	}
	if c.Mask == ^uint64(0) {
		return name + " is not 0"
	}
	if c.Mask != 0 {
		return name + " has " + bitNames(fs, c.Mask)
	}
	vals := make([]string, len(c.Values))
	for i, v := range c.Values {
		vals[i] = format(v)
	}
	return name + " is " + strings.Join(vals, " or ")
}

// bitNames names the bits of mask by fs's Bits alone (a mask is no
// value, so an enum field reading zero must not print): "O_CREAT",
// "CLONE_NEWNS|CLONE_NEWUTS|...", the rest in hex.
func bitNames(fs *systable.FlagSet, mask uint64) string {
	if fs == nil {
		return "0x" + strconv.FormatUint(mask, 16)
	}
	return fs.FormatBits(mask)
}

// jsonSyscall is a row as --json prints it.
type jsonSyscall struct {
	Nr      int        `json:"nr"`
	Name    string     `json:"name"`
	Unknown bool       `json:"unknown,omitempty"`
	Args    []jsonArg  `json:"args,omitempty"`
	Ret     string     `json:"ret,omitempty"`
	Effects []string   `json:"effects,omitempty"`
	Cond    []jsonCond `json:"cond,omitempty"`
	Policy  string     `json:"policy"`
	NoStop  bool       `json:"nostop,omitempty"`
	Why     string     `json:"why,omitempty"`
	// ServesImage: replayed by running the recorded image (systable).
	ServesImage bool `json:"serves_image,omitempty"`
}

type jsonArg struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	Flags  string   `json:"flags,omitempty"` // the flag set's name
	Len    *jsonLen `json:"len,omitempty"`
	Struct string   `json:"struct,omitempty"`
	Int32  bool     `json:"int32,omitempty"`
}

type jsonLen struct {
	From string `json:"from"`
	Arg  *int   `json:"arg,omitempty"`
	Size uint32 `json:"size,omitempty"`
}

type jsonCond struct {
	Arg     string   `json:"arg"`
	When    string   `json:"when"`
	Effects []string `json:"effects"`
}

func toJSONSyscall(r *systable.Syscall) jsonSyscall {
	j := jsonSyscall{Nr: r.Nr, Name: r.Name, Unknown: r.Unknown, Policy: r.Policy.String(), NoStop: r.NoStop, Why: r.Why, ServesImage: r.ServesImage}
	if r.Unknown {
		return j
	}
	j.Ret = r.Ret.String()
	j.Effects = r.Effects.Names()
	for _, a := range r.Args {
		ja := jsonArg{Name: a.Name, Kind: a.Kind.String(), Struct: a.Struct, Int32: a.Int32}
		if a.Flags != nil {
			ja.Flags = a.Flags.Name
		}
		if a.Len.From != 0 {
			ja.Len = &jsonLen{From: a.Len.From.String(), Size: a.Len.Size}
			if a.Len.From != systable.LenFixed && a.Len.From != systable.LenRet {
				n := int(a.Len.Arg)
				ja.Len.Arg = &n
			}
		}
		j.Args = append(j.Args, ja)
	}
	for _, c := range r.Cond {
		name := "arg" + strconv.Itoa(int(c.Arg))
		if int(c.Arg) < len(r.Args) {
			name = r.Args[c.Arg].Name
		}
		j.Cond = append(j.Cond, jsonCond{Arg: name, When: condString(r, c), Effects: c.Effect.Names()})
	}
	return j
}
