package container

import "strings"

// defaultPath is the PATH Docker gives a container's processes when its
// configuration sets none.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// execEnv is the environment docker exec gives a command: PATH
// (Docker's default) and HOSTNAME, overridden or added to by the
// container's configured environment, then HOME, the user's home in the
// container's /etc/passwd, when still unset (what runc does).
func execEnv(config []string, hostname, home string) []string {
	env := []string{"PATH=" + defaultPath}
	if hostname != "" {
		env = append(env, "HOSTNAME="+hostname)
	}
	for _, kv := range config {
		k, _, _ := strings.Cut(kv, "=")
		if i := envIndex(env, k); i >= 0 {
			env[i] = kv
		} else {
			env = append(env, kv)
		}
	}
	if envIndex(env, "HOME") < 0 {
		env = append(env, "HOME="+home)
	}
	return env
}

// envIndex returns the index of variable k in env, or -1.
func envIndex(env []string, k string) int {
	for i, kv := range env {
		if strings.HasPrefix(kv, k+"=") {
			return i
		}
	}
	return -1
}
