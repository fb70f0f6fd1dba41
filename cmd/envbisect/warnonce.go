package main

import (
	"sync"

	"github.com/envbisect/envbisect/launch"
)

// warnOnce returns a Warn that passes each distinct message to warn
// once: locate makes many runs, and a warning the engine gives in each
// (a setuid program that ran without its privilege) is said once.
// Messages are told apart by launch.WarningKey (the processes a command
// left running differ from run to run; the warning is said once). Safe
// for runs made at once.
func warnOnce(warn func(string)) func(string) {
	var mu sync.Mutex
	said := map[string]bool{}
	return func(msg string) {
		mu.Lock()
		key := launch.WarningKey(msg)
		first := !said[key]
		said[key] = true
		mu.Unlock()
		if first {
			warn(msg)
		}
	}
}
