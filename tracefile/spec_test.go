package tracefile

import (
	"bufio"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

const specPath = "../docs/trace-format.md"

// The specification lists every CBOR key of every type the format stores,
// and no other: spec and code stay in step.
func TestSpecListsEveryKey(t *testing.T) {
	types := map[string]reflect.Type{
		"Header":     reflect.TypeFor[trace.Header](),
		"StartEvent": reflect.TypeFor[trace.StartEvent](),
		"Event":      reflect.TypeFor[trace.Event](),
		"Call":       reflect.TypeFor[trace.Call](),
		"Mem":        reflect.TypeFor[trace.Mem](),
		"ProcEvent":  reflect.TypeFor[trace.ProcEvent](),
		"End":        reflect.TypeFor[trace.End](),
		"Losses":     reflect.TypeFor[trace.Losses](),
		"FileObject": reflect.TypeFor[trace.FileObject](),
		"DirStat":    reflect.TypeFor[trace.DirStat](),
		"Package":    reflect.TypeFor[trace.Package](),
	}
	spec := specKeys(t)
	for name, typ := range types {
		code := map[int]string{}
		for i := range typ.NumField() {
			f := typ.Field(i)
			tag := strings.Split(f.Tag.Get("cbor"), ",")
			key, err := strconv.Atoi(tag[0])
			if err != nil || !strings.Contains(f.Tag.Get("cbor"), "keyasint") {
				t.Errorf("trace.%s.%s: cbor tag %q is not an integer key", name, f.Name, f.Tag.Get("cbor"))
				continue
			}
			code[key] = f.Name
		}
		if !reflect.DeepEqual(spec[name], code) {
			t.Errorf("keys of trace.%s: %s lists %v, the code has %v", name, specPath, spec[name], code)
		}
	}
	for name := range spec {
		if types[name] == nil {
			t.Errorf("%s lists keys of trace.%s, which this test does not know", specPath, name)
		}
	}
}

// specKeys reads the key tables of the specification: a line "Keys of
// `trace.T`:" followed by a table whose rows start "| key | field |".
func specKeys(t *testing.T) map[string]map[int]string {
	f, err := os.Open(specPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	heading := regexp.MustCompile("^Keys of `trace\\.(\\w+)`")
	row := regexp.MustCompile(`^\| (\d+) \| (\w+) \|`)
	keys := map[string]map[int]string{}
	var cur map[int]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil {
			cur = map[int]string{}
			keys[m[1]] = cur
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && cur != nil {
			k, _ := strconv.Atoi(m[1])
			cur[k] = m[2]
			continue
		}
		if line == "" || strings.HasPrefix(line, "|") {
			continue
		}
		cur = nil
	}
	return keys
}
