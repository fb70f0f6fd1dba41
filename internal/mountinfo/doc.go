// Package mountinfo parses /proc/PID/mountinfo (proc(5)): one Mount per
// line, with the kernel's octal escapes undone. It reads text only; the
// sandbox (which mounts to replicate), the launcher (the mount flags a
// command's calls meet) and the container lookup (where cgroup2 is
// mounted) all read mount tables through it.
package mountinfo
