package reldate

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func date(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t.Add(15 * time.Hour)
}

func TestRewrite(t *testing.T) {
	const wed = "2026-11-18" // a Wednesday
	tests := []struct {
		ref, in, want string
	}{
		// bare adverbs gain "on"; a sentence-initial one keeps its capital
		{wed, "we migrated to Postgres yesterday", "we migrated to Postgres on 2026-11-17"},
		{wed, "Yesterday we migrated to Postgres.", "On 2026-11-17 we migrated to Postgres."},
		{wed, "we fixed it today", "we fixed it on 2026-11-18"},
		{wed, "I noticed this morning that CI is slow", "I noticed on 2026-11-18 that CI is slow"},
		{wed, "deploy tonight", "deploy on 2026-11-18"},
		{wed, "this afternoon we rotated the keys", "on 2026-11-18 we rotated the keys"},
		{wed, "as I said earlier today, use pnpm", "as I said on 2026-11-18, use pnpm"},
		{wed, "the freeze starts tomorrow", "the freeze starts on 2026-11-19"},
		{wed, "we shipped it yesterday afternoon", "we shipped it on 2026-11-17"},
		{wed, "the outage was last night", "the outage was on 2026-11-17"},
		{wed, "the day before yesterday we moved the docs", "on 2026-11-16 we moved the docs"},
		{wed, "release the day after tomorrow", "release on 2026-11-20"},
		// weekdays
		{wed, "we decided last Thursday", "we decided on 2026-11-12"},
		{wed, "we decided last Wednesday", "we decided on 2026-11-11"},
		{wed, "we migrated on Monday", "we migrated on 2026-11-16"},
		{wed, "On Monday we migrated", "On 2026-11-16 we migrated"},
		{wed, "we will migrate on Monday", "we will migrate on 2026-11-23"},
		{wed, "the release is on Friday", "the release is on 2026-11-20"},
		{wed, "we need to ship on Friday", "we need to ship on 2026-11-20"},
		{wed, "we shipped on Friday", "we shipped on 2026-11-13"},
		{wed, "the deploy broke on Tuesday", "the deploy broke on 2026-11-17"},
		{wed, "the release is next Monday", "the release is on 2026-11-23"},
		{wed, "we'll cut the branch next Wednesday", "we'll cut the branch on 2026-11-25"},
		// counts ago
		{wed, "we dropped Jenkins two weeks ago", "we dropped Jenkins on 2026-11-04"},
		{wed, "3 days ago the tests broke", "on 2026-11-15 the tests broke"},
		{wed, "a week ago", "on 2026-11-11"},
		{wed, "a day ago", "on 2026-11-17"},
		{wed, "a couple of days ago", "on 2026-11-16"},
		{wed, "we moved off Heroku a month ago", "we moved off Heroku in 2026-10"},
		{wed, "six months ago", "in 2026-05"},
		{wed, "two years ago we used Perl", "in 2024 we used Perl"},
		// weeks, months, years
		{wed, "we switched last week", "we switched in the week of 2026-11-09"},
		{wed, "we switched last month", "we switched in 2026-10"},
		{wed, "Last month we switched", "In 2026-10 we switched"},
		{wed, "the audit happens this week", "the audit happens in the week of 2026-11-16"},
		{wed, "earlier this week we split the repo", "in the week of 2026-11-16 we split the repo"},
		{wed, "next week we freeze", "in the week of 2026-11-23 we freeze"},
		{wed, "we hired two people this year", "we hired two people in 2026"},
		{wed, "last year", "in 2025"},
		{wed, "next month", "in 2026-12"},
		// a preposition already there; the date as a subject or possessive
		{wed, "we use MySQL until tomorrow", "we use MySQL until 2026-11-19"},
		{wed, "since yesterday the build is red", "since 2026-11-17 the build is red"},
		{wed, "as of today we use Go 1.26", "as of 2026-11-18 we use Go 1.26"},
		{wed, "starting next Monday, use pnpm", "starting 2026-11-23, use pnpm"},
		{wed, "from last week on", "from the week of 2026-11-09 on"},
		{wed, "Today is the cut-off", "2026-11-18 is the cut-off"},
		{wed, "yesterday's outage was DNS", "2026-11-17's outage was DNS"},
		{wed, "last week's numbers", "the week of 2026-11-09's numbers"},
		{wed, "YESTERDAY we migrated", "On 2026-11-17 we migrated"},
		// several in one text
		{wed, "We deployed yesterday and will release tomorrow.", "We deployed on 2026-11-17 and will release on 2026-11-19."},
		// across month and year boundaries
		{"2026-12-01", "yesterday", "on 2026-11-30"},
		{"2027-01-01", "we migrated yesterday", "we migrated on 2026-12-31"},
		{"2026-12-31", "tomorrow", "on 2027-01-01"},
		{"2027-01-15", "last month", "in 2026-12"},
		{"2027-01-01", "last week", "in the week of 2026-12-21"},
		{"2026-03-31", "a month ago", "in 2026-02"},
		{"2026-03-31", "next month", "in 2026-04"},
		{"2028-03-01", "yesterday", "on 2028-02-29"},
		{"2026-11-01", "last Sunday", "on 2026-10-25"},
		{"2026-12-30", "next Monday", "on 2027-01-04"},
		{"2027-01-02", "last Thursday", "on 2026-12-31"},
		{"2027-01-10", "two weeks ago", "on 2026-12-27"},
		{"2027-02-10", "last year", "in 2026"},
	}
	for _, tt := range tests {
		if got := Rewrite(tt.in, date(tt.ref)); got != tt.want {
			t.Errorf("Rewrite(%q, %s) = %q, want %q", tt.in, tt.ref, got, tt.want)
		}
	}
}

// TestRewriteUntouched lists text that holds no relative date a memory could mean: it must come
// back byte-identical.
func TestRewriteUntouched(t *testing.T) {
	ref := date("2026-11-18")
	for _, in := range []string{
		"",
		"Always run make lint first.",
		"Thanks, that works!",
		"run `today_report.py` after the import",
		"the counter is todayCount",
		"today_report.py is generated",
		"see today.txt and yesterday.log",
		"the file /tmp/today/out.json",
		"https://example.com/reports/yesterday?x=1",
		"use `git log --since=yesterday` to see it",
		"```\ndeploy tomorrow\n```",
		"``code with ` and yesterday``",
		"we deploy on Mondays",
		"every Monday is a release",
		"the last step and next steps",
		"this is fine",
		"a day in the life",
		"--today is a flag",
		"set DATE=today",
		"call today() first",
		"see #today channel",
		"the lastweek table",
		"ago",
		"day",
		"\xff\xfe today_x",
	} {
		if got := Rewrite(in, ref); got != in {
			t.Errorf("Rewrite(%q) = %q, want it unchanged", in, got)
		}
	}
}

func TestRewriteSkipsCode(t *testing.T) {
	ref := date("2026-11-18")
	tests := []struct{ in, want string }{
		{"`today` is a keyword, but we fixed it today", "`today` is a keyword, but we fixed it on 2026-11-18"},
		{"yesterday:\n```\necho yesterday\n```\nand today", "on 2026-11-17:\n```\necho yesterday\n```\nand on 2026-11-18"},
		{"an unclosed ` tick, then yesterday", "an unclosed ` tick, then on 2026-11-17"},
		{"yesterday\n```\nunclosed fence yesterday", "on 2026-11-17\n```\nunclosed fence yesterday"},
	}
	for _, tt := range tests {
		if got := Rewrite(tt.in, ref); got != tt.want {
			t.Errorf("Rewrite(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRewriteIdempotent(t *testing.T) {
	ref := date("2026-11-18")
	for _, in := range []string{
		"yesterday yesterday", "last last week", "next next Monday", "on on Monday",
		"a 3 days ago", "last year days ago", "the day before tomorrow", "last month ago",
	} {
		once := Rewrite(in, ref)
		if twice := Rewrite(once, ref); twice != once {
			t.Errorf("Rewrite not idempotent on %q: %q then %q", in, once, twice)
		}
	}
}

func FuzzRewrite(f *testing.F) {
	for _, s := range []string{
		"we migrated to Postgres yesterday", "Last Thursday we moved", "3 days ago", "a month ago",
		"`today` and today", "todayCount today_report.py", "on Monday we will", "last week's",
		"the day before yesterday", "earlier this week", "```\ntoday\n```", "", "ON MONDAY",
	} {
		f.Add(s, int64(1795000000))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		// Any instant from year 1 to 9999: what a session timestamp can be.
		ref := time.Unix(unix%253402300799, 0).UTC()
		if ref.Year() < 1 {
			ref = ref.AddDate(2000, 0, 0)
		}
		once := Rewrite(text, ref)
		if twice := Rewrite(once, ref); twice != once {
			t.Fatalf("not idempotent:\n in   %q\n once %q\n twice %q", text, once, twice)
		}
		if utf8.ValidString(text) && !utf8.ValidString(once) {
			t.Fatalf("valid UTF-8 %q became invalid %q", text, once)
		}
	})
}

// FuzzMayHoldPhrase: the one-pass filter lets through everything the lower-casing one did (it
// may let more through; the phrases decide).
func FuzzMayHoldPhrase(f *testing.F) {
	for _, s := range []string{"Yesterday", "two WEEKS ago", "on Monday", "nothing here", "wee\u212a", "THURSDAY", "tomorrow's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lower := strings.ToLower(s)
		was := slices.ContainsFunc(anchorWords, func(w string) bool { return strings.Contains(lower, w) })
		if was && !mayHoldPhrase(s) {
			t.Errorf("mayHoldPhrase(%q) = false; the lower-casing filter said true", s)
		}
	})
}

// FuzzMayHoldPhraseByPairs: the filter by pairs of letters says what the byte-by-byte filter it
// replaced said, for any text.
func FuzzMayHoldPhraseByPairs(f *testing.F) {
	for _, s := range []string{"Yesterday", "two WEEKS ago", "on Monday", "nothing here", "wee\u212a", "THURSDAY", "tomorrow's",
		"t", "y\u017f", "\u017funday", "ag", "AGO", "x\u212a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := mayHoldPhrase(s), mayHoldPhraseByBytes(s); got != want {
			t.Errorf("mayHoldPhrase(%q) = %v, the byte-by-byte filter says %v", s, got, want)
		}
	})
}

// mayHoldPhraseByBytes is the filter as it was before the table of pairs.
func mayHoldPhraseByBytes(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c >= 0x80 && (strings.HasPrefix(text[i:], "\u212a") || strings.HasPrefix(text[i:], "\u017f")) {
			return true
		}
		for _, w := range anchorsByFirst[c] {
			if len(text)-i >= len(w) && strings.EqualFold(text[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// BenchmarkMayHoldPhrase is the filter over prose without an anchor word, as most assistant
// turns of a transcript are: every byte of them passes through it.
func BenchmarkMayHoldPhrase(b *testing.B) {
	text := strings.Repeat("The handler returns a wrapped error when the store is locked, so the caller retries. ", 200)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if mayHoldPhrase(text) {
			b.Fatal("no anchor word in the text")
		}
	}
}
