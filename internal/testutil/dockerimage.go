package testutil

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Rootfs is a container image's root filesystem, for the tests that
// make images with docker import: regular files by path
// (mode 0755 when Exec is set) and symlinks.
type Rootfs struct {
	Files    map[string][]byte
	Exec     map[string]bool
	Symlinks map[string]string
}

// BusyboxRoot is a root with Debian's static busybox as /bin/busybox
// and the tools the tests use (/bin/sh, sleep, cat, readlink, hostname,
// grep), and the program at victim as /bin/app.
func BusyboxRoot(t testing.TB, victim string) *Rootfs {
	t.Helper()
	// The image has no libc: a dynamically linked busybox (Debian's
	// busybox package) would not run in it, so the tests skip, saying so.
	Require(t, StaticFile("/bin/busybox", "busybox-static"))
	bb, err := os.ReadFile("/bin/busybox")
	if err != nil {
		t.Fatal(err)
	}
	app, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	return &Rootfs{
		Files: map[string][]byte{"bin/busybox": bb, "bin/app": app},
		Exec:  map[string]bool{"bin/busybox": true, "bin/app": true},
		Symlinks: map[string]string{"bin/sh": "busybox", "bin/sleep": "busybox", "bin/cat": "busybox",
			"bin/readlink": "busybox", "bin/hostname": "busybox", "bin/grep": "busybox"},
	}
}

// Tar writes the root as a tar stream, with the directories docker run
// mounts on.
func (r *Rootfs) Tar(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	now := time.Now()
	for _, d := range []string{"bin/", "etc/", "proc/", "sys/", "dev/", "tmp/"} {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: 0o755, ModTime: now})
	}
	for name, data := range r.Files {
		mode := int64(0o644)
		if r.Exec[name] {
			mode = 0o755
		}
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: now})
		tw.Write(data)
	}
	for name, target := range r.Symlinks {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777, ModTime: now})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// UniqueName returns a name for images and containers that no other test
// run uses: "envbisect-test-<what>-<random>".
func UniqueName(t testing.TB, what string) string {
	t.Helper()
	b := make([]byte, 4)
	rand.Read(b)
	return "envbisect-test-" + what + "-" + hex.EncodeToString(b)
}

// RunDocker runs the docker CLI and returns its standard output.
func RunDocker(t testing.TB, stdin []byte, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "docker", args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// ImportImage makes an image of root with docker import, with PATH=/bin
// and the working directory dir, and removes it when the test ends.
func ImportImage(t testing.TB, root *Rootfs, dir string) string {
	t.Helper()
	tag := UniqueName(t, "image") + ":latest"
	RunDocker(t, root.Tar(t), "import", "-c", "ENV PATH=/bin", "-c", "WORKDIR "+dir, "-", tag)
	t.Cleanup(func() { DockerQuiet("rmi", "-f", tag) })
	return tag
}

// StartContainer runs a container of image that sleeps, without a
// network, and removes it when the test ends. It returns its name.
func StartContainer(t testing.TB, image, what string) string {
	t.Helper()
	name := UniqueName(t, what)
	t.Cleanup(func() { DockerQuiet("rm", "-f", name) })
	RunDocker(t, nil, "run", "-d", "--network", "none", "--name", name, image, "sleep", "3600")
	return name
}

// DockerQuiet runs the docker CLI for a cleanup, ignoring what it says.
func DockerQuiet(args ...string) { exec.Command("docker", args...).Run() }
