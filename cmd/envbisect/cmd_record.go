package main

import "github.com/spf13/cobra"

// PLACEHOLDER until the recorder lands.
func newRecordCommand(s streams) *cobra.Command {
	return &cobra.Command{Use: "record [-o FILE] -- CMD [ARGS...]", Short: "run a command and record its system calls"}
}

func maybeHelper() (int, bool) { return 0, false }
