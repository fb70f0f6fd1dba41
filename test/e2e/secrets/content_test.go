package secrets_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// mapWrite maps a file and writes the mapping to stdout: the bytes reach
// the write without any read of the file.
const mapWrite = `import mmap, os, sys
with open(sys.argv[1], "rb") as f:
    m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    os.write(1, m[:])
`

// TestExcludedContentNeverReachesTheTrace records four programs that pass
// a private key on, with --exclude-content '**/*.pem': cat (the write
// to stdout), cat into wc (a pipe: cat's write and wc's read), dd a byte
// at a time, and a program that maps the key and writes the mapping.
// A fifth copies the key to a file and reads the copy. Each prints the
// key (or its size), and no 16 bytes of the key are in the trace file,
// decompressed (the files it keeps included), nor in the calls' buffers
// put end to end.
func TestExcludedContentNeverReachesTheTrace(t *testing.T) {
	testutil.Require(t, testutil.Binary("dd"), testutil.Binary("wc"), testutil.Binary("python3"))
	key := pemKey(1200)
	cases := []struct{ name, command, prints string }{
		{"cat", "cat key.pem", string(key)},
		{"pipe", "cat key.pem | wc -c", fmt.Sprintln(len(key))},
		{"dd", "dd if=key.pem of=/dev/stdout bs=1 status=none", string(key)},
		{"mmap", "python3 mapwrite.py key.pem", string(key)},
		// A copy in a file the trace would keep: cp copies in the kernel
		// (copy_file_range), no buffer carries it; the copy's content is
		// recognised when record stores the file cat reads.
		{"cp", "cp key.pem copy.txt && cat copy.txt", string(key)},
	}
	var script strings.Builder
	fmt.Fprintf(&script, "cd good\ncat > key.pem <<'KEY'\n%sKEY\ncat > mapwrite.py <<'PY'\n%sPY\n", key, mapWrite)
	for _, c := range cases {
		fmt.Fprintf(&script, `"$EB" record --exclude-content '**/*.pem' --no-content-cache -o "$OUT/%[1]s.envb" -- sh -c '%[2]s' > "$OUT/%[1]s.out" 2> "$OUT/%[1]s.err"
`, c.name, c.command)
	}
	out := testutil.InWorkNS(t, script.String())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			printed, err := os.ReadFile(filepath.Join(out, c.name+".out"))
			if err != nil {
				t.Fatal(err)
			}
			if string(printed) != c.prints {
				t.Fatalf("%s printed %q, want %q (the test's premise)", c.command, printed, c.prints)
			}
			data := traceBytes(t, filepath.Join(out, c.name+".envb"))
			if w := carriesAny(data, key, 16); w != nil {
				t.Errorf("%s: the trace holds the key's bytes %q", c.command, w)
			}
			if !bytes.Contains(data, []byte("excluded: carries content of ")) && c.name != "dd" && c.name != "cp" {
				t.Errorf("%s: no buffer of the trace is marked as carrying the key", c.command)
			}
			if errText := testutil.ReadText(t, out, c.name+".err"); c.name != "cp" && !strings.Contains(errText, "buffers that carried excluded content") {
				t.Errorf("%s: record did not say it dropped buffers:\n%s", c.command, errText)
			}
		})
	}
}

// pemKey returns a PEM-looking key with n random bytes in it.
func pemKey(n int) []byte {
	r := rand.New(rand.NewPCG(19, 1))
	raw := make([]byte, n)
	for i := range raw {
		raw[i] = byte(r.Uint32())
	}
	b64 := base64.StdEncoding.EncodeToString(raw)
	var k bytes.Buffer
	k.WriteString("-----BEGIN PRIVATE KEY-----\n")
	for len(b64) > 64 {
		k.WriteString(b64[:64] + "\n")
		b64 = b64[64:]
	}
	k.WriteString(b64 + "\n-----END PRIVATE KEY-----\n")
	return k.Bytes()
}

// TestBadPatternsAreRefused: patterns that are malformed or can never
// match an absolute path are refused with exit status 2 and a message
// saying what to write, before anything runs.
func TestBadPatternsAreRefused(t *testing.T) {
	out := testutil.InWorkNS(t, `
set +e
n=0
for flag in "--exclude-content=*.pem" "--exclude-content=secret/**" "--exclude-content=/a/[b" "--exclude-env=[" "--keep-env="; do
	n=$((n+1))
	"$EB" record "$flag" -o "$OUT/bad$n.envb" -- touch "$OUT/ran$n" 2> "$OUT/bad$n.err"
	echo $? > "$OUT/bad$n.rc"
done
`)
	for i, says := range []string{"'**/*.pem'", "'/secret/**'", "not a valid glob", "bad --exclude-env pattern", "bad --keep-env name"} {
		n := fmt.Sprint(i + 1)
		if rc := strings.TrimSpace(testutil.ReadText(t, out, "bad"+n+".rc")); rc != "2" {
			t.Errorf("case %s: exit status %s, want 2", n, rc)
		}
		if msg := testutil.ReadText(t, out, "bad"+n+".err"); !strings.Contains(msg, says) {
			t.Errorf("case %s: message %q does not say %s", n, msg, says)
		}
		for _, f := range []string{"ran" + n, "bad" + n + ".envb"} {
			if _, err := os.Stat(filepath.Join(out, f)); err == nil {
				t.Errorf("case %s: %s exists: the command ran or a trace was written", n, f)
			}
		}
	}
}
