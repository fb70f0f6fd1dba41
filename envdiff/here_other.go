//go:build !linux

package envdiff

import (
	"errors"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// errNotLinux is what inspection answers on another system: the paths
// of a Linux trace are read with Linux's openat2.
var errNotLinux = errors.New("inspecting an environment needs Linux")

type rootFS struct{}

func openRoot(string) (*rootFS, error)                        { return nil, errNotLinux }
func (*rootFS) close() error                                  { return nil }
func (*rootFS) lstat(string) (envobj.State, error)            { return envobj.State{}, errNotLinux }
func (*rootFS) stat(string) (envobj.State, error)             { return envobj.State{}, errNotLinux }
func (*rootFS) readlink(string) (string, error)               { return "", errNotLinux }
func (*rootFS) list(string) ([]string, error)                 { return nil, errNotLinux }
func (*rootFS) hash(string, int64) (trace.Hash, int64, error) { return trace.Hash{}, 0, errNotLinux }
func (*rootFS) resolve(string) (string, bool, error)          { return "", false, errNotLinux }
