package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONContract(t *testing.T) {
	type inner struct {
		Tags []string `json:"tags"`
	}
	type doc struct {
		Names   []string          `json:"names"`
		Inner   *inner            `json:"inner"`
		ByName  map[string]inner  `json:"by_name"`
		Any     any               `json:"any"`
		Raw     json.RawMessage   `json:"raw,omitempty"`
		Skipped []string          `json:"skipped,omitempty"`
		Empty   map[string]string `json:"empty"`
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"nil lists become []", doc{Inner: &inner{}, ByName: map[string]inner{"a": {}}, Any: inner{}},
			`{"version":1,"names":[],"inner":{"tags":[]},"by_name":{"a":{"tags":[]}},"any":{"tags":[]},"empty":{}}`},
		{"a version of its own is kept", map[string]any{"version": "v1.2.3"}, `{"version":"v1.2.3"}`},
		{"an empty object gets the version", struct{}{}, `{"version":1}`},
		{"values are not touched", doc{Names: []string{"x"}, Raw: json.RawMessage(`{"k":1}`)},
			`{"version":1,"names":["x"],"inner":null,"by_name":{},"any":null,"raw":{"k":1},"empty":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := JSON(&buf, tt.in); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Compact(&got, buf.Bytes()); err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Errorf("got  %s\nwant %s", got.String(), tt.want)
			}
		})
	}
	if err := JSON(&bytes.Buffer{}, []string{"a"}); err == nil {
		t.Error("a document that is not an object must be refused")
	}
}

// TestJSONLeavesItsValueAlone: writing a value fills the nil lists of a copy, never of the value:
// printing a plan must not change the plan (its sessions, evidence and slices stay nil).
func TestJSONLeavesItsValueAlone(t *testing.T) {
	type inner struct{ Evidence []string }
	type plan struct {
		Ops  []inner
		Next *inner
		Tags map[string][]string
	}
	p := &plan{Ops: []inner{{}}, Next: &inner{}, Tags: map[string][]string{"a": nil}}
	var out strings.Builder
	if err := JSON(&out, map[string]any{"plan": p}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "null") {
		t.Errorf("a null in the output:\n%s", out.String())
	}
	if p.Ops[0].Evidence != nil || p.Next.Evidence != nil || p.Tags["a"] != nil {
		t.Errorf("writing the value changed it: %+v %+v %+v", p.Ops[0], *p.Next, p.Tags)
	}
}
