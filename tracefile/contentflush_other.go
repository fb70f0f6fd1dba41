//go:build !linux

package tracefile

import "os"

// startWriteback does nothing where sync_file_range does not exist.
func startWriteback(*os.File, int64, int64) {}
