// Command envbisect locates the interaction between a program and its
// environment that makes it fail in one environment and not in another.
package main

import (
	"os"

	"github.com/envbisect/envbisect/launch"
)

func main() {
	launch.MaybeRunHelper()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
