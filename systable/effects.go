package systable

// CondEffect is an effect a call has only when one of its arguments says
// so: open creates a path only with O_CREAT, fcntl duplicates an fd only
// for F_DUPFD and F_DUPFD_CLOEXEC.
type CondEffect struct {
	Arg uint8 // the argument that decides
	// Mask, when non-zero, tests bits: the effect holds when arg&Mask != 0.
	// Otherwise the effect holds when arg equals one of Values.
	Mask   uint64
	Values []uint64
	Effect Effect
}

// EffectsFor returns the effects a call with these argument registers
// has: the unconditional Effects plus every Cond that holds.
func (s *Syscall) EffectsFor(args [6]uint64) Effect {
	e := s.Effects
	for _, c := range s.Cond {
		v := args[c.Arg]
		if int(c.Arg) < len(s.Args) && s.Args[c.Arg].Int32 {
			v = uint64(uint32(v))
		}
		if c.Mask != 0 {
			if v&c.Mask != 0 {
				e |= c.Effect
			}
			continue
		}
		for _, want := range c.Values {
			if v == want {
				e |= c.Effect
				break
			}
		}
	}
	return e
}
