package store

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// quickCases are front matters as dreamd, people and agents write them (want: the quick reader
// takes them), and forms it must leave to yaml.v3.
var quickCases = []struct {
	name, text string
	quick      bool
}{
	{"dreamd", "name: deploy-steps\ndescription: Deploy with deploy.sh, never by hand\ntype: project\ncreated: 2026-03-10\nupdated: 2026-09-23\nsources: [claude:3eb84e4c-aa7f-4342-2bbf-95dd249bcf8b, codex:x]\n", true},
	{"claude code own", "name: no-friday-deploys\ndescription: Never deploy on a Friday\nmetadata:\n  type: feedback\n  origin: session\n", true},
	{"metadata four spaces", "name: x\nmetadata:\n    type: user\n", true},
	{"metadata and type", "name: x\ndescription: d\ntype: user\nmetadata:\n  type: feedback\n", true},
	{"pinned and owner", "name: x\ndescription: Account tests — flush cache with make in local dev\ntype: project\nowner: bo\npinned: true\n", true},
	{"pinned quoted", "name: x\npinned: \"yes\"\n", true},
	{"pinned off", "name: x\npinned: off\n", true},
	{"quoted", "name: x\ndescription: \"Use `pnpm`: not npm\"\ntype: 'user'\n", true},
	{"empty values", "name: x\ndescription:\ntype: ~\ncreated: null\nsources: []\n", true},
	{"sources scalar", "name: x\nsources: claude:abc\n", true},
	{"sources nulls", "name: x\nsources: [~, null, \"null\"]\n", true},
	{"learnt and retaught", "name: x\nlearnt: 2026-01-02\nconfirmed: 2026-02-03\nretaught: [claude:a@2026-02-03, claude:b]\nretaught_count: 7\n", true},
	{"unicode", "name: café\ndescription: Ünïcödé — 日本語 ok\n", true},
	{"unknown list", "name: x\ntags: [a, b]\n", true},
	{"empty", "", true},
	{"spaces after colon", "name:    x\n", true},
	{"date-like string", "name: x\ncreated: 2026-02-31\n", false},
	{"count with zero", "name: x\nretaught_count: 007\n", false},
	{"negative count", "name: x\nretaught_count: -1\n", false},
	{"comment", "# a note\nname: x\n", false},
	{"trailing comment", "name: x # note\n", false},
	{"blank line", "name: x\n\ntype: user\n", false},
	{"block list", "name: x\nsources:\n  - a\n  - b\n", false},
	{"block list at column 1", "name: x\nsources:\n- a\n", false},
	{"literal", "name: x\ndescription: |\n  multi\n  line\n", false},
	{"continued plain", "name: x\ndescription: one\n  two\n", false},
	{"escape", "name: x\ndescription: \"tab\\there\"\n", false},
	{"single quote doubled", "name: x\ndescription: 'it''s'\n", false},
	{"tag", "name: x\ndescription: !!str 12\n", false},
	{"anchor and alias", "name: &a x\ndescription: *a\n", false},
	{"duplicate", "name: x\nname: y\n", false},
	{"flow mapping", "name: x\nmetadata: {type: user}\n", false},
	{"nested in known", "name:\n  first: x\n", false},
	{"deeper nesting", "name: x\nmetadata:\n  a:\n    b: c\n", false},
	{"uneven nesting", "name: x\nmetadata:\n  type: user\n   origin: s\n", false},
	{"number", "name: x\ndescription: 12\n", true},
	{"float", "name: x\ndescription: 1.5\n", false},
	{"tab", "name:\tx\n", false},
	{"no final newline", "name: x", false},
	{"document marker", "name: x\n...\n", false},
	{"quoted comma in list", "name: x\nsources: [\"a,b\"]\n", false},
	{"trailing comma", "name: x\nsources: [a, ]\n", false},
	{"key with space", "my name: x\n", false},
	{"non-string description", "name: x\ndescription: [a]\n", false},
}

// TestQuickFrontMatterAgreesWithYAML: what the quick reader takes, it reads as yaml.v3 does; the
// forms dreamd and Claude Code write are taken (so loading a store skips YAML), the others left.
func TestQuickFrontMatterAgreesWithYAML(t *testing.T) {
	for _, tc := range quickCases {
		t.Run(tc.name, func(t *testing.T) {
			quick, ok := quickFrontMatter(tc.text)
			if ok != tc.quick {
				t.Fatalf("quick reader took it: %v, want %v", ok, tc.quick)
			}
			if ok {
				agreeWithYAML(t, tc.text, quick)
			}
		})
	}
}

// TestQuickFrontMatterOfGeneratedStore: every front matter of scripts/gencorpus's generated store
// (testdata/frontmatters.txt, its files' headers) is read quickly and as yaml.v3 reads it, and so
// is its rendering.
func TestQuickFrontMatterOfGeneratedStore(t *testing.T) {
	data, err := os.ReadFile("testdata/frontmatters.txt")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(data), "---\n")
	for i, text := range blocks {
		quick, ok := quickFrontMatter(text)
		if !ok {
			t.Errorf("block %d not read quickly:\n%s", i, text)
			continue
		}
		agreeWithYAML(t, text, quick)
		m := parseText("x", "---\n"+text+"---\nbody\n")
		if m.Verbatim {
			t.Errorf("block %d read verbatim", i)
			continue
		}
		rendered := m.frontMatter()
		again, ok := quickFrontMatter(rendered)
		if !ok {
			t.Errorf("block %d's rendering not read quickly:\n%s", i, rendered)
			continue
		}
		agreeWithYAML(t, rendered, again)
	}
}

func agreeWithYAML(t *testing.T, text string, quick *frontMatter) {
	t.Helper()
	slow, err := yamlFrontMatter(text)
	if err != nil {
		t.Fatalf("quick reader took %q, yaml.v3 refuses it: %v", text, err)
	}
	if !reflect.DeepEqual(quick, slow) {
		t.Fatalf("%q:\nquick %#v\nyaml  %#v", text, quick, slow)
	}
}

func FuzzQuickFrontMatter(f *testing.F) {
	for _, tc := range quickCases {
		f.Add(tc.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(strings.ReplaceAll(text, "\r\n", "\n"), "\r\u0085\u2028\u2029") != (strings.ContainsAny(text, "\u0085\u2028\u2029") || hasLoneCR(text)) {
			t.Fatalf("hasLoneCR(%q) = %v", text, hasLoneCR(text))
		}
		if strings.ContainsAny(strings.ReplaceAll(text, "\r\n", "\n"), "\r\u0085\u2028\u2029") {
			return // parseFrontMatter refuses these before either reader
		}
		if quick, ok := quickFrontMatter(text); ok {
			agreeWithYAML(t, text, quick)
		}
	})
}

// TestQuickPlainAgreesWithYAML: a value the render writes unquoted without asking YAML reads
// back as itself; a quote written without YAML is YAML's own.
func TestQuickPlainAgreesWithYAML(t *testing.T) {
	values := []string{
		"Deploy with deploy.sh, never by hand", "Use pnpm: not npm", "C# builds", "a #b", "true", "True",
		"Null", "nothing", "yes", "no", "on", "Ünïcödé — 日本語", "claude:3eb84e4c-aa7f", "a[b]", "x?", "x:",
		"Never validate the account directly in scheduler code; go through scheduler.ValidateAccount",
		"it's \"quoted\"", "back\\slash", "", " lead", "trail ", "tab\there", "emoji 😀", "bom\ufeff", "ls\u2028",
		"nbsp\u00a0x", "c1\u0085", "e10", "0x1f", "2026-11-20",
	}
	for _, v := range values {
		checkQuickPlain(t, v)
		checkQuickQuote(t, v)
	}
}

func checkQuickPlain(t *testing.T, v string) {
	t.Helper()
	if quickPlain(v, false) && !probePlain("k: "+v+"\n", v, false) {
		t.Errorf("%q written plain does not read back as itself", v)
	}
	if quickPlain(v, true) && !probePlain("k: ["+v+"]\n", v, true) {
		t.Errorf("%q written plain in a list does not read back as itself", v)
	}
}

func checkQuickQuote(t *testing.T, v string) {
	t.Helper()
	q, ok := quickDoubleQuoted(v)
	if !ok {
		return
	}
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: yaml.DoubleQuotedStyle})
	if err != nil {
		t.Fatalf("%q: %v", v, err)
	}
	if want := strings.TrimSuffix(string(out), "\n"); q != want {
		t.Errorf("%q quoted as %s, yaml.v3 writes %s", v, q, want)
	}
}

func FuzzQuickPlain(f *testing.F) {
	f.Add("Deploy with deploy.sh")
	f.Add("a: b")
	f.Add("Ünïcödé — 日本語")
	f.Fuzz(func(t *testing.T, v string) {
		checkQuickPlain(t, v)
		checkQuickQuote(t, v)
	})
}
