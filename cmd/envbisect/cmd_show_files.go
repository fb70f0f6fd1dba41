package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// filesHelp is show's help on --files.
const filesHelp = `--files lists the file objects instead: the good environment's files the
trace keeps (every regular file the command opened for reading, every program
it executed and its ELF interpreter), one line each with its ID (the number a
call's "obj" names), whether its content is stored, its size, the start of its
SHA-256 and its path (-> where it led, when links were followed):

     3  stored       1.9 MiB  sha256:2a9f6c0e11d3  /lib/x86_64-linux-gnu/libc.so.6
     7  excluded       412 B  sha256:77ab3c01f9e2  /home/u/.ssh/config
     9  over-budget  300.0 MiB sha256:c0ffee123456 /usr/lib/big.so

excluded: --exclude-content matched it; over-budget: --max-content was spent
on other files; unreadable: record could not read it. Only the hash of those
is kept. With --json, one JSON object per file. A trace of format version 1
has no file objects.`

// fileLine is a file object as show --files --json prints it.
type fileLine struct {
	Event    string `json:"event"`
	ID       uint32 `json:"id"`
	Path     string `json:"path"`
	Resolved string `json:"resolved,omitempty"`
	Size     int64  `json:"size"`
	Mode     string `json:"mode"`
	UID      uint32 `json:"uid"`
	GID      uint32 `json:"gid"`
	Mtime    int64  `json:"mtime_ns"`
	SHA256   string `json:"sha256,omitempty"`
	Content  string `json:"content"` // stored, excluded, over-budget, unreadable
	Chunks   int    `json:"chunks"`
}

// contentState says whether f's content is stored, or why not.
func contentState(f *trace.FileObject) string {
	switch {
	case f.Stored():
		return "stored"
	case f.Why != "":
		return f.Why
	}
	return "missing"
}

// runShowFiles prints the file objects of the trace at path.
func runShowFiles(o showOptions, path string, s streams) error {
	r, err := tracefile.Open(path)
	if err != nil {
		return withCode(exitError, nameFile(path, err))
	}
	defer r.Close()
	var rerr error
	for {
		if _, rerr = r.Next(); rerr != nil {
			break
		}
	}
	out := bufio.NewWriterSize(s.out, 64<<10)
	for _, f := range r.Files() {
		var sum string
		if f.SHA256 != (trace.Hash{}) {
			sum = hex.EncodeToString(f.SHA256[:])
		}
		if o.json {
			b, _ := json.Marshal(fileLine{Event: "file", ID: f.ID, Path: f.Path, Resolved: f.Resolved, Size: f.Size,
				Mode: fmt.Sprintf("%#o", f.Mode), UID: f.UID, GID: f.GID, Mtime: f.Mtime, SHA256: sum,
				Content: contentState(&f), Chunks: len(f.Chunks)})
			out.Write(append(b, '\n'))
			continue
		}
		short := "-"
		if sum != "" {
			short = "sha256:" + sum[:12]
		}
		name := f.Path
		if f.Resolved != "" && f.Resolved != f.Path {
			name += " -> " + f.Resolved
		}
		fmt.Fprintf(out, "%6d  %-11s %10s  %-19s  %s\n", f.ID, contentState(&f), humanBytes(f.Size), short, render.Visible(name))
	}
	if err := out.Flush(); err != nil {
		return withCode(exitError, fmt.Errorf("write: %w", err))
	}
	return showEnd(s, path, rerr)
}
