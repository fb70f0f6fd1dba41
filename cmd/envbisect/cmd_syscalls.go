package main

import "github.com/spf13/cobra"

// PLACEHOLDER until the table work lands.
func newSyscallsCommand(s streams) *cobra.Command {
	return &cobra.Command{Use: "syscalls", Short: "print the syscall table"}
}
