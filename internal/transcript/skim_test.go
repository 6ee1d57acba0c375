package transcript

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

func TestEachMember(t *testing.T) {
	tests := []struct {
		in    string
		pairs []string // key=value
		ok    bool
	}{
		{`{}`, nil, true},
		{` { "a" : 1 , "b":"x\"}" ,"c":{"d":[1,{"e":"]"}]},"f":null} `, []string{`a=1`, `b="x\"}"`, `c={"d":[1,{"e":"]"}]}`, `f=null`}, true},
		{`{"a":"\\"}`, []string{`a="\\"`}, true},
		{`{"a":"\\\"}"}`, []string{`a="\\\"}"`}, true},
		{`{"a":1,"b":"cut`, []string{`a=1`}, false},
		{`{"a":1 "b":2}`, []string{`a=1`}, false},
		{`{"a":}`, nil, false},
		{`{a:1}`, nil, false},
		{`[1]`, nil, false},
		{``, nil, false},
	}
	for _, tt := range tests {
		var pairs []string
		ok := eachMember(tt.in, func(k, v string) bool {
			pairs = append(pairs, k+"="+v)
			return true
		})
		if ok != tt.ok || !slices.Equal(pairs, tt.pairs) {
			t.Errorf("eachMember(%s) = %q, %v; want %q, %v", tt.in, pairs, ok, tt.pairs, tt.ok)
		}
	}
	if got := member(`{"type":"a","type":"b","big":"`+strings.Repeat("x", 1000)+`"}`, "type"); got != `"a"` {
		t.Errorf("member = %s, want the first", got)
	}
}

func TestEachElement(t *testing.T) {
	var got []string
	ok := eachElement(`[ "a,]" , {"b":[]} ,3,true ]`, func(v string) bool {
		got = append(got, v)
		return true
	})
	if want := []string{`"a,]"`, `{"b":[]}`, `3`, `true`}; !ok || !slices.Equal(got, want) {
		t.Errorf("eachElement = %q, %v; want %q", got, ok, want)
	}
	if eachElement(`[1,`, func(string) bool { return true }) {
		t.Error("eachElement accepted a cut array")
	}
}

func TestJSONPrefix(t *testing.T) {
	tests := []struct {
		raw  string
		n    int
		want string
	}{
		{`"short"`, 10, "short"},
		{`"abcdefghij"`, 4, "abcd"},
		{`"ab\ncdef"`, 4, "ab"},            // an escape near the cut is left out whole
		{`"abc\ndef"`, 4, "abc"},           // does not split \n
		{`"a\\\\bcdef"`, 4, `a\`},          // keeps an escaped backslash whole
		{`"ab\u00e9cdef"`, 6, "ab"},        // does not split \u00e9
		{`"ab\u00e9cdef"`, 10, "abécd"},    //
		{`123`, 1, ""},                     // not a string
		{`"abc"`, 0, ""},                   //
		{`"\"\"\"\"\""`, 3, `"`},           //
		{`"ab"`, -1, ""},                   //
		{`"ok \ud83d\ude00 ok"`, 9, "ok "}, //
	}
	for _, tt := range tests {
		if got := jsonPrefix(tt.raw, tt.n); got != tt.want {
			t.Errorf("jsonPrefix(%s, %d) = %q, want %q", tt.raw, tt.n, got, tt.want)
		}
	}
}

// FuzzSkim checks the skimmer against gjson: on valid JSON they agree member for member, on
// anything else the skimmer neither panics nor loops.
func FuzzSkim(f *testing.F) {
	f.Add(`{"type":"user","message":{"content":[{"type":"text","text":"hi \"there\""}]},"n":-1.5e3,"ok":true}`, 5)
	f.Add(`{"a":"\\","b":[{},[],""]}`, 2)
	f.Add(`"abc\u00e9\\\"d"`, 4)
	f.Add(`{"unterminated`, 3)
	f.Fuzz(func(t *testing.T, in string, n int) {
		var keys, values []string
		ok := eachMember(in, func(k, v string) bool {
			keys, values = append(keys, k), append(values, v)
			return true
		})
		eachElement(in, func(string) bool { return true })
		r := gjson.Parse(in)
		if gjson.Valid(in) && r.IsObject() {
			if !ok {
				t.Fatalf("eachMember rejected valid %q", in)
			}
			i := 0
			r.ForEach(func(k, v gjson.Result) bool {
				if i >= len(keys) || keys[i] != k.Raw[1:len(k.Raw)-1] || values[i] != v.Raw {
					t.Fatalf("member %d of %q: skim %q, gjson %s=%s", i, in, keys, k.Raw, v.Raw)
				}
				i++
				return true
			})
			if i != len(keys) {
				t.Fatalf("skim found %d members of %q, gjson %d", len(keys), in, i)
			}
		}
		if gjson.Valid(in) && r.Type == gjson.String {
			got := jsonPrefix(strings.TrimSpace(in), n%64)
			if _, size := utf8.DecodeLastRuneInString(got); !strings.HasPrefix(r.Str, got[:len(got)-size]) {
				t.Fatalf("jsonPrefix(%q, %d) = %q, not a prefix of %q", in, n%64, got, r.Str)
			}
		}
	})
}
