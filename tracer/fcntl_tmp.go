package tracer

import "github.com/envbisect/envbisect/systable"

// TEMPORARY until systable.FcntlSize lands.
func fcntlSize(cmd uint64) (uint32, systable.Kind) { return 0, 0 }
