package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Field names of the response, as the schema requires them. A field the schema grew later may be
// missing from a reply that was not held to the schema (json_object or text mode): its zero value
// means what the reply meant before the field existed.
var (
	responseFields  = []string{"summary", "operations"}
	operationFields = []string{"action", "name", "type", "description", "body", "merged_from", "supersedes", "reason", "evidence", "scope"}
	laterFields     = []string{"scope"}
)

// ParseResponse finds the answer in the model's reply: the reply itself, else a fenced block in
// it, else the first JSON object in it that has the Response shape — models that ignore
// response_format put prose before and after, or fence the JSON. The object is decoded strictly:
// every field present, no unknown or repeated field, no null. When nothing in the reply has the
// shape, the error is the one about the reply as a whole; when two different objects have it (an
// example, then the answer), the reply is refused rather than guessed at: applying the wrong one
// would move the cursors past lessons it lacks.
func ParseResponse(content string) (Response, error) {
	resp, err := parseStrict(unfence(content))
	if err == nil {
		return resp, nil
	}
	var found *Response
	for _, c := range candidates(content) {
		r, e := parseStrict(c)
		switch {
		case e != nil:
		case found == nil:
			found = &r
		case !reflect.DeepEqual(r, *found):
			return Response{}, errors.New("the reply holds more than one answer of the contract's shape (an example and the answer?): not guessing which is meant")
		}
	}
	if found != nil {
		return *found, nil
	}
	return Response{}, err
}

// maxCandidates bounds the objects tried in a reply that is mostly prose.
const maxCandidates = 32

// candidates are the pieces of a reply that may hold the answer: the inside of every fenced block,
// then every JSON value that starts with "{", in order.
func candidates(content string) []string {
	var out []string
	rest := content
	for len(out) < maxCandidates {
		i := strings.Index(rest, "```")
		if i < 0 {
			break
		}
		block := rest[i+3:]
		j := strings.Index(block, "```")
		if j < 0 {
			break
		}
		inner := block[:j]
		if nl := strings.IndexByte(inner, '\n'); nl >= 0 && !strings.ContainsAny(inner[:nl], "{[") {
			inner = inner[nl+1:] // the fence's language tag
		}
		out = append(out, strings.TrimSpace(inner))
		rest = block[j+3:]
	}
	for i, tries := 0, 0; len(out) < maxCandidates && tries < 8*maxCandidates; i, tries = i+1, tries+1 {
		k := strings.IndexByte(content[i:], '{')
		if k < 0 {
			break
		}
		i += k
		var raw json.RawMessage
		if err := json.NewDecoder(strings.NewReader(content[i:])).Decode(&raw); err == nil {
			out = append(out, string(raw))
		}
	}
	return out
}

// parseStrict decodes one JSON object of the Response shape and nothing else.
func parseStrict(text string) (Response, error) {
	body := []byte(text)
	var resp Response
	top, err := fields(body, responseFields)
	if err != nil {
		return resp, fmt.Errorf("response: %w", err)
	}
	ops, err := operations(top["operations"])
	if err != nil {
		return resp, fmt.Errorf("response: operations: %w", err)
	}
	for i, raw := range ops {
		if err := checkOperation(raw); err != nil {
			return resp, fmt.Errorf("response: operation %d: %w", i+1, err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&resp); err != nil {
		return Response{}, fmt.Errorf("response: %w", err)
	}
	return resp, nil
}

// unfence strips surrounding space and one Markdown code fence (``` or ```json).
func unfence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	inner := strings.TrimSuffix(s[3:], "```")
	nl := strings.IndexByte(inner, '\n')
	if nl < 0 {
		return s
	}
	if lang := strings.TrimSpace(inner[:nl]); lang != "" && !strings.EqualFold(lang, "json") {
		return s
	}
	return strings.TrimSpace(inner[nl+1:])
}

// fields reads one JSON object and checks that its keys are exactly want, each once and none
// null. Anything after the object is an error.
func fields(data []byte, want []string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	got := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		if _, dup := got[key]; dup {
			return nil, fmt.Errorf("field %q repeated", key)
		}
		if string(val) == "null" {
			return nil, fmt.Errorf("field %q is null", key)
		}
		got[key] = val
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	if err := expectEOF(dec); err != nil {
		return nil, err
	}
	for _, k := range want {
		if _, ok := got[k]; !ok && !contains(laterFields, k) {
			return nil, fmt.Errorf("field %q missing", k)
		}
	}
	for k := range got {
		if !contains(want, k) {
			return nil, fmt.Errorf("unknown field %q", k)
		}
	}
	return got, nil
}

// checkOperation checks one operation's fields and that its lists hold no null, which
// encoding/json would quietly turn into "".
func checkOperation(raw json.RawMessage) error {
	op, err := fields(raw, operationFields)
	if err != nil {
		return err
	}
	for _, k := range []string{"merged_from", "supersedes", "evidence"} {
		var items []json.RawMessage
		if err := json.Unmarshal(op[k], &items); err != nil {
			return fmt.Errorf("field %q is not an array", k)
		}
		for _, it := range items {
			if string(it) == "null" {
				return fmt.Errorf("field %q holds null", k)
			}
		}
	}
	return nil
}

// operations splits the operations array into its raw elements.
func operations(data json.RawMessage) ([]json.RawMessage, error) {
	var ops []json.RawMessage
	if err := json.Unmarshal(data, &ops); err != nil {
		return nil, errors.New("not an array")
	}
	return ops, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, tok)
	}
	return nil
}

func expectEOF(dec *json.Decoder) error {
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the object")
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
