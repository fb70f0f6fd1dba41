package containers

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

	"github.com/envbisect/envbisect/internal/testutil"
)

// rootfs is a container image's root filesystem: regular files by path
// (mode 0755 when exec is set) and symlinks.
type rootfs struct {
	files    map[string][]byte
	exec     map[string]bool
	symlinks map[string]string
}

// busyboxRoot is a root with Debian's static busybox as /bin/busybox
// and the tools the tests use (/bin/sh, sleep, cat, readlink, hostname,
// grep), and the program at victim as /bin/app.
func busyboxRoot(t *testing.T, victim string) *rootfs {
	t.Helper()
	testutil.Require(t, testutil.File("/bin/busybox"))
	bb, err := os.ReadFile("/bin/busybox")
	if err != nil {
		t.Fatal(err)
	}
	app, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	return &rootfs{
		files: map[string][]byte{"bin/busybox": bb, "bin/app": app},
		exec:  map[string]bool{"bin/busybox": true, "bin/app": true},
		symlinks: map[string]string{"bin/sh": "busybox", "bin/sleep": "busybox", "bin/cat": "busybox",
			"bin/readlink": "busybox", "bin/hostname": "busybox", "bin/grep": "busybox"},
	}
}

// tar writes the root as a tar stream, with the directories docker run
// mounts on.
func (r *rootfs) tar(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	now := time.Now()
	for _, d := range []string{"bin/", "etc/", "proc/", "sys/", "dev/", "tmp/"} {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: 0o755, ModTime: now})
	}
	for name, data := range r.files {
		mode := int64(0o644)
		if r.exec[name] {
			mode = 0o755
		}
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: now})
		tw.Write(data)
	}
	for name, target := range r.symlinks {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777, ModTime: now})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// uniqueName returns a name for images and containers that no other test
// run uses: "envbisect-test-<what>-<random>".
func uniqueName(t *testing.T, what string) string {
	t.Helper()
	b := make([]byte, 4)
	rand.Read(b)
	return "envbisect-test-" + what + "-" + hex.EncodeToString(b)
}

// docker runs the docker CLI and returns its standard output.
func docker(t *testing.T, stdin []byte, args ...string) string {
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

// importImage makes an image of root with docker import, with PATH=/bin
// and the working directory dir, and removes it when the test ends.
func importImage(t *testing.T, root *rootfs, dir string) string {
	t.Helper()
	tag := uniqueName(t, "image") + ":latest"
	docker(t, root.tar(t), "import", "-c", "ENV PATH=/bin", "-c", "WORKDIR "+dir, "-", tag)
	t.Cleanup(func() { dockerQuiet("rmi", "-f", tag) })
	return tag
}

// startContainer runs a container of image that sleeps, without a
// network, and removes it when the test ends. It returns its name.
func startContainer(t *testing.T, image, what string) string {
	t.Helper()
	name := uniqueName(t, what)
	t.Cleanup(func() { dockerQuiet("rm", "-f", name) })
	docker(t, nil, "run", "-d", "--network", "none", "--name", name, image, "sleep", "3600")
	return name
}

// dockerQuiet runs the docker CLI for a cleanup, ignoring what it says.
func dockerQuiet(args ...string) { exec.Command("docker", args...).Run() }
