package extract

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const validReply = `{
  "summary": "Merged the lint memories.",
  "operations": [
    {"action": "update", "name": "run-lint", "type": "feedback", "description": "Run make lint",
     "body": "Run make lint.", "merged_from": ["lint-required"], "supersedes": [],
     "reason": "duplicates", "evidence": ["claude:1"]}
  ]
}`

func TestParseResponse(t *testing.T) {
	op := func(edit string) string {
		return strings.Replace(validReply, `"reason": "duplicates"`, edit, 1)
	}
	tests := []struct {
		name    string
		in      string
		wantErr string // "" for success
	}{
		{"valid", validReply, ""},
		{"fenced json", "```json\n" + validReply + "\n```", ""},
		{"bare fence", "```\n" + validReply + "\n```\n", ""},
		{"no operations", `{"summary": "nothing new", "operations": []}`, ""},
		{"fence of another language", "```yaml\n" + validReply + "\n```", ""},
		{"prose before a fence", "Here is the consolidation you asked for:\n\n```json\n" + validReply + "\n```\nLet me know.", ""},
		{"prose around an object", "Sure. " + validReply + " Hope this helps!", ""},
		{"an example object before the answer", `The shape is {"summary": "…"}; here it is: ` + validReply, ""},
		{"the same answer fenced and bare", "```json\n" + validReply + "\n```\nAgain: " + validReply, ""},
		{"a whole example before the answer", `Example: {"summary": "ex", "operations": []} Real: ` + validReply, "more than one answer"},
		{"two answers", validReply + "\n" + `{"summary": "other", "operations": []}`, "more than one answer"},
		{"prose with no answer", "I could not find anything {worth} keeping.", "invalid character"},
		{"empty", "", "EOF"},
		{"not json", "Sure! Here is the JSON:", "invalid character"},
		{"array", `[]`, "want"},
		{"trailing garbage", validReply + ` {"x":1}`, ""},
		{"trailing text", validReply + "\nHope this helps", ""},
		{"missing summary", `{"operations": []}`, `"summary" missing`},
		{"unknown top field", `{"summary": "", "operations": [], "extra": 1}`, `unknown field "extra"`},
		{"case-folded field", `{"Summary": "", "operations": []}`, `"summary" missing`},
		{"repeated field", `{"summary": "a", "summary": "b", "operations": []}`, "repeated"},
		{"null operations", `{"summary": "", "operations": null}`, "null"},
		{"operations not array", `{"summary": "", "operations": {}}`, "not an array"},
		{"summary wrong type", `{"summary": 3, "operations": []}`, "cannot unmarshal"},
		{"missing op field", op(`"why": "duplicates"`), `"reason" missing`},
		{"unknown op field", op(`"reason": "d", "confidence": 0.9`), `unknown field "confidence"`},
		{"op field null", op(`"reason": null`), "null"},
		{"op wrong type", op(`"reason": ["d"]`), "cannot unmarshal"},
		{"list wrong type", strings.Replace(validReply, `["claude:1"]`, `"claude:1"`, 1), "not an array"},
		{"list item wrong type", strings.Replace(validReply, `["claude:1"]`, `[1]`, 1), "cannot unmarshal"},
		{"null in list", strings.Replace(validReply, `["claude:1"]`, `[null]`, 1), "null"},
		{"op not object", `{"summary": "", "operations": [1]}`, "operation 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := ParseResponse(tt.in)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseResponse: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseResponse succeeded: %+v", resp)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestParseResponseFields(t *testing.T) {
	resp, err := ParseResponse(validReply)
	if err != nil {
		t.Fatal(err)
	}
	want := Response{
		Summary: "Merged the lint memories.",
		Operations: []Operation{{
			Action: "update", Name: "run-lint", Type: "feedback", Description: "Run make lint",
			Body: "Run make lint.", MergedFrom: []string{"lint-required"}, Supersedes: []string{},
			Reason: "duplicates", Evidence: []string{"claude:1"},
		}},
	}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("got %+v\nwant %+v", resp, want)
	}
}

func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{validReply, "```json\n{}\n```", `{"summary":"","operations":[]}`, "", "{", `{"summary":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		resp, err := ParseResponse(s)
		if err != nil {
			return
		}
		// What parses must survive a round trip unchanged.
		data, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseResponse(string(data))
		if err != nil {
			t.Fatalf("re-parse of %s: %v", data, err)
		}
		if !reflect.DeepEqual(resp, again) {
			t.Fatalf("round trip changed %+v to %+v", resp, again)
		}
	})
}

// TestParseReplyBeforeScope: a reply not held to the schema may predate the scope field; it
// parses, each operation in this store's scope.
func TestParseReplyBeforeScope(t *testing.T) {
	reply := `{"summary":"s","operations":[{"action":"create","name":"a","type":"feedback","description":"d","body":"b","merged_from":[],"supersedes":[],"reason":"r","evidence":["s1"]}]}`
	resp, err := ParseResponse(reply)
	if err != nil || len(resp.Operations) != 1 || resp.Operations[0].Scope != "" {
		t.Fatalf("ParseResponse: %+v, %v", resp, err)
	}
	if _, err := ParseResponse(strings.Replace(reply, `"evidence":["s1"]`, `"evidence":["s1"],"scope":"user","extra":1`, 1)); err == nil {
		t.Error("an unknown field was accepted")
	}
}
