package record

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// envPolicy decides which environment variables' values are redacted:
// --exclude-env's globs (path.Match on the name), the default secret
// names (secretnames.go) unless --keep-env names the variable.
type envPolicy struct {
	exclude []string
	keep    []string
}

// newEnvPolicy validates the --exclude-env globs.
func newEnvPolicy(exclude, keep []string) (envPolicy, error) {
	for _, g := range exclude {
		if _, err := path.Match(g, ""); err != nil || g == "" {
			return envPolicy{}, fmt.Errorf("bad --exclude-env pattern %q: a glob on a variable's name is wanted, such as MY_APP_* or DEPLOY_KEY", g)
		}
	}
	for _, k := range keep {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return envPolicy{}, fmt.Errorf("bad --keep-env name %q: a variable's name is wanted, such as API_KEY", k)
		}
	}
	return envPolicy{exclude: exclude, keep: keep}, nil
}

// redacts reports whether the value of variable name stays out of the
// trace.
func (p envPolicy) redacts(name string) bool {
	if slices.Contains(p.keep, name) {
		return false
	}
	for _, g := range p.exclude {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return looksSecret(name)
}

// looksSecret reports whether name is one of the default secret names:
// a well-known one, or one with a secret component.
func looksSecret(name string) bool {
	upper := strings.ToUpper(name)
	if slices.Contains(notSecretNames, upper) {
		return false
	}
	for _, g := range secretNames {
		if ok, _ := path.Match(g, upper); ok {
			return true
		}
	}
	for _, part := range strings.Split(upper, "_") {
		if slices.Contains(secretComponents, part) {
			return true
		}
	}
	return false
}

// CheckEnvFlags validates --exclude-env's globs and --keep-env's names.
func CheckEnvFlags(exclude, keep []string) error {
	_, err := newEnvPolicy(exclude, keep)
	return err
}
