//go:build linux && amd64

package bpf

import (
	"fmt"

	"github.com/cilium/ebpf/btf"
)

// exitHasGroupDead reports whether the running kernel's sched_process_exit
// tracepoint passes group_dead after the task (Linux 6.16 and later). The
// program then reads it from there; older kernels make it read
// task->signal->live instead, which two threads exiting at once can both
// see at zero.
func exitHasGroupDead() (bool, error) {
	spec, err := btf.LoadKernelSpec()
	if err != nil {
		return false, fmt.Errorf("read the kernel's BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF): %w", err)
	}
	var td *btf.Typedef
	if err := spec.TypeByName("btf_trace_sched_process_exit", &td); err != nil {
		return false, fmt.Errorf("find the sched_process_exit tracepoint in the kernel's BTF: %w", err)
	}
	ptr, ok := td.Type.(*btf.Pointer)
	if !ok {
		return false, fmt.Errorf("btf_trace_sched_process_exit is a %T, not a function pointer", td.Type)
	}
	proto, ok := ptr.Target.(*btf.FuncProto)
	if !ok {
		return false, fmt.Errorf("btf_trace_sched_process_exit points to a %T, not a function", ptr.Target)
	}
	// (void *data, struct task_struct *p[, bool group_dead])
	return len(proto.Params) >= 3, nil
}
