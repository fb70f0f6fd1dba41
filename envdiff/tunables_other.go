//go:build !linux

package envdiff

// values reads nothing on another system (see here_other.go).
func (*rootFS) values(paths []string, _ int) (map[string]hereValue, map[string]error) {
	errs := map[string]error{}
	for _, p := range paths {
		errs[p] = errNotLinux
	}
	return map[string]hereValue{}, errs
}
