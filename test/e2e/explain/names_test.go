package explain_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The report names what differs as a person names it (issue 28, deliver
// 3): a directory's entries, the program a PATH hides, a missing file
// the good run opened; never the bytes of a listing.

// namesReport is what these tests read of a JSON report: the culprit
// (call-level, or the object search's cause described at its call) and
// the object search's causes.
type namesReport struct {
	Status    string `json:"status"`
	Message   string `json:"message"`
	Mechanism string `json:"mechanism"`
	Culprit   *struct {
		Syscall     string `json:"syscall"`
		Path        string `json:"path"`
		Explanation string `json:"explanation"`
		DataDiff    *struct {
			Entries *struct {
				OnlyHere []string `json:"only_here"`
				OnlyGood []string `json:"only_good"`
			} `json:"entries"`
		} `json:"data_diff"`
		Start *struct {
			Name string `json:"name"`
		} `json:"start"`
		Facts *struct {
			Missing *struct {
				Path          string `json:"path"`
				ExistedInGood bool   `json:"existed_in_good"`
			} `json:"missing"`
			Programs []struct {
				Name string `json:"name"`
				Good string `json:"good"`
				Here string `json:"here"`
			} `json:"programs"`
		} `json:"facts"`
	} `json:"culprit"`
	Objects *struct {
		Causes []struct {
			Says     string `json:"says"`
			Observed *struct {
				Explanation string `json:"explanation"`
			} `json:"observed"`
		} `json:"causes"`
	} `json:"objects"`
}

// locateNamed is a shell function for the scripts below: locate_as NAME
// ARGS... runs locate in app with ARGS and leaves its JSON report in
// $OUT/NAME.json, its text report in $OUT/NAME.txt, its Markdown in
// $OUT/NAME.md (a second run with --format markdown) and its exit status
// in $OUT/NAME.code.
const locateNamed = `
locate_as() {
	name=$1; shift; code=0
	(cd app && "$EB" locate -q --report "$OUT/$name.json" "$@" > "$OUT/$name.txt") || code=$?
	echo $code > "$OUT/$name.code"
}
`

// readNamed reads the report name of out, which must have located its
// cause (exit status 0); text is its text report, words joined by one
// space.
func readNamed(t *testing.T, out, name string) (r namesReport, text string) {
	t.Helper()
	if code := strings.TrimSpace(testutil.ReadText(t, out, name+".code")); code != "0" {
		t.Errorf("%s: locate exited %s; want 0 (located)", name, code)
	}
	testutil.ReadJSON(t, out+"/"+name+".json", &r)
	text = testutil.ReadText(t, out, name+".txt")
	t.Logf("%s report:\n%s", name, text)
	if r.Status != "located" || r.Culprit == nil {
		t.Fatalf("%s: status %q (%s), culprit %v; want located", name, r.Status, r.Message, r.Culprit)
	}
	return r, strings.Join(strings.Fields(text), " ")
}

// TestNamesDropInEntries: a script reads every *.conf of its drop-in
// directory and fails on one it does not know; here the directory has an
// extra file, 50-corp.conf. Both searches name the file by its entry:
// the object search's cause is described at the listing with the entry
// added, and the call-level search's culprit, the listing itself, says
// its entries differ by that name, with no bytes of the listing in the
// text report (-v keeps them).
func TestNamesDropInEntries(t *testing.T) {
	testutil.Require(t, testutil.Binary("grep"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+locateNamed+`
for d in good bad; do
	printf '#!/bin/sh\nfor f in conf.d/*.conf; do grep -q "^ok" "$f" || { echo "unknown $f" >&2; exit 1; }; done\n' > $d/run.sh
	chmod 755 $d/run.sh
	mkdir $d/conf.d; echo ok > $d/conf.d/10-base.conf
done
echo corp=1 > bad/conf.d/50-corp.conf
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- ./run.sh)
umount app; mount --bind bad app
locate_as objects ../t.envb -- ./run.sh
locate_as calls --materialize=false ../t.envb -- ./run.sh
locate_as callsv --materialize=false -v ../t.envb -- ./run.sh
`)
	const entry = "50-corp.conf"
	const said = "has an entry here that it did not have in the good run: " + entry + "."

	obj, objText := readNamed(t, out, "objects")
	if obj.Mechanism != "materialized" || obj.Objects == nil || len(obj.Objects.Causes) != 1 {
		t.Fatalf("objects: mechanism %q, causes %+v; want the object search's one cause", obj.Mechanism, obj.Objects)
	}
	if c := obj.Objects.Causes[0]; !strings.HasSuffix(c.Says, entry+" exists only here") || c.Observed == nil ||
		!strings.HasSuffix(c.Observed.Explanation, said) {
		t.Errorf("object cause says %q, observed %+v; want the file %s and the entry added", c.Says, c.Observed, entry)
	}
	if strings.Contains(objText, "SHA-256") || strings.Contains(objText, `\x00`) {
		t.Errorf("objects: the text report shows the listing's bytes")
	}

	calls, callsText := readNamed(t, out, "calls")
	c := calls.Culprit
	if !strings.HasPrefix(c.Syscall, "getdents") || !strings.HasSuffix(c.Path, "/conf.d") {
		t.Errorf("call-level culprit %s %s; want the listing of conf.d", c.Syscall, c.Path)
	}
	if c.DataDiff == nil || c.DataDiff.Entries == nil || strings.Join(c.DataDiff.Entries.OnlyHere, ",") != entry ||
		len(c.DataDiff.Entries.OnlyGood) != 0 {
		t.Errorf("call-level data diff %+v; want the entries, %s only here", c.DataDiff, entry)
	}
	if !strings.HasSuffix(c.Explanation, said) {
		t.Errorf("call-level explanation %q; want it to end %q", c.Explanation, said)
	}
	for _, want := range []string{"(entries differ: " + entry + " only here)", "entries differ: " + entry + " only here", said} {
		if !strings.Contains(callsText, want) {
			t.Errorf("call-level text lacks %q", want)
		}
	}
	if strings.Contains(callsText, "SHA-256") || strings.Contains(callsText, `\x00`) {
		t.Errorf("call-level: the text report shows the listing's bytes")
	}
	if v := testutil.ReadText(t, out, "callsv.txt"); !strings.Contains(v, `good: "\x`) {
		t.Errorf("call-level -v: the text report lacks the listing's bytes:\n%s", v)
	}
}

// TestNamesPathProgram: a script runs mytool, which the good run found
// along PATH in the application's bin directory; here PATH lacks that
// directory and the shell finds mytool nowhere (exit status 127). The
// cause is env PATH, and its explanation names the program: where the
// good run found it, and that here it is found nowhere.
func TestNamesPathProgram(t *testing.T) {
	out := testutil.InWorkNS(t, testutil.AppPrelude+locateNamed+`
for d in good bad; do
	mkdir $d/bin
	printf '#!/bin/sh\necho tool ran\n' > $d/bin/mytool; chmod 755 $d/bin/mytool
	printf '#!/bin/sh\nmytool\n' > $d/run.sh; chmod 755 $d/run.sh
done
mount --bind good app
(cd app && PATH="$W/app/bin:/usr/bin:/bin" "$EB" record -q -o ../t.envb -- ./run.sh)
umount app; mount --bind bad app
PATH=/usr/bin:/bin locate_as path ../t.envb -- ./run.sh
`)
	w := testutil.ReadText(t, out, "w")
	r, text := readNamed(t, out, "path")
	c := r.Culprit
	if c.Start == nil || c.Start.Name != "PATH" {
		t.Fatalf("culprit %+v; want the start item env PATH", c)
	}
	tool := w + "/app/bin/mytool"
	if c.Facts == nil || len(c.Facts.Programs) != 1 || c.Facts.Programs[0].Name != "mytool" || c.Facts.Programs[0].Good != tool ||
		c.Facts.Programs[0].Here != "" {
		t.Errorf("facts %+v; want mytool, found at %s in the good run and nowhere here", c.Facts, tool)
	}
	want := "The command looked up mytool along PATH: the good run found " + tool + "; here it is found nowhere on PATH."
	if !strings.HasSuffix(c.Explanation, want) {
		t.Errorf("explanation %q; want it to end %q", c.Explanation, want)
	}
	if !strings.Contains(text, want) {
		t.Errorf("the text report lacks %q", want)
	}
}

// TestNamesMissingFileExisted: cat reads conf/app.conf, which the good
// run opened and which is missing here (its directory is there). The
// missing component is the file itself, and it existed in the good run:
// the JSON facts say so, and the explanation says so.
func TestNamesMissingFileExisted(t *testing.T) {
	testutil.Require(t, testutil.Binary("cat"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+locateNamed+`
mkdir good/conf bad/conf
echo mode=fast > good/conf/app.conf
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- cat conf/app.conf)
umount app; mount --bind bad app
locate_as missing --materialize=false ../t.envb -- cat conf/app.conf
`)
	w := testutil.ReadText(t, out, "w")
	r, _ := readNamed(t, out, "missing")
	c := r.Culprit
	file := w + "/app/conf/app.conf"
	if c.Facts == nil || c.Facts.Missing == nil || c.Facts.Missing.Path != file || !c.Facts.Missing.ExistedInGood {
		t.Errorf("facts %+v; want %s missing here, existed in the good run", c.Facts, file)
	}
	if !strings.HasPrefix(c.Explanation, file+" does not exist here") || !strings.HasSuffix(c.Explanation, "; in the good run it existed.") {
		t.Errorf("explanation %q; want %s missing here, existed in the good run", c.Explanation, file)
	}
}
