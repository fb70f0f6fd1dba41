package bisect

// noteWarnings adds the warnings of a run that no earlier run gave to
// the report's, in the order first said. The caller holds s.mu.
func (s *search) noteWarnings(ws []string) {
	for _, w := range ws {
		if s.warned[w] {
			continue
		}
		if s.warned == nil {
			s.warned = make(map[string]bool)
		}
		s.warned[w] = true
		s.warnings = append(s.warnings, w)
	}
}
