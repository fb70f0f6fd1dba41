package envobj

import (
	"fmt"
	"path/filepath"

	"github.com/envbisect/envbisect/trace"
)

// OpKind is what an Op does.
type OpKind string

// The operations a run's sandbox applies, in the order given, before the
// command starts (package sandbox): each acts on the run's throwaway view
// only.
const (
	// OpWrite makes Path a regular file with the content whose SHA-256 is
	// Content (from the run's content bundle), Mode, UID, GID and
	// MtimeNS; what was at Path is replaced.
	OpWrite OpKind = "write"
	// OpMkdir makes Path a directory (with missing parents, each taking
	// Mode, UID and GID of its own Op or root's 0755 when none).
	OpMkdir OpKind = "mkdir"
	// OpSymlink makes Path a symbolic link to Target.
	OpSymlink OpKind = "symlink"
	// OpRemove removes Path (a directory with what it holds): in an
	// overlay, a whiteout hides it.
	OpRemove OpKind = "remove"
	// OpChmod, OpChown and OpMtime set one aspect of an existing path.
	OpChmod OpKind = "chmod"
	OpChown OpKind = "chown"
	OpMtime OpKind = "mtime"
)

// Op is one operation of a materialized run.
type Op struct {
	Kind    OpKind     `json:"op"`
	Path    string     `json:"path"`
	Mode    uint32     `json:"mode,omitempty"`
	UID     uint32     `json:"uid,omitempty"`
	GID     uint32     `json:"gid,omitempty"`
	MtimeNS int64      `json:"mtime_ns,omitempty"`
	Target  string     `json:"target,omitempty"`
	Content trace.Hash `json:"content,omitempty"`
}

// String is one line for logs: "write /etc/app.conf 0644 0:0".
func (op Op) String() string {
	switch op.Kind {
	case OpWrite:
		return fmt.Sprintf("write %s %04o %d:%d", op.Path, op.Mode, op.UID, op.GID)
	case OpMkdir, OpChmod:
		return fmt.Sprintf("%s %s %04o", op.Kind, op.Path, op.Mode)
	case OpChown:
		return fmt.Sprintf("chown %s %d:%d", op.Path, op.UID, op.GID)
	case OpSymlink:
		return fmt.Sprintf("symlink %s -> %s", op.Path, op.Target)
	}
	return fmt.Sprintf("%s %s", op.Kind, op.Path)
}

// Validate checks an Op's path is absolute and clean and its kind known.
func (op Op) Validate() error {
	if !filepath.IsAbs(op.Path) || filepath.Clean(op.Path) != op.Path || op.Path == "/" {
		return fmt.Errorf("object operation %s: path %q is not an absolute, clean path below /", op.Kind, op.Path)
	}
	switch op.Kind {
	case OpWrite, OpMkdir, OpSymlink, OpRemove, OpChmod, OpChown, OpMtime:
		return nil
	}
	return fmt.Errorf("object operation %q on %s: unknown operation", op.Kind, op.Path)
}

// Ops returns the operations that give the object its good state in a
// run, or an error saying why it cannot be materialized.
func (o *Object) Ops() ([]Op, error) {
	if ok, why := o.Materializable(); !ok {
		return nil, fmt.Errorf("%s: %s", o.Describe(), why)
	}
	if o.Tunable() {
		return o.tunableOps(), nil
	}
	g := o.Good
	if !g.Exists {
		return []Op{{Kind: OpRemove, Path: o.Path}}, nil
	}
	replace := !o.Here.Exists || o.Differs.Has(AspectType)
	var ops []Op
	switch g.Type {
	case TypeFile:
		if replace || o.Differs.Has(AspectContent) {
			return []Op{{Kind: OpWrite, Path: o.Path, Mode: g.Mode, UID: g.UID, GID: g.GID, MtimeNS: g.MtimeNS, Content: g.SHA256}}, nil
		}
	case TypeSymlink:
		if replace || o.Differs.Has(AspectTarget) {
			ops = append(ops, Op{Kind: OpSymlink, Path: o.Path, Target: g.Target})
		}
		return ops, nil // a link's own mode and owner are not used
	case TypeDir:
		if replace {
			ops = append(ops, Op{Kind: OpMkdir, Path: o.Path, Mode: g.Mode, UID: g.UID, GID: g.GID})
		}
	}
	if !replace {
		if o.Differs.Has(AspectMode) {
			ops = append(ops, Op{Kind: OpChmod, Path: o.Path, Mode: g.Mode})
		}
		if o.Differs.Has(AspectOwner) {
			ops = append(ops, Op{Kind: OpChown, Path: o.Path, UID: g.UID, GID: g.GID})
		}
		if o.Differs.Has(AspectMtime) && g.MtimeNS != 0 {
			ops = append(ops, Op{Kind: OpMtime, Path: o.Path, MtimeNS: g.MtimeNS})
		}
	}
	return ops, nil
}
