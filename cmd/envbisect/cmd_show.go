package main

import "github.com/spf13/cobra"

// PLACEHOLDER until the show work lands.
func newShowCommand(s streams) *cobra.Command {
	return &cobra.Command{Use: "show TRACE", Short: "print a trace as strace-like text or JSON"}
}
