package trace

// Redirect is a creation that a semi-replay run could not make here and
// made in its scratch area instead: the recorded call (Seq) created Path,
// the live call failed with Errno, and the same call made Scratch, where
// every later call of the run on Path or a path under it is redirected.
type Redirect struct {
	Seq     uint64 `json:"seq"` // the recorded call; 0: an executed rename or link of an object already in the scratch area
	Syscall string `json:"syscall"`
	Path    string `json:"path"`    // as the program named it, absolute
	Scratch string `json:"scratch"` // where it is, as the command sees the file system
	Errno   string `json:"errno"`   // what the live call got here
}
