package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\nwith\ttab", "plain text\nwith\ttab"},
		{"nul\x00byte", "nulbyte"},
		{"esc \x1b[31mred\x1b[0m bell\a", "esc [31mred[0m bell"},
		{"crlf\r\nline", "crlf\nline"},
		{"progress\r50%\r100%", "progress\n50%\n100%"},
		{"del\x7f c1\u0085 ok é 日本", "del c1 ok é 日本"},
		{"bad \xff utf8", "bad  utf8"},
		{"", ""},
		{"trailing cr\r", "trailing cr\n"},
		// "ignore the rules" in tag characters, invisible on screen; a model reads them.
		{"deploy with make\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065\U000e007f", "deploy with make"},
		{"edges \U000e0000\U000e007f kept \U000dffff\U000e0080", "edges  kept \U000dffff\U000e0080"},
		{"zero\u200bwidth\u2060join\u2062", "zerowidthjoin"},
		{"emoji \u2764\ufe0f and persian \u0645\u200c\u06cc and \U0001F468\u200d\U0001F469", "emoji \u2764\ufe0f and persian \u0645\u200c\u06cc and \U0001F468\u200d\U0001F469"},
		// Bytes hidden in a run of variation selectors after one emoji: the first selects, the rest go.
		{"ok \U0001F600\ufe0f\ufe01\U000e0100\U000e01ef!", "ok \U0001F600\ufe0f!"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if Clean(tt.in) != (tt.in == tt.want) {
			t.Errorf("Clean(%q) = %v, want %v", tt.in, Clean(tt.in), tt.in == tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line(" a\n\tb \x00c\r\nd "); got != "a b c d" {
		t.Errorf("Line = %q", got)
	}
	// A right-to-left override would show "Deploy on Fridays" where the text says otherwise.
	if got := Line("Never deploy \u202eon Fridays\u202c \u2067\u05e9\u05dc\u05d5\u05dd\u2069 \u200f!"); got != "Never deploy on Fridays \u05e9\u05dc\u05d5\u05dd \u200f!" {
		t.Errorf("Line = %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"a\x00b", "\x1b[2J", "é\r\n", "\xff\xfe", "\u0085\u009f", "\ufffd\x00", "x\U000e0041y", "a\ufe00\ufe01\ufe02", "\ufe00\xff\ufe01", "\ufe00\x00\ufe01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Text(%q) = %q is not valid UTF-8", s, got)
		}
		if !Clean(got) {
			t.Fatalf("Text(%q) = %q is not clean", s, got)
		}
		if Text(got) != got {
			t.Fatalf("Text is not idempotent on %q", s)
		}
		if strings.ContainsAny(got, "\x00\x1b\a\r\U000e0041\U000e007f") {
			t.Fatalf("Text(%q) = %q keeps a control byte", s, got)
		}
	})
}
