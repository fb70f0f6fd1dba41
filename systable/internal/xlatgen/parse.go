package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// list is one .in file: a flag set, or (with #Consts or #Syscalls) a
// list of constants only.
type list struct {
	File     string   // base name, e.g. "open_flags.in"
	Name     string   // the set's name: the file name without .in
	Var      string   // Go variable of the flag set; empty for constant lists
	Doc      []string // doc comment lines of the Go variable
	From     []string // headers to include, in order
	Mask     string   // C expression of the mask, or ""
	Consts   bool     // #Consts: constants only
	Syscalls bool     // #Syscalls: entries are syscall names, __NR_<name>
	Signals  bool     // #EnumSignals: the enum is the signal names
	Combos   string   // #Combos: the enum is every combination of ComboBits, zero named Combos
	Enum     []item
	Bits     []item
	Combo    []item
	NoXsys   map[string]bool // names whose x/sys value differs on purpose
}

// item is one line of a section: an entry, or #Include of another set's
// bits.
type item struct {
	Include  string // set name, for #Include
	Name     string // as printed
	Fallback string // C expression used when the headers do not define Name
	Comment  string
}

var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// cName is the C expression that gives the item's value.
func (l *list) cName(it item) string {
	if l.Syscalls {
		return "__NR_" + it.Name
	}
	return it.Name
}

// goConst is the Go constant an entry defines, or "" for none.
func (l *list) goConst(it item) string {
	switch {
	case l.Syscalls:
		return "SYS_" + strings.ToUpper(it.Name)
	case ident.MatchString(it.Name):
		return it.Name
	}
	return ""
}

// entries returns every entry the C program must evaluate, in order.
func (l *list) entries() []item {
	var out []item
	for _, sec := range [][]item{l.Enum, l.Combo, l.Bits} {
		for _, it := range sec {
			if it.Include == "" {
				out = append(out, it)
			}
		}
	}
	return out
}

func parseFile(path string) (*list, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	base := filepath.Base(path)
	l := &list{File: base, Name: strings.TrimSuffix(base, ".in"), NoXsys: map[string]bool{}}
	var sec *[]item
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		fail := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: %s", path, n, fmt.Sprintf(format, a...))
		}
		var comments []string
		for {
			i := strings.Index(line, "/*")
			if i < 0 {
				break
			}
			j := strings.Index(line[i:], "*/")
			if j < 0 {
				return nil, fail("unterminated /* comment (comments end on their line)")
			}
			comments = append(comments, strings.TrimSpace(line[i+2:i+j]))
			line = strings.TrimSpace(line[:i] + " " + line[i+j+2:])
		}
		comment := strings.Join(comments, "; ")
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			dir, arg, _ := strings.Cut(line[1:], " ")
			arg = strings.TrimSpace(arg)
			switch dir {
			case "Doc":
				l.Doc = append(l.Doc, arg)
			case "Var":
				l.Var = arg
			case "From":
				l.From = append(l.From, strings.Fields(arg)...)
			case "Mask":
				l.Mask = arg
			case "Consts":
				l.Consts = true
				sec = &l.Enum
			case "Syscalls":
				l.Syscalls = true
				sec = &l.Enum
			case "Enum":
				sec = &l.Enum
			case "Bits":
				sec = &l.Bits
			case "Combos":
				l.Combos = arg
				sec = &l.Combo
			case "EnumSignals":
				l.Signals = true
			case "Include":
				if sec == nil {
					return nil, fail("#Include outside a section")
				}
				*sec = append(*sec, item{Include: arg})
			case "NoXsysCheck":
				for _, name := range strings.Fields(arg) {
					l.NoXsys[name] = true
				}
			default:
				return nil, fail("unknown directive #%s", dir)
			}
			continue
		}
		if sec == nil {
			return nil, fail("entry %q before #Enum, #Bits, #Combos, #Consts or #Syscalls", line)
		}
		fields := strings.Fields(line)
		it := item{Name: fields[0], Fallback: strings.Join(fields[1:], " "), Comment: comment}
		if !ident.MatchString(it.Name) && it.Fallback == "" {
			return nil, fail("%q is not a C name: give its value", it.Name)
		}
		*sec = append(*sec, it)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(l.From) == 0 {
		return nil, fmt.Errorf("%s: no #From header", path)
	}
	if !l.Consts && !l.Syscalls && l.Var == "" {
		return nil, fmt.Errorf("%s: a flag set needs #Var (or mark the file #Consts)", path)
	}
	return l, nil
}
