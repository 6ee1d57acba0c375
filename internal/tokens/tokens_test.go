package tokens

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

func TestCount(t *testing.T) {
	tests := []struct {
		in       string
		min, max int
	}{
		{"", 0, 0},
		{"hello", 1, 1},
		{"always run make lint before committing", 5, 9},
	}
	for _, tt := range tests {
		if got := Count(tt.in); got < tt.min || got > tt.max {
			t.Errorf("Count(%q) = %d, want %d..%d", tt.in, got, tt.min, tt.max)
		}
	}
}

func BenchmarkCount(b *testing.B) {
	s := "We migrated the billing service from MySQL to Postgres yesterday; always run make lint first. "
	for b.Loop() {
		Count(s)
	}
}

// TestCountParallelMatchesWhole checks that counting a large text in chunks gives the count of
// the whole text.
func TestCountParallelMatchesWhole(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*parallelAbove; i++ {
		fmt.Fprintf(&b, "user: Remember that run %d of the nightly job writes to /var/log/app-%d.log.\n\nassistant: Noted — logs rotate at %d:00.\n", i, i, i%24)
	}
	s := b.String()
	if got, want := Count(s), count(s); got != want {
		t.Errorf("parallel count %d, whole count %d", got, want)
	}
}

func BenchmarkCountLarge(b *testing.B) {
	s := strings.Repeat("user: Always run make lint before committing; CI rejects unformatted code.\n", 4000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Count(s)
	}
}

// library is the reference implementation the counts must equal exactly. It stays a test-only
// use of the library's vocabulary, so its map literal never reaches the binary.
var library = sync.OnceValue(codec.NewO200kBase)

func libraryCount(t testing.TB, s string) int {
	t.Helper()
	n, err := library().Count(s)
	if err != nil {
		t.Fatalf("library Count(%.40q): %v", s, err)
	}
	return n
}

// differentialCorpus covers the pre-split pattern's branches and the merge's two algorithms.
var differentialCorpus = []struct{ name, text string }{
	{"ascii prose", "The quick brown fox jumps over the lazy dog. It's 5 o'clock; we'll see."},
	{"contractions", "I'M YOU'RE WE'VE SHE'LL HE'D IT'S DON'T i'm you're we've she'll he'd it's don't 'S 'sT"},
	{"contraction long s", "he'ſ ſtill here, Iſ'Ll"},
	{"code", "func (c *Codec) Count(input string) (int, error) {\n\tif x != nil && y[3] >= 0x7f {\n\t\treturn 0, fmt.Errorf(\"%w\", err)\n\t}\n}\n"},
	{"whitespace runs", "a  b   c\t\td \n\n\n  e \r\n\r\n   \t f      \n"},
	{"trailing spaces", "end with spaces    "},
	{"only whitespace", " \t\n \r\n  \u00a0\u3000\u2028\u0085 "},
	{"unicode spaces", "a\u00a0b\u2003c\u3000d\u0085e\u2029f"},
	{"numbers", "1 12 123 1234 12345 3.14159 1,000,000 ٣٤٥ ⅷ ½ 2024-11-25T10:00:00Z"},
	{"cjk", "日本語のテキストを数えます。中文也可以：你好，世界！한국어 텍스트도 있습니다."},
	{"emoji", "🙂👍🏽 family: 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 keycap 1️⃣ ❤️‍🔥"},
	{"combining marks", "e\u0301 a\u0308 n\u0303o Z\u0351\u0352a\u0353\u0354l\u0355g\u0356o ก\u0e31\u0e49 नमस्ते"},
	{"titlecase and modifiers", "ǅemal ǈubljana ʰʲ ˢmall ᵃbc ǊUNIOR ǋ"},
	{"mixed case", "camelCaseWord HTTPServer iPhone XMLHttpRequest mYsTeRy"},
	{"punctuation runs", "!!!??? ... --- /// \\\\ ::: ;;; <<>> {{}} @@## $$%% ^^&& **\n/\n"},
	{"paths and urls", "/usr/local/bin/dreamd https://example.com/a/b?c=d&e=f#g ~/.config/dreamd/config.yaml"},
	{"long word", strings.Repeat("antidisestablishmentarianism", 10)},
	{"long letters", strings.Repeat("x", 300)},
	{"long digits", strings.Repeat("9876543210", 30)},
	{"long punctuation", strings.Repeat("-=", 150)},
	{"long spaces", strings.Repeat(" ", 500) + "x"},
	{"long cjk", strings.Repeat("漢字仮名交じり文", 40)},
	{"long emoji", strings.Repeat("🙂", 100)},
	{"long base64", "aGVsbG8gd29ybGQhIFRoaXMgaXMgYSBsb25nIGJhc2U2NCBzdHJpbmcgd2l0aG91dCBhbnkgc3BhY2VzIGluIGl0IGF0IGFsbCwgc28gaXQgZm9ybXMgYSBzaW5nbGUgcGllY2U"},
	{"long hex", strings.Repeat("deadbeefcafebabe0123456789abcdef", 8)},
	{"replacement char", "a\ufffdb \ufffd\ufffd"},
	{"invalid utf8", "ok \xff\xfe bad \xc3 half \xed\xa0\x80 surrogate \xf4\x90\x80\x80 big"},
	{"invalid long", strings.Repeat("ab\x80", 60)},
	{"nul and controls", "a\x00b\x01c\x7f\x1b[31mred\x1b[0m"},
	{"delete", "\x7f \x7fa a\x7f\x7f!\x7f 1\x7f\n\x7f"},
	{"line breaks in a whitespace run", "a\n  \nb\r\n\t\r\n c \n\n \n\n  \n"},
}

func TestCountMatchesLibrary(t *testing.T) {
	for _, tt := range differentialCorpus {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := count(tt.text), libraryCount(t, tt.text); got != want {
				t.Errorf("count(%q) = %d, library %d", tt.text, got, want)
			}
		})
	}
}

// TestCountMatchesLibraryOnRepository counts the repository's own files, the kind of text the
// package sees, in both the whole and the parallel path.
func TestCountMatchesLibraryOnRepository(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../../*.md", "../*/*.go", "../../cmd/*/*.go", "../../examples/*/*/*"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, found...)
	}
	if len(paths) < 10 {
		t.Fatalf("found only %d files: %v", len(paths), paths)
	}
	var all strings.Builder
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // a directory, or a file another process just removed
		}
		all.Write(b)
		text := string(b)
		if got, want := count(text), libraryCount(t, text); got != want {
			t.Errorf("%s: count %d, library %d", path, got, want)
		}
	}
	text := all.String()
	if got, want := Count(text), libraryCount(t, text); got != want {
		t.Errorf("all %d bytes: Count %d, library %d", len(text), got, want)
	}
}

// TestCountMatchesLibraryOnRandomText compares counts on random valid UTF-8 drawn mostly from
// the character classes the pre-split pattern distinguishes.
func TestCountMatchesLibraryOnRandomText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		text := randomText(rng, rng.IntN(300))
		if got, want := count(text), libraryCount(t, text); got != want {
			t.Fatalf("case %d: count(%q) = %d, library %d", i, text, got, want)
		}
	}
}

// randomRunes are characters from each class the pre-split pattern tells apart.
var randomRunes = []rune("aAzZ \t\n\r0987'sStT.,;!?-/\\\"()[]{}_ſǅʰ\u0301\u0308\u00a0\u3000\u0085\u2028漢字かナ한🙂👍\u200d\ufe0f½٣ⅷ")

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		switch rng.IntN(10) {
		case 0: // any valid rune
			r := rune(rng.IntN(unicode.MaxRune + 1))
			if !utf8.ValidRune(r) {
				r = 'x'
			}
			b.WriteRune(r)
		case 1: // a common contraction or word
			b.WriteString([]string{"'re", "'LL", " the", "ing", "tion", "  ", "\n\n", "123"}[rng.IntN(8)])
		default:
			b.WriteRune(randomRunes[rng.IntN(len(randomRunes))])
		}
	}
	return b.String()
}

func FuzzCountMatchesLibrary(f *testing.F) {
	for _, tt := range differentialCorpus {
		f.Add(tt.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := count(text), libraryCount(t, text); got != want {
			t.Errorf("count(%q) = %d, library %d", text, got, want)
		}
	})
}

// TestVocabMatchesLibrary checks that o200k.bin.gz holds exactly the library's vocabulary,
// i.e. that it is up to date (go generate rewrites it).
func TestVocabMatchesLibrary(t *testing.T) {
	ours, err := loadVocab()
	if err != nil {
		t.Fatal(err)
	}
	byRank := make(map[int]string, len(ours))
	for token, rank := range ours {
		byRank[rank] = token
	}
	const probe = 1 << 18 // as gen_vocab.go
	theirs := 0
	for rank := range probe {
		token, err := library().Decode([]uint{uint(rank)})
		if err != nil {
			token = ""
		} else {
			theirs++
		}
		if byRank[rank] != token {
			t.Fatalf("rank %d: ours %q, library %q; run go generate", rank, byRank[rank], token)
		}
	}
	if len(ours) != theirs {
		t.Errorf("%d tokens, library %d", len(ours), theirs)
	}
}

func TestDecodeVocabRejectsCorruption(t *testing.T) {
	tests := []struct{ name, blob string }{
		{"empty", ""},
		{"token past end", "\x01\x05ab"},
		{"trailing bytes", "\x01\x01ax"},
		{"unterminated varint", "\x01\x80"},
	}
	for _, tt := range tests {
		if _, err := decodeVocab(tt.blob); !errors.Is(err, errCorruptVocab) {
			t.Errorf("%s: err = %v, want errCorruptVocab", tt.name, err)
		}
	}
}

func BenchmarkLoadVocab(b *testing.B) {
	for b.Loop() {
		if _, err := loadVocab(); err != nil {
			b.Fatal(err)
		}
	}
}

// mixedText returns about 1 MB of the repository's prose and code, with CJK and emoji.
func mixedText(b *testing.B) string {
	var parts []string
	for _, pattern := range []string{"../../*.md", "../*/*.go"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				parts = append(parts, string(data))
			}
		}
	}
	parts = append(parts, strings.Repeat("日本語のテキストと中文。🙂👍🏽 한국어. ", 200))
	var s strings.Builder
	for i := 0; s.Len() < 1<<20; i++ {
		s.WriteString(parts[i%len(parts)])
	}
	return s.String()[:1<<20]
}

// BenchmarkCountMixed compares the package's count, on one core, with the library's.
func BenchmarkCountMixed(b *testing.B) {
	s := mixedText(b)
	library()
	b.Run("tokens", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			count(s)
		}
	})
	b.Run("library", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			libraryCount(b, s)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			Count(s)
		}
	})
}

// TestReleaseThenCount: after Release the vocabulary is gone, and the next count decodes it again
// and counts the same.
func TestReleaseThenCount(t *testing.T) {
	const text = "Always run make lint before committing; CI rejects unformatted code."
	want := Count(text)
	Release()
	if vocab.Load() != nil {
		t.Fatal("Release kept the vocabulary")
	}
	if got := Count(text); got != want || vocab.Load() == nil {
		t.Errorf("after Release: Count = %d (vocabulary loaded: %v), want %d", got, vocab.Load() != nil, want)
	}
}
