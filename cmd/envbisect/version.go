package main

import (
	"runtime/debug"
	"strings"
)

// versionText is what --version prints, read from the build information
// the Go toolchain embeds: the module version (a tag such as v0.2.0 when
// built by 'go install ...@v0.2.0'; "(devel)" when built in a checkout),
// the git revision with its time and whether the tree had uncommitted
// changes (present when built in a git checkout, as 'make build' does;
// absent under -buildvcs=false or from a git worktree, whose .git is a
// file the toolchain does not read), and the Go version and platform.
func versionText(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "envbisect (built without module information)\n"
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	var b strings.Builder
	version := bi.Main.Version
	if version == "" {
		version = "(unknown version)"
	}
	b.WriteString("envbisect " + version + "\n")
	if rev := settings["vcs.revision"]; rev != "" {
		b.WriteString("revision " + rev)
		if t := settings["vcs.time"]; t != "" {
			b.WriteString(" (" + t + ")")
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString("\n")
	} else {
		b.WriteString("revision unknown (built without VCS information)\n")
	}
	b.WriteString("built with " + bi.GoVersion)
	if goos, goarch := settings["GOOS"], settings["GOARCH"]; goos != "" && goarch != "" {
		b.WriteString(" for " + goos + "/" + goarch)
	}
	b.WriteString("\n")
	return b.String()
}
