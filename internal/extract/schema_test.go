package extract

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/memory"
)

// node is the part of JSON Schema the consolidation schema uses.
type node struct {
	Type                 string          `json:"type"`
	AdditionalProperties *bool           `json:"additionalProperties"`
	Required             []string        `json:"required"`
	Properties           map[string]node `json:"properties"`
	Items                *node           `json:"items"`
	Enum                 []string        `json:"enum"`
}

func parseSchema(t *testing.T) node {
	t.Helper()
	var root node
	if err := json.Unmarshal(Schema(), &root); err != nil {
		t.Fatalf("schema is not valid JSON: %v", err)
	}
	return root
}

// TestSchemaStrict checks what strict mode demands of every object: no additional properties and
// every property required.
func TestSchemaStrict(t *testing.T) {
	var walk func(path string, n node)
	walk = func(path string, n node) {
		if n.Type == "object" {
			if n.AdditionalProperties == nil || *n.AdditionalProperties {
				t.Errorf("%s: additionalProperties is not false", path)
			}
			var props []string
			for k := range n.Properties {
				props = append(props, k)
			}
			slices.Sort(props)
			req := slices.Sorted(slices.Values(n.Required))
			if !slices.Equal(props, req) {
				t.Errorf("%s: required %v, properties %v", path, req, props)
			}
		}
		for k, p := range n.Properties {
			walk(path+"."+k, p)
		}
		if n.Items != nil {
			walk(path+"[]", *n.Items)
		}
	}
	walk("$", parseSchema(t))
}

// TestSchemaMatchesTypes checks that the schema describes exactly the Go types ParseResponse
// decodes into, and that its enums are those Validate accepts.
func TestSchemaMatchesTypes(t *testing.T) {
	root := parseSchema(t)
	if got := jsonFields(reflect.TypeFor[Response]()); !slices.Equal(got, responseFields) {
		t.Errorf("Response fields %v, parser expects %v", got, responseFields)
	}
	if got := jsonFields(reflect.TypeFor[Operation]()); !slices.Equal(got, operationFields) {
		t.Errorf("Operation fields %v, parser expects %v", got, operationFields)
	}
	op := root.Properties["operations"].Items
	if op == nil {
		t.Fatal("operations has no items")
	}
	if !slices.Equal(op.Required, operationFields) {
		t.Errorf("schema operation fields %v, want %v", op.Required, operationFields)
	}
	wantActions := []string{"create", "update", "delete", "reinforce"}
	if got := op.Properties["action"].Enum; !slices.Equal(got, wantActions) {
		t.Errorf("action enum %v, want %v", got, wantActions)
	}
	if got := op.Properties["type"].Enum; !slices.Equal(got, append(memory.TypeNames(), "")) {
		t.Errorf("type enum %v, want %v plus \"\"", got, memory.TypeNames())
	}
	if got, want := op.Properties["scope"].Enum, []string{"project", "user", "team"}; !slices.Equal(got, want) {
		t.Errorf("scope enum %v, want %v", got, want)
	}
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		out = append(out, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	return out
}
