package ptrace

import "strings"

// scriptArgs returns the entries the kernel put in front of the
// program's own argv[1:] when the recorded exec ran a "#!" script: the
// interpreter, its optional argument and the script's path as the exec
// was given it (execfn, AT_EXECFN), read from image, the recorded new
// image's argv. It returns nil when the recorded exec ran no script: the
// program's argv is then the new image's as it is.
//
// A served exec runs the recorded image with the live call's argv, which
// the program computed here (a temporary file's name, an output path),
// not the recording's: a served exec must not change what the program
// does. For a script the recorded image is the interpreter, so the
// kernel's part comes from the recording and the rest from the live
// argv, of liveArgc entries. The kernel makes a script's argv one or two
// entries longer than the program's (the interpreter and its argument in
// front; argv[0] becomes the script's path): the shape that agrees with
// liveArgc is taken first; an argv as long as the live one is no
// script's; failing both, a script's shape by the path alone.
func scriptArgs(image []string, execfn string, liveArgc int) []string {
	if execfn == "" {
		return nil
	}
	for p := 2; p <= 3; p++ {
		if len(image) >= p && image[p-1] == execfn && len(image)-p == liveArgc-1 {
			return image[:p]
		}
	}
	if len(image) == liveArgc {
		return nil
	}
	for p := 2; p <= 3; p++ {
		if len(image) >= p && image[p-1] == execfn {
			return image[:p]
		}
	}
	return nil
}

// trimNUL drops the NULs a captured string may end with.
func trimNUL(b []byte) string { return strings.TrimRight(string(b), "\x00") }
