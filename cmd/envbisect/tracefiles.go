package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/envbisect/envbisect/tracefile"
)

// readTrace reads a whole trace; a trace cut short is used with a
// warning. Errors name the file.
func readTrace(path string, s streams) (*tracefile.Trace, error) {
	t, err := tracefile.ReadFile(path)
	switch {
	case err == nil:
		return t, nil
	case errors.Is(err, tracefile.ErrTruncated) && t != nil:
		fmt.Fprintf(s.err, "warning: %s: %s\n", path, strings.TrimPrefix(err.Error(), "read trace "+path+": "))
		return t, nil
	}
	return nil, nameFile(path, err)
}
