package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTrimStrings(t *testing.T) {
	long := strings.Repeat("vendor prompt text ", 60)
	tests := []struct {
		name, in  string
		limit     int
		unchanged bool
	}{
		{"short strings and every other byte stay", `{"b":"x" , "a":[1, "two"],"c":"say \"hi\""}` + "\n", 400, true},
		{"a long string holding the person's words stays", `{"text":"` + long + messages["lesson"] + `"}`, 400, true},
		{"a long vendor string is cut", `{"z":1,"text":"<tag>` + long + `</tag>","a":2}`, 400, false},
		{"an unterminated string is kept", `{"text":"` + long, 400, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := trimStrings(tt.in, tt.limit)
			if tt.unchanged {
				if got != tt.in {
					t.Errorf("changed:\n%s\nwant\n%s", got, tt.in)
				}
				return
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(got), &v); err != nil {
				t.Fatalf("not JSON any more: %v\n%s", err, got)
			}
			text := v["text"].(string)
			if len(got) >= len(tt.in) || !strings.HasPrefix(text, "<tag>") || !strings.HasSuffix(text, "</tag>") ||
				!strings.Contains(text, "trimmed by scripts/agents") {
				t.Errorf("not cut to its head and tail: %q", text)
			}
			if !strings.HasPrefix(got, `{"z":1,"text":`) || !strings.HasSuffix(got, `,"a":2}`) {
				t.Errorf("the bytes around the string changed: %s", got)
			}
		})
	}
}

func TestRewriter(t *testing.T) {
	home := "/tmp/dreamd-agents.AbC123/gemini/home"
	r := newRewriter(home)
	in := `{"cwd":"` + home + `/src/shop","projectHash":"` + sha256Hex(home+"/src/shop") + `","tmp":"/tmp/dreamd-agents.AbC123/gemini/tmp/x","folder":"-tmp-dreamd-agents-AbC123-gemini-home-src-shop"}`
	want := `{"cwd":"/home/user/src/shop","projectHash":"` + sha256Hex("/home/user/src/shop") + `","tmp":"/tmp/agent/x","folder":"-home-user-src-shop"}`
	if got := string(r.file("x.jsonl", []byte(in))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A long string cut after the paths are replaced keeps no part of the machine's path.
	long := `{"text":"` + strings.Repeat("x", 500) + home + `/src/shop/` + strings.Repeat("y", 50) + `"}`
	if got := string(r.file("x.jsonl", []byte(long))); strings.Contains(got, "AbC123") {
		t.Errorf("a part of the machine's path is left: %s", got)
	}
	if got, want := r.path(".claude/projects/-tmp-dreamd-agents-AbC123-gemini-home-src-shop/a.jsonl"), ".claude/projects/-home-user-src-shop/a.jsonl"; got != want {
		t.Errorf("path %s, want %s", got, want)
	}
}
