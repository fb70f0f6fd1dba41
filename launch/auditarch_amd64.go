package launch

import "golang.org/x/sys/unix"

// nativeAuditArch is seccomp_data.arch of a call made through the native
// x86-64 ABI; calls through int 0x80 or from a 32-bit program carry
// AUDIT_ARCH_I386 (nativeOnly).
const nativeAuditArch = unix.AUDIT_ARCH_X86_64
