package envobj

import (
	"fmt"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// FixStep is one thing to do here to give an object its good state: a
// shell command, or where no command can (a file's good content is in the
// trace, not here) what to do in words.
type FixStep struct {
	// Command is a POSIX shell command to run here: "chmod 1777 /tmp".
	Command string `json:"command,omitempty"`
	// Text says what to do when no command does it: "restore /etc/app.conf
	// from the good environment".
	Text string `json:"text,omitempty"`
	// Path is, for a step that restores a file's content, that file; Diff
	// is then, when the caller has both contents, how the good content
	// differs from this one's (a unified diff, "--- good", "+++ here"):
	// the search does not read contents, the CLI adds it.
	Path string   `json:"path,omitempty"`
	Diff []string `json:"diff,omitempty"`
}

// String is the step as one line: the command, or the text.
func (s FixStep) String() string {
	if s.Command != "" {
		return s.Command
	}
	return s.Text
}

// Default metadata of what mkdir and a copy make as root with umask 022:
// a fix names mode and owner only where the good state differs from them.
const (
	defaultDirMode  = 0o755
	defaultFileMode = 0o644
)

// Fix returns the steps that give the object, here, the state a run puts
// in place (Ops): "mkdir -p /run/mpd", "chmod 1777 /tmp", "chown 0:0
// /srv/data", "rm /etc/app.d/extra.conf", "ln -sfn TARGET PATH", "restore
// /etc/app.conf from the good environment". Ids are numeric: names may
// differ between the two environments.
func (o *Object) Fix() []FixStep {
	if o.Tunable() {
		return o.tunableFix()
	}
	g, h := o.Good, o.Here
	p := shellQuote(o.Path)
	cmd := func(format string, args ...any) FixStep { return FixStep{Command: fmt.Sprintf(format, args...)} }
	rm := func(t Type) FixStep {
		if t == TypeDir {
			return cmd("rm -r %s", p)
		}
		return cmd("rm %s", p)
	}
	if !g.Exists {
		return []FixStep{rm(h.Type)}
	}
	replace := !h.Exists || o.Differs.Has(AspectType)
	var out []FixStep
	if replace && h.Exists {
		out = append(out, rm(h.Type))
	}
	meta := func(defMode uint32) {
		mode, owner := o.Differs.Has(AspectMode), o.Differs.Has(AspectOwner)
		if replace {
			mode = g.Known.Has(AspectMode) && g.Mode != defMode
			owner = g.Known.Has(AspectOwner) && (g.UID != 0 || g.GID != 0)
		}
		if mode {
			out = append(out, cmd("chmod %o %s", g.Mode, p))
		}
		if owner {
			out = append(out, cmd("chown %d:%d %s", g.UID, g.GID, p))
		}
	}
	switch g.Type {
	case TypeSymlink:
		if replace || o.Differs.Has(AspectTarget) {
			out = append(out, cmd("ln -sfn %s %s", shellQuote(g.Target), p))
		}
		return out // a link's own mode and owner are not used
	case TypeDir:
		if replace {
			out = append(out, cmd("mkdir -p %s", p))
		}
		meta(defaultDirMode)
	case TypeFile:
		restore := replace || o.Differs.Has(AspectContent)
		if restore {
			why := ""
			if !h.Exists {
				why = " (it is missing here)"
			}
			out = append(out, FixStep{Text: fmt.Sprintf("restore %s from the good environment%s", o.Path, why), Path: o.Path})
		}
		meta(defaultFileMode)
		if restore {
			return out // a copied file's time is the copy's
		}
	}
	if !replace && o.Differs.Has(AspectMtime) && g.MtimeNS != 0 {
		out = append(out, cmd("touch -h -m -d @%d.%09d %s", g.MtimeNS/1e9, g.MtimeNS%1e9, p))
	}
	return out
}

// PackageFix returns the package manager's command that installs p at
// its good version: "apt-get install python3-yaml=6.0-3" (dpkg), "apk
// add py3-yaml=6.0.1-r1" (apk); reinstall is true when some of its files
// are here but differ ("apt-get install --reinstall ...", "apk fix ...").
func PackageFix(p *trace.Package, reinstall bool) []FixStep {
	spec := p.Name
	if p.Version != "" {
		spec += "=" + p.Version
	}
	spec = shellQuote(spec)
	switch p.Manager {
	case trace.PackageDpkg:
		if reinstall {
			return []FixStep{{Command: "apt-get install --reinstall " + spec}}
		}
		return []FixStep{{Command: "apt-get install " + spec}}
	case trace.PackageApk:
		if reinstall {
			return []FixStep{{Command: "apk fix " + shellQuote(p.Name)}}
		}
		return []FixStep{{Command: "apk add " + spec}}
	}
	return []FixStep{{Text: fmt.Sprintf("install %s %s as the good environment has it", p.Name, p.Version)}}
}

// Fix returns the steps that give the group's objects their good state
// here: a package's install command, else every object's steps in path
// order.
func (g *Group) Fix(objs []Object) []FixStep {
	if g.Kind == GroupPackage {
		return PackageFix(g.Package, !allMissing(objs, g.Objects))
	}
	var out []FixStep
	for _, i := range g.Objects {
		out = append(out, objs[i].Fix()...)
	}
	return out
}

// shellQuote quotes s for a POSIX shell when it is not a plain word.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// MkdirStep is the step that makes dir and its missing parents as root
// with umask 022 (0755), as a run makes the missing parents of what it
// puts in place: `mkdir -p DIR`.
func MkdirStep(dir string) FixStep { return FixStep{Command: "mkdir -p " + shellQuote(dir)} }
