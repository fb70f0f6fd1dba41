package reportschema

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/envbisect/envbisect/render"
)

// ID is the schema's $id.
const ID = "https://github.com/envbisect/envbisect/docs/locate.schema.json"

// Locate returns the JSON Schema of render.LocateReport's JSON form,
// indented, ending in a newline.
func Locate() ([]byte, error) {
	r := &jsonschema.Reflector{Mapper: textMarshalers}
	s := r.Reflect(&render.LocateReport{})
	allowNull(reflect.TypeFor[render.LocateReport](), s.Definitions, map[reflect.Type]bool{})
	s.ID = ID
	s.Title = "envbisect locate report"
	s.Description = fmt.Sprintf("The report of envbisect locate --json, schema_version %d (docs/json.md).", render.LocateSchemaVersion)
	res, ok := s.Definitions["CallResult"]
	if !ok {
		return nil, fmt.Errorf("locate schema: no CallResult definition")
	}
	// MarshalJSON: errno null on success; a missing result is
	// {"missing": true} alone.
	if p, ok := res.Properties.Get("errno"); ok {
		p.Type = ""
		p.AnyOf = []*jsonschema.Schema{{Type: "string"}, {Type: "null"}}
	}
	res.Required = nil
	if v, ok := s.Definitions["LocateReport"]; ok {
		if p, ok := v.Properties.Get("schema_version"); ok {
			p.Const = render.LocateSchemaVersion
		}
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("locate schema: %w", err)
	}
	return append(out, '\n'), nil
}

// textMarshalers maps a type that marshals as text (verdict.Verdict)
// to a string.
func textMarshalers(t reflect.Type) *jsonschema.Schema {
	if t.Kind() != reflect.String && t.Implements(reflect.TypeFor[encoding.TextMarshaler]()) {
		return &jsonschema.Schema{Type: "string"}
	}
	return nil
}

// allowNull lets every member of t (a struct) and of the structs it
// holds be null where encoding/json writes null: a pointer, slice or map
// field without omitempty that is nil.
func allowNull(t reflect.Type, defs jsonschema.Definitions, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	def := defs[t.Name()]
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		allowNull(f.Type, defs, seen)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if def == nil || name == "-" || strings.Contains(opts, "omitempty") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
		default:
			continue
		}
		if p, ok := def.Properties.Get(name); ok && p.AnyOf == nil {
			q := *p
			*p = jsonschema.Schema{AnyOf: []*jsonschema.Schema{&q, {Type: "null"}}, Description: q.Description}
			q.Description = ""
		}
	}
}

// Validator checks reports against the schema.
type Validator struct {
	s *validator.Schema
}

// NewValidator compiles schema (Locate's output).
func NewValidator(schema []byte) (*Validator, error) {
	doc, err := validator.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("read the locate schema: %w", err)
	}
	c := validator.NewCompiler()
	if err := c.AddResource(ID, doc); err != nil {
		return nil, fmt.Errorf("load the locate schema: %w", err)
	}
	s, err := c.Compile(ID)
	if err != nil {
		return nil, fmt.Errorf("compile the locate schema: %w", err)
	}
	return &Validator{s: s}, nil
}

// Validate checks one report, as locate --json printed it.
func (v *Validator) Validate(report []byte) error {
	doc, err := validator.UnmarshalJSON(bytes.NewReader(report))
	if err != nil {
		return fmt.Errorf("read the report: %w", err)
	}
	if err := v.s.Validate(doc); err != nil {
		return fmt.Errorf("the report does not follow the schema: %w", err)
	}
	return nil
}

// Validate checks one report against the schema of the Go types.
func Validate(report []byte) error {
	schema, err := Locate()
	if err != nil {
		return err
	}
	v, err := NewValidator(schema)
	if err != nil {
		return err
	}
	return v.Validate(report)
}
