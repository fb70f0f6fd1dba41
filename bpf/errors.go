package bpf

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ErrPermission is what Load returns, wrapped with the cause, when the
// kernel refuses to load the programs for lack of privilege. Match it
// with errors.Is.
var ErrPermission = errors.New("the eBPF backend needs root, or CAP_BPF and CAP_PERFMON (run with sudo, or use the default ptrace backend)")

// ErrUnsupported is returned by Load on architectures and systems the
// eBPF programs are not built for.
var ErrUnsupported = errors.New("the eBPF backend is only built for linux/amd64")

// permissionError is ErrPermission with the kernel's answer.
type permissionError struct{ cause error }

func (e *permissionError) Error() string { return ErrPermission.Error() + ": " + e.cause.Error() }
func (e *permissionError) Unwrap() []error {
	return []error{ErrPermission, e.cause}
}

// loadError wraps err from step with context, turning a refusal for lack
// of privilege into ErrPermission. EPERM always is one; EACCES only
// without root, since for root it is the verifier rejecting a program.
func loadError(step string, err error) error {
	if errors.Is(err, unix.EPERM) || (errors.Is(err, os.ErrPermission) && os.Geteuid() != 0) {
		return &permissionError{cause: fmt.Errorf("%s: %w", step, err)}
	}
	return fmt.Errorf("eBPF recorder: %s: %w", step, err)
}
