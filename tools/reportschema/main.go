// Command reportschema writes the JSON Schema of locate's report,
// generated from its Go types (internal/reportschema), to
// docs/locate.schema.json, or to the file given:
//
//	go run ./tools/reportschema [FILE]
package main

import (
	"fmt"
	"os"

	"github.com/envbisect/envbisect/internal/reportschema"
)

func main() {
	path := "docs/locate.schema.json"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	b, err := reportschema.Locate()
	if err == nil {
		err = os.WriteFile(path, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "reportschema: %v\n", err)
		os.Exit(1)
	}
}
