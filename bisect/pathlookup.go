package bisect

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// A PATH that differs matters by the programs it hides or reveals: the
// report names the program the command looked up along PATH, where the
// good run found it and where the same lookup finds it here.

// pathVar is the environment variable programs are looked up along.
const pathVar = "PATH"

// IsPath reports whether the start item of kind and name is env PATH,
// whose explanation names the programs it hides or reveals from the
// recorded calls.
func IsPath(kind, name string) bool {
	return trace.StartKind(kind) == trace.StartEnv && name == pathVar
}

// pathPrograms are, for a start item env PATH that differs, the programs
// the command looked up along the good run's PATH (the recorded calls on
// DIR/NAME for a directory DIR of it: a shell's stats, an execvp's
// execs) that the PATH here finds elsewhere or not at all, in the order
// first looked up. Where the good run found each is the first directory,
// in its PATH's order, where such a call succeeded; where it is found
// here is the first directory of the PATH here that holds an executable
// file of the name, as Options.StatHere finds it after the runs. A name
// looked up in one directory only, which is on both PATHs, is a program
// run by its path, not looked up, and is left out. nil when the item is
// not PATH or nothing can be told.
func (s *search) pathPrograms(it *StartItem) []render.ProgramLookup {
	if s.g == nil || s.o.StatHere == nil || !IsPath(it.Kind, it.Name) || it.Good == nil {
		return nil
	}
	goodDirs := pathDirs(it.Good)
	hereDirs := pathDirs(it.Here)
	type seen struct {
		dirs  []string // directories of the good PATH the name was looked up in
		found string   // where the good run found it: the first such directory with a call that succeeded
	}
	byName := map[string]*seen{}
	var order []string
	for c := range s.g.AllCalls() {
		if c.Path == "" || c.NoReturn {
			continue
		}
		dir, name := path.Split(c.Path)
		dir = path.Clean(dir)
		if !slices.Contains(goodDirs, dir) || name == "" {
			continue
		}
		row := s.rows().ByNr(int(c.Nr))
		if row == nil || row.EffectsFor(c.Args)&(systable.CreatesPath|systable.RemovesPath|systable.ModifiesFile) != 0 {
			continue
		}
		e := byName[name]
		if e == nil {
			e = &seen{}
			byName[name] = e
			order = append(order, name)
		}
		if !slices.Contains(e.dirs, dir) {
			e.dirs = append(e.dirs, dir)
		}
		if c.Errno() == 0 && (e.found == "" || slices.Index(goodDirs, dir) < slices.Index(goodDirs, path.Dir(e.found))) {
			e.found = c.Path
		}
	}
	var out []render.ProgramLookup
	for _, name := range order {
		e := byName[name]
		if len(e.dirs) < 2 && (e.found == "" || slices.Contains(hereDirs, path.Dir(e.found))) {
			continue // run by its path, or not told apart
		}
		here, known := s.findHere(name, hereDirs)
		if !known || here == e.found {
			continue
		}
		out = append(out, render.ProgramLookup{Name: name, Good: e.found, Here: here, From: "locate after the runs"})
	}
	return out
}

// findHere is the first executable file name in dirs, in the
// environment the runs saw (Options.StatHere); "" when none holds one;
// known false when a stat failed otherwise than by a missing file.
func (s *search) findHere(name string, dirs []string) (found string, known bool) {
	for _, d := range dirs {
		p := path.Join(d, name)
		mode, _, _, err := s.o.StatHere(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return "", false
		case mode&0o170000 == 0o100000 && mode&0o111 != 0:
			return p, true
		}
	}
	return "", true
}

// pathDirs are the absolute directories of a PATH value, in order (an
// empty or relative entry names the working directory, which locate does
// not look in); nil for an unset PATH.
func pathDirs(v *string) []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, d := range strings.Split(*v, ":") {
		if strings.HasPrefix(d, "/") {
			out = append(out, path.Clean(d))
		}
	}
	return out
}
