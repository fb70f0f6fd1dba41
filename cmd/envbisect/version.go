package main

import (
	"runtime/debug"
	"strings"
)

// buildStamp is what the Makefile's build tells the linker of the
// checkout (-ldflags -X main.stampRevision=... and so on): the git
// revision, its commit time and whether the tree had uncommitted
// changes. These are package variables because -X can set nothing else;
// nothing writes them at run time. Empty when built otherwise ('go
// install', 'go build'): --version then reads the toolchain's VCS
// stamping.
var (
	stampRevision string
	stampTime     string
	stampModified string // "true": uncommitted changes
)

// revision is the git revision a build names, its time and whether the
// tree had uncommitted changes.
type revision struct {
	id, time string
	modified bool
}

// stampedRevision is the revision the Makefile gave the linker, if any.
func stampedRevision() revision {
	return revision{id: stampRevision, time: stampTime, modified: stampModified == "true"}
}

// versionText is what --version prints, read from the build information
// the Go toolchain embeds: the module version (a tag such as v0.2.0 when
// built by 'go install ...@v0.2.0'; "(devel)" when built in a checkout),
// the git revision with its time and whether the tree had uncommitted
// changes, and the Go version and platform. The revision is stamped's
// when the Makefile gave one (make build: whatever GOFLAGS says, and in
// a git worktree); else the toolchain's VCS stamping (go install or go
// build in a checkout; absent under -buildvcs=false or from a git
// worktree, whose .git is a file the toolchain does not read).
func versionText(bi *debug.BuildInfo, ok bool, stamped revision) string {
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
	rev := stamped
	if rev.id == "" {
		rev = revision{id: settings["vcs.revision"], time: settings["vcs.time"], modified: settings["vcs.modified"] == "true"}
	}
	if rev.id != "" {
		b.WriteString("revision " + rev.id)
		if rev.time != "" {
			b.WriteString(" (" + rev.time + ")")
		}
		if rev.modified {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString("\n")
	} else {
		b.WriteString("revision unknown (built without VCS information: build with make build in a git checkout)\n")
	}
	b.WriteString("built with " + bi.GoVersion)
	if goos, goarch := settings["GOOS"], settings["GOARCH"]; goos != "" && goarch != "" {
		b.WriteString(" for " + goos + "/" + goarch)
	}
	b.WriteString("\n")
	return b.String()
}
