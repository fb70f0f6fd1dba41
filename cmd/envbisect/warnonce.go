package main

import "sync"

// warnOnce returns a Warn that passes each distinct message to warn
// once: locate makes many runs, and a warning the engine gives in each
// (a setuid program that ran without its privilege) is said once. Safe
// for runs made at once.
func warnOnce(warn func(string)) func(string) {
	var mu sync.Mutex
	said := map[string]bool{}
	return func(msg string) {
		mu.Lock()
		first := !said[msg]
		said[msg] = true
		mu.Unlock()
		if first {
			warn(msg)
		}
	}
}
