package store

import (
	"fmt"

	"github.com/dreamd/dreamd/internal/memory"
	"slices"
	"strings"
	"testing"
)

const canonical = `---
name: deploy-with-deploy-sh
description: Deploys go through ./deploy.sh, which refuses to run on a dirty git tree
type: project
created: 2026-11-02
updated: 2026-11-20
sources: [claude:2ff46cd5-f4e7-4724-bb20-579dae7956ea]
---
Deploys run through ` + "`./deploy.sh`" + `; it refuses to run unless ` + "`git status`" + ` is clean.

**Why:** the script tags the release from HEAD.
**How to apply:** commit or stash before deploying.
`

func TestParseMemory(t *testing.T) {
	tests := []struct {
		name, file string
		want       Memory // Raw and extra are not compared here
	}{
		{
			name: "canonical",
			file: canonical,
			want: Memory{
				Name: "deploy-with-deploy-sh", Type: "project", HasFrontMatter: true,
				Description: "Deploys go through ./deploy.sh, which refuses to run on a dirty git tree",
				Created:     "2026-11-02", Updated: "2026-11-20",
				Sources: []string{"claude:2ff46cd5-f4e7-4724-bb20-579dae7956ea"},
				Body:    canonical[strings.Index(canonical, "Deploys run"):],
			},
		},
		{
			name: "pinned and unknown keys",
			file: "---\npinned: true\nname: x\ncustom: [1, 2]\ntype: user\n---\nbody\n",
			want: Memory{Name: "x", Type: "user", Pinned: true, HasFrontMatter: true, Body: "body\n"},
		},
		{
			name: "hand-written without front matter",
			file: "# Notes\n\nWe deploy on Fridays.\n",
			want: Memory{Name: "x", Body: "# Notes\n\nWe deploy on Fridays.\n"},
		},
		{
			name: "broken yaml kept whole",
			file: "---\nname: [unclosed\n---\nbody\n",
			want: Memory{Name: "x", Body: "---\nname: [unclosed\n---\nbody\n"},
		},
		{
			name: "no closing line kept whole",
			file: "---\nname: x\nbody\n",
			want: Memory{Name: "x", Body: "---\nname: x\nbody\n"},
		},
		{
			name: "known key with a mapping value kept whole",
			file: "---\ntype: {a: b}\n---\nbody\n",
			want: Memory{Name: "x", Body: "---\ntype: {a: b}\n---\nbody\n"},
		},
		{
			name: "alias kept whole",
			file: "---\nname: &n x\nother: *n\n---\nbody\n",
			want: Memory{Name: "x", Body: "---\nname: &n x\nother: *n\n---\nbody\n"},
		},
		{
			name: "duplicate key kept whole",
			file: "---\ntype: user\ntype: project\n---\n",
			want: Memory{Name: "x", Type: "user", Body: "---\ntype: user\ntype: project\n---\n"}, // its first line counts
		},
		{
			name: "empty front matter",
			file: "---\n---\nbody",
			want: Memory{Name: "x", HasFrontMatter: true, Body: "body"},
		},
		{
			name: "crlf",
			file: "---\r\ntype: user\r\n---\r\nbody\r\n",
			want: Memory{Name: "x", Type: "user", HasFrontMatter: true, Body: "body\r\n"},
		},
		{
			name: "learnt, confirmed and re-taught",
			file: "---\nname: x\nlearnt: 2025-03-02\nconfirmed: 2026-11-20\nretaught: [codex:9@2026-11-18, by hand]\nretaught_count: 4\n---\nb\n",
			want: Memory{Name: "x", HasFrontMatter: true, Learnt: "2025-03-02", Confirmed: "2026-11-20", Body: "b\n",
				Retaught: []Retaught{{Session: "codex:9", Date: "2026-11-18"}, {Session: "by hand"}}, RetaughtCount: 4},
		},
		{
			name: "a count that is no count kept whole",
			file: "---\nretaught_count: many\n---\nb\n",
			want: Memory{Name: "x", Body: "---\nretaught_count: many\n---\nb\n"},
		},
		{
			name: "null values and scalar sources",
			file: "---\ndescription: ~\nsources: codex:1\n---\n",
			want: Memory{Name: "x", HasFrontMatter: true, Sources: []string{"codex:1"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "x"
			if tt.name == "canonical" {
				name = "deploy-with-deploy-sh"
			}
			m := ParseMemory(name, []byte(tt.file))
			if string(m.Raw) != tt.file {
				t.Errorf("Raw = %q, want the file as read", m.Raw)
			}
			got := *m
			got.Raw, got.extra = nil, nil
			if !sameMemoryFields(&got, &tt.want) {
				t.Errorf("ParseMemory =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

// A NUL or a terminal control byte never bricks a store: the memory loads sanitised, is marked
// Unclean, and keeps its bytes.
func TestParseMemoryWithControlBytes(t *testing.T) {
	tests := []struct{ in, desc, body string }{
		{"---\nname: a\ndescription: d\x00e\ntype: user\n---\nbo\x00dy\n", "de", "body\n"},
		{"---\nname: a\ndescription: \x1bred\x07 alert\ntype: user\n---\nb\n", "red alert", "b\n"},
		{"\x00\x01", "", ""},
	}
	for _, tt := range tests {
		m := ParseMemory("a", []byte(tt.in))
		if !m.Unclean || string(m.Raw) != tt.in || m.Description != tt.desc || m.Body != tt.body {
			t.Errorf("%q: %+v", tt.in, m)
		}
		if r := m.Render(); !sanitizedBytes(r) {
			t.Errorf("%q renders control bytes: %q", tt.in, r)
		}
	}
	if m := ParseMemory("w", []byte("windows\r\nline ends\r\n")); m.Unclean {
		t.Error("CRLF line ends marked unclean")
	}
	// Front matter dreamd cannot write back as written is kept whole, and its pin still counts.
	if m := ParseMemory("o", []byte("---\ndescription: MySQL (note: ask Priya)\ntype: project\npinned: true\n---\nx\n")); !m.Verbatim || !m.Pinned || m.HasFrontMatter ||
		m.Description != "MySQL (note: ask Priya)" || m.Type != "project" {
		t.Errorf("unwritable front matter: %+v", m)
	}
	if m := ParseMemory("o", []byte("---\ndescription: MySQL\npinned: true\n---\nx\n")); m.Verbatim || !m.Pinned {
		t.Errorf("plain front matter: %+v", m)
	}
	// A byte order mark (Windows editors write one) is not content: the front matter after it is.
	if m := ParseMemory("w", []byte("\ufeff---\nname: w\ndescription: d\ntype: user\n---\nbody\n")); !m.HasFrontMatter || m.Type != "user" || m.Body != "body\n" {
		t.Errorf("a topic file with a byte order mark: %+v", m)
	}
	if extras := IndexExtras([]byte("\ufeff- [w](w.md) — d\n")); extras != "" {
		t.Errorf("an index with a byte order mark has extras %q", extras)
	}
	// An unknown key is kept as its lines: from a Windows file, without their CRs.
	m := ParseMemory("w", []byte("---\r\nname: w\r\ncustom: [a, b]\r\n---\r\nbody\r\n"))
	if r := m.Render(); !m.HasFrontMatter || !sanitizedBytes(r) || !strings.Contains(string(r), "custom: [a, b]\n") {
		t.Errorf("a CRLF file with an unknown key renders %q", r)
	}
}

func sanitizedBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

func TestRenderRoundTrip(t *testing.T) {
	// Files already in canonical form render back to the same bytes.
	tests := []struct{ name, file string }{
		{"canonical", canonical},
		{"unknown keys kept in order", "---\nname: x\ndescription: d\ntype: user\npinned: true\ncustom: x\nnested:\n  a: 1 # why\n  b: [2, 3]\n---\nbody\n"},
		{"quoted values", "---\nname: x\ndescription: 'says: this # and that'\ntype: feedback\n---\nbody\n"},
		{"no front matter", "just text\nmore\n"},
		{"empty body", "---\nname: x\ndescription: d\ntype: reference\n---\n"},
		{"dates and re-taught", "---\nname: x\ndescription: d\ntype: feedback\ncreated: 2026-11-20\nupdated: 2026-11-25\nlearnt: 2025-03-02\nconfirmed: 2026-11-24\nsources: [claude:1, codex:2]\nretaught: [codex:2@2026-11-24]\nretaught_count: 3\n---\nbody\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ParseMemory("x", []byte(tt.file))
			if tt.name == "canonical" {
				m.Name = "deploy-with-deploy-sh"
			}
			want := tt.file
			if tt.name == "quoted values" {
				want = strings.Replace(want, `'says: this # and that'`, `"says: this # and that"`, 1)
			}
			if got := string(m.Render()); got != want {
				t.Errorf("Render =\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestRenderEdits(t *testing.T) {
	tests := []struct {
		name string
		file string
		edit func(m *Memory)
		want string
	}{
		{
			name: "unpin drops the key, others kept",
			file: "---\nname: x\npinned: yes\ncustom: x\n---\nb\n",
			edit: func(m *Memory) { m.Pinned = false },
			want: "---\nname: x\ndescription: \"\"\ntype: \"\"\ncustom: x\n---\nb\n",
		},
		{
			name: "pin a memory",
			file: "---\nname: x\ntype: user\n---\nb\n",
			edit: func(m *Memory) { m.Pinned = true },
			want: "---\nname: x\ndescription: \"\"\ntype: user\npinned: true\n---\nb\n",
		},
		{
			name: "front matter added to a hand-written file",
			file: "Remember the staging password rotates.\n\n\n",
			edit: func(m *Memory) { m.Type, m.Description = "project", "Staging password rotates" },
			want: "---\nname: x\ndescription: Staging password rotates\ntype: project\n---\nRemember the staging password rotates.\n",
		},
		{
			name: "odd values are quoted, sources listed",
			file: "---\nname: x\n---\n",
			edit: func(m *Memory) {
				m.Description = "true"
				m.Sources = []string{"claude:1", "a, b", ""}
				m.Updated = "2026-01-02"
			},
			want: "---\nname: x\ndescription: \"true\"\ntype: \"\"\nupdated: 2026-01-02\nsources: [claude:1, \"a, b\", \"\"]\n---\n",
		},
		{
			name: "re-taught recorded after the known keys, before the unknown ones",
			file: "---\nname: x\ntype: user\nlearnt: 2025-01-01\ncustom: y\n---\nb\n",
			edit: func(m *Memory) { m.AddRetaught("claude:7", "2026-02-03") },
			want: "---\nname: x\ndescription: \"\"\ntype: user\nlearnt: 2025-01-01\nretaught: [claude:7@2026-02-03]\ncustom: y\n---\nb\n",
		},
		{
			name: "multi-line description stays on one line",
			file: "---\nname: x\n---\nb",
			edit: func(m *Memory) { m.Description = "one\ntwo" },
			want: "---\nname: x\ndescription: \"one\\ntwo\"\ntype: \"\"\n---\nb\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ParseMemory("x", []byte(tt.file))
			tt.edit(m)
			got := string(m.Render())
			if got != tt.want {
				t.Errorf("Render =\n%q\nwant\n%q", got, tt.want)
			}
			again := ParseMemory("x", []byte(got))
			m.HasFrontMatter = true // it has now
			if !sameMemoryFields(again, m) {
				t.Errorf("re-parse = %#v; want the edited fields", again)
			}
		})
	}
}

func TestBrokenFrontMatterNeverLosesBytes(t *testing.T) {
	files := []string{
		"---\n: :\n---\nbody\n",
		"---\n\tname: tab\n---\n",
		"---\n- a list\n---\nbody",
		"---\nname: x\n...\ncustom: y\n---\n",
		"---\n  name: indented\n  custom: y\n---\nbody\n",
		"---\n{name: flow}\n---\n",
	}
	for _, f := range files {
		m := ParseMemory("x", []byte(f))
		if m.HasFrontMatter || m.Body != f {
			t.Errorf("%q: HasFrontMatter=%v Body=%q, want the whole file as body", f, m.HasFrontMatter, m.Body)
		}
		if got := string(m.Render()); got != f && got != f+"\n" {
			t.Errorf("%q: Render = %q", f, got)
		}
	}
}

// sameMemoryFields compares what a Memory says, bodies up to trailing newlines and Windows line
// ends (read as they are, written as LF).
func sameMemoryFields(a, b *Memory) bool {
	body := func(m *Memory) string { return strings.TrimRight(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n") }
	return a.Name == b.Name && a.Type == b.Type && a.Description == b.Description &&
		a.Created == b.Created && a.Updated == b.Updated && slices.Equal(a.Sources, b.Sources) &&
		a.Pinned == b.Pinned && a.HasFrontMatter == b.HasFrontMatter && body(a) == body(b) &&
		a.Learnt == b.Learnt && a.Confirmed == b.Confirmed && slices.Equal(a.Retaught, b.Retaught) && a.RetaughtCount == b.RetaughtCount
}

func FuzzParseMemory(f *testing.F) {
	for _, s := range []string{
		canonical,
		"---\nname: x\npinned: true\ncustom: [a, b]\n---\nbody\n",
		"plain text",
		"---\nname: [\n---\n",
		"---\r\ntype: user\r\n---\r\n",
		"---\n---\n---\na: b\n---\n",
		"---\ndescription: |\n  multi\n  line\nx: !tag y\n---\n\n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := ParseMemory("fuzz", []byte(s))
		out := m.Render()
		if !sanitizedBytes(out) {
			t.Fatalf("Render of %q writes a control byte: %q", s, out)
		}
		again := ParseMemory("fuzz", out)
		if !sameMemoryFields(m, again) || !slices.Equal(m.extra, again.extra) {
			t.Fatalf("round trip changed fields:\n in  %q\n out %q\n%#v\n%#v", s, out, m, again)
		}
	})
}

// TestPlainWithoutProbeAgreesWithYAML: every value the fast path lets through unquoted must read
// back as itself when YAML parses it, as a scalar and inside a flow list.
func TestPlainWithoutProbeAgreesWithYAML(t *testing.T) {
	values := []string{
		"deploy-with-deploy-sh", "project", "user", "feedback", "reference", "a", "x1", "e10", "inf",
		"nan", "yes", "no", "on", "off", "y", "n", "true", "false", "null", "2026-11-20", "2026-02-31",
		"0000-00-00", "9999-99-99", "1-2", "0x1f", "2026-11-2", "tilde", "null-ish", "true-story",
	}
	for _, v := range values {
		if !plainWithoutProbe(v) {
			continue
		}
		if !probePlain("k: "+v+"\n", v, false) || !probePlain("k: ["+v+"]\n", v, true) {
			t.Errorf("%q passes the fast path but does not read back as itself", v)
		}
	}
}

func FuzzPlainWithoutProbe(f *testing.F) {
	f.Add("deploy-steps")
	f.Add("2026-11-20")
	f.Fuzz(func(t *testing.T, v string) {
		if plainWithoutProbe(v) && !probePlain("k: "+v+"\n", v, false) {
			t.Fatalf("%q passes the fast path but does not read back as itself", v)
		}
	})
}

// TestClaudeCodeMetadataType: Claude Code 2.1 writes its own memories' type under `metadata:`
// (its template: name, description, then "metadata:\n  type: {{user, feedback, project,
// reference}}"). dreamd reads that as the type and writes it back there, changed or not.
func TestClaudeCodeMetadataType(t *testing.T) {
	const own = "---\nname: no-friday-deploys\ndescription: Never deploy on a Friday\nmetadata:\n  type: feedback\n  origin: session\n---\nNever deploy on a Friday.\n"
	m := ParseMemory("no-friday-deploys", []byte(own))
	if m.Type != memory.Feedback || m.Verbatim {
		t.Fatalf("type %q (verbatim %v), want feedback", m.Type, m.Verbatim)
	}
	if got := string(m.Render()); got != own {
		t.Errorf("written back as\n%s\nwant it as it was", got)
	}
	m.Type = memory.Project
	got := string(m.Render())
	if !strings.Contains(got, "metadata:\n  type: project\n  origin: session\n") || strings.Contains(got, "\ntype:") {
		t.Errorf("retyped as\n%s\nwant the type changed under metadata only", got)
	}
	if again := ParseMemory("no-friday-deploys", []byte(got)); again.Type != memory.Project {
		t.Errorf("read back as %q", again.Type)
	}
	// A type of its own wins, as before; metadata is kept as written.
	both := "---\nname: x\ndescription: d\ntype: user\nmetadata:\n  type: feedback\n---\nb\n"
	if m := ParseMemory("x", []byte(both)); m.Type != memory.User || string(m.Render()) != both {
		t.Errorf("type %q, written back as\n%s", m.Type, m.Render())
	}
}

func TestAddRetaught(t *testing.T) {
	m := &Memory{}
	for i, date := range []string{"2026-01-05", "2026-01-02", "2026-01-09", "2026-01-07", "2026-01-01", "2026-01-08"} {
		if !m.AddRetaught(fmt.Sprintf("claude:%d", i), date) {
			t.Fatalf("event %d not recorded", i)
		}
	}
	if m.AddRetaught("claude:0", "2026-01-10") {
		t.Error("a session re-taught twice counted twice")
	}
	if m.RetaughtCount != 6 || len(m.Retaught) != MaxRetaught {
		t.Errorf("count %d, list %d; want 6 and %d", m.RetaughtCount, len(m.Retaught), MaxRetaught)
	}
	if first, last := m.Retaught[0], m.Retaught[len(m.Retaught)-1]; first.Date != "2026-01-02" || last != (Retaught{Session: "claude:2", Date: "2026-01-09"}) {
		t.Errorf("kept %v; want the newest five, oldest first", m.Retaught)
	}
	again := ParseMemory("x", m.Render())
	if again.RetaughtCount != 6 || !slices.Equal(again.Retaught, m.Retaught) {
		t.Errorf("read back %d %v", again.RetaughtCount, again.Retaught)
	}
}

// A file written before these fields existed loads without them and renders back byte for byte,
// so no pass rewrites it just for that.
func TestOlderFileHasNoNewFields(t *testing.T) {
	m := ParseMemory("deploy-with-deploy-sh", []byte(canonical))
	if m.Learnt != "" || m.Confirmed != "" || m.RetaughtCount != 0 || m.Retaught != nil {
		t.Errorf("new fields read from an older file: %+v", m)
	}
	if got := string(m.Render()); got != canonical {
		t.Errorf("Render =\n%s\nwant the file as it was", got)
	}
}
