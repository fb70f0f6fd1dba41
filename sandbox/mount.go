package sandbox

import "github.com/envbisect/envbisect/internal/mountinfo"

// Mount is one mount of the table the sandbox replicates.
type Mount = mountinfo.Mount
